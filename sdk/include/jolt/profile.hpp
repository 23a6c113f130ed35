// Profile: the one immutable record of a run that every sink reads.
//
// clang-format off
//   jolt::Status write(const jolt::Profile& p, const jolt::SinkContext& ctx) noexcept {
//     for (const jolt::ReplayedSpan& s : jolt::replay_spans(p).spans)  // <jolt/spans.hpp>
//       use(s.name, s.depth, s.duration_ns);
//     return {};
//   }
// clang-format on
//
// Timestamps are nanoseconds relative to the recording start (run start). Spans appear as
// begin/end events per thread in the order they happened, exactly as recorded; replay_spans
// (spans.hpp) turns them into the span tree under the SDK's one matching rule, and the summary
// aggregation (summary.hpp) is computed from that tree. Stage RSS rows and heap snapshot records
// carry their own thread and timestamps, so nothing joins them back to events by label or
// position. A Profile is read-only once built: share it freely.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace jolt {

enum class Phase : std::uint8_t { kBegin, kEnd, kInstant };

using ArgValue = std::variant<std::int64_t, double, std::string>;

struct Arg {
  std::string key;
  ArgValue value;
};

struct TraceEvent {
  Phase phase = Phase::kInstant;
  std::string name;
  std::uint64_t ts_ns = 0;
  std::vector<Arg> args;
};

struct ThreadTrack {
  std::uint32_t tid = 0;  // small sequential id, stable within one run
  std::string name;       // "main", "tbb-worker-0", "metrics-monitor", ...
  std::vector<TraceEvent> events;
};

struct CounterSample {
  std::uint64_t ts_ns = 0;
  double value = 0;
};

// One counter track (e.g. "memory_gib"), sampled on thread `tid`.
struct CounterTrack {
  std::string name;
  std::uint32_t tid = 0;
  std::vector<CounterSample> samples;
};

// Process RSS at a stage span's open and close, in close order. open_ns / close_ns are the
// exact timestamps of the stage span's begin and end events on thread `tid` (one clock read
// serves both), so the row identifies its span without any label or position matching.
struct StageRssRow {
  std::string stage;
  std::uint64_t rss_open_bytes = 0;
  std::uint64_t rss_close_bytes = 0;
  std::uint32_t tid = 0;
  std::uint64_t open_ns = 0;
  std::uint64_t close_ns = 0;
};

// One folded stack line: "root;child;leaf" owning `bytes` exact bytes.
struct FoldedStack {
  std::string stack;
  std::uint64_t bytes = 0;
};

// A heap snapshot (label e.g. "Stage1Batch_prepared") taken at ts_ns on thread `tid`. The trace
// also shows it as a `heap_snapshot` instant (arg `snapshot` = label) at the same timestamp.
struct HeapSnapshotRecord {
  std::string label;
  std::vector<FoldedStack> stacks;
  std::uint32_t tid = 0;
  std::uint64_t ts_ns = 0;
};

// The machine a run happened on, read by the host when the run starts (read_host_info() in
// process.hpp); a field stays unset when the system does not say.
struct HostInfo {
  std::optional<std::string> cpu_model;       // /proc/cpuinfo "model name" of the first CPU
  std::optional<std::uint32_t> logical_cpus;  // CPUs online
  std::optional<std::uint64_t> memory_bytes;  // /proc/meminfo MemTotal
  bool operator==(const HostInfo&) const = default;
};

struct RunInfo {
  std::string workload;          // hyphenated name, e.g. "sha2-chain"
  std::uint32_t scale_log2 = 0;  // requested scale
  std::string backend = "reference";
  std::uint64_t timestamp_unix_secs = 0;
  std::optional<std::string> git_rev;
  std::string trace_name;  // modular_{workload '-'->'_'}_{scale}
  std::string run_dir;     // absolute path of this run's directory
  std::string out_dir;     // the --out-dir (benchmark-runs) the run directory lives in
  // The commitment scheme that made (and verified) the proof: its name ("basefold", "ligero",
  // "reveal") and its one-line parameters string (CommitmentScheme::parameters() in
  // prover/src/pcs/include/jolt/prover/pcs/scheme.hpp). `jolt-run profile` always proves, so it
  // always sets both; they stay unset only in a Profile no prover made (summary.json writes null).
  std::optional<std::string> pcs;
  std::optional<std::string> pcs_parameters;
  HostInfo host;  // since ABI 4
};

struct Profile {
  RunInfo run;
  std::vector<ThreadTrack> threads;
  std::vector<CounterTrack> counters;
  std::vector<StageRssRow> stage_rss;
  std::vector<HeapSnapshotRecord> heap;
  std::optional<std::uint64_t> peak_rss_bytes;  // getrusage high-water mark before rendering
  std::uint64_t prove_time_ns = 0;              // steady-clock time of prove() alone
  std::uint64_t proof_size_bytes = 0;           // encoded proof length
  std::uint64_t trace_length = 0;               // unpadded cycles
  std::uint64_t padded_trace_length = 0;        // power of two the prover ran at
  bool verified = false;                        // the verifier accepted the proof
};

}  // namespace jolt
