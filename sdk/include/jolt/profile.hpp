// Profile: the one immutable record of a run that every sink reads.
//
//   jolt::Status write(const jolt::Profile& p, const jolt::SinkContext& ctx) noexcept {
//     for (const auto& t : p.threads)
//       for (const auto& e : t.events) if (e.phase == jolt::Phase::kBegin) use(e.name, e.ts_ns);
//     return {};
//   }
//
// Timestamps are nanoseconds relative to the recording start (run start). Spans appear as
// begin/end events per thread in the order they happened, exactly as recorded; the summary
// aggregation (summary.hpp) replays them. A Profile is read-only once built: share it freely.
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

// Process RSS at a stage span's open and close, in close order.
struct StageRssRow {
  std::string stage;
  std::uint64_t rss_open_bytes = 0;
  std::uint64_t rss_close_bytes = 0;
};

// One folded stack line: "root;child;leaf" owning `bytes` exact bytes.
struct FoldedStack {
  std::string stack;
  std::uint64_t bytes = 0;
};

// A heap snapshot (label e.g. "Stage1Batch_prepared"); its instant is a `heap_snapshot` event
// with arg `snapshot` = label in the recording thread's track.
struct HeapSnapshotRecord {
  std::string label;
  std::vector<FoldedStack> stacks;
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
