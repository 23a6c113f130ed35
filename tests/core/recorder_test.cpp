// The recorder under many TBB threads: no lost or torn events; off means nothing recorded.
#include <doctest/doctest.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <jolt/heap.hpp>
#include <jolt/instrument.hpp>
#include <jolt/recorder.hpp>
#include <map>
#include <thread>

namespace {
std::size_t count_events(const jolt::Profile& p) {
  std::size_t n = 0;
  for (const auto& t : p.threads) n += t.events.size();
  return n;
}
}  // namespace

TEST_CASE("spans from many TBB threads are all recorded, balanced and nested per thread") {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 8);
  jolt::RecordingSession::start({});
  constexpr int kTasks = 20000;
  tbb::parallel_for(0, kTasks, [](int i) {
    JOLT_SPAN("outer", jolt::arg("i", i));
    { JOLT_SPAN("inner"); }
  });
  jolt::Profile p = jolt::RecordingSession::stop();
  CHECK(count_events(p) == static_cast<std::size_t>(kTasks) * 4);
  std::map<std::int64_t, int> seen;
  for (const auto& t : p.threads) {
    std::vector<std::string> stack;
    std::uint64_t last = 0;
    for (const auto& e : t.events) {
      CHECK(e.ts_ns >= last);
      last = e.ts_ns;
      if (e.phase == jolt::Phase::kBegin) {
        stack.push_back(e.name);
        if (e.name == "outer") {
          REQUIRE(e.args.size() == 1);
          CHECK(e.args[0].key == "i");
          seen[std::get<std::int64_t>(e.args[0].value)]++;
        }
      } else if (e.phase == jolt::Phase::kEnd) {
        REQUIRE_FALSE(stack.empty());
        CHECK(stack.back() == e.name);
        stack.pop_back();
      }
    }
    CHECK(stack.empty());
  }
  CHECK(seen.size() == static_cast<std::size_t>(kTasks));  // every index exactly once
  for (const auto& [i, n] : seen) CHECK(n == 1);
}

TEST_CASE("nothing is recorded outside a session, and sessions start empty") {
  { JOLT_SPAN("before"); }
  jolt::counter("memory_gib", 1.0);
  jolt::RecordingSession::start({});
  jolt::Profile p = jolt::RecordingSession::stop();
  CHECK(count_events(p) == 0);
  CHECK(p.counters.empty());
  { JOLT_SPAN("after"); }
  jolt::RecordingSession::start({});
  p = jolt::RecordingSession::stop();
  CHECK(count_events(p) == 0);
}

TEST_CASE("stage spans record boundary RSS rows and a stage_rss instant; counters form tracks") {
  jolt::RecordingSession::start({});
  {
    JOLT_STAGE_SPAN("prove_stage0");
    jolt::counter("memory_gib", 0.5);
    jolt::counter("memory_gib", 0.75);
  }
  jolt::Profile p = jolt::RecordingSession::stop();
  REQUIRE(p.stage_rss.size() == 1);
  CHECK(p.stage_rss[0].stage == "prove_stage0");
  CHECK(p.stage_rss[0].rss_open_bytes > 0);
  // The row carries its span's thread and exact begin/end timestamps.
  const jolt::StageRssRow& row = p.stage_rss[0];
  bool begin_seen = false, end_seen = false;
  for (const auto& t : p.threads)
    for (const auto& e : t.events) {
      if (e.name != "prove_stage0") continue;
      CHECK(t.tid == row.tid);
      if (e.phase == jolt::Phase::kBegin) begin_seen = e.ts_ns == row.open_ns;
      if (e.phase == jolt::Phase::kEnd) end_seen = e.ts_ns == row.close_ns;
    }
  CHECK(begin_seen);
  CHECK(end_seen);
  CHECK(row.close_ns >= row.open_ns);
  REQUIRE(p.counters.size() == 1);
  CHECK(p.counters[0].name == "memory_gib");
  CHECK(p.counters[0].samples.size() == 2);
  bool instant = false;
  for (const auto& t : p.threads)
    for (const auto& e : t.events)
      if (e.phase == jolt::Phase::kInstant && e.name == "stage_rss") instant = true;
  CHECK(instant);
}

namespace {
struct Owner : jolt::HeapReportable {
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "KernelA");
    v.bytes("tables", 4096);
    v.bytes("tables", 1024);
    v.bytes("empty", 0);
  }
};
}  // namespace

TEST_CASE("heap snapshots are taken only when the session asks for them") {
  Owner o;
  jolt::RecordingSession::start({});
  CHECK_FALSE(jolt::heap_snapshots_wanted());
  jolt::record_heap_snapshot("Stage1Batch_prepared", {&o});
  jolt::Profile p = jolt::RecordingSession::stop();
  CHECK(p.heap.empty());
  jolt::RecordingSession::start({.heap_snapshots = true});
  jolt::record_heap_snapshot("Stage1Batch_prepared", {&o});
  p = jolt::RecordingSession::stop();
  REQUIRE(p.heap.size() == 1);
  // The record carries the thread and timestamp of its heap_snapshot instant.
  bool instant_seen = false;
  for (const auto& t : p.threads)
    for (const auto& e : t.events)
      if (e.phase == jolt::Phase::kInstant && e.name == "heap_snapshot") {
        CHECK(t.tid == p.heap[0].tid);
        CHECK(e.ts_ns == p.heap[0].ts_ns);
        instant_seen = true;
      }
  CHECK(instant_seen);
  REQUIRE(p.heap[0].stacks.size() == 1);
  CHECK(p.heap[0].stacks[0].stack == "KernelA;tables");
  CHECK(p.heap[0].stacks[0].bytes == 5120);
}

TEST_CASE("a thread that only samples counters still appears under its own name") {
  jolt::RecordingSession::start({});
  std::thread sampler([] {
    jolt::set_current_thread_name("metrics-monitor");
    jolt::counter("cpu_percent", 12.5);
  });
  sampler.join();
  jolt::Profile p = jolt::RecordingSession::stop();
  REQUIRE(p.counters.size() == 1);
  bool named = false;
  for (const auto& t : p.threads)
    if (t.tid == p.counters[0].tid) named = t.name == "metrics-monitor";
  CHECK(named);
}
