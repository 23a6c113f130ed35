// The folded sink as the host loads it: exact-bytes .folded files per snapshot, per-root
// totals, and when memory.html is (and is not) written.
#include <doctest/doctest.h>

#include <filesystem>

#include "heap_test_support.hpp"

namespace fs = std::filesystem;
using namespace heap_test;

TEST_CASE("the folded plugin is a sink that asks for heap snapshots and the trace") {
  LoadedFoldedSink sink;
  CHECK(sink.descriptor().kind == JOLT_PLUGIN_SINK);
  CHECK(std::string(sink.descriptor().name) == "folded");
  CHECK((sink.descriptor().capabilities & JOLT_CAP_HEAP_SNAPSHOTS) != 0);
  CHECK((sink.descriptor().capabilities & JOLT_CAP_NEEDS_TRACE) != 0);
}

TEST_CASE("each snapshot becomes {label}.folded holding exactly the recorded bytes") {
  const std::string dir = fresh_dir("synthetic");
  const jolt::Profile p = synthetic_profile(dir);
  LoadedFoldedSink sink;
  const jolt::Status st = sink.write(p);
  REQUIRE_MESSAGE(st.ok, st.message);

  for (const jolt::HeapSnapshotRecord& rec : p.heap) {
    const std::string path = dir + "/" + rec.label + ".folded";
    REQUIRE(fs::exists(path));
    std::string expected;
    std::map<std::string, std::uint64_t> expected_roots;
    for (const jolt::FoldedStack& s : rec.stacks) {
      expected += s.stack + " " + std::to_string(s.bytes) + "\n";
      expected_roots[s.stack.substr(0, s.stack.find(';'))] += s.bytes;
    }
    const std::string text = read_file(path);
    CHECK(text == expected);
    CHECK(roots_of_folded(text) == expected_roots);
  }
  CHECK(roots_of_folded(read_file(dir + "/Stage1Batch_prepared.folded"))["SpartanOuter"] ==
        (768ull << 20) * 2 + (256ull << 20));
  CHECK(roots_of_folded(read_file(dir + "/Stage2Batch_prepared.folded"))["RamReadWriteChecking"] ==
        (1500ull << 20));
  CHECK(fs::exists(dir + "/memory.html"));
  for (const auto& e : fs::directory_iterator(dir))  // atomic writes leave no temp files
    CHECK_MESSAGE(e.path().filename().string().find(".tmp") == std::string::npos, e.path());
}

TEST_CASE("repeated stacks are summed and zero-byte stacks dropped") {
  const std::string dir = fresh_dir("merge");
  jolt::Profile p = synthetic_profile(dir);
  p.heap = {
      {"Stage3_prepared", {{"SpartanShift;a", 10}, {"RamValCheck;b", 0}, {"SpartanShift;a", 32}}}};
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  CHECK(read_file(dir + "/Stage3_prepared.folded") == "SpartanShift;a 42\n");
}

TEST_CASE("without a root span the .folded files are written but no memory.html") {
  const std::string dir = fresh_dir("no-root");
  jolt::Profile p = synthetic_profile(dir);
  p.threads[0].events.erase(p.threads[0].events.begin());  // drop the root's begin
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  CHECK(fs::exists(dir + "/Stage1Batch_prepared.folded"));
  CHECK_FALSE(fs::exists(dir + "/memory.html"));
}

TEST_CASE("with the heap lane off the sink writes nothing") {
  const std::string dir = fresh_dir("no-heap");
  jolt::Profile p = synthetic_profile(dir);
  p.heap.clear();
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  CHECK(fs::is_empty(dir));
}

TEST_CASE("a label cannot write outside the run directory") {
  const std::string dir = fresh_dir("hostile-label");
  jolt::Profile p = synthetic_profile(dir);
  p.heap = {{"../escape/x", {{"SpartanOuter;a", 1}}}};
  LoadedFoldedSink sink;
  REQUIRE(sink.write(p).ok);
  CHECK(fs::exists(dir + "/_.._escape_x.folded"));
  CHECK_FALSE(fs::exists(fs::path(dir).parent_path() / "escape"));
}

TEST_CASE("a run directory that does not exist is an error naming the file") {
  jolt::Profile p = synthetic_profile(std::string(JOLT_HEAP_TEST_OUT) + "/does-not-exist");
  fs::remove_all(p.run.run_dir);
  LoadedFoldedSink sink;
  const jolt::Status st = sink.write(p);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("Stage1Batch_prepared.folded") != std::string::npos);
}
