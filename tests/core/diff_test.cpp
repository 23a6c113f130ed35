// `jolt-run diff` (core/src/commands/diff/diff.hpp): the rank test's p-values, verdicts on
// synthetic repeated runs (identical distributions; one stage 30 % slower), the single-run case,
// --fail-on-regression's rule, reading real summary.json files, and CSV input (per pair of two
// generated modular_timings.csv files).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <tuple>

#include <jolt/summary.hpp>

#include "commands/diff/diff.hpp"
#include "fixture_profile.hpp"
#include "summary_json.hpp"

using namespace jolt::core;

namespace {

// n runs whose stages take base[i] * (1 + noise) ns, noise uniform in ±5 %, prove = their sum.
DiffInput side(std::size_t n, std::vector<double> base, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(-0.05, 0.05);
  DiffInput in;
  for (std::size_t r = 0; r < n; ++r) {
    DiffRun run;
    run.workload = "fibonacci";
    run.scale_log2 = 16;
    double total = 0;
    for (std::size_t i = 0; i < base.size(); ++i) {
      const double v = base[i] * (1 + noise(rng));
      total += v;
      run.metrics.emplace_back("stage prove_stage" + std::to_string(i), v);
    }
    run.metrics.emplace(run.metrics.begin(), "prove", total);
    in.runs.push_back(std::move(run));
  }
  return in;
}

const MetricDiff& metric(const DiffReport& d, const std::string& name) {
  for (const MetricDiff& m : d.metrics)
    if (m.metric == name) return m;
  FAIL("no metric " << name);
  throw 0;
}

}  // namespace

TEST_CASE("Mann-Whitney p-values: exact for small samples, 1 for identical ones") {
  // 4 vs 4 fully separated: 2 of the C(8,4) = 70 orderings are as extreme.
  CHECK(mann_whitney_p({1, 2, 3, 4}, {5, 6, 7, 8}) == doctest::Approx(2.0 / 70.0));
  CHECK(mann_whitney_p({5, 6, 7, 8}, {1, 2, 3, 4}) == doctest::Approx(2.0 / 70.0));
  // 3 vs 3 can never reach p < 0.05 (the smallest is 2/20): why a verdict needs 4 per side.
  CHECK(mann_whitney_p({1, 2, 3}, {4, 5, 6}) == doctest::Approx(0.1));
  CHECK(mann_whitney_p({1, 1, 1, 1}, {1, 1, 1, 1}) == doctest::Approx(1.0));
  CHECK(mann_whitney_u({1, 2}, {3, 4}) == 0.0);
  CHECK(mann_whitney_u({3, 4}, {1, 2}) == 4.0);
  CHECK(mann_whitney_u({1, 2}, {2, 3}) == 0.5);  // the tie counts one half
  CHECK(mann_whitney_p({1, 3, 5, 7}, {2, 4, 6, 8}) > 0.5);
}

TEST_CASE("repeated runs: the same build shows no significant change; a 30% slower stage does") {
  const std::vector<double> base{4e8, 2e8, 1e8};
  const DiffReport same = diff_runs(side(6, base, 1), side(6, base, 2), 10);
  for (const MetricDiff& m : same.metrics) {
    INFO(m.metric);
    CHECK(m.verdict == Verdict::kNoChange);
    REQUIRE(m.p_value);
  }
  CHECK_FALSE(regressed(same, 5));

  std::vector<double> slower = base;
  slower[1] *= 1.3;
  const DiffReport d = diff_runs(side(6, base, 1), side(6, slower, 2), 10);
  CHECK(metric(d, "stage prove_stage1").verdict == Verdict::kSlower);
  CHECK(*metric(d, "stage prove_stage1").change == doctest::Approx(0.3).epsilon(0.1));
  CHECK(metric(d, "stage prove_stage0").verdict == Verdict::kNoChange);
  CHECK(metric(d, "prove").verdict == Verdict::kSlower);  // +60 of 700: 8.6 %
  CHECK(regressed(d, 5));
  CHECK_FALSE(regressed(d, 20));
  const std::string text = render_diff_text(d);
  CHECK(text.find("SLOWER") != std::string::npos);
  CHECK(render_diff_markdown(d).find("| `stage prove_stage1` |") != std::string::npos);
  // B faster than A is never a regression.
  CHECK_FALSE(regressed(diff_runs(side(6, slower, 3), side(6, base, 4), 10), 0));
}

