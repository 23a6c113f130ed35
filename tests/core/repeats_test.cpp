// Repeated runs (core/src/commands/benchmark/repeats.hpp): timing rows and their precise prove
// time, reading a timing CSV and its errors, the statistics, the stats file's pinned header and
// its merge, the one-line description.
#include <doctest/doctest.h>

#include <boost/filesystem.hpp>
#include <fstream>
#include <sstream>

#include "commands/benchmark/repeats.hpp"
#include "temp_dir.hpp"

namespace fs = boost::filesystem;
using namespace jolt::core;

using jolt::core::testing::slurp;
using jolt::core::testing::TempDir;

namespace {

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p.string()) << text;
}

const std::string kHeader = std::string(kTimingsCsvColumns) + "\n";

}  // namespace

TEST_CASE("a timing row: the prove time from trace_length / proving_hz when the columns agree") {
  const auto r = parse_timing_row("fibonacci,10,0.05,1024,20480.00,1000,1000,reference");
  REQUIRE(r);
  CHECK(r->benchmark_name == "fibonacci");
  CHECK(r->scale == 10);
  CHECK(r->precise());
  CHECK(r->prove_seconds() == doctest::Approx(0.05));
  // A sub-10 ms prove: the 2-decimal column says 0.00, the rate keeps the precision.
  const auto fast = parse_timing_row("fibonacci,8,0.00,256,123456.78,900,900,reference");
  REQUIRE(fast);
  CHECK(fast->precise());
  CHECK(fast->prove_seconds() == doctest::Approx(256 / 123456.78));
  CHECK(fast->hz() == doctest::Approx(123456.78));
  // Columns that disagree: the 2-decimal value, flagged as not precise.
  const auto odd = parse_timing_row("fibonacci,10,0.90,1024,20480.00,1000,1000,reference");
  REQUIRE(odd);
  CHECK_FALSE(odd->precise());
  CHECK(odd->prove_seconds() == doctest::Approx(0.90));
  // No rate: the rate is derived from the time.
  const auto no_hz = parse_timing_row("fibonacci,10,0.50,1024,0,1000,1000,reference");
  REQUIRE(no_hz);
  CHECK(no_hz->hz() == doctest::Approx(2048.0));
  CHECK_FALSE(parse_timing_row(kTimingsCsvColumns));
  CHECK_FALSE(parse_timing_row("fibonacci,ten,0.05,1024,20480.00,1000,1000,reference"));
  CHECK_FALSE(parse_timing_row("fibonacci,10,-1,1024,20480.00,1000,1000,reference"));
  CHECK_FALSE(parse_timing_row(""));
}

TEST_CASE("reading a timing CSV: rows in order; a missing file, header or column is named") {
  TempDir t;
  const fs::path good = t.path / "modular_timings.csv";
  write(good, kHeader + "fibonacci,10,0.05,1024,20480.00,1000,1000,reference\n" +
                  "sha2-chain,11,0.20,2048,10240.00,1200,1200,reference\n\n");
  const std::vector<TimingRow> rows = read_timings_csv(good.string());
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].benchmark_name == "sha2-chain");
  CHECK(rows[1].scale == 11);
  CHECK(rows[1].prove_seconds() == doctest::Approx(0.2));

  CHECK_THROWS_WITH_AS(read_timings_csv((t.path / "none.csv").string()),
                       doctest::Contains("none.csv: no such file"), TimingsError);
  const fs::path headerless = t.path / "timings.csv";
  write(headerless, "fibonacci,10,0.05,1024,20480.00,1000,1000,reference\n");
  CHECK_THROWS_WITH_AS(read_timings_csv(headerless.string()),
                       doctest::Contains("timings.csv: the first line is a data row, not a header"),
                       TimingsError);
  const fs::path other = t.path / "other.csv";
  write(other, "name,scale,seconds\nfibonacci,10,0.05\n");
  CHECK_THROWS_WITH_AS(read_timings_csv(other.string()),
                       doctest::Contains("other.csv: no 'benchmark_name' column"), TimingsError);
  write(other, "benchmark_name,scale,seconds\nfibonacci,10,0.05\n");
  CHECK_THROWS_WITH_AS(read_timings_csv(other.string()),
                       doctest::Contains("no 'prover_time_s' column"), TimingsError);
  const fs::path bad_row = t.path / "bad_row.csv";
  write(bad_row, kHeader + "fibonacci,10,0.05,1024,20480.00,1000,1000,reference\nfibonacci,x\n");
  CHECK_THROWS_WITH_AS(read_timings_csv(bad_row.string()),
                       doctest::Contains("bad_row.csv:3: malformed row 'fibonacci,x'"),
                       TimingsError);
  const fs::path empty = t.path / "empty.csv";
  write(empty, "");
  CHECK_THROWS_WITH_AS(read_timings_csv(empty.string()), doctest::Contains("empty file"),
                       TimingsError);
  // The original's columns without proving_hz / trace_length still read (2-decimal times).
  write(other, "benchmark_name,scale,prover_time_s\nfibonacci,10,0.05\n");
  REQUIRE(read_timings_csv(other.string()).size() == 1);
  CHECK(read_timings_csv(other.string())[0].prove_seconds() == doctest::Approx(0.05));

  const fs::path run_row = t.path / "run_timings.csv";
  write(run_row, "fibonacci,10,0.05,1024,20480.00,1000,1000,reference\n");
  CHECK(read_run_timings(run_row.string()).scale == 10);
  write(run_row, "garbage\n");
  CHECK_THROWS_WITH_AS(read_run_timings(run_row.string()), doctest::Contains("malformed row"),
                       TimingsError);
}

