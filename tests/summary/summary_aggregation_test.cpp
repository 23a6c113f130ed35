// jolt::summarize on the reference fixture and on targeted synthetic streams (reference §6.1):
// totals, self time, dark time, stage rollup and RSS pairing, heap join, counters, edge cases.
#include <doctest/doctest.h>

#include <jolt/summary.hpp>

#include "fixture_profile.hpp"

using namespace jolt;
using jolt::testing::b;
using jolt::testing::e;

namespace {
Profile one_thread(std::vector<TraceEvent> events) {
  Profile p;
  p.threads.push_back(ThreadTrack{1, "main", std::move(events)});
  return p;
}
}  // namespace

TEST_CASE("aggregation computes totals, self and dark time of the fixture") {
  const ProfileSummary s = summarize(jolt::testing::fixture_profile());
  CHECK(s.schema_version == 3);
  // What was proved and where (schema v3), from the Profile the host filled in.
  CHECK(s.run.trace_length == 40000);
  CHECK(s.run.padded_scale_log2 == std::optional<std::uint32_t>(16));
  CHECK(s.run.proof_size_bytes == std::optional<std::uint64_t>(12345));
  CHECK(s.run.verified);
  CHECK(s.run.host == jolt::testing::fixture_profile().run.host);
  CHECK(s.taxonomy_version == 4);
  CHECK(s.spans.at("jolt_prover::prove").total_ns == 2'500'000);
  CHECK(s.spans.at("prove_stage0").total_ns == 900'000);
  CHECK(s.spans.at("commit_witness").total_ns == 500'000);
  CHECK(s.spans.at("prove_stage1").total_ns == 1'000'000);
  CHECK(s.spans.at("Stage1Batch::prove").total_ns == 700'000);
  CHECK(s.spans.at("prove_batch").total_ns == 500'000);
  CHECK(s.spans.at("sumcheck_round").count == 2);
  CHECK(s.spans.at("sumcheck_round").total_ns == 300'000);
  CHECK(s.spans.at("prove_batch").self_ns == 200'000);
  CHECK(s.spans.at("Stage1Batch::prove").self_ns == 200'000);
  CHECK(s.spans.at("prove_stage1").self_ns == 300'000);
  // Worker-thread span: self == total, and it does not subtract from the main-thread parents.
  CHECK(s.spans.at("EqPolynomial::evals").self_ns == 100'000);
  CHECK(s.spans.at("EqPolynomial::evals").total_ns == 100'000);
  REQUIRE(s.root);
  CHECK(s.root->label == "jolt_prover::prove");
  CHECK(s.root->wall_time_ns == 2'500'000);
  CHECK(s.root->dark_time_ns == 600'000);
  CHECK(s.root->dark_time_fraction == doctest::Approx(0.24));
  REQUIRE(s.root->peak_memory_gib);
  CHECK(*s.root->peak_memory_gib == 3.0);
  CHECK(s.run.workload == "fibonacci");
  CHECK(s.run.scale_log2 == 16);
  CHECK(s.run.git_rev == std::optional<std::string>("abc1234"));
  CHECK(s.run.pcs == std::optional<std::string>("ligero"));
  CHECK(s.run.pcs_parameters ==
        std::optional<std::string>("rate=1/4 queries=189 security_bits=100"));
}

TEST_CASE("stage rollup folds boundary RSS and windowed peaks; counters summarised") {
  const ProfileSummary s = summarize(jolt::testing::fixture_profile());
  REQUIRE(s.stages.size() == 2);
  CHECK(s.stages[0].label == "prove_stage0");
  CHECK(s.stages[0].wall_time_ns == 900'000);
  CHECK(s.stages[0].rss_open_gib == std::optional<double>(1.0));
  CHECK(s.stages[0].rss_close_gib == std::optional<double>(2.0));
  CHECK(s.stages[0].rss_delta_gib == std::optional<double>(1.0));
  CHECK(s.stages[0].peak_memory_gib == std::optional<double>(1.0));
  CHECK(s.stages[1].label == "prove_stage1");
  CHECK(s.stages[1].wall_time_ns == 1'000'000);
  CHECK_FALSE(s.stages[1].rss_open_gib);
  CHECK_FALSE(s.stages[1].rss_close_gib);
  CHECK_FALSE(s.stages[1].rss_delta_gib);
  CHECK(s.stages[1].peak_memory_gib == std::optional<double>(3.0));
  CHECK(s.peak_rss_gib == std::optional<double>(4.0));
  CHECK(s.counters.at("memory_gib").samples == 3);
  // A getrusage peak that lags a monitor sample (3 GiB) is raised to it; without one, none.
  jolt::Profile lagging = jolt::testing::fixture_profile();
  lagging.peak_rss_bytes = 2ull << 30;
  CHECK(summarize(lagging).peak_rss_gib == std::optional<double>(3.0));
  lagging.peak_rss_bytes.reset();
  CHECK_FALSE(summarize(lagging).peak_rss_gib);
  CHECK(s.counters.at("memory_gib").max == 3.0);
  CHECK(s.counters.at("memory_gib").mean == doctest::Approx(2.0));
  CHECK(s.counters.at("cpu_percent").samples == 1);
  CHECK(s.counters.at("cpu_percent").max == 50.0);
}

TEST_CASE("heap snapshots carry their own timestamp") {
  const ProfileSummary s = summarize(jolt::testing::fixture_profile());
  REQUIRE(s.heap.count("Stage2Batch_prepared") == 1);
  const HeapSnapshot& h = s.heap.at("Stage2Batch_prepared");
  CHECK(h.at_ns == std::optional<std::uint64_t>(1'350'000));
  CHECK(h.total_bytes == 6442450944ull + 2147483648ull + 1024);
  CHECK(h.roots.at("KernelA") == 6442450944ull + 2147483648ull);
  CHECK(h.roots.at("ProofSession") == 1024);
}

TEST_CASE("heap at_ns is the record's timestamp relative to the root start, null without root") {
  // The instants are only what the trace shows: a record's own ts_ns decides, even when an
  // instant with its label says otherwise.
  Profile p = one_thread({b("jolt_prover::prove", 100),
                          jolt::testing::ev(Phase::kInstant, "heap_snapshot", 350,
                                            {{"snapshot", std::string("Late")}}),
                          e("jolt_prover::prove", 400)});
  p.heap = {{"Early", {{"A", 1}}, 1, 50'000},
            {"Late", {{"B", 2}}, 1, 300'000},
            {"Late", {{"B", 5}}, 1, 320'000}};  // a later record of a label replaces it
  const ProfileSummary s = summarize(p);
  CHECK(s.heap.at("Early").at_ns == std::optional<std::uint64_t>(0));  // clamped
  CHECK(s.heap.at("Late").at_ns == std::optional<std::uint64_t>(220'000));
  CHECK(s.heap.at("Late").total_bytes == 5);
  Profile no_root;
  no_root.heap = p.heap;
  CHECK_FALSE(summarize(no_root).heap.at("Late").at_ns);
  CHECK_FALSE(summarize(no_root).root);
}

TEST_CASE("an RSS row pairs with the stage span of its label, thread and interval") {
  Profile p = one_thread({b("prove_stage0", 100), e("prove_stage0", 200), b("prove_stage0", 300),
                          e("prove_stage0", 700)});
  // Listed out of order, with decoys: another thread, another interval, another label.
  p.stage_rss = {{"prove_stage0", 3ull << 30, 5ull << 30, 1, 300'000, 700'000},
                 {"prove_stage0", 7ull << 30, 8ull << 30, 2, 100'000, 200'000},
                 {"prove_stage0", 7ull << 30, 8ull << 30, 1, 100'000, 250'000},
                 {"prove_stage1", 7ull << 30, 8ull << 30, 1, 100'000, 200'000},
                 {"prove_stage0", 1ull << 30, 2ull << 30, 1, 100'000, 200'000}};
  const ProfileSummary s = summarize(p);
  REQUIRE(s.stages.size() == 2);
  CHECK(s.stages[0].wall_time_ns == 100'000);
  CHECK(s.stages[0].rss_delta_gib == std::optional<double>(1.0));
  CHECK(s.stages[1].wall_time_ns == 400'000);
  CHECK(s.stages[1].rss_open_gib == std::optional<double>(3.0));
  CHECK(s.stages[1].rss_delta_gib == std::optional<double>(2.0));
  CHECK_FALSE(s.stages[0].peak_memory_gib);  // no samples at all
}

TEST_CASE("stages follow taxonomy order, then other prove_stage labels in close order") {
  const ProfileSummary s = summarize(one_thread({
      b("prove_stage_extra", 0),
      e("prove_stage_extra", 10),
      b("prove_stage8", 20),
      e("prove_stage8", 30),
      b("prove_stage1", 40),
      e("prove_stage1", 50),
      b("prove_stage9", 60),
      e("prove_stage9", 70),
  }));
  REQUIRE(s.stages.size() == 4);
  CHECK(s.stages[0].label == "prove_stage1");
  CHECK(s.stages[1].label == "prove_stage8");
  CHECK(s.stages[2].label == "prove_stage_extra");
  CHECK(s.stages[3].label == "prove_stage9");
}

TEST_CASE("unbalanced spans follow the replay policy: closed, aggregated, never dropped") {
  Profile p = one_thread({
      e("stray", 5),                   // no open at all: ignored
      b("outer", 10), b("inner", 20),  //
      e("outer", 100),                 // closes outer, and inner with it at 100
      e("inner", 110),                 // now unmatched: ignored
      b("never_closed", 200),          // closed at the Profile's end (the counter at 300)
  });
  p.counters = {CounterTrack{"cpu_percent", 1, {{300'000, 1.0}}}};
  const ProfileSummary s = summarize(p);
  CHECK(s.spans.count("stray") == 0);
  REQUIRE(s.spans.count("inner") == 1);
  CHECK(s.spans.at("inner").count == 1);
  CHECK(s.spans.at("inner").total_ns == 80'000);
  REQUIRE(s.spans.count("outer") == 1);
  CHECK(s.spans.at("outer").count == 1);
  CHECK(s.spans.at("outer").total_ns == 90'000);
  CHECK(s.spans.at("outer").self_ns == 10'000);  // the closed inner is its child
  REQUIRE(s.spans.count("never_closed") == 1);
  CHECK(s.spans.at("never_closed").total_ns == 100'000);
}

TEST_CASE("end closes the topmost open of the same name (recursion)") {
  const ProfileSummary s = summarize(one_thread({b("f", 0), b("f", 10), e("f", 30), e("f", 100)}));
  CHECK(s.spans.at("f").count == 2);
  CHECK(s.spans.at("f").total_ns == 120'000);
  CHECK(s.spans.at("f").self_ns == 100'000);  // 20 + (100 - 20)
}

TEST_CASE("dark time uses the longest root instance; other threads never subtract") {
  Profile p = one_thread({b("jolt_prover::prove", 0), e("jolt_prover::prove", 10),
                          b("jolt_prover::prove", 100), b("prove_stage0", 150),
                          e("prove_stage0", 250), e("jolt_prover::prove", 500)});
  p.threads.push_back(ThreadTrack{2, "worker", {b("prove_stage2", 100), e("prove_stage2", 400)}});
  p.counters = {CounterTrack{
      "memory_gib", 3, {{99'000, 9.0}, {100'000, 1.5}, {500'000, 2.5}, {501'000, 7.0}}}};
  const ProfileSummary s = summarize(p);
  REQUIRE(s.root);
  CHECK(s.root->wall_time_ns == 400'000);
  CHECK(s.root->dark_time_ns == 300'000);
  CHECK(s.root->peak_memory_gib == std::optional<double>(2.5));  // both ends inclusive
  CHECK(s.spans.at("jolt_prover::prove").count == 2);
  CHECK(s.spans.at("jolt_prover::prove").total_ns == 410'000);
}

TEST_CASE("no events: empty summary with null root") {
  const ProfileSummary s = summarize(Profile{});
  CHECK(s.schema_version == 3);
  CHECK_FALSE(s.run.pcs);  // no prover made this Profile
  CHECK_FALSE(s.run.pcs_parameters);
  CHECK_FALSE(s.run.padded_scale_log2);
  CHECK_FALSE(s.run.proof_size_bytes);
  CHECK_FALSE(s.run.verified);
  CHECK_FALSE(s.root);
  CHECK_FALSE(s.peak_rss_gib);
  CHECK(s.spans.empty());
  CHECK(s.stages.empty());
  CHECK(s.counters.empty());
  CHECK(s.heap.empty());
}

TEST_CASE("folded stacks parse into per-root totals; malformed lines skipped") {
  const HeapSnapshot h = parse_folded(
      "KernelA;opening_tables 100\nKernelA;derived_tables 50\nProofSession 8\n"
      "this line is bad\nnobytes\nKernelB -5\n 7\n\nKernelC 12x\n");
  CHECK(h.total_bytes == 158);
  CHECK(h.roots.size() == 2);
  CHECK(h.roots.at("KernelA") == 150);
  CHECK(h.roots.at("ProofSession") == 8);
  CHECK_FALSE(h.at_ns);
  CHECK(parse_folded("A;b 1\r\nA 2").roots.at("A") == 3);
}