TEST_CASE("one run per side: the change is shown, the noise is unknown") {
  // prove: 600 ms -> 800 ms (±5 % noise per stage cannot hide +33 %).
  std::vector<double> slower{4e8, 4e8};
  const DiffReport d = diff_runs(side(1, {4e8, 2e8}, 1), side(1, slower, 2), 10);
  CHECK(metric(d, "prove").verdict == Verdict::kNoiseUnknown);
  CHECK_FALSE(metric(d, "prove").p_value);
  CHECK(regressed(d, 20));  // without repeats the raw change decides, as the help says
  CHECK_FALSE(regressed(d, 50));
  CHECK(render_diff_text(d).find("noise unknown") != std::string::npos);
  // A metric on one side only, and sides of different workloads, are said as such.
  DiffInput other = side(1, {1e8}, 3);
  other.runs[0].workload = "sha2";
  other.runs[0].metrics.emplace_back("stage prove_stage9", 5.0);
  const DiffReport mixed = diff_runs(side(1, {4e8}, 1), other, 10);
  CHECK(metric(mixed, "stage prove_stage9").verdict == Verdict::kMissing);
  REQUIRE(mixed.notes.size() == 1);
  CHECK(mixed.notes[0].find("not like for like") != std::string::npos);
}

TEST_CASE("load_side reads run directories and summary.json files") {
  const auto dir = std::filesystem::temp_directory_path() / "jolt_diff_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "run");
  std::ofstream(dir / "run" / "summary.json")
      << jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  const DiffInput in = load_side({(dir / "run").string(), (dir / "run" / "summary.json").string()});
  REQUIRE(in.runs.size() == 2);
  CHECK(in.runs[0].workload == "fibonacci");
  CHECK(in.runs[0].scale_log2 == 16);
  const DiffReport d = diff_runs(in, in, 3);
  CHECK(metric(d, "prove").median_a_ns == metric(d, "prove").median_b_ns);
  CHECK(metric(d, "stage prove_stage0").change == 0.0);
  std::size_t spans = 0;
  for (const MetricDiff& m : d.metrics) spans += m.metric.rfind("span ", 0) == 0;
  CHECK(spans == 3);  // --top
  // The root and the stage spans are the prove and stage rows, not span rows again.
  for (const MetricDiff& m : d.metrics) {
    CHECK(m.metric != "span jolt_prover::prove");
    CHECK(m.metric.rfind("span prove_stage", 0) != 0);
  }
  CHECK_THROWS_WITH_AS(load_side({(dir / "missing").string()}),
                       doctest::Contains("jolt_diff_test/missing"), std::exception);
  std::filesystem::remove_all(dir);
}

namespace {

// A modular_timings.csv with n rows per pair of (workload, scale, base seconds); each row's
// prove time is base * factor * (1 + noise), noise uniform in ±5 %, written as the csv sink
// does (2-decimal seconds and Hz, padded length 2^scale).
std::string timings_csv(const std::vector<std::tuple<std::string, std::uint32_t, double>>& pairs,
                        std::size_t n, double factor, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(-0.05, 0.05);
  std::string out = std::string(kTimingsCsvColumns) + "\n";
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& [w, scale, base] : pairs) {
      const double secs = base * factor * (1 + noise(rng));
      const double length = static_cast<double>(std::uint64_t{1} << scale);
      char row[160];
      std::snprintf(row, sizeof(row), "%s,%u,%.2f,%.0f,%.2f,1000,1000,reference\n", w.c_str(),
                    scale, secs, length, length / secs);
      out += row;
    }
  return out;
}

// The CSV text with the rows starting with `prefix` made `factor` times slower (seconds and
// rate rewritten as the csv sink writes them).
std::string slower(const std::string& csv, const std::string& prefix, double factor) {
  std::istringstream in(csv);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) {
      const TimingRow r = *parse_timing_row(line);
      const double secs = r.prove_seconds() * factor;
      char row[160];
      std::snprintf(row, sizeof(row), "%s,%u,%.2f,%.0f,%.2f,1000,1000,reference",
                    r.benchmark_name.c_str(), r.scale, secs, r.trace_length, r.trace_length / secs);
      line = row;
    }
    out += line + "\n";
  }
  return out;
}

const PairDiff& pair(const CsvDiffReport& d, const std::string& w, std::uint32_t scale) {
  for (const PairDiff& p : d.pairs)
    if (p.workload == w && p.scale == scale) return p;
  FAIL("no pair " << w << " 2^" << scale);
  throw 0;
}

}  // namespace

