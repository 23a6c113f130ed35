// End-to-end: `jolt-run legacy profile` proves a real workload and writes the legacy layout
// (perfetto_traces/, pprof/, flamecharts/); scripts/postprocess_trace.py turns the trace's metric
// instants into counter tracks that `jolt-run validate` accepts, and a second run changes nothing.
#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <jolt/taxonomy.hpp>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "run_support.hpp"

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  return out;
}

// Events of a chrome trace (a bare array) by phase, and the metric instants' arg keys.
struct TraceCounts {
  std::size_t counter_events = 0;
  std::size_t metric_instants = 0;
  std::set<std::string> counter_names;
};

TraceCounts count_events(const std::string& json) {
  rapidjson::Document d;
  d.Parse(json.c_str());
  REQUIRE(d.IsArray());
  TraceCounts c;
  for (const auto& e : d.GetArray()) {
    const std::string ph = e["ph"].GetString();
    if (ph == "C") {
      ++c.counter_events;
      c.counter_names.insert(e["name"].GetString());
    }
    if (ph == "i" && std::string(e["name"].GetString()) == "metrics_sample") {
      ++c.metric_instants;
      CHECK(e["args"].HasMember("counters.memory_gib"));
    }
  }
  return c;
}

Result postprocess(const fs::path& trace, const fs::path& cwd) {
  return run_shell("/usr/bin/python3 '" JOLT_SOURCE_DIR "/scripts/postprocess_trace.py' '" +
                       trace.string() + "'",
                   cwd);
}

}  // namespace

