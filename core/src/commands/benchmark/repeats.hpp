// Repeated runs of one (workload, scale) pair: reading the csv sink's timing rows, the statistics
// of a pair's runs, the stats file {out}/modular_stats.csv, and running one `jolt-run profile`
// child — a measured run, or a warmup whose output is thrown away. Shared by `benchmark --runs`,
// `profile --runs`, `diff` on CSV files and `overhead`.
//
// clang-format off
//   ChildRun r = run_profile_child(exe, {"--workload", "fibonacci", "--scale", "10"}, "runs");
//   if (r.row) rows.push_back(*r.row), dirs.push_back(r.run_name);
//   ...
//   PairStats s = pair_stats("fibonacci", 10, rows, /*warmup=*/1, dirs);
//   update_stats_file("runs", {s});                   // {out}/modular_stats.csv, atomically
//   std::cout << describe_stats(s) << "\n";
// clang-format on
//
// Not thread-safe (one child at a time per caller).
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jolt/host/subprocess.hpp"

namespace jolt::core {

// The columns of timings.csv and modular_timings.csv (the original's, a public schema; the csv
// sink writes them).
inline constexpr const char* kTimingsCsvColumns =
    "benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,proof_size_compressed,"
    "backend";

class TimingsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TimingRow {
  std::string benchmark_name;
  std::uint32_t scale = 0;
  double prover_time_s = 0;  // 2 decimals
  double trace_length = 0;   // padded length; 0 when the CSV has no such column
  double proving_hz = 0;     // padded length / prove seconds, 2 decimals; 0 when absent
  // The prove time at full precision: trace_length / proving_hz (both from one measurement,
  // ~1e-7 relative) when it agrees with the 2-decimal prover_time_s, else prover_time_s.
  double prove_seconds() const;
  bool precise() const;  // prove_seconds() came from trace_length / proving_hz
  // proving_hz, or trace_length / prover_time_s when the column is absent or 0.
  double hz() const;
};

// One data row in kTimingsCsvColumns order (no header); nullopt when the line is not one.
std::optional<TimingRow> parse_timing_row(const std::string& line);
// A run's timings.csv (one row, no header). Throws TimingsError naming the file.
TimingRow read_run_timings(const std::string& path);
// A CSV with a header naming at least benchmark_name, scale and prover_time_s (the columns of
// modular_timings.csv; trace_length and proving_hz are used when present). Throws TimingsError
// naming the file and what is wrong: no such file, no header or a missing column, a malformed
// row (with its line number).
std::vector<TimingRow> read_timings_csv(const std::string& path);

// Order statistics of a sample; all zero for an empty one. mad is the raw median absolute
// deviation from the median (not scaled by 1.4826).
struct Spread {
  std::size_t n = 0;
  double median = 0, min = 0, max = 0, mad = 0;
};
Spread spread_of(std::vector<double> v);

// The measured (non-warmup) runs of one pair.
struct PairStats {
  std::string benchmark_name;
  std::uint32_t scale = 0;
  std::size_t warmup = 0;             // warmup runs done before them (discarded, no rows)
  Spread prover_time_s;               // of TimingRow::prove_seconds()
  Spread proving_hz;                  // of TimingRow::hz()
  std::vector<std::string> run_dirs;  // the runs' directory names under the out dir
};
PairStats pair_stats(const std::string& benchmark_name, std::uint32_t scale,
                     const std::vector<TimingRow>& rows, std::size_t warmup,
                     std::vector<std::string> run_dirs);

// The stats file's name in the out dir and its header (pinned by tests/core/repeats_test.cpp,
// documented in docs/benchmarks.md). run_dirs is ';'-separated.
inline constexpr const char* kStatsFileName = "modular_stats.csv";
inline constexpr const char* kStatsCsvHeader =
    "benchmark_name,scale,n,warmup,prover_time_s_median,prover_time_s_min,prover_time_s_max,"
    "prover_time_s_mad,proving_hz_median,proving_hz_min,proving_hz_max,proving_hz_mad,run_dirs";
std::string stats_csv_row(const PairStats& s);  // no trailing newline

// Merges `stats` into {out_dir}/modular_stats.csv: a row of the same (benchmark_name, scale) is
// replaced in place, a new pair is appended, other rows are kept. Serialised against other
// writers by a flock(2) on the out dir; written atomically (a reader sees the old or the new
// file). A pair with no runs (n = 0) is left out. Throws TimingsError naming the file when it
// cannot be read or written, or when it does not start with kStatsCsvHeader.
void update_stats_file(const std::string& out_dir, const std::vector<PairStats>& stats);

// "fibonacci at 2^10: 5 runs (1 warmup discarded), prove time median 0.123456 s, min 0.120000 s,
// max 0.130000 s, MAD 0.001000 s (0.8 %); 20.74 kHz median"
std::string describe_stats(const PairStats& s);

// The signal (SIGINT/SIGTERM) that interrupted a child run: ours (pending), the child's death by
// it, or its 128 + signal exit; 0 when it was not interrupted.
int interrupt_signal_of(const host::ProcessResult& r);

// One `jolt-run profile` child: `exe profile <args> --out-dir <out_dir>`, its stdout echoed.
struct ChildRun {
  std::vector<std::string> command;
  host::ProcessResult process;
  std::string run_dir;           // absolute, from its "Run:" line; empty when it printed none
  std::string run_name;          // the directory's name under out_dir
  std::optional<TimingRow> row;  // its timings.csv, when the run succeeded and has one
  std::string error;             // why a successful run gave no row
  bool ok() const { return process.ok() && row.has_value(); }
};
ChildRun run_profile_child(const std::string& exe, const std::vector<std::string>& args,
                           const std::string& out_dir);

// A warmup: the same child with --out-dir {out_dir}/.warmup-{pid}, a scratch folder removed
// afterwards (and before, should a killed sweep have left one), so a warmup leaves no run
// directory, no modular_timings.csv row and never moves a latest_ link. Only `command` and
// `process` are set.
ChildRun run_warmup_child(const std::string& exe, const std::vector<std::string>& args,
                          const std::string& out_dir);

// Why --runs / --warmup cannot be used ("--runs 0: expected the number of measured runs<per>,
// at least 1"), or nullopt. `per` qualifies the count, e.g. " per pair".
std::optional<std::string> repeat_counts_error(int runs, int warmup, const std::string& per);

// The "Run:     {path} (-> ...)" line the profile command prints after a published run; empty
// when there is none.
std::string run_dir_from_stdout(const std::string& out);

}  // namespace jolt::core