TEST_CASE("spread: median, min, max and the raw median absolute deviation") {
  const Spread s = spread_of({3, 1, 2, 10});
  CHECK(s.n == 4);
  CHECK(s.median == 2.5);
  CHECK(s.min == 1);
  CHECK(s.max == 10);
  CHECK(s.mad == 1.0);  // deviations 0.5 0.5 1.5 7.5
  const Spread odd = spread_of({5, 1, 4});
  CHECK(odd.median == 4);
  CHECK(odd.mad == 1);  // deviations 1 0 3
  const Spread one = spread_of({7});
  CHECK(one.n == 1);
  CHECK(one.median == 7);
  CHECK(one.mad == 0);
  CHECK(spread_of({}).n == 0);
}

TEST_CASE("pair statistics, the stats file's pinned header and its merge") {
  // The header is a public schema (docs/benchmarks.md): a change here is a change there.
  CHECK(std::string(kStatsCsvHeader) ==
        "benchmark_name,scale,n,warmup,prover_time_s_median,prover_time_s_min,prover_time_s_max,"
        "prover_time_s_mad,proving_hz_median,proving_hz_min,proving_hz_max,proving_hz_mad,"
        "run_dirs");
  std::vector<TimingRow> rows;
  for (const char* line : {"fibonacci,10,0.05,1024,20480.00,1000,1000,reference",
                           "fibonacci,10,0.04,1024,25600.00,1000,1000,reference",
                           "fibonacci,10,0.10,1024,10240.00,1000,1000,reference"})
    rows.push_back(*parse_timing_row(line));
  const PairStats st = pair_stats("fibonacci", 10, rows, 1, {"d1", "d2", "d3"});
  CHECK(st.prover_time_s.n == 3);
  CHECK(st.prover_time_s.median == doctest::Approx(0.05));
  CHECK(st.prover_time_s.min == doctest::Approx(0.04));
  CHECK(st.prover_time_s.max == doctest::Approx(0.10));
  CHECK(st.prover_time_s.mad == doctest::Approx(0.01));
  CHECK(st.proving_hz.median == doctest::Approx(20480.0));
  CHECK(stats_csv_row(st) ==
        "fibonacci,10,3,1,0.050000,0.040000,0.100000,0.010000,20480.00,10240.00,25600.00,"
        "5120.00,d1;d2;d3");
  const std::string line = describe_stats(st);
  CHECK(line.find("fibonacci at 2^10: 3 runs (1 warmup discarded)") == 0);
  CHECK(line.find("median 0.050000 s, min 0.040000 s, max 0.100000 s, MAD 0.010000 s (20.0 %)") !=
        std::string::npos);

  TempDir t;
  const fs::path file = t.path / "out" / kStatsFileName;
  const PairStats other = pair_stats("sha2-chain", 11, {rows[0]}, 0, {"d4"});
  update_stats_file((t.path / "out").string(), {st, other});
  CHECK(slurp(file) == std::string(kStatsCsvHeader) + "\n" + stats_csv_row(st) + "\n" +
                           stats_csv_row(other) + "\n");
  // A later sweep of one pair replaces its row in place; the other pair's row stays; a pair
  // without runs is not written.
  const PairStats again = pair_stats("fibonacci", 10, {rows[1]}, 0, {"d5"});
  const PairStats nothing = pair_stats("btreemap", 12, {}, 2, {});
  update_stats_file((t.path / "out").string(), {again, nothing});
  CHECK(slurp(file) == std::string(kStatsCsvHeader) + "\n" + stats_csv_row(again) + "\n" +
                           stats_csv_row(other) + "\n");
  // A file that is not ours is refused, named, and left alone.
  write(file, "something,else\n1,2\n");
  CHECK_THROWS_WITH_AS(update_stats_file((t.path / "out").string(), {st}),
                       doctest::Contains("modular_stats.csv does not start with the header"),
                       TimingsError);
  CHECK(slurp(file) == "something,else\n1,2\n");
}

TEST_CASE("the run directory from the profile command's output") {
  CHECK(run_dir_from_stdout("x\nRun:     /tmp/a/20260101-000000_modular_f_10 (-> a/latest_f)\n") ==
        "/tmp/a/20260101-000000_modular_f_10");
  CHECK(run_dir_from_stdout("no run line\n").empty());
}
