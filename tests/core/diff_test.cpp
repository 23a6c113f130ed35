// `jolt-run diff` (core/src/commands/diff/diff.hpp): the rank test's p-values, verdicts on
// synthetic repeated runs (identical distributions; one stage 30 % slower), the single-run case,
// --fail-on-regression's rule, and reading real summary.json files.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

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
