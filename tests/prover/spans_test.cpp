// The prover's span contract: every always-present label fires, the root span wraps the stages,
// no stage 4–7 span is emitted, and sumcheck_round is the finest engine granularity.
#include <doctest/doctest.h>

#include <jolt/heap.hpp>
#include <jolt/instrument.hpp>
#include <jolt/prover/lookups/bytecode_read_raf.hpp>
#include <jolt/prover/memory/ram_twist.hpp>
#include <jolt/prover/pipeline/program.hpp>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/recorder.hpp>
#include <jolt/taxonomy.hpp>
#include <map>
#include <string>

#include "mini_trace.hpp"

using namespace jolt::prover;

TEST_CASE("prove() emits the taxonomy's always-present spans") {
  auto tr = testutil::sample_trace(5);  // T = 256 (padded_trace_length)
  jolt::RecordingSession::start({.heap_snapshots = true});
  auto proof = prove(tr.statement, tr.rows);
  jolt::Profile p = jolt::RecordingSession::stop();
  CHECK_FALSE(verify(tr.statement, proof));

  std::map<std::string, int> begins;
  std::string first_begin;
  int roots_open_at_stage = 0;
  for (const auto& th : p.threads) {
    int root_depth = 0;
    for (const auto& e : th.events) {
      if (e.phase == jolt::Phase::kBegin) {
        if (first_begin.empty()) first_begin = e.name;
        ++begins[e.name];
        if (e.name == "jolt_prover::prove") ++root_depth;
        if (e.name == "prove_stage0" && root_depth == 1) ++roots_open_at_stage;
      } else if (e.phase == jolt::Phase::kEnd && e.name == "jolt_prover::prove") {
        --root_depth;
      }
    }
  }
  // Version 2: stage 6a/6b became the bytecode read-raf (BytecodeFractionLayer removed).
  // Version 3: the instruction read-raf (stage 5) and its RA virtualization (stage 6b) replace
  // the byte and shift lookups (ByteLookupFractionLayer, ShiftLookupFractionLayer removed).
  // Version 4: RAM by Twist — the relations RamReadWriteChecking, RamRafEvaluation,
  // RamOutputCheck (stage 2), RamValCheck (stage 4), RamRaVirtualization (stage 5); the RAM
  // leaves left the register and range trees; commit_witness lost its `columns` argument (the
  // count depends on the RAM layout, known only once the witness is extracted).
  CHECK(jolt::taxonomy::kTaxonomyVersion == 4);
  for (auto label : jolt::taxonomy::kAlwaysPresentSpans) {
    INFO(label);
    CHECK(begins[std::string(label)] > 0);
  }
  for (auto label : jolt::taxonomy::kEmittedStageSpans) CHECK(begins[std::string(label)] == 1);
  CHECK(jolt::taxonomy::kEmittedStageSpans == jolt::taxonomy::kStageSpans);
  CHECK(begins["jolt_prover::prove"] == 1);
  CHECK(first_begin == "jolt_prover::prove");
  CHECK(roots_open_at_stage == 1);
  for (auto rel : jolt::taxonomy::kEmittedRelations) {
    CHECK(begins[std::string(rel) + "::prepare"] == 1);
    CHECK(begins[std::string(rel) + "::prove_round"] > 0);
    CHECK(begins[std::string(rel) + "::finish_rounds"] == 1);
  }
  const int log_t = 8;
  // trees over 8T leaves
  const int layers[] = {log_t + 2, log_t + 2};
  for (std::size_t i = 0; i < jolt::taxonomy::kLayeredRelations.size(); ++i) {
    const std::string rel(jolt::taxonomy::kLayeredRelations[i]);
    CHECK(begins[rel + "::prepare"] == layers[i]);
    CHECK(begins[rel + "::finish_rounds"] == layers[i]);
  }
  // Round granularity: exactly one sumcheck_round per round: stages 1, 2, 3, the instruction
  // read-raf (64 address rounds, then the cycle rounds), 6a (m address rounds for the sample
  // program's table), 6b (the bytecode's RA rounds, then the key bits'), 7 and every
  // fraction-tree layer (layer j of a tree has j rounds, j = 1 .. depth − 1).
  auto tree_rounds = [](int depth) { return (depth - 1) * depth / 2; };
  const auto index_bits = static_cast<int>(
      jolt::prover::lookups::bytecode_index_bits(bytecode_table(tr.statement.program).size()));
  CHECK(index_bits == 6);  // the sample program's table: 33 to 64 entries
  // RAM: the read/write batch has log T + ℓK rounds, the Val check and the RA virtualization
  // log T each; ℓK from the proof's layout.
  Proof decoded;
  REQUIRE_FALSE(decode_proof(proof, decoded));
  const auto log_k = static_cast<int>(memory::RamLayout::pack(decoded.ram_regions).log_k());
  CHECK(log_k >= 1);
  CHECK(begins["prove_batch"] == 11 + layers[0] + layers[1]);
  CHECK(begins["sumcheck_round"] == (5 + log_t) + log_t + (log_t + log_k) + log_t + log_t +
                                        (64 + log_t) + log_t + index_bits + log_t + log_t + log_t +
                                        2 * tree_rounds(log_t + 3));
  // Stage1Batch_prepared, Stage2Batch_prepared, RamReadWriteChecking_prepared, Stage3_prepared,
  // Stage4_prepared, RamValCheck_prepared, Stage5_prepared, InstructionReadRaf_prepared,
  // RamRaVirtualization_prepared, Stage6a_prepared, Stage6b_prepared,
  // InstructionRaVirtualization_prepared, Stage7Batch_prepared
  CHECK(p.heap.size() == 13);
}

