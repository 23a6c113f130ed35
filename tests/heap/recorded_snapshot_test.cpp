// A real recording session: a HeapReportable kernel visited by record_heap_snapshot ends up,
// through the folded sink, as the exact bytes the visitor reported.
#include <doctest/doctest.h>

#include <filesystem>
#include <vector>

#include <jolt/heap.hpp>
#include <jolt/instrument.hpp>
#include <jolt/recorder.hpp>

#include "heap_test_support.hpp"

using namespace heap_test;

namespace {

struct OuterKernel final : jolt::HeapReportable {
  std::vector<std::uint64_t> az = std::vector<std::uint64_t>(1000);
  std::vector<std::uint64_t> bz = std::vector<std::uint64_t>(3000);
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "SpartanOuter");
    v.bytes("az", az.capacity() * sizeof(std::uint64_t));
    {
      jolt::HeapScope t(v, "tables");
      v.bytes("bz", bz.capacity() * sizeof(std::uint64_t));
    }
  }
};

struct Session final : jolt::HeapReportable {
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "ProofSession");
    v.bytes("carries", 4096);
    v.bytes("empty", 0);
  }
};

}  // namespace

TEST_CASE("record_heap_snapshot -> Profile.heap -> .folded keeps the visitor's bytes") {
  const OuterKernel kernel;
  const Session session;
  jolt::Profile p;
  jolt::RecordingSession::start({.heap_snapshots = true});
  {
    JOLT_SPAN("jolt_prover::prove");
    JOLT_STAGE_SPAN("prove_stage1");
    REQUIRE(jolt::heap_snapshots_wanted());
    jolt::record_heap_snapshot("Stage1Batch_prepared", {&session, &kernel});
  }
  p = jolt::RecordingSession::stop();
  p.run.run_dir = fresh_dir("recorded");
  p.run.trace_name = "modular_recorded_1";

  jolt::FoldedStackBuilder expected;
  session.visit_heap(expected);
  kernel.visit_heap(expected);
  std::string expected_text;
  for (const auto& s : expected.take())
    expected_text += s.stack + " " + std::to_string(s.bytes) + "\n";
  CHECK(expected_text ==
        "ProofSession;carries 4096\nSpartanOuter;az 8000\nSpartanOuter;tables;bz 24000\n");

  LoadedFoldedSink sink;
  const jolt::Status st = sink.write(p);
  REQUIRE_MESSAGE(st.ok, st.message);
  CHECK(read_file(p.run.run_dir + "/Stage1Batch_prepared.folded") == expected_text);
  const std::string html = read_file(p.run.run_dir + "/memory.html");
  CHECK(html.find("\"label\":\"Stage1Batch_prepared\",\"at_s\":0.") != std::string::npos);
}

TEST_CASE("without heap_snapshots the session records no snapshot") {
  const OuterKernel kernel;
  jolt::Profile p;
  jolt::RecordingSession::start({.heap_snapshots = false});
  CHECK_FALSE(jolt::heap_snapshots_wanted());
  jolt::record_heap_snapshot("Stage1Batch_prepared", {&kernel});
  p = jolt::RecordingSession::stop();
  CHECK(p.heap.empty());
}
