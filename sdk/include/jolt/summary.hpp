// Summary aggregation: the numbers of summary.json (schema v3), computed once, the same way, for
// every sink and tool that reads a Profile.
//
//   #include <jolt/summary.hpp>
//   const jolt::ProfileSummary s = jolt::summarize(profile);
//   if (s.root) std::printf("prove %.2f s, dark %.1f%%\n", s.root->wall_time_ns / 1e9,
//                           100 * s.root->dark_time_fraction);
//   for (const auto& [label, agg] : s.spans) use(label, agg.count, agg.total_ns, agg.self_ns);
//
// Semantics follow the original jolt profiler's replay, on the span tree of
// replay_spans (spans.hpp), whose policy for unbalanced events applies here too:
//  - every replayed span is aggregated, including spans the replay closed for want of their own
//    end (SpanTree counts those); an end with no open span of its name is ignored;
//  - self = inclusive minus the sum of same-thread direct children (other threads never subtract);
//  - dark time = self time of the longest root (`jolt_prover::prove`) instance (first in close
//    order on ties);
//  - peak memory = max `memory_gib` counter sample in an interval, both ends inclusive;
//  - counter samples that are NaN or ±Inf are skipped everywhere (a counter with no finite
//    sample is left out of `counters`), so summary.json stays valid JSON;
//  - stages: every instance of taxonomy::kStageSpans in that order (instances in close order),
//    then other `prove_stage*` labels in close order; a stage's RSS comes from the StageRssRow of
//    the same label, thread and interval (the recorder stamps both with one clock read);
//  - heap: per label the last record; at_ns = its own timestamp minus the root's start.
// Difference from the original: it replays µs floats and rounds each duration to ns; a Profile
// carries exact integer ns, so durations here are exact (end - start, clamped at 0).
//
// Thread-safety: pure functions of their inputs; call from any thread.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jolt/process.hpp>  // kBytesPerGib
#include <jolt/profile.hpp>
#include <jolt/taxonomy.hpp>
#include <jolt/version.hpp>

namespace jolt {

struct SummaryRunMetadata {
  std::string workload;
  std::uint32_t scale_log2 = 0;
  std::string backend;
  std::uint64_t timestamp_unix_secs = 0;
  std::optional<std::string> git_rev;
  std::optional<std::string> pcs;             // since schema v2; see RunInfo::pcs
  std::optional<std::string> pcs_parameters;  // since schema v2
  // Since schema v3: what was proved and where. A Profile no prover made (padded_trace_length 0)
  // has no padded scale and no proof size (null in summary.json) and is not verified.
  std::uint64_t trace_length = 0;                  // unpadded trace rows
  std::optional<std::uint32_t> padded_scale_log2;  // log2 of the padded length proved
  std::optional<std::uint64_t> proof_size_bytes;
  bool verified = false;
  HostInfo host;
};

struct RootSummary {
  std::string label;  // taxonomy::kRootSpan
  std::uint64_t wall_time_ns = 0;
  std::uint64_t dark_time_ns = 0;
  double dark_time_fraction = 0;  // dark / wall, 0 when wall is 0
  std::optional<double> peak_memory_gib;
};

struct SpanAggregate {
  std::uint64_t count = 0;
  std::uint64_t total_ns = 0;  // inclusive, summed over instances and threads
  std::uint64_t self_ns = 0;   // inclusive minus same-thread direct children
  bool operator==(const SpanAggregate&) const = default;
};

struct StageSummary {
  std::string label;
  std::uint64_t wall_time_ns = 0;
  std::optional<double> rss_open_gib;
  std::optional<double> rss_close_gib;
  std::optional<double> rss_delta_gib;    // close - open
  std::optional<double> peak_memory_gib;  // max memory_gib sample inside the stage
};

struct CounterSummary {
  std::uint64_t samples = 0;
  double max = 0;
  double mean = 0;
};

struct HeapSnapshot {
  std::uint64_t total_bytes = 0;
  std::map<std::string, std::uint64_t> roots;  // first stack frame -> bytes
  std::optional<std::uint64_t> at_ns;          // snapshot instant relative to root start
};

// Mirrors summary.json schema v3 field for field (maps are sorted, nullable fields optional).
struct ProfileSummary {
  std::uint32_t schema_version = kSummarySchemaVersion;
  std::uint32_t taxonomy_version = taxonomy::kTaxonomyVersion;
  SummaryRunMetadata run;
  std::optional<RootSummary> root;
  std::optional<double> peak_rss_gib;
  std::map<std::string, SpanAggregate> spans;
  std::vector<StageSummary> stages;
  std::map<std::string, CounterSummary> counters;
  std::map<std::string, HeapSnapshot> heap;
};

// Replays the Profile's spans, counters, stage RSS rows and heap snapshots into a summary.
// `run.git_rev` is copied from profile.run.git_rev (the summary sink fills it when unset);
// `run.pcs` and `run.pcs_parameters` from profile.run.
ProfileSummary summarize(const Profile& profile);

// Per-root byte totals of folded stacks ("root;child;leaf BYTES"); at_ns stays empty.
HeapSnapshot summarize_folded(const std::vector<FoldedStack>& stacks);

// Parses folded-stacks text, one "stack BYTES" per line (split at the last space; root = first
// ';' segment). Malformed lines (no space, empty stack, bytes not an unsigned integer) are skipped.
HeapSnapshot parse_folded(std::string_view text);

}  // namespace jolt