namespace {
std::uint64_t total_bytes(const jolt::HeapSnapshotRecord& r) {
  std::uint64_t b = 0;
  for (const auto& s : r.stacks) b += s.bytes;
  return b;
}
bool has_root(const jolt::HeapSnapshotRecord& r, const std::string& root) {
  for (const auto& s : r.stacks)
    if (s.stack.compare(0, root.size() + 1, root + ";") == 0) return true;
  return false;
}
}  // namespace

// The prover runs in a task arena of its own, whose workers a scheduler observer on the default
// arena never sees: they were "thread-N" in every trace. Which tasks a worker steals is up to
// the scheduler, so the prove is repeated until a worker has recorded a span (on a loaded
// machine none may: the e2e conformance test checks the names of a larger run's threads too).
TEST_CASE("the prover's worker threads are named tbb-worker-N in the trace") {
  auto tr = testutil::sample_trace(40);
  ProverOptions opt;
  opt.num_threads = 2;
  int workers_with_spans = 0;
  for (int attempt = 0; attempt < 8 && workers_with_spans == 0; ++attempt) {
    jolt::RecordingSession::start({});
    (void)prove(tr.statement, tr.rows, opt);
    jolt::Profile p = jolt::RecordingSession::stop();
    for (const auto& th : p.threads) {
      bool caller = false;  // the thread that called prove() holds the root span
      for (const auto& e : th.events) caller = caller || e.name == "jolt_prover::prove";
      if (caller || th.events.empty()) continue;
      INFO(th.name);
      CHECK(th.name.rfind("tbb-worker-", 0) == 0);
      ++workers_with_spans;
    }
  }
  if (workers_with_spans == 0) MESSAGE("no worker thread recorded a span in 8 proves");
}

