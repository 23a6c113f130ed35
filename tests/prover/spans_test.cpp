// The prover's span contract: every always-present label fires, the root span wraps the stages,
// no stage 4–7 span is emitted, and sumcheck_round is the finest engine granularity.
#include <doctest/doctest.h>

#include <jolt/instrument.hpp>
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
  // trees over T, 8T, 8T, 8T and T leaves
  const int layers[] = {log_t - 1, log_t + 2, log_t + 2, log_t + 2, log_t - 1};
  for (std::size_t i = 0; i < jolt::taxonomy::kLayeredRelations.size(); ++i) {
    const std::string rel(jolt::taxonomy::kLayeredRelations[i]);
    CHECK(begins[rel + "::prepare"] == layers[i]);
    CHECK(begins[rel + "::finish_rounds"] == layers[i]);
  }
  // Round granularity: exactly one sumcheck_round per round: stages 1, 2, 3, 7 and every
  // fraction-tree layer (layer j of a tree has j rounds, j = 1 .. depth − 1).
  auto tree_rounds = [](int depth) { return (depth - 1) * depth / 2; };
  CHECK(begins["prove_batch"] == 4 + layers[0] + layers[1] + layers[2] + layers[3] + layers[4]);
  CHECK(begins["sumcheck_round"] ==
        (6 + log_t) + log_t + log_t + log_t + 2 * tree_rounds(log_t) + 3 * tree_rounds(log_t + 3));
  // Stage1Batch_prepared, Stage2Batch_prepared, Stage3_prepared, Stage4_prepared,
  // Stage5_prepared, Stage6a_prepared, Stage6b_prepared, Stage7Batch_prepared
  CHECK(p.heap.size() == 8);
}
