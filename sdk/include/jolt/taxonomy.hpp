// Taxonomy: the normative list of span labels jolt-run's prover emits (a versioned public
// schema — renaming or removing a label bumps kTaxonomyVersion and its pinning test).
//
//   #include <jolt/taxonomy.hpp>
//   for (auto label : jolt::taxonomy::kAlwaysPresentSpans) check(trace_has(label));
//
// Level policy: every span is recorded when a recording session is active; there is no level
// filtering of spans (JOLT_LOG filters only console logging). Counters come from the monitor.
// Hot-loop rule: `sumcheck_round` granularity is the floor; no span inside a per-index loop,
// which keeps the full stack within the 5% overhead budget.
// Naming: `Type::method` for kernel seams, `prove_stageN` for stages, `<StageLabel>::prove` for
// batch drivers, `<Relation>::prepare|prove_round|finish_rounds` per member (per-relation names
// vary and are not in the presence set), bare snake_case for free functions.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace jolt::taxonomy {

inline constexpr std::uint32_t kTaxonomyVersion = 4;

inline constexpr std::string_view kRootSpan = "jolt_prover::prove";  // arg trace_length

// Stage spans in pipeline order (the stage rollup of summary.json follows this order). This is
// the full Jolt shape; the prover emits kEmittedStageSpans (a stage is never emitted empty).
inline constexpr std::array<std::string_view, 10> kStageSpans = {
    "prove_stage0", "prove_stage1",  "prove_stage2",  "prove_stage3", "prove_stage4",
    "prove_stage5", "prove_stage6a", "prove_stage6b", "prove_stage7", "prove_stage8"};

inline constexpr std::array<std::string_view, 2> kSumcheckEngineSpans = {
    "prove_batch",      // num_rounds, members
    "sumcheck_round"};  // round

// The stage spans the current prover opens on every prove() call, in order.
inline constexpr std::array<std::string_view, 10> kEmittedStageSpans = {
    "prove_stage0", "prove_stage1",  "prove_stage2",  "prove_stage3", "prove_stage4",
    "prove_stage5", "prove_stage6a", "prove_stage6b", "prove_stage7", "prove_stage8"};

// Every label here fires at least once on every prove() call (jolt_prover::prove is the root;
// each stage span is a child of it; prove_batch / sumcheck_round nest under the batch drivers).
inline constexpr std::array<std::string_view, 25> kAlwaysPresentSpans = {
    "jolt_prover::prove",                // trace_length
    "prove_stage0",                      //
    "commit_witness",                    // log_t   (stage 0)
    "prove_stage1",                      //
    "Stage1Batch::prove",                // stage-1 batch driver
    "prove_stage2",                      //
    "Stage2Batch::prove",                // stage-2 batch driver
    "prove_stage3",                      //
    "Stage3::prove",                     // stage-3 batch driver (shift, entry PC, exit)
    "prove_stage4",                      //
    "Stage4::prove",                     // stage-4 driver (register read/write checking)
    "prove_stage5",                      //
    "Stage5::prove",                     // stage-5 driver (timestamp range check, the
                                         // instruction read-raf: instruction results)
    "prove_stage6a",                     //
    "Stage6a::prove",                    // stage-6a driver (bytecode read-raf: address rounds)
    "prove_stage6b",                     //
    "Stage6b::prove",                    // stage-6b driver (bytecode read-raf: RA rounds; the
                                         // instruction lookups' RA virtualization)
    "prove_stage7",                      //
    "Stage7Batch::prove",                // stage-7 batch driver (claim reduction)
    "prove_stage8",                      //
    "JointOpeningPolynomials::prepare",  // polys          (stage 8)
    "prove_batch",                       // num_rounds, members
    "sumcheck_round",                    // round
    "EqPolynomial::evals",               // num_vars
    "encode_proof"};                     // the proof's byte encoding, last child of the root

// Per-relation kernel seams of the current prover (they fire on every prove() but change as the
// statement grows, so they are not part of the presence contract): <Relation>::prepare|
// prove_round|finish_rounds for each relation below.
inline constexpr std::array<std::string_view, 15> kEmittedRelations = {
    "SpartanOuter",
    "ProductVirtualization",
    "RamReadWriteChecking",
    "RamRafEvaluation",
    "RamOutputCheck",
    "RamValCheck",
    "RamRaVirtualization",
    "SpartanShift",
    "EntryPC",
    "ExitCycle",
    "InstructionReadRaf",
    "BytecodeReadRaf",
    "BytecodeRaVirtualization",
    "InstructionRaVirtualization",
    "ColumnClaimReduction"};
// Relations proved by one sumcheck per layer of a fraction tree (prepare/finish_rounds fire once
// per layer: log T + 2 times for the register and range trees over 8T leaves).
inline constexpr std::array<std::string_view, 2> kLayeredRelations = {
    "RegisterFractionLayer", "TimestampRangeFractionLayer"};

// Every `prove_stage*` label is a stage (the summary's stage rollup, the memory page's bands).
inline constexpr std::string_view kStageSpanPrefix = "prove_stage";

// Instants and their arg keys.
inline constexpr std::string_view kStageRssInstant = "stage_rss";  // args below
inline constexpr std::string_view kStageRssStageArg = "stage";
inline constexpr std::string_view kStageRssOpenArg = "rss_open_gib";
inline constexpr std::string_view kStageRssCloseArg = "rss_close_gib";
inline constexpr std::string_view kHeapSnapshotInstant = "heap_snapshot";  // arg snapshot
inline constexpr std::string_view kHeapSnapshotArg = "snapshot";

// Counter tracks the monitor samples; kMemoryCounter (process RSS in GiB) is the one the
// summary's peak_memory_gib and the memory page's RSS envelope read.
inline constexpr std::string_view kMemoryCounter = "memory_gib";
inline constexpr std::string_view kCpuPercentCounter = "cpu_percent";
inline constexpr std::string_view kCoresActiveAvgCounter = "cores_active_avg";
inline constexpr std::string_view kCoresActiveCounter = "cores_active";
inline constexpr std::string_view kThreadCountCounter = "thread_count";
// cpu_percent, cores_active_avg and cores_active above are machine-wide (/proc/stat); these two
// are this process's own: its CPU time over the interval as percent of one core (200 = two cores
// busy), and how many of its threads ran in the interval.
inline constexpr std::string_view kProcessCpuPercentCounter = "process_cpu_percent";
inline constexpr std::string_view kProcessThreadsActiveCounter = "process_threads_active";

// True for a stage label (`prove_stage*`).
constexpr bool is_stage_span(std::string_view label) {
  return label.substr(0, kStageSpanPrefix.size()) == kStageSpanPrefix;
}

}  // namespace jolt::taxonomy