TEST_CASE("CSV input: per pair, identical data is no change, 30 % slower is flagged") {
  const auto dir = std::filesystem::temp_directory_path() / "jolt_diff_csv_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::vector<std::tuple<std::string, std::uint32_t, double>> pairs{
      {"fibonacci", 10, 0.08}, {"fibonacci", 11, 0.15}, {"sha2-chain", 13, 0.9}};
  const std::string a = (dir / "a.csv").string(), b = (dir / "b.csv").string(),
                    slow = (dir / "slow.csv").string(), few = (dir / "few.csv").string();
  std::ofstream(a) << timings_csv(pairs, 5, 1.0, 1);
  std::ofstream(b) << timings_csv(pairs, 5, 1.0, 2);
  // B: A's rows, with fibonacci 2^11's prove times 30 % longer.
  std::ofstream(slow) << slower(timings_csv(pairs, 5, 1.0, 1), "fibonacci,11,", 1.3);
  std::ofstream(few) << timings_csv(pairs, 2, 1.3, 5);

  // The same file on both sides: every pair identical, p = 1.
  const CsvDiffReport same = diff_csv(load_csv_side({a}), a, load_csv_side({a}), a);
  REQUIRE(same.pairs.size() == 3);
  for (const PairDiff& p : same.pairs) {
    INFO(p.workload << " 2^" << p.scale);
    CHECK(p.runs_a == 5);
    CHECK(p.prove.verdict == Verdict::kNoChange);
    CHECK(*p.prove.change == 0.0);
  }
  CHECK(regressed_pairs(same, 0).empty());
  // Two samples of the same distribution: no significant change.
  const CsvDiffReport noise = diff_csv(load_csv_side({a}), a, load_csv_side({b}), b);
  for (const PairDiff& p : noise.pairs) CHECK(p.prove.verdict == Verdict::kNoChange);
  CHECK(regressed_pairs(noise, 5).empty());

  const CsvDiffReport d = diff_csv(load_csv_side({a}), a, load_csv_side({slow}), slow);
  const PairDiff& fib11 = pair(d, "fibonacci", 11);
  CHECK(fib11.prove.verdict == Verdict::kSlower);
  CHECK(*fib11.prove.change == doctest::Approx(0.3).epsilon(0.1));
  CHECK(*fib11.prove.p_value < kAlpha);
  CHECK(pair(d, "fibonacci", 10).prove.verdict == Verdict::kNoChange);
  CHECK(pair(d, "sha2-chain", 13).prove.verdict == Verdict::kNoChange);
  const auto bad = regressed_pairs(d, 10);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0]->scale == 11);
  CHECK(regressed_pairs(d, 50).empty());
  CHECK(render_csv_diff_text(d).find("SLOWER") != std::string::npos);
  CHECK(render_csv_diff_markdown(d).find("| fibonacci 2^11 | 5/5 |") != std::string::npos);
  // Faster is never a regression.
  CHECK(regressed_pairs(diff_csv(load_csv_side({slow}), slow, load_csv_side({a}), a), 0).empty());

  // Fewer than 4 rows of a pair on a side: the change, "noise unknown"; a pair on one side only.
  std::ofstream(few, std::ios::app) << "btreemap,12,0.50,4096,8192.00,1000,1000,reference\n";
  const CsvDiffReport f = diff_csv(load_csv_side({a}), a, load_csv_side({few}), few);
  CHECK(pair(f, "fibonacci", 10).prove.verdict == Verdict::kNoiseUnknown);
  CHECK(pair(f, "fibonacci", 10).runs_b == 2);
  CHECK(pair(f, "btreemap", 12).prove.verdict == Verdict::kMissing);
  CHECK(render_csv_diff_text(f).find("noise unknown") != std::string::npos);
  CHECK(regressed_pairs(f, 10).size() == 3);  // without repeats the raw change decides

  // A comma-separated side concatenates the files' rows.
  CHECK(load_csv_side({a, b}).size() == 30);
  // Bad input is named.
  const std::string headerless = (dir / "timings.csv").string();
  std::ofstream(headerless) << "fibonacci,10,0.05,1024,20480.00,1000,1000,reference\n";
  CHECK_THROWS_WITH_AS(load_csv_side({headerless}), doctest::Contains("not a header"),
                       std::exception);
  const std::string empty = (dir / "empty.csv").string();
  std::ofstream(empty) << kTimingsCsvColumns << "\n";
  CHECK_THROWS_WITH_AS(load_csv_side({empty}), doctest::Contains("empty.csv: no result rows"),
                       std::exception);
  CHECK(is_csv_path("x/modular_timings.CSV"));
  CHECK_FALSE(is_csv_path("runs/latest_modular_fibonacci_10"));
  std::filesystem::remove_all(dir);
}
