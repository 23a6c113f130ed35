// The reference summary fixture (reference note §6.1, µs → ns) built as a jolt::Profile, shared
// by the summary and sink tests.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <jolt/profile.hpp>
#include <jolt/summary.hpp>

namespace jolt::testing {

inline TraceEvent ev(Phase ph, std::string name, std::uint64_t us, std::vector<Arg> args = {}) {
  return TraceEvent{ph, std::move(name), us * 1000, std::move(args)};
}
inline TraceEvent b(std::string name, std::uint64_t us, std::vector<Arg> args = {}) {
  return ev(Phase::kBegin, std::move(name), us, std::move(args));
}
inline TraceEvent e(std::string name, std::uint64_t us) {
  return ev(Phase::kEnd, std::move(name), us);
}

inline Profile fixture_profile() {
  Profile p;
  p.run.workload = "fibonacci";
  p.run.scale_log2 = 16;
  p.run.backend = "reference";
  p.run.timestamp_unix_secs = 1'700'000'000;
  p.run.git_rev = "abc1234";
  p.run.pcs = "ligero";
  p.run.pcs_parameters = "rate=1/4 queries=189 security_bits=100";
  p.run.trace_name = "modular_fibonacci_16";
  p.run.host = HostInfo{"Test CPU @ 3.00GHz", 2, std::uint64_t{24} << 30};
  ThreadTrack main{1, "main", {}};
  main.events = {
      b("jolt_prover::prove", 0, {{"trace_length", std::int64_t{65536}}}),
      b("prove_stage0", 100),
      b("commit_witness", 200),
      e("commit_witness", 700),
      e("prove_stage0", 1000),
      b("prove_stage1", 1200),
      b("Stage1Batch::prove", 1300),
      ev(Phase::kInstant, "heap_snapshot", 1350,
         {{"snapshot", std::string("\"Stage2Batch_prepared\"")}}),
      b("prove_batch", 1400, {{"num_rounds", std::int64_t{16}}, {"members", std::int64_t{2}}}),
      b("sumcheck_round", 1450, {{"round", std::int64_t{0}}}),
      e("sumcheck_round", 1650),
      b("sumcheck_round", 1700, {{"round", std::int64_t{1}}}),
      e("sumcheck_round", 1800),
      e("prove_batch", 1900),
      e("Stage1Batch::prove", 2000),
      e("prove_stage1", 2200),
      e("jolt_prover::prove", 2500),
  };
  ThreadTrack worker{
      2, "tbb-worker-0", {b("EqPolynomial::evals", 1500), e("EqPolynomial::evals", 1600)}};
  ThreadTrack monitor{3, "metrics-monitor", {}};
  p.threads = {main, worker, monitor};
  p.counters = {
      CounterTrack{"memory_gib", 3, {{500'000, 1.0}, {1'500'000, 3.0}, {2'400'000, 2.0}}},
      CounterTrack{"cpu_percent", 3, {{500'000, 50.0}}},
  };
  // The recorder stamps a stage row with its span's begin/end timestamps (thread 1 here).
  p.stage_rss = {StageRssRow{"prove_stage0", 1ull << 30, 2ull << 30, 1, 100'000, 1'000'000}};
  p.peak_rss_bytes = 4ull << 30;
  HeapSnapshotRecord heap{"Stage2Batch_prepared",
                          {{"KernelA;opening_tables", 6442450944ull},
                           {"KernelA;derived_tables", 2147483648ull},
                           {"ProofSession", 1024}},
                          1,
                          1'350'000};  // the heap_snapshot instant's timestamp
  p.heap = {heap};
  p.prove_time_ns = 2'500'000;
  p.proof_size_bytes = 12345;
  p.trace_length = 40000;
  p.padded_trace_length = 65536;
  p.verified = true;
  return p;
}

}  // namespace jolt::testing