TEST_CASE("stage-boundary heap snapshots: only when asked, inside their stage, in order") {
  auto tr = testutil::sample_trace(5);
  // Heap snapshots alone: the thirteen per-batch ones, no boundary snapshot.
  jolt::RecordingSession::start({.heap_snapshots = true});
  CHECK_FALSE(jolt::stage_boundary_heap_snapshots_wanted());
  (void)prove(tr.statement, tr.rows);
  jolt::Profile plain = jolt::RecordingSession::stop();
  CHECK(plain.heap.size() == 13);
  // Asked for without heap snapshots: nothing.
  jolt::RecordingSession::start({});
  jolt::RecordingSession::want_stage_boundary_heap_snapshots(true);
  CHECK_FALSE(jolt::stage_boundary_heap_snapshots_wanted());
  (void)prove(tr.statement, tr.rows);
  CHECK(jolt::RecordingSession::stop().heap.empty());

  jolt::RecordingSession::start({.heap_snapshots = true});
  jolt::RecordingSession::want_stage_boundary_heap_snapshots(true);
  auto proof = prove(tr.statement, tr.rows);
  jolt::Profile p = jolt::RecordingSession::stop();
  CHECK_FALSE(jolt::stage_boundary_heap_snapshots_wanted());  // stop() turned it off
  CHECK_FALSE(verify(tr.statement, proof));
  const std::vector<std::string> want = {"Stage1Batch_prepared",
                                         "Stage2_start",
                                         "Stage2Batch_prepared",
                                         "RamReadWriteChecking_prepared",
                                         "Stage2_end",
                                         "Stage3_start",
                                         "Stage3_prepared",
                                         "Stage3_end",
                                         "Stage4_start",
                                         "Stage4_prepared",
                                         "RamValCheck_prepared",
                                         "Stage4_end",
                                         "Stage5_start",
                                         "Stage5_prepared",
                                         "InstructionReadRaf_prepared",
                                         "RamRaVirtualization_prepared",
                                         "Stage5_end",
                                         "Stage6_start",
                                         "Stage6a_prepared",
                                         "Stage6b_prepared",
                                         "InstructionRaVirtualization_prepared",
                                         "Stage6_end",
                                         "Stage7_start",
                                         "Stage7Batch_prepared",
                                         "Stage7_end"};
  std::vector<std::string> got;
  for (const auto& r : p.heap) got.push_back(r.label);
  CHECK(got == want);

  // Each boundary snapshot lies inside its stage's span: [begin, end] of prove_stageN (stage 6:
  // from prove_stage6a's begin to prove_stage6b's end).
  std::map<std::string, std::uint64_t> begin_ns, end_ns;
  for (const auto& th : p.threads)
    for (const auto& e : th.events) {
      if (e.phase == jolt::Phase::kBegin) begin_ns[e.name] = e.ts_ns;
      if (e.phase == jolt::Phase::kEnd) end_ns[e.name] = e.ts_ns;
    }
  std::map<std::string, const jolt::HeapSnapshotRecord*> by_label;
  for (const auto& r : p.heap) by_label[r.label] = &r;
  for (const std::string n : {"2", "3", "4", "5", "6", "7"}) {
    INFO("stage ", n);
    const std::string first = n == "6" ? "prove_stage6a" : "prove_stage" + n;
    const std::string last = n == "6" ? "prove_stage6b" : "prove_stage" + n;
    REQUIRE(begin_ns.count(first) == 1);
    REQUIRE(end_ns.count(last) == 1);
    const auto* start = by_label.at("Stage" + n + "_start");
    const auto* end = by_label.at("Stage" + n + "_end");
    CHECK(start->ts_ns >= begin_ns[first]);
    CHECK(end->ts_ns <= end_ns[last]);
    CHECK(start->ts_ns < end->ts_ns);
    // Both see the witness and the proof built so far.
    CHECK(has_root(*start, "Witness"));
    CHECK(has_root(*end, "Proof"));
  }
  // A stage's end holds its still-allocated kernels and the proof part it wrote; its start has
  // neither.
  const auto& s2s = *by_label.at("Stage2_start");
  const auto& s2e = *by_label.at("Stage2_end");
  CHECK_FALSE(has_root(s2s, "ProductVirtualization"));
  CHECK(has_root(s2e, "ProductVirtualization"));
  CHECK(total_bytes(s2e) > total_bytes(s2s));
  auto stage_part = [](const jolt::HeapSnapshotRecord& r, const std::string& part) {
    for (const auto& s : r.stacks)
      if (s.stack == "Proof;" + part) return s.bytes;
    return std::uint64_t{0};
  };
  CHECK(stage_part(s2s, "stage2") == 0);
  CHECK(stage_part(s2e, "stage2") > 0);
  CHECK(stage_part(*by_label.at("Stage6_start"), "stage6b") == 0);
  CHECK(stage_part(*by_label.at("Stage6_end"), "stage6b") > 0);
  CHECK(has_root(*by_label.at("Stage7_end"), "ColumnClaimReduction"));
}
