// String-keyed optimisation objectives, as jolt-eval's: `telemetry:<workload>:<metric>` read
// from a fresh profile run's summary.json, and `callgrind:<bench>:instructions` counted by
// valgrind on one of the project's micro-benchmarks.
//
//   jolt::objectives::Objective o = jolt::objectives::parse_objective(
//       "telemetry:fibonacci:total:EqPolynomial::evals");   // label kept verbatim
//   double s = jolt::objectives::extract(std::get<TelemetryObjective>(o.target), summary, path);
//
// Every function throws ObjectiveError with a message naming the key, file or field; an absent
// label or a null value is an error, never 0. Pure functions, thread-safe.
#pragma once
#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace jolt::objectives {

class ObjectiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class TelemetryMetric {
  kProverTime,  // prover_time_s      root.wall_time_ns / 1e9
  kPeakRss,     // peak_rss_gib       peak_rss_gib
  kPeakMemory,  // peak_memory_gib    root.peak_memory_gib
  kSpanTotal,   // total:<label>      spans[label].total_ns / 1e9
  kSpanSelf,    // self:<label>       spans[label].self_ns / 1e9
  kHeapTotal,   // heap:<snapshot>    heap[snapshot].total_bytes
  kHeapRoot,    // heap:<snapshot>:<root>  heap[snapshot].roots[root]
};

struct TelemetryObjective {
  std::string workload;  // hyphenated, as on the CLI
  TelemetryMetric metric = TelemetryMetric::kProverTime;
  std::string label;  // span label or heap snapshot label
  std::string root;   // heap root frame (kHeapRoot only)
  bool needs_heap() const {
    return metric == TelemetryMetric::kHeapTotal || metric == TelemetryMetric::kHeapRoot;
  }
};

struct CallgrindObjective {
  std::string bench;  // executable name in the build's bin folder
};

struct Objective {
  std::string key;
  std::variant<TelemetryObjective, CallgrindObjective> target;
  std::string units;  // "s", "GiB", "bytes", "Ir"
};

struct WorkloadScale {
  const char* workload;
  std::uint32_t default_scale;  // 0: no default known, --scale required
};
// Workloads a telemetry key may name, with the scale a measurement runs at by default.
const std::vector<WorkloadScale>& telemetry_workloads();
std::optional<std::uint32_t> default_scale(const std::string& workload);

Objective parse_objective(std::string_view key);

// The objective's value from a parsed summary.json (`source` names the file in messages).
// The caller checks schema_version (see jolt/host/summary_file.hpp).
double extract(const TelemetryObjective& objective, const rapidjson::Value& summary,
               const std::string& source);

// Total instruction count (event Ir) from a callgrind output file's `summary:` line, or its
// `totals:` line when there is no summary.
std::uint64_t callgrind_total_instructions(const std::string& callgrind_out,
                                           const std::string& source);

}  // namespace jolt::objectives
