// `jolt-run diff`: compares two sides, each one run or a set of repeated runs (their summary.json
// files), metric by metric: the prove time (the root span), each stage's wall time and the span
// labels with the largest total time on either side.
//
//   DiffInput a = load_side({"runs/20261201-..._modular_fibonacci_13"});   // or several runs
//   DiffInput b = load_side({"other/latest_modular_fibonacci_13"});
//   DiffReport d = diff_runs(a, b, /*top_labels=*/10);
//   std::cout << render_diff_text(d);   // or render_diff_markdown(d)
//
// Verdicts are noise-aware: with at least kMinRepeats runs on each side a metric is "slower" or
// "faster" only when a two-sided Mann–Whitney rank test on the two samples gives p < kAlpha
// (exact distribution of U), else "no significant change"; with fewer runs the verdict is "noise
// unknown" and only the change of the medians is shown. Pure functions; thread-safe.
//
// The sides can also be CSV files of the csv sink (modular_timings.csv, e.g. one per build): then
// each (workload, scale) pair present in them is compared by its prove time, with the same
// verdicts, taking every row of the pair on a side as one repeated run.
//
//   CsvDiffReport c = diff_csv(load_csv_side({"a/modular_timings.csv"}), "a/modular_timings.csv",
//                              load_csv_side({"b/modular_timings.csv"}), "b/modular_timings.csv");
//   std::cout << render_csv_diff_text(c);
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/benchmark/repeats.hpp"

namespace jolt::core {

inline constexpr std::size_t kMinRepeats = 4;  // 4 vs 4 is the smallest sample with p < 0.05
inline constexpr double kAlpha = 0.05;

// One side: per run, the metric values in nanoseconds, by metric name.
struct DiffRun {
  std::string source;  // the summary.json read
  std::string workload;
  std::uint32_t scale_log2 = 0;
  std::vector<std::pair<std::string, double>> metrics;  // "prove", "stage prove_stage0", "span X"
};
struct DiffInput {
  std::vector<DiffRun> runs;
};

enum class Verdict { kSlower, kFaster, kNoChange, kNoiseUnknown, kMissing };
const char* verdict_text(Verdict v);

struct MetricDiff {
  std::string metric;
  std::optional<double> median_a_ns, median_b_ns;  // absent when a side lacks the metric
  std::optional<double> change;                    // (b - a) / a
  std::optional<double> p_value;                   // with kMinRepeats runs per side
  Verdict verdict = Verdict::kMissing;
};

struct DiffReport {
  std::size_t runs_a = 0, runs_b = 0;
  std::string label_a, label_b;  // "fibonacci 2^13 (3 runs)"
  std::vector<MetricDiff> metrics;
  std::vector<std::string> notes;  // e.g. the sides are different workloads or scales
};

// Reads each path (a run directory or a summary.json); throws host::SummaryError naming the file.
DiffInput load_side(const std::vector<std::string>& paths);

// U of sample a: the (a, b) pairs with a > b, ties counting one half (midranks).
double mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);
// Two-sided p-value of the Mann–Whitney U test (exact null distribution up to 50 runs per side,
// normal approximation above; ties take midranks).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

DiffReport diff_runs(const DiffInput& a, const DiffInput& b, std::size_t top_labels);

// One metric of two samples (values in ns): medians, change, and the verdict described above.
MetricDiff compare_metric(const std::string& name, const std::vector<double>& a,
                          const std::vector<double>& b);

// CSV input. A path names a CSV when it ends in ".csv".
bool is_csv_path(const std::string& path);
// Every row of the files (read_timings_csv: a file without the expected header, or with a
// malformed row, throws TimingsError naming it); throws TimingsError when they hold no row.
std::vector<TimingRow> load_csv_side(const std::vector<std::string>& paths);

struct PairDiff {
  std::string workload;
  std::uint32_t scale = 0;
  std::size_t runs_a = 0, runs_b = 0;  // rows of the pair on each side
  MetricDiff prove;                    // "prove": TimingRow::prove_seconds() in ns
};
struct CsvDiffReport {
  std::string label_a, label_b;  // "a.csv (12 rows)"
  std::vector<PairDiff> pairs;   // by workload, then scale
};
CsvDiffReport diff_csv(const std::vector<TimingRow>& a, const std::string& name_a,
                       const std::vector<TimingRow>& b, const std::string& name_b);
// The pairs whose prove time regressed by more than pct percent (the rule of regressed()).
std::vector<const PairDiff*> regressed_pairs(const CsvDiffReport& d, double pct);
std::string render_csv_diff_text(const CsvDiffReport& d);
std::string render_csv_diff_markdown(const CsvDiffReport& d);

// The prove-time metric's change exceeds `pct` percent and is not "no significant change".
bool regressed(const DiffReport& d, double pct);
bool regressed(const MetricDiff& m, double pct);  // the same rule for one metric

std::string render_diff_text(const DiffReport& d);
std::string render_diff_markdown(const DiffReport& d);

}  // namespace jolt::core