TEST_CASE("legacy profile writes the legacy layout; postprocess_trace.py makes counter tracks") {
  Workspace w;
  // MONITOR_INTERVAL at its 50 ms floor: a 2^10 prove still gets metric samples.
  const Result r = run_shell("MONITOR_INTERVAL=0.05 '" JOLT_RUN_EXE
                             "' legacy profile --name fibonacci --scale 10 --format chrome "
                             "--monitor --pprof --heap-svg -q --log-level debug",
                             w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(r.output.find("legacy fibonacci (2^10, optimized): Prover completed") != std::string::npos);
  // --log-level debug (JOLT_LOG=debug): RSS at every stage boundary.
  for (std::string_view stage : jolt::taxonomy::kEmittedStageSpans)
    CHECK(r.output.find("memory usage at the start of " + std::string(stage) + ": RSS ") !=
          std::string::npos);
  CHECK(r.output.find("memory usage after prove (end of the last stage): RSS ") !=
        std::string::npos);

  // The legacy layout and nothing else: no run directory, no latest_ link, no summary.json.
  std::set<std::string> top;
  for (const fs::path& p : files_in(w.runs())) top.insert(p.filename().string());
  CHECK(top == std::set<std::string>{"flamecharts", "perfetto_traces", "pprof"});

  const std::vector<fs::path> traces = files_in(w.runs() / "perfetto_traces");
  REQUIRE(traces.size() == 1);
  const std::string trace_file = traces[0].filename().string();
  std::smatch m;
  REQUIRE(std::regex_match(trace_file, m, std::regex(R"(fibonacci_(\d{8}-\d{4})\.json)")));
  const std::string stamp = m[1];
  const fs::path trace = traces[0];

  // The metric samples are instants (the legacy encoding), not counter tracks, and Perfetto can
  // import the file as it is.
  const std::string raw = slurp(trace);
  const TraceCounts before = count_events(raw);
  CHECK(before.counter_events == 0);
  CHECK(before.metric_instants >= 1);
  const Result valid_raw = run("validate '" + trace.string() + "'", w.dir);
  INFO(valid_raw.output);
  CHECK(valid_raw.code == 0);

  // One gzip-compressed CPU profile per stage and one for the whole prove.
  std::set<std::string> pprof;
  for (const fs::path& p : files_in(w.runs() / "pprof")) {
    pprof.insert(p.filename().string());
    const std::string bytes = slurp(p);
    REQUIRE(bytes.size() > 2);
    CHECK(static_cast<unsigned char>(bytes[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(bytes[1]) == 0x8b);
  }
  std::set<std::string> expected_pprof{"fibonacci_prove.pb"};
  for (std::string_view stage : jolt::taxonomy::kEmittedStageSpans)
    expected_pprof.insert("fibonacci_" + std::string(stage) + ".pb");
  CHECK(pprof == expected_pprof);

  // The legacy prover's charts, stage{N}_start / stage{N}_end for stages 2-7, and one for each
  // per-batch snapshot taken while those stages ran (after its prepare), the stage's batch and
  // the kernels that take their own; none for stage 1 or 8.
  std::set<std::string> charts;
  std::map<std::string, std::string> svgs;
  for (const fs::path& p : files_in(w.runs() / "flamecharts" / ("fibonacci_" + stamp))) {
    charts.insert(p.filename().string());
    const std::string svg = slurp(p);
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
    svgs[p.filename().string()] = svg;
  }
  std::set<std::string> expected_charts{
      "Stage2Batch_prepared_flamechart.svg", "Stage3_prepared_flamechart.svg",
      "Stage4_prepared_flamechart.svg", "Stage5_prepared_flamechart.svg",
      "Stage6a_prepared_flamechart.svg", "Stage6b_prepared_flamechart.svg",
      "Stage7Batch_prepared_flamechart.svg",
      // the kernels that take their own: stage 2, stage 4, stage 5 (two) and stage 6b
      "RamReadWriteChecking_prepared_flamechart.svg", "RamValCheck_prepared_flamechart.svg",
      "InstructionReadRaf_prepared_flamechart.svg", "RamRaVirtualization_prepared_flamechart.svg",
      "InstructionRaVirtualization_prepared_flamechart.svg"};
  for (const char* n : {"2", "3", "4", "5", "6", "7"}) {
    expected_charts.insert("stage" + std::string(n) + "_start_flamechart.svg");
    expected_charts.insert("stage" + std::string(n) + "_end_flamechart.svg");
  }
  CHECK(charts == expected_charts);
  // Real snapshots of different moments: stage 2's kernel is allocated at its end, not its start.
  CHECK(svgs["stage2_start_flamechart.svg"].find("ProductVirtualization") == std::string::npos);
  CHECK(svgs["stage2_end_flamechart.svg"].find("ProductVirtualization") != std::string::npos);
  CHECK(svgs["stage7_end_flamechart.svg"].find("ColumnClaimReduction") != std::string::npos);

  // postprocess_trace.py: every metric instant becomes one counter event per metric.
  const Result first = postprocess(trace, w.dir);
  INFO(first.output);
  REQUIRE(first.code == 0);
  const std::string converted = slurp(trace);
  const TraceCounts after = count_events(converted);
  CHECK(after.metric_instants == 0);
  CHECK(after.counter_events == 7 * before.metric_instants);
  CHECK(after.counter_names ==
        std::set<std::string>{"memory_gib", "cpu_percent", "cores_active_avg", "cores_active",
                              "thread_count", "process_cpu_percent", "process_threads_active"});
  const Result valid = run("validate '" + trace.string() + "'", w.dir);
  INFO(valid.output);
  CHECK(valid.code == 0);
  CHECK(valid.output.find(std::to_string(after.counter_events) + " counter samples") !=
        std::string::npos);
  // Idempotent: the second run finds nothing to convert and leaves the file as it is.
  const Result second = postprocess(trace, w.dir);
  INFO(second.output);
  CHECK(second.code == 0);
  CHECK(slurp(trace) == converted);
  CHECK(files_in(w.runs() / "perfetto_traces").size() == 1);  // no temporary file left
}

TEST_CASE("legacy profile: two runs at once in one folder each keep their own trace and charts") {
  Workspace w;
  // Started together, so both name their trace in the same minute (checked below; a run across
  // a minute boundary gets distinct names anyway and the check of the suffix is skipped).
  const std::string one = "'" JOLT_RUN_EXE
                          "' legacy profile --name fibonacci --scale 10 --format chrome "
                          "--heap-svg -q";
  // Braced: run_shell prefixes `cd DIR &&`, which must hold for both background jobs.
  const Result r = run_shell("{ (" + one + " > a.log 2>&1; echo $? > a.rc) & (" + one +
                                 " > b.log 2>&1; echo $? > b.rc) & wait; }",
                             w.dir);
  INFO(r.output, slurp(w.dir / "a.log"), slurp(w.dir / "b.log"));
  REQUIRE(slurp(w.dir / "a.rc") == "0\n");
  REQUIRE(slurp(w.dir / "b.rc") == "0\n");
  std::vector<std::string> names;
  for (const fs::path& p : files_in(w.runs() / "perfetto_traces")) {
    names.push_back(p.filename().string());
    rapidjson::Document d;
    d.Parse(slurp(p).c_str());
    CHECK(d.IsArray());  // each a complete trace
  }
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() == 2);  // two traces, no staging file left
  std::smatch m0, m1;
  REQUIRE(std::regex_match(names[0], m0, std::regex(R"(fibonacci_(\d{8}-\d{4})\.json)")));
  REQUIRE(std::regex_match(names[1], m1, std::regex(R"(fibonacci_(\d{8}-\d{4})(_2)?\.json)")));
  if (m0[1] == m1[1]) CHECK(names[1] == "fibonacci_" + std::string(m0[1]) + "_2.json");
  // Each run's flame charts in the folder named by its own trace.
  std::set<std::string> folders;
  for (const fs::path& p : files_in(w.runs() / "flamecharts")) {
    folders.insert(p.filename().string() + ".json");
    CHECK(files_in(p).size() == 24);  // as in the test above
  }
  CHECK(folders == std::set<std::string>(names.begin(), names.end()));
}

TEST_CASE("legacy profile: a bad --name, --format or subcommand is named and writes nothing") {
  Workspace w;
  struct Case {
    const char* args;
    int code;
    const char* says;
  };
  for (const Case& c : {
           Case{"legacy profile --name nosuch --format chrome", 1, "nosuch"},
           Case{"legacy profile --name ../fibonacci --format chrome", 2, "not a path"},
           Case{"legacy profile --format chrome", 2, "--name NAME is required"},
           Case{"legacy profile --name fibonacci --format json", 2, "chrome traces only"},
           Case{"legacy profile --name fibonacci --elf x.elf", 2, "named workloads"},
           Case{"legacy frobnicate", 2, "unknown subcommand 'frobnicate'"},
       }) {
    const Result r = run(c.args, w.dir);
    INFO(c.args);
    INFO(r.output);
    CHECK(r.code == c.code);
    CHECK(r.output.find(c.says) != std::string::npos);
    CHECK_FALSE(fs::exists(w.runs()));
  }
}
