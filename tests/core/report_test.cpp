// `jolt-run report`: the report built from a summary.json (the reference fixture rendered by the
// summary sink's own writer), its 80-column text, its JSON, and how RUN_DIR / latest resolve.
#include "commands/report/report.hpp"

#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <unistd.h>

#include <boost/filesystem.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "fixture_profile.hpp"
#include "jolt/host/summary_file.hpp"
#include "summary_json.hpp"

namespace fs = boost::filesystem;
using namespace jolt::core;

namespace {

std::string fixture_json() {
  return jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
}

RunReport fixture_report(std::size_t top = kDefaultReportTop) {
  const rapidjson::Document d = jolt::host::parse_summary(fixture_json(), "fixture/summary.json");
  return report_from_summary_json(d, "fixture/summary.json", top);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

struct TempDir {
  fs::path dir = fs::temp_directory_path() / fs::unique_path("jolt-report-%%%%%%");
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
};

void make_run(const fs::path& out, const std::string& name, bool with_summary) {
  fs::create_directories(out / name);
  if (with_summary) std::ofstream((out / name / "summary.json").string()) << fixture_json();
}

// The SummaryError message of resolve_summary_path(arg, out), "" when it does not throw.
std::string resolve_error(const std::string& arg, const std::string& out) {
  try {
    resolve_summary_path(arg, out);
  } catch (const jolt::host::SummaryError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("report: stages with their share of the root, top spans by self and total time") {
  const RunReport r = fixture_report();
  REQUIRE(r.root);
  CHECK(r.root->label == "jolt_prover::prove");
  CHECK(r.root->wall_time_ns == 2'500'000);
  CHECK(r.root->dark_time_ns == 600'000);
  REQUIRE(r.stages.size() == 2);
  CHECK(r.stages[0].label == "prove_stage0");
  CHECK(r.stages[0].wall_time_ns == 900'000);
  REQUIRE(r.stages[0].share_of_root);
  CHECK(*r.stages[0].share_of_root == doctest::Approx(0.36));
  REQUIRE(r.stages[0].rss_delta_gib);
  CHECK(*r.stages[0].rss_delta_gib == doctest::Approx(1.0));
  CHECK(r.stages[1].label == "prove_stage1");
  CHECK(*r.stages[1].share_of_root == doctest::Approx(0.40));
  CHECK_FALSE(r.stages[1].rss_delta_gib);  // the fixture has no RSS row for stage 1
  REQUIRE(r.stages[1].peak_memory_gib);
  CHECK(*r.stages[1].peak_memory_gib == doctest::Approx(3.0));

  CHECK(r.span_labels == 8);
  std::vector<std::string> self;
  for (const auto& s : r.top_self) self.push_back(s.label);
  // Self: prove 600, commit 500, stage0 400, stage1 = sumcheck_round 300 (ties by label),
  // Stage1Batch::prove = prove_batch 200, EqPolynomial::evals 100 (µs).
  CHECK(self == std::vector<std::string>{"jolt_prover::prove", "commit_witness", "prove_stage0",
                                         "prove_stage1", "sumcheck_round", "Stage1Batch::prove",
                                         "prove_batch", "EqPolynomial::evals"});
  CHECK(r.top_total.front().label == "jolt_prover::prove");
  CHECK(r.top_total[1].label == "prove_stage1");
  CHECK(r.top_total[1].total_ns == 1'000'000);

  const RunReport top3 = fixture_report(3);
  CHECK(top3.top_self.size() == 3);
  CHECK(top3.top_total.size() == 3);
  CHECK(top3.top_self[2].label == "prove_stage0");
  CHECK(top3.span_labels == 8);

  REQUIRE(r.counters.size() == 2);
  CHECK(r.counters[0].name == "cpu_percent");
  CHECK(r.counters[1].name == "memory_gib");
  CHECK(r.counters[1].max == doctest::Approx(3.0));
  CHECK(r.counters[1].samples == 3);
}

TEST_CASE("report: the in-memory summary gives the same report as its summary.json") {
  const RunReport from_json = fixture_report();
  const RunReport mem =
      report_from_summary(jolt::summarize(jolt::testing::fixture_profile()), kDefaultReportTop);
  CHECK(render_stage_table(mem) == render_stage_table(from_json));
  REQUIRE(mem.top_self.size() == from_json.top_self.size());
  for (std::size_t i = 0; i < mem.top_self.size(); ++i)
    CHECK(mem.top_self[i].label == from_json.top_self[i].label);
}

TEST_CASE("report text: 80 columns, every section, the summary's run fields") {
  const std::string text = render_report_text(fixture_report());
  INFO(text);
  for (const auto& line : lines_of(text)) {
    INFO(line);
    CHECK(line.size() <= 80);
  }
  CHECK(text.find("run: fibonacci 2^16 (reference)") != std::string::npos);
  CHECK(text.find("git_rev abc1234") != std::string::npos);
  CHECK(text.find("started 2023-11-14 22:13:20 UTC") != std::string::npos);
  CHECK(text.find("dark time (root self time): 600.0 us (24.0% of root)") != std::string::npos);
  CHECK(text.find("peak RSS: 4.00 GiB") != std::string::npos);
  const auto stage0 = text.find("  prove_stage0 ");
  REQUIRE(stage0 != std::string::npos);
  const std::string row = text.substr(stage0, text.find('\n', stage0) - stage0);
  CHECK(row.find("900.0 us") != std::string::npos);
  CHECK(row.find("36.0%") != std::string::npos);
  CHECK(row.find("+1.00 GiB") != std::string::npos);
  CHECK(row.find("1.00 GiB") != std::string::npos);
  CHECK(text.find("top 8 of 8 span labels by self time:") != std::string::npos);
  CHECK(text.find("memory_gib") != std::string::npos);
  // Schema 3's record of what was proved and where, one line each (host's members by name).
  CHECK(text.find("trace_length 40000") != std::string::npos);
  CHECK(text.find("padded_scale_log2 16") != std::string::npos);
  CHECK(text.find("proof_size_bytes 12345") != std::string::npos);
  CHECK(text.find("verified true") != std::string::npos);
  CHECK(text.find("host.cpu_model Test CPU @ 3.00GHz") != std::string::npos);
  CHECK(text.find("host.logical_cpus 2") != std::string::npos);
}

TEST_CASE("report: fields the summary adds to run are shown; fields it lacks are left out") {
  rapidjson::Document d = jolt::host::parse_summary(fixture_json(), "s.json");
  rapidjson::Pointer("/run/pcs").Set(d, "basefold");
  rapidjson::Pointer("/run/verified").Set(d, true);
  rapidjson::Pointer("/run/notes").Set(d, std::string(100, 'n').c_str());
  rapidjson::Pointer("/root").Set(d, rapidjson::Value());  // null: no root span recorded
  rapidjson::Pointer("/stages/0/peak_memory_gib").Set(d, rapidjson::Value());
  const RunReport r = report_from_summary_json(d, "s.json", 5);
  const std::string text = render_report_text(r);
  INFO(text);
  CHECK(text.find("pcs basefold") != std::string::npos);
  CHECK(text.find("verified true") != std::string::npos);
  CHECK(text.find("  notes nnn") != std::string::npos);  // cut to 80 columns, whole in --json
  for (const auto& line : lines_of(text)) {
    INFO(line);
    CHECK(line.size() <= 80);
  }
  CHECK(text.find("root: none recorded") != std::string::npos);
  CHECK(text.find("dark time") == std::string::npos);
  CHECK_FALSE(r.stages[0].share_of_root);
  CHECK(text.find('%', text.find("stages:")) > text.find("top 5 of 8"));  // no stage share
  rapidjson::Document j;
  j.Parse(render_report_json(r).c_str());
  REQUIRE_FALSE(j.HasParseError());
  CHECK(std::string(j["run"]["pcs"].GetString()) == "basefold");
  CHECK(j["run"]["verified"].GetBool());
  CHECK(j["run"]["notes"].GetStringLength() == 100);
  CHECK(j["root"].IsNull());
  CHECK(j["stages"][0]["peak_memory_gib"].IsNull());
  CHECK(j["stages"][0]["share_of_root"].IsNull());
}

TEST_CASE("report JSON carries the same content as the text") {
  const RunReport r = fixture_report(4);
  rapidjson::Document j;
  const std::string text = render_report_json(r);
  j.Parse(text.c_str());
  REQUIRE_FALSE(j.HasParseError());
  CHECK(std::string(j["source"].GetString()) == "fixture/summary.json");
  CHECK(std::string(j["run"]["workload"].GetString()) == "fibonacci");
  CHECK(j["run"]["scale_log2"].GetUint() == 16);
  CHECK(j["root"]["dark_time_ns"].GetUint64() == 600'000);
  REQUIRE(j["stages"].Size() == 2);
  CHECK(std::string(j["stages"][1]["label"].GetString()) == "prove_stage1");
  CHECK(j["stages"][1]["wall_time_ns"].GetUint64() == 1'000'000);
  CHECK(j["stages"][1]["share_of_root"].GetDouble() == doctest::Approx(0.4));
  CHECK(j["stages"][1]["rss_delta_gib"].IsNull());
  CHECK(j["top_n"].GetUint() == 4);
  CHECK(j["span_labels"].GetUint() == 8);
  REQUIRE(j["top_self"].Size() == 4);
  CHECK(std::string(j["top_self"][1]["label"].GetString()) == "commit_witness");
  CHECK(j["top_self"][1]["self_ns"].GetUint64() == 500'000);
  REQUIRE(j["top_total"].Size() == 4);
  REQUIRE(j["counters"].Size() == 2);
  CHECK(j["counters"][1]["max"].GetDouble() == doctest::Approx(3.0));
}

TEST_CASE("report: a long span label is cut in the middle to keep 80 columns") {
  rapidjson::Document d = jolt::host::parse_summary(fixture_json(), "s.json");
  const std::string label(120, 'x');
  rapidjson::Value agg(rapidjson::kObjectType);
  agg.AddMember("count", 1, d.GetAllocator());
  agg.AddMember("total_ns", 9'000'000, d.GetAllocator());
  agg.AddMember("self_ns", 9'000'000, d.GetAllocator());
  d["spans"].AddMember(rapidjson::Value(("a" + label + "z").c_str(), d.GetAllocator()), agg,
                       d.GetAllocator());
  const std::string text = render_report_text(report_from_summary_json(d, "s.json", 10));
  for (const auto& line : lines_of(text)) {
    INFO(line);
    CHECK(line.size() <= 80);
  }
  CHECK(text.find("  axxx") != std::string::npos);
  CHECK(text.find("x~x") != std::string::npos);
  CHECK(text.find("xxz ") != std::string::npos);
}

TEST_CASE("report: a summary without a required field is an error naming the field") {
  rapidjson::Document d = jolt::host::parse_summary(fixture_json(), "s.json");
  rapidjson::Pointer("/stages/1/wall_time_ns").Erase(d);
  CHECK_THROWS_WITH_AS(report_from_summary_json(d, "runs/x/summary.json", 10),
                       "runs/x/summary.json: /stages/1/wall_time_ns is absent",
                       jolt::host::SummaryError);
  rapidjson::Document e = jolt::host::parse_summary(fixture_json(), "s.json");
  rapidjson::Pointer("/spans/prove_batch/self_ns").Set(e, "soon");
  CHECK_THROWS_WITH_AS(report_from_summary_json(e, "s.json", 10),
                       "s.json: /spans/prove_batch/self_ns is not an unsigned integer",
                       jolt::host::SummaryError);
}

TEST_CASE("report formats durations and memory in readable units") {
  CHECK(format_duration_ns(120) == "120 ns");
  CHECK(format_duration_ns(850'000) == "850.0 us");
  CHECK(format_duration_ns(12'345'678) == "12.35 ms");
  CHECK(format_duration_ns(1'234'000'000) == "1.234 s");
  CHECK(format_gib(1.5) == "1.50 GiB");
  CHECK(format_gib(0.5) == "512.0 MiB");
  CHECK(format_gib(0.25, true) == "+256.0 MiB");
  CHECK(format_gib(-2.0, true) == "-2.00 GiB");
}

TEST_CASE("report resolves `latest`, a run directory and a summary.json path") {
  TempDir t;
  const fs::path out = t.dir / "runs";
  // No output folder, then an empty one: say so and what to run.
  CHECK(contains(resolve_error("latest", out.string()), "no output folder '" + out.string() + "'"));
  fs::create_directories(out);
  CHECK(contains(
      resolve_error("", out.string()),
      "no finished run in '" + out.string() + "' (no latest_* link): run `jolt-run profile"));

  make_run(out, "20260101-000000_modular_sha2_12", true);
  make_run(out, "20260102-000000_modular_fibonacci_10", true);
  make_run(out, "20260103-000000_modular_btreemap_11", false);  // unfinished: no link
  fs::create_symlink("20260102-000000_modular_fibonacci_10", out / "latest_modular_fibonacci_10");
  fs::create_symlink("20260101-000000_modular_sha2_12", out / "latest_modular_sha2_12");
  CHECK(resolve_summary_path("latest", out.string()) ==
        (out / "latest_modular_fibonacci_10" / "summary.json").string());
  CHECK(resolve_summary_path("", out.string()) ==
        (out / "latest_modular_fibonacci_10" / "summary.json").string());

  const fs::path dir = out / "20260101-000000_modular_sha2_12";
  CHECK(resolve_summary_path(dir.string(), "unused") == (dir / "summary.json").string());
  CHECK(resolve_summary_path((dir / "summary.json").string(), "unused") ==
        (dir / "summary.json").string());

  const fs::path bare = out / "20260103-000000_modular_btreemap_11";
  CHECK(contains(resolve_error(bare.string(), "unused"),
                 "no summary.json in " + bare.string() + ": run `jolt-run profile"));
  CHECK(contains(resolve_error((t.dir / "nope").string(), "unused"),
                 "no run directory '" + (t.dir / "nope").string()));

  // A newer run whose link points at a removed directory is reported, not skipped silently.
  fs::create_symlink("20260104-000000_modular_sha3_10", out / "latest_modular_sha3_10");
  CHECK(contains(resolve_error("latest", out.string()), "which is not a directory"));
}
