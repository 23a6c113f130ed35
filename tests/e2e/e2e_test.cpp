// End-to-end: the real jolt-run binary proves a real workload and writes its run directory.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <rapidjson/document.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <random>
#include <vector>

#include "jolt/host/proof_file.hpp"
#include "run_support.hpp"
#include "rv32_asm.hpp"

#include <boost/filesystem.hpp>
#include <cstdio>
#include <fstream>
#include <jolt/taxonomy.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

constexpr const char* kTrace = "modular_fibonacci_13";

// A run's trace.json parsed; events(): its event array (a bare array or "traceEvents").
struct ParsedTrace {
  rapidjson::Document doc;
  const rapidjson::Value& events() const { return doc.IsArray() ? doc : doc["traceEvents"]; }
};

// A JSON file (summary.json, trace.json) parsed; the test stops when it does not parse.
rapidjson::Document parse_json_file(const fs::path& file) {
  rapidjson::Document d;
  d.Parse(slurp(file).c_str());
  INFO(file.string());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

ParsedTrace parse_trace(const fs::path& file) {
  ParsedTrace t;
  t.doc = parse_json_file(file);
  INFO(file.string());
  REQUIRE((t.doc.IsArray() || (t.doc.IsObject() && t.doc.HasMember("traceEvents"))));
  REQUIRE(t.events().IsArray());
  return t;
}

// One successful chrome run shared by the checks below (proving is the slow part).
const Workspace& profiled() {
  static Workspace w;
  static bool done = false;
  if (!done) {
    done = true;
    Result r = run("profile --workload fibonacci --scale 13 --format chrome", w.dir);
    INFO(r.output);
    REQUIRE(r.code == 0);
    std::ofstream(w.dir / "profile.out") << r.output;  // the console output, for the checks
  }
  return w;
}

}  // namespace

TEST_CASE("profile writes a run directory, moves latest_, and its artifacts are conformant") {
  const Workspace& w = profiled();
  const fs::path latest = w.runs() / (std::string("latest_") + kTrace);
  REQUIRE(fs::is_symlink(latest));
  const std::string target = fs::read_symlink(latest).string();
  CHECK(target.size() == 15 + 1 + std::string(kTrace).size());
  CHECK(target[8] == '-');
  CHECK(target.substr(16) == kTrace);
  const fs::path run_dir = w.runs() / target;
  CHECK(fs::exists(run_dir / "trace.json"));
  CHECK(fs::exists(run_dir / "summary.json"));
  CHECK(fs::exists(run_dir / "timings.csv"));
  CHECK_FALSE(fs::exists(w.runs() / (std::string(kTrace) + ".lock")));  // lock released

  // trace.json: every always-present label appears as a B event; no counters.* args.
  const ParsedTrace trace = parse_trace(run_dir / "trace.json");
  const rapidjson::Value& events = trace.events();
  std::set<std::string> begun;
  bool counter_track = false;
  std::map<std::int64_t, std::string> thread_names;  // tid -> thread_name metadata
  std::set<std::int64_t> span_tids;
  for (const auto& e : events.GetArray()) {
    const std::string ph = e["ph"].GetString();
    if (ph == "B") {
      begun.insert(e["name"].GetString());
      span_tids.insert(e["tid"].GetInt64());
    }
    if (ph == "C") counter_track = true;
    if (ph == "M" && std::string(e["name"].GetString()) == "thread_name")
      thread_names[e["tid"].GetInt64()] = e["args"]["name"].GetString();
  }
  // Every thread with spans is the prover's caller or one of its TBB workers, named so.
  for (std::int64_t tid : span_tids) {
    INFO(thread_names[tid]);
    CHECK((thread_names[tid] == "main" || thread_names[tid].rfind("tbb-worker-", 0) == 0));
  }
  for (auto label : jolt::taxonomy::kAlwaysPresentSpans) {
    INFO(label);
    CHECK(begun.count(std::string(label)) == 1);
  }
  CHECK(slurp(run_dir / "trace.json").find("counters.") == std::string::npos);
  (void)counter_track;  // a 2^12 prove can finish between two monitor samples

  // summary.json: validates, root present, stages in pipeline order.
  Result v = run("validate '" + (run_dir / "summary.json").string() + "'", w.dir);
  INFO(v.output);
  CHECK(v.code == 0);
  Result vt = run("validate '" + (run_dir / "trace.json").string() + "'", w.dir);
  INFO(vt.output);
  CHECK(vt.code == 0);
  rapidjson::Document s = parse_json_file(run_dir / "summary.json");
  CHECK(s["schema_version"].GetUint() == 3);
  CHECK(std::string(s["run"]["workload"].GetString()) == "fibonacci");
  CHECK(s["run"]["scale_log2"].GetUint() == 13);
  // What was proved, and where (schema v3).
  const std::uint64_t rows = s["run"]["trace_length"].GetUint64();
  const unsigned padded = s["run"]["padded_scale_log2"].GetUint();
  CHECK(rows > 0);
  CHECK(padded <= 13);
  CHECK(rows < (std::uint64_t{1} << padded));
  CHECK(s["run"]["proof_size_bytes"].GetUint64() > 0);
  CHECK(s["run"]["verified"].GetBool());
  REQUIRE(s["run"]["host"]["logical_cpus"].IsUint());
  CHECK(s["run"]["host"]["logical_cpus"].GetUint() >= 1);
  CHECK(s["run"]["host"]["memory_bytes"].GetUint64() > 0);
  // The console says when the padded scale is below the requested one (the run keeps its name).
  const std::string console = slurp(w.dir / "profile.out");
  CHECK((console.find("proved at padded scale 2^" + std::to_string(padded)) != std::string::npos) ==
        (padded < 13));
  CHECK(std::string(s["root"]["label"].GetString()) == "jolt_prover::prove");
  CHECK(s["root"]["wall_time_ns"].GetUint64() > 0);
  const double dark = s["root"]["dark_time_fraction"].GetDouble();
  CHECK(dark >= 0.0);
  CHECK(dark <= 1.0);
  CHECK(s["peak_rss_gib"].IsNumber());
  // The original's closing lines: root span and dark time as the summary has them, the run, its
  // trace and summary files.
  char closing[160];
  std::snprintf(closing, sizeof closing,
                "modular fibonacci (2^13): root span %.2fs, dark time %.1f%%\n",
                static_cast<double>(s["root"]["wall_time_ns"].GetUint64()) / 1e9, 100.0 * dark);
  CHECK(console.find(closing) != std::string::npos);
  const std::string run_path = run_dir.string();
  CHECK(console.find("Run:     " + run_path + " (-> ") != std::string::npos);
  CHECK(console.find("Trace:   " + run_path + "/trace.json\n") != std::string::npos);
  CHECK(console.find("Summary: " + run_path + "/summary.json\n") != std::string::npos);
  std::vector<std::string> stages;
  for (const auto& st : s["stages"].GetArray()) {
    stages.push_back(st["label"].GetString());
    CHECK(st["rss_open_gib"].IsNumber());
  }
  REQUIRE(stages.size() >= 2);
  std::size_t last = 0;
  for (const auto& label : stages) {
    std::size_t idx = 0;
    while (idx < jolt::taxonomy::kStageSpans.size() && jolt::taxonomy::kStageSpans[idx] != label)
      ++idx;
    REQUIRE(idx < jolt::taxonomy::kStageSpans.size());
    CHECK(idx >= last);
    last = idx;
  }

  // CSVs: one row per run, consolidated header once.
  const std::string row = slurp(run_dir / "timings.csv");
  CHECK(row.rfind("fibonacci,13,", 0) == 0);
  const std::string all = slurp(w.runs() / "modular_timings.csv");
  CHECK(all.rfind("benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,proof_"
                  "size_compressed,backend\n",
                  0) == 0);
}

TEST_CASE("diff compares a run with itself: no change, noise unknown, no regression") {
  const Workspace& w = profiled();
  const std::string dir = (w.runs() / (std::string("latest_") + kTrace)).string();
  Result d = run("diff '" + dir + "' '" + dir + "/summary.json' --fail-on-regression 1", w.dir);
  INFO(d.output);
  CHECK(d.code == 0);
  CHECK(d.output.find("A: fibonacci 2^13 (1 run)") != std::string::npos);
  CHECK(d.output.find("stage prove_stage0") != std::string::npos);
  CHECK(d.output.find("+0.0%") != std::string::npos);
  CHECK(d.output.find("noise unknown") != std::string::npos);
  Result md = run("diff '" + dir + "' '" + dir + "' --markdown", w.dir);
  CHECK(md.output.find("| metric | A (median) | B (median) | change | verdict |") !=
        std::string::npos);
  Result twice = run("diff '" + dir + "," + dir + "' '" + dir + "'", w.dir);
  CHECK(twice.code == 2);
  CHECK(twice.output.find("is listed twice on side A; a run counts once") != std::string::npos);
  // A negative time in a summary is an error, not "-0.0 us".
  std::string text = slurp(fs::path(dir) / "summary.json");
  const std::size_t wall = text.find("\"wall_time_ns\": ") + 16;
  text.replace(wall, text.find_first_of(",}", wall) - wall, "-5");
  std::ofstream(w.dir / "negative.json") << text;
  Result negative = run("diff '" + dir + "' negative.json", w.dir);
  CHECK(negative.code == 1);
  CHECK(negative.output.find("/root/wall_time_ns is negative") != std::string::npos);
  Result missing = run("diff '" + dir + "' /nonexistent", w.dir);
  CHECK(missing.code == 1);
  CHECK(missing.output.find("/nonexistent") != std::string::npos);
  CHECK(run("diff '" + dir + "'", w.dir).code == 2);
}

TEST_CASE(
    "a failing sink: the other sinks still run, the run fails, latest_ stays, no shared row") {
  const Workspace& w = profiled();
  const fs::path latest = w.runs() / (std::string("latest_") + kTrace);
  const std::string before = fs::read_symlink(latest).string();
  const auto csv_rows = [&] {
    const std::string csv = slurp(w.runs() / "modular_timings.csv");
    return std::count(csv.begin(), csv.end(), '\n');
  };
  const auto rows_before = csv_rows();
  // The csv sink is listed before the failing one: it still runs after it (it writes a file
  // shared across runs), and adds no row to modular_timings.csv for this failed run.
  Result r = run("profile --workload fibonacci --scale 13 --sink csv --sink '" JOLT_FAILING_SINK
                 "' --sink chrome --sink summary",
                 w.dir);
  INFO(r.output);
  CHECK(r.code == 1);
  CHECK(r.output.find("sink 'failing'") != std::string::npos);
  CHECK(r.output.find("refusing to write into") != std::string::npos);
  CHECK(fs::read_symlink(latest).string() == before);
  CHECK(fs::exists(w.runs() / before / "summary.json"));
  // The sinks after the failing one wrote their artifacts into the (unpublished) run directory.
  std::size_t failed_runs = 0;
  for (fs::directory_iterator it(w.runs()), end; it != end; ++it) {
    if (!fs::is_directory(it->symlink_status()) || it->path().filename() == before) continue;
    if (!fs::exists(it->path() / ".incomplete")) continue;
    ++failed_runs;
    CHECK(fs::exists(it->path() / "trace.json"));
    CHECK(fs::exists(it->path() / "summary.json"));
    CHECK(fs::exists(it->path() / "timings.csv"));
    // The commands that read runs still read it, and say it did not finish.
    const std::string dir = it->path().string();
    for (const std::string& cmd : {"report '" + dir + "'", "diff '" + dir + "' '" + dir + "'",
                                   "sql '" + dir + "' 'SELECT COUNT(*) FROM slice'"}) {
      CAPTURE(cmd);
      Result read = run(cmd, w.dir);
      CHECK(read.code == 0);
      CHECK(read.output.find("is marked .incomplete: its run failed or was stopped") !=
            std::string::npos);
    }
  }
  CHECK(failed_runs == 1);
  CHECK(csv_rows() == rows_before);
  Result finished = run("report '" + (w.runs() / before).string() + "'", w.dir);
  CHECK(finished.code == 0);
  CHECK(finished.output.find("is marked .incomplete") == std::string::npos);
}

TEST_CASE("a sink that crashes the process leaves nothing that blocks a rerun") {
  Workspace w;
  Result crash =
      run("profile --workload fibonacci --scale 13 --sink '" JOLT_CRASHING_SINK "' --sink summary",
          w.dir);
  CHECK(crash.code != 0);
  CHECK_FALSE(fs::exists(w.runs() / (std::string("latest_") + kTrace)));
  Result again = run("profile --workload fibonacci --scale 13 --format chrome", w.dir);
  INFO(again.output);
  CHECK(again.code == 0);
  CHECK(fs::exists(w.runs() / (std::string("latest_") + kTrace) / "summary.json"));
}

TEST_CASE("a sink that throws (ABI 4.3) fails as a named sink; the other sinks still write") {
  Workspace w;
  Result threw =
      run("profile --workload fibonacci --scale 10 --sink '" JOLT_THROWING_SINK "' --sink summary",
          w.dir);
  INFO(threw.output);
  CHECK(threw.code == 1);
  CHECK(threw.output.find("sink 'throwing' (") != std::string::npos);
  CHECK(threw.output.find("threw an exception: write boom (test sink)") != std::string::npos);
  CHECK(threw.output.find("1 of 2 sinks failed ('throwing')") != std::string::npos);
  CHECK_FALSE(fs::exists(w.runs() / "latest_modular_fibonacci_10"));
  std::size_t kept = 0;  // the failed run's directory, marked, with the summary sink's file
  for (const auto& e : fs::directory_iterator(w.runs()))
    if (fs::exists(e.path() / ".incomplete")) kept += fs::exists(e.path() / "summary.json");
  CHECK(kept == 1);
  // From configure(): refused before anything is proved.
  Result early =
      run("profile --workload fibonacci --scale 10 --sink '" JOLT_THROWING_SINK ":at=configure'",
          w.dir);
  INFO(early.output);
  CHECK(early.code != 0);
  CHECK(early.output.find("sink 'throwing' (") != std::string::npos);
  CHECK(early.output.find("configure threw an exception: configure boom (test sink)") !=
        std::string::npos);
  CHECK(early.output.find("proving:") == std::string::npos);
}

TEST_CASE("--sink NAME:key=value passes options; a wrong option fails before proving") {
  Workspace w;
  Result ok = run("profile --workload fibonacci --scale 10 --sink '" JOLT_OPTIONS_SINK
                  ":file=opts.txt,note=hello' --sink summary",
                  w.dir);
  INFO(ok.output);
  REQUIRE(ok.code == 0);
  CHECK(slurp(w.runs() / "latest_modular_fibonacci_10" / "opts.txt") == "note=hello\n");
  // The sink names the key it does not know; nothing was proved (no "proving:" line), no run
  // directory was left.
  Result bad = run("profile --workload fibonacci --scale 10 --sink '" JOLT_OPTIONS_SINK
                   ":file=o.txt,colour=red'",
                   w.dir);
  CHECK(bad.code != 0);
  CHECK(bad.output.find("sink 'options'") != std::string::npos);
  CHECK(bad.output.find("unknown option 'colour'") != std::string::npos);
  CHECK(bad.output.find("proving:") == std::string::npos);
  std::size_t run_dirs = 0;
  for (const auto& e : fs::directory_iterator(w.runs()))
    run_dirs += e.path().filename().string().rfind("2", 0) == 0;  // yyyymmdd-... directories
  CHECK(run_dirs == 1);  // only the first, successful run's
  // A built-in sink takes no options: said before proving too.
  Result builtin = run("profile --workload fibonacci --scale 10 --sink summary:depth=3", w.dir);
  CHECK(builtin.code != 0);
  CHECK(builtin.output.find("sink 'summary'") != std::string::npos);
  CHECK(builtin.output.find("takes no options (got 'depth')") != std::string::npos);
  CHECK(builtin.output.find("proving:") == std::string::npos);
  // A malformed option list is named.
  Result malformed = run("profile --workload fibonacci --scale 10 --sink summary:a=1,b", w.dir);
  CHECK(malformed.code != 0);
  CHECK(malformed.output.find("option 'b' is not key=value") != std::string::npos);
}

TEST_CASE("bad plugin arguments get errors that name the plugin and what to do") {
  Workspace w;
  Result twice =
      run("profile --workload fibonacci --scale 13 --sink summary --sink summary", w.dir);
  CHECK(twice.code != 0);
  CHECK(twice.output.find("sink 'summary' is given twice") != std::string::npos);
  // One plugin file named by two spellings (a path, the same path through "./", its bare name in
  // a plugin folder): refused, not run once with one spelling's options dropped.
  const fs::path options(JOLT_OPTIONS_SINK);
  const std::string dotted = (options.parent_path() / "." / options.filename()).string();
  for (const std::string& other :
       {dotted, std::string("options --plugin-path '") + options.parent_path().string() + "'"}) {
    Result spelled = run("profile --workload fibonacci --scale 10 --sink '" JOLT_OPTIONS_SINK
                         ":file=a.txt' --sink " +
                             (other == dotted ? "'" + other + ":file=b.txt'" : other),
                         w.dir);
    INFO(spelled.output);
    CHECK(spelled.code != 0);
    CHECK(spelled.output.find("name the same plugin (" + fs::canonical(options).string() + ")") !=
          std::string::npos);
    CHECK(spelled.output.find("proving:") == std::string::npos);
  }
  Result wrong = run("profile --workload chrome --scale 13", w.dir);
  CHECK(wrong.code != 0);
  CHECK(wrong.output.find("is a sink plugin ('chrome')") != std::string::npos);
  Result unknown = run("profile --workload fibonaci --scale 13", w.dir);
  CHECK(unknown.code != 0);
  CHECK(unknown.output.find("unknown workload 'fibonaci'") != std::string::npos);
  CHECK(unknown.output.find("fibonacci") != std::string::npos);  // lists what exists
  Result scale = run("profile --workload fibonacci --scale 41", w.dir);
  CHECK(scale.code != 0);
  CHECK(scale.output.find("--scale 41 out of range") != std::string::npos);
  CHECK_FALSE(fs::exists(w.runs() / "latest_modular_fibonacci_13"));
}

TEST_CASE("numbers, aliases and paths that cannot mean what was typed are refused up front") {
  Workspace w;
  std::ofstream(w.dir / "a-file") << "x\n";
  struct Refusal {
    std::string args;
    int code;
    std::string says;
  };
  const std::string negative = "takes a number of 0 or more (got '-";
  const Refusal refusals[] = {
      // Boost reads "-1" for an unsigned option modulo 2^32; every command refuses it instead.
      {"profile --workload fibonacci --scale -4294967284", 2, negative},
      {"trace --workload fibonacci --scale -1", 2, negative},
      {"benchmark --min-scale -1 --plan", 2, negative},
      {"report --top -1", 2, negative},
      {"diff --top -1 a b", 2, negative},
      {"validate --max-bytes -1 x.json", 2, negative},
      {"profile --workload fibonacci --name sha2-chain --scale 10", 2,
       "--name is an alias of --workload: pass one of them"},
      {"benchmark --min-scale 14 --max-scale 12 --plan", 2,
       "--min-scale 14 is above --max-scale 12"},
      {"benchmark --min-scale 12 --max-scale 41 --plan", 2, "--max-scale 41 out of range"},
      {"benchmark --benchmarks fibonacci --min-scale 10 --max-scale 10 --out-dir a-file", 2,
       "--out-dir a-file is a file, not a folder"},
      {"trace --workload fibonacci --scale 10 --plugin-path /nonexistent", 2,
       "--plugin-path '/nonexistent' is not a folder"},
      // Paths that cannot be what they stand for are named before any proving.
      {"prove --workload fibonacci --scale 10 --proof nodir/x/p.bin", 1,
       "does not exist; create it or choose another path"},
      {"verify --workload fibonacci --scale 10 --proof .", 1, "proof file .: is a folder"},
      {"trace --elf . --scale 10", 1, "--elf . is a folder; pass a file"},
      {"sql latest", 2, "'latest' is a run, not a query"},
  };
  for (const Refusal& c : refusals) {
    CAPTURE(c.args);
    Result r = run(c.args, w.dir);
    CHECK(r.code == c.code);
    CHECK(r.output.find(c.says) != std::string::npos);
    // Nothing was run: no sweep, no prove.
    CHECK(r.output.find("Running benchmarks") == std::string::npos);
    CHECK(r.output.find("proving:") == std::string::npos);
  }
  CHECK_FALSE(fs::exists(w.runs() / "latest_modular_fibonacci_12"));
}

TEST_CASE("profile records the process counters beside the machine-wide ones; prints CPU time") {
  Workspace w;
  // The shortest interval, so that even a fast 2^10 prove is sampled several times.
  Result r = run("profile --workload fibonacci --scale 10 --format chrome", w.dir,
                 "MONITOR_INTERVAL=0.05");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const fs::path run_dir = w.runs() / fs::read_symlink(w.runs() / "latest_modular_fibonacci_10");
  const ParsedTrace trace = parse_trace(run_dir / "trace.json");
  const rapidjson::Value& events = trace.events();
  std::map<std::string, std::vector<double>> tracks;
  for (const auto& e : events.GetArray())
    if (std::string(e["ph"].GetString()) == "C") {
      const std::string name = e["name"].GetString();
      tracks[name].push_back(e["args"][name.c_str()].GetDouble());
    }
  using namespace jolt::taxonomy;
  for (auto name : {kMemoryCounter, kCpuPercentCounter, kCoresActiveAvgCounter, kCoresActiveCounter,
                    kThreadCountCounter, kProcessCpuPercentCounter, kProcessThreadsActiveCounter}) {
    INFO(name);
    CHECK_FALSE(tracks[std::string(name)].empty());
  }
  // The prover ran in every interval of its prove: the process used CPU, at least one thread ran.
  const auto& cpu = tracks[std::string(kProcessCpuPercentCounter)];
  const auto& active = tracks[std::string(kProcessThreadsActiveCounter)];
  REQUIRE_FALSE(cpu.empty());
  CHECK(*std::max_element(cpu.begin(), cpu.end()) > 10.0);
  CHECK(*std::max_element(active.begin(), active.end()) >= 1.0);
  // summary.json summarises them like the other counters (no schema change).
  rapidjson::Document s = parse_json_file(run_dir / "summary.json");
  CHECK(s["counters"].HasMember("process_cpu_percent"));
  CHECK(s["counters"].HasMember("process_threads_active"));
  // The prove's CPU time / wall time is on the line that reports the prove time.
  const std::size_t line = r.output.find("Prover completed in ");
  REQUIRE(line != std::string::npos);
  const std::size_t cpu_at = r.output.find(", CPU time ", line);
  REQUIRE(cpu_at != std::string::npos);
  double cpu_secs = -1, speedup = -1;
  REQUIRE(std::sscanf(r.output.c_str() + cpu_at, ", CPU time %lfs (%lfx wall)", &cpu_secs,
                      &speedup) == 2);
  CHECK(cpu_secs > 0.0);
  CHECK(speedup > 0.0);
}

TEST_CASE("--format none runs without a recorder and still writes the CSV row") {
  Workspace w;
  Result r = run("profile --workload fibonacci --scale 13 --format none", w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  const fs::path run_dir = w.runs() / fs::read_symlink(w.runs() / "latest_modular_fibonacci_13");
  CHECK(fs::exists(run_dir / "timings.csv"));
  CHECK_FALSE(fs::exists(run_dir / "trace.json"));
  CHECK_FALSE(fs::exists(run_dir / "summary.json"));
  // A sink that reads spans gets none without the recorder, and the run says so.
  Result chrome = run("profile --workload fibonacci --scale 12 --format none --sink chrome", w.dir);
  CHECK(chrome.code == 0);
  CHECK(chrome.output.find("--format none records no spans or heap snapshots: sink 'chrome' "
                           "writes its files without them") != std::string::npos);
  CHECK(r.output.find("records no spans") == std::string::npos);
}

TEST_CASE("jolt-run proves on transparent huge pages unless told not to") {
  // main() re-runs jolt-run once with glibc.malloc.hugetlb=1 (core/huge_pages.hpp); JOLT_LOG=debug
  // says which.
  Workspace w;
  const std::string cmd = "profile --workload fibonacci --scale 10 --format none --log-level debug";
  const std::string on = "malloc before prove: transparent huge pages";
  const std::string off = "malloc before prove: normal pages";
  Result r = run(cmd, w.dir);
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK(r.output.find(on) != std::string::npos);
  CHECK(r.output.find("anonymous memory in huge pages: ") != std::string::npos);
  // Switched off; a malloc.hugetlb the user chose is kept; other tunables are kept beside ours.
  struct Case {
    const char* env;
    const std::string& says;
  };
  const Case cases[] = {{"JOLT_HUGEPAGES=0", off},
                        {"GLIBC_TUNABLES=glibc.malloc.hugetlb=0", off},
                        {"GLIBC_TUNABLES=glibc.malloc.hugetlb=1", on},
                        {"GLIBC_TUNABLES=glibc.malloc.arena_max=8", on}};
  for (const Case& c : cases) {
    INFO(c.env);
    r = run(cmd, w.dir, c.env);
    CHECK(r.code == 0);
    CHECK(r.output.find(c.says) != std::string::npos);
  }
}

TEST_CASE("the log level: --log-level, else JOLT_LOG, else RUST_LOG when it is one plain level") {
  Workspace w;
  const std::string cmd = "profile --workload fibonacci --scale 10 --format none";
  const std::string debug_line = "malloc before prove: ";
  struct Case {
    const char* env;
    bool debug;
  };
  const Case cases[] = {{"RUST_LOG=debug", true},
                        {"RUST_LOG=jolt_core=debug", false},
                        {"RUST_LOG=debug JOLT_LOG=info", false},
                        {"JOLT_LOG=debug", true}};
  for (const Case& c : cases) {
    INFO(c.env);
    // Neither variable leaks in from the environment the tests run in.
    const Result r = run(cmd, w.dir, std::string("env -u JOLT_LOG -u RUST_LOG ") + c.env);
    CHECK(r.code == 0);
    CHECK((r.output.find(debug_line) != std::string::npos) == c.debug);
  }
}

TEST_CASE("the memory pre-flight check refuses a run that cannot fit, before writing anything") {
  Workspace w;
  // 2^13 with Basefold is estimated at 41.9 MiB, 2^12 at 38.4 MiB: a 41 MiB budget holds only
  // 2^12.
  Result r = run("profile --workload fibonacci --scale 13 --memory-budget 0.04", w.dir);
  INFO(r.output);
  CHECK(r.code == 1);
  CHECK(r.output.find("proving fibonacci at scale 2^13 needs about") != std::string::npos);
  CHECK(r.output.find("(--memory-budget)") != std::string::npos);
  CHECK(r.output.find("the largest scale that fits is 2^12: use --scale 12 or smaller") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(w.runs()));  // no run directory, no lock, no latest_ link
  // prove checks too.
  r = run("prove --workload fibonacci --scale 13 --memory-budget 0.04 --proof p.bin", w.dir);
  CHECK(r.code == 1);
  CHECK(r.output.find("the largest scale that fits is 2^12") != std::string::npos);
  CHECK_FALSE(fs::exists(w.dir / "p.bin"));
  // --force runs anyway and says so; a budget that holds the estimate runs silently.
  r = run("profile --workload fibonacci --scale 13 --memory-budget 0.04 --force --format none",
          w.dir);
  CHECK(r.code == 0);
  CHECK(r.output.find("running anyway: --force") != std::string::npos);
  r = run("profile --workload fibonacci --scale 12 --memory-budget 0.04 --format none", w.dir);
  CHECK(r.code == 0);
  CHECK(r.output.find("pre-flight") == std::string::npos);
  CHECK(r.output.find("running anyway") == std::string::npos);
  // benchmark hands both flags to each profile run: the pair that cannot fit fails, named.
  r =
      run("benchmark --benchmarks fibonacci --min-scale 12 --max-scale 13 --format none "
          "--memory-budget 0.04 --out-dir sweep",
          w.dir);
  CHECK(r.output.find("Completed: 1") != std::string::npos);
  CHECK(r.output.find("Failed: 1") != std::string::npos);
  CHECK(r.output.find("the largest scale that fits is 2^12") != std::string::npos);
  r =
      run("benchmark --benchmarks fibonacci --min-scale 13 --max-scale 13 --format none "
          "--memory-budget 0.04 --force --out-dir sweep2",
          w.dir);
  CHECK(r.output.find("Completed: 1") != std::string::npos);
  // A budget that is not a positive number of GiB is refused before anything runs (0 is not
  // "unset").
  for (const char* cmd : {"benchmark --benchmarks fibonacci --min-scale 12 --max-scale 12 "
                          "--memory-budget 0 --out-dir sweep3",
                          "profile --workload fibonacci --scale 12 --memory-budget -1 --out-dir "
                          "sweep3"}) {
    CAPTURE(cmd);
    r = run(cmd, w.dir);
    CHECK(r.code == 2);
    CHECK(r.output.find("expected a positive number of GiB") != std::string::npos);
    CHECK_FALSE(fs::exists(w.dir / "sweep3"));
  }
}

TEST_CASE("a lock file left behind by a dead run does not block the next run") {
  Workspace w;
  fs::create_directories(w.runs());
  std::ofstream((w.runs() / "modular_fibonacci_13.lock").string()) << "12345\n";
  Result r = run("profile --workload fibonacci --scale 13 --format none", w.dir);
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK_FALSE(fs::exists(w.runs() / "modular_fibonacci_13.lock"));
}

TEST_CASE("a read-only output folder is named as such, not reported as a lock problem") {
  Workspace w;
  const fs::path ro = w.dir / "read-only";
  fs::create_directories(ro);
  REQUIRE(::chmod(ro.c_str(), 0555) == 0);
  // root ignores permission bits: run as an unprivileged user then.
  const std::string as_user =
      ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  const std::string cmd = "cd '" + w.dir.string() + "' && " + as_user +
                          "'" JOLT_RUN_EXE
                          "' profile --workload fibonacci --scale 13 --format none --out-dir '" +
                          ro.string() + "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof(buf), p)) out.append(buf, n);
  const int status = ::pclose(p);
  INFO(out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(out.find("output folder '" + ro.string() + "' is not writable (" + std::strerror(EACCES) +
                 ")") != std::string::npos);
  CHECK(out.find("lock") == std::string::npos);
  ::chmod(ro.c_str(), 0755);
}

namespace {

// Starts jolt-run in its own process group with its output in `log`; returns the pid.
pid_t spawn_jolt(const std::vector<std::string>& args, const fs::path& cwd, const fs::path& log) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    if (::chdir(cwd.c_str()) != 0) ::_exit(120);
    const int fd = ::open(log.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) ::_exit(121);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(JOLT_RUN_EXE)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(JOLT_RUN_EXE, argv.data());
    ::_exit(122);
  }
  ::setpgid(pid, pid);
  return pid;
}

int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return status;
}

// Run directories (timestamped folders) in `runs`, split by the incomplete marker.
struct RunDirs {
  std::vector<std::string> complete, marked_incomplete;
};
RunDirs run_dirs(const fs::path& runs) {
  RunDirs d;
  if (!fs::exists(runs)) return d;
  for (fs::directory_iterator it(runs), end; it != end; ++it) {
    if (!fs::is_directory(it->symlink_status())) continue;
    (fs::exists(it->path() / ".incomplete") ? d.marked_incomplete : d.complete)
        .push_back(it->path().filename().string());
  }
  return d;
}

}  // namespace

TEST_CASE("SIGINT, SIGTERM and kill -9 at a random point of a real run; the rerun succeeds") {
  Workspace w;
  const std::vector<std::string> args{"profile",  "--workload", "fibonacci", "--scale",        "13",
                                      "--format", "chrome",     "--out-dir", w.runs().string()};
  // How long an uninterrupted run takes here: the random points fall inside it.
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t first = spawn_jolt(args, w.dir, w.dir / "first.log");
  const int first_status = wait_status(first);
  INFO(slurp(w.dir / "first.log"));
  REQUIRE(WIFEXITED(first_status));
  REQUIRE(WEXITSTATUS(first_status) == 0);
  const auto run_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  std::size_t finished = 1;

  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int sig : {SIGINT, SIGTERM, SIGKILL}) {
    const long delay_us = std::uniform_int_distribution<long>(0, run_us)(rng);
    INFO("signal " << sig << " after " << delay_us << " us of a " << run_us << " us run");
    const fs::path log = w.dir / ("sig" + std::to_string(sig) + ".log");
    const pid_t pid = spawn_jolt(args, w.dir, log);
    ::usleep(static_cast<useconds_t>(delay_us));
    ::kill(pid, sig);
    const int status = wait_status(pid);
    const std::string out = slurp(log);
    INFO(out);
    const bool completed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (completed) {
      ++finished;  // the signal came after the run had finished
    } else if (sig == SIGKILL) {
      CHECK(WIFSIGNALED(status));
    } else if (WIFSIGNALED(status)) {
      // The signal came during exec or start-up, before the watcher took SIGINT/SIGTERM over:
      // the default action ended the process, which had not created a run folder yet (the checks
      // below hold it to that).
      CHECK(WTERMSIG(status) == sig);
    } else {
      REQUIRE(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 128 + sig);
      CHECK(out.find("interrupted") != std::string::npos);
    }
    const RunDirs dirs = run_dirs(w.runs());
    // A signal that lands after the run has finished its folder (.incomplete removed, latest_
    // moved) but before the process exits leaves one more finished run: kept, as it should be
    // (seen once under ASan: kill -9 at 4.68 s of a 4.77 s run, after the "Run:" line).
    if (!completed && dirs.complete.size() == finished + 1) {
      CHECK(out.find("Run:") != std::string::npos);  // printed only once the folder is finished
      ++finished;
    }
    // Nothing that looks like a run is left behind: every unmarked folder is a finished run.
    CHECK(dirs.complete.size() == finished);
    if (sig != SIGKILL) CHECK(dirs.marked_incomplete.empty());
    const fs::path latest = w.runs() / (std::string("latest_") + kTrace);
    REQUIRE(fs::exists(latest));
    CHECK(fs::exists(latest / "summary.json"));
    CHECK_FALSE(fs::exists(latest / ".incomplete"));

    // The rerun of the same workload and scale succeeds and moves latest_.
    const pid_t again = spawn_jolt(args, w.dir, w.dir / "again.log");
    const int again_status = wait_status(again);
    INFO(slurp(w.dir / "again.log"));
    REQUIRE(WIFEXITED(again_status));
    REQUIRE(WEXITSTATUS(again_status) == 0);
    ++finished;
    CHECK(run_dirs(w.runs()).complete.size() == finished);
  }
}

TEST_CASE("a benchmark killed with SIGKILL takes its running child with it; a rerun then works") {
  Workspace w;
  const std::vector<std::string> args = {"benchmark",   "--min-scale", "15",
                                         "--max-scale", "15",          "--benchmarks",
                                         "fibonacci",   "--out-dir",   w.runs().string()};
  const pid_t pid = spawn_jolt(args, w.dir, w.dir / "sweep.log");
  // The child profile creates its run directory before it proves (several seconds at 2^15).
  auto unfinished = [&] {
    boost::system::error_code ec;
    std::size_t n = 0;
    for (fs::directory_iterator it(w.runs(), ec), end; !ec && it != end; it.increment(ec))
      n += it->path().filename().string().ends_with("_modular_fibonacci_15");
    return n;
  };
  for (int i = 0; i < 6000 && unfinished() == 0; ++i) ::usleep(10000);
  REQUIRE(unfinished() == 1);
  ::kill(pid, SIGKILL);
  (void)wait_status(pid);
  // The child gets SIGTERM from the kernel: it removes its unfinished run and releases the lock
  // (without it, it proved on and published the run while holding the lock).
  for (int i = 0; i < 1000 && unfinished() != 0; ++i) ::usleep(10000);
  INFO(slurp(w.dir / "sweep.log"));
  CHECK(unfinished() == 0);
  CHECK_FALSE(fs::exists(w.runs() / "latest_modular_fibonacci_15"));
  CHECK(slurp(w.dir / "sweep.log").find("interrupted (Terminated)") != std::string::npos);
  Result again = run("benchmark --min-scale 13 --max-scale 13 --benchmarks fibonacci --out-dir '" +
                         w.runs().string() + "'",
                     w.dir);
  INFO(again.output);
  CHECK(again.code == 0);
}

TEST_CASE("Ctrl-C while the sinks write: they finish, the run is kept and published, exit 130") {
  Workspace w;
  const pid_t pid =
      spawn_jolt({"profile", "--workload", "fibonacci", "--scale", "10", "--sink", JOLT_SLOW_SINK,
                  "--sink", "summary", "--sink", "csv", "--out-dir", w.runs().string()},
                 w.dir, w.dir / "slow.log");
  // The slow sink marks its start, then takes 3 s: the signal lands while the sinks write.
  bool started = false;
  for (int i = 0; i < 6000 && !started; ++i) {
    boost::system::error_code ec;
    for (fs::directory_iterator it(w.runs(), ec), end; !ec && !started && it != end;
         it.increment(ec))
      started = fs::exists(it->path() / "slow.started");
    if (!started) ::usleep(10000);
  }
  REQUIRE(started);
  ::kill(pid, SIGINT);
  const int status = wait_status(pid);
  const std::string out = slurp(w.dir / "slow.log");
  INFO(out);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(out.find("waiting for the sinks to finish") != std::string::npos);
  CHECK(out.find("the run had already finished: ") != std::string::npos);
  CHECK(out.find("is kept and its latest_ link names it") != std::string::npos);
  const fs::path latest = w.runs() / "latest_modular_fibonacci_10";
  REQUIRE(fs::exists(latest));
  CHECK(fs::exists(latest / "summary.json"));
  CHECK_FALSE(fs::exists(latest / ".incomplete"));
  CHECK(run_dirs(w.runs()).marked_incomplete.empty());
  const std::string csv = slurp(w.runs() / "modular_timings.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 1);
}

TEST_CASE("Ctrl-C stops a benchmark sweep; --resume re-runs exactly the unfinished pairs") {
  Workspace w;
  const std::vector<std::string> args{
      "benchmark", "--benchmarks", "fibonacci", "--min-scale",    "10", "--max-scale", "13",
      "--format",  "none",         "--out-dir", w.runs().string()};
  const pid_t pid = spawn_jolt(args, w.dir, w.dir / "sweep.log");
  // Wait until the second pair has started, then Ctrl-C the process group (as a terminal does).
  const fs::path second_started = w.runs() / "latest_modular_fibonacci_10";
  for (int i = 0; i < 6000 && !fs::exists(second_started); ++i) ::usleep(10000);
  ::kill(-pid, SIGINT);
  const int status = wait_status(pid);
  const std::string out = slurp(w.dir / "sweep.log");
  INFO(out);
  REQUIRE(WIFEXITED(status));
  std::vector<std::string> done_before;
  for (int s = 10; s <= 13; ++s)
    if (fs::exists(w.runs() / ("latest_modular_fibonacci_" + std::to_string(s))))
      done_before.push_back(std::to_string(s));
  if (done_before.size() < 4) {
    CHECK(WEXITSTATUS(status) == 130);
    CHECK(out.find("interrupted") != std::string::npos);
  }
  CHECK(run_dirs(w.runs()).marked_incomplete.empty());
  CHECK(run_dirs(w.runs()).complete.size() == done_before.size());

  const pid_t resumed =
      spawn_jolt({"benchmark", "--benchmarks", "fibonacci", "--min-scale", "10", "--max-scale",
                  "13", "--format", "none", "--out-dir", w.runs().string(), "--resume"},
                 w.dir, w.dir / "resume.log");
  const int resumed_status = wait_status(resumed);
  const std::string rout = slurp(w.dir / "resume.log");
  INFO(rout);
  REQUIRE(WIFEXITED(resumed_status));
  CHECK(WEXITSTATUS(resumed_status) == 0);
  CHECK(rout.find("Completed: " + std::to_string(4 - done_before.size())) != std::string::npos);
  std::size_t skipped = 0;
  for (std::size_t at = 0; (at = rout.find("Skipping fibonacci", at)) != std::string::npos; ++at)
    ++skipped;
  CHECK(skipped == done_before.size());
  if (!done_before.empty())
    CHECK(rout.find("Skipped: " + std::to_string(done_before.size())) != std::string::npos);
  for (int s = 10; s <= 13; ++s)
    CHECK(fs::exists(w.runs() / ("latest_modular_fibonacci_" + std::to_string(s))));
  // One CSV row per finished run: the interrupted run wrote none.
  const std::string csv = slurp(w.runs() / "modular_timings.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 4);
}

namespace {

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  const std::string s = slurp(path);
  return {s.begin(), s.end()};
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Rewrites a proof file through the envelope code (core/host/include/jolt/host/proof_file.hpp).
jolt::host::ProofFile load_envelope(const std::string& path) {
  jolt::host::ProofFileResult r = jolt::host::read_proof_file(path);
  INFO(r.error);
  REQUIRE(r.file);
  return *r.file;
}

}  // namespace

TEST_CASE("prove writes a proof file that verify accepts; a truncated or foreign file is named") {
  Workspace w;
  const std::string proof = (w.dir / "fib.proof").string();
  Result p = run("prove --workload fibonacci --scale 10 --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  // The progress lines of `profile` (a pipe: one log line per stage), none with --quiet.
  CHECK(p.output.find("proving: stage 1/10 prove_stage0") != std::string::npos);
  CHECK(p.output.find("proving: stage 10/10 prove_stage8") != std::string::npos);
  Result q = run("prove -q --workload fibonacci --scale 10 --proof '" + proof + "'", w.dir);
  REQUIRE(q.code == 0);
  CHECK(q.output.find("proving:") == std::string::npos);
  CHECK(q.output.find("(verified)") != std::string::npos);
  const jolt::host::ProofFile env = load_envelope(proof);
  CHECK(env.workload == "fibonacci");
  CHECK(env.scale == 10);
  CHECK(env.trace_length > 0);
  CHECK_FALSE(env.output.empty());

  Result ok = run("verify --workload fibonacci --scale 10 --proof '" + proof + "'", w.dir);
  CHECK(ok.code == 0);
  CHECK(ok.output.find("is a valid proof") != std::string::npos);

  const std::vector<std::uint8_t> bytes = read_bytes(proof);
  const std::string cut = (w.dir / "cut.proof").string();
  write_bytes(cut, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  Result bad = run("verify --workload fibonacci --scale 10 --proof '" + cut + "'", w.dir);
  CHECK(bad.code == 1);
  CHECK(bad.output.find("proof file " + cut + ": truncated in the proof field") !=
        std::string::npos);

  const std::string junk = (w.dir / "junk.proof").string();
  std::ofstream(junk, std::ios::binary) << "this is not a proof";
  Result garbage = run("verify --workload fibonacci --scale 10 --proof '" + junk + "'", w.dir);
  CHECK(garbage.code == 1);
  CHECK(garbage.output.find("proof file " + junk + ": not a jolt-run proof file (bad magic") !=
        std::string::npos);

  const std::string none = (w.dir / "none.proof").string();
  Result missing = run("verify --workload fibonacci --scale 10 --proof '" + none + "'", w.dir);
  CHECK(missing.code == 1);
  CHECK(missing.output.find("proof file " + none + ": cannot open the file") != std::string::npos);
}

TEST_CASE("verify reports a proof file for another workload or scale as a mismatch") {
  Workspace w;  // scale 13: the smallest at which sha2 makes an input
  const std::string proof = (w.dir / "fib.proof").string();
  Result p = run("prove --workload fibonacci --scale 13 --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);

  Result scale = run("verify --workload fibonacci --scale 14 --proof '" + proof + "'", w.dir);
  INFO(scale.output);
  CHECK(scale.code == 1);
  CHECK(scale.output.find("proof file " + proof +
                          " is for workload 'fibonacci' at scale 13; you asked to verify "
                          "'fibonacci' at scale 14; pass --scale 13 to verify it") !=
        std::string::npos);
  CHECK(scale.output.find("rejected at") == std::string::npos);

  // No --scale: the workload's default (16 for fibonacci), the same default `prove` uses.
  Result dflt = run("verify --workload fibonacci --proof '" + proof + "'", w.dir);
  INFO(dflt.output);
  CHECK(dflt.code == 1);
  CHECK(dflt.output.find("you asked to verify 'fibonacci' at scale 16 (the default scale, no "
                         "--scale given); pass --scale 13 to verify it") != std::string::npos);

  Result other = run("verify --workload sha2 --scale 13 --proof '" + proof + "'", w.dir);
  INFO(other.output);
  CHECK(other.code == 1);
  CHECK(other.output.find("proof file " + proof +
                          " is for workload 'fibonacci' at scale 13; you asked to verify 'sha2' "
                          "at scale 13") != std::string::npos);
  CHECK(other.output.find("rejected at") == std::string::npos);
}

TEST_CASE("verify rejects a proof file whose claimed output or trace length was altered") {
  Workspace w;
  const std::string proof = (w.dir / "fib.proof").string();
  Result p = run("prove --workload fibonacci --scale 10 --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  const jolt::host::ProofFile honest = load_envelope(proof);

  jolt::host::ProofFile forged = honest;
  forged.output[0] ^= 1;
  const std::string out = (w.dir / "output.proof").string();
  write_bytes(out, jolt::host::encode_proof_file(forged));
  Result o = run("verify --workload fibonacci --scale 10 --proof '" + out + "'", w.dir);
  INFO(o.output);
  CHECK(o.code == 1);
  CHECK(o.output.find("REJECTED " + out + ": rejected at ") != std::string::npos);

  forged = honest;
  forged.trace_length += 1;  // same padded length: only the claim differs
  const std::string len = (w.dir / "length.proof").string();
  write_bytes(len, jolt::host::encode_proof_file(forged));
  Result l = run("verify --workload fibonacci --scale 10 --proof '" + len + "'", w.dir);
  INFO(l.output);
  CHECK(l.code == 1);
  CHECK(l.output.find("REJECTED " + len + ": rejected at ") != std::string::npos);

  forged = honest;
  forged.trace_length = 1024;  // pads to 2^11 > 2^10
  const std::string big = (w.dir / "big.proof").string();
  write_bytes(big, jolt::host::encode_proof_file(forged));
  Result b = run("verify --workload fibonacci --scale 10 --proof '" + big + "'", w.dir);
  INFO(b.output);
  CHECK(b.code == 1);
  CHECK(b.output.find("the proof claims a trace of 1024 cycles, which does not fit 2^10 padded "
                      "rows (--scale 10)") != std::string::npos);
}

TEST_CASE("verify never runs the guest: a cycle bound that stops the guest does not matter") {
  Workspace w;
  const std::string proof = (w.dir / "fib.proof").string();
  Result p = run("prove --workload fibonacci --scale 10 --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  // The bound is effective for anything that runs the guest...
  Result traced = run("trace --workload fibonacci --scale 10 --max-cycles 1", w.dir);
  CHECK(traced.code == 1);
  CHECK(traced.output.find("ran 1 cycles without exiting") != std::string::npos);
  // ...and verify accepts under it, so it did not run the guest.
  Result ok =
      run("verify --workload fibonacci --scale 10 --max-cycles 1 --proof '" + proof + "'", w.dir);
  INFO(ok.output);
  CHECK(ok.code == 0);
  CHECK(ok.output.find("is a valid proof") != std::string::npos);
}

TEST_CASE("prove and verify --elf: the proof binds the ELF's bytes, not its file name") {
  Workspace w;
  std::vector<std::uint32_t> code = {rv32::addi(5, 0, 7), rv32::addi(6, 5, 3),
                                     rv32::addi(10, 0, 0)};
  rv32::exit_(code);
  const auto elf = rv32::make_elf(code);
  const std::string a = (w.dir / "seven.elf").string();
  const std::string renamed = (w.dir / "renamed.elf").string();
  write_bytes(a, elf);
  write_bytes(renamed, elf);
  std::vector<std::uint32_t> other_code = {rv32::addi(5, 0, 8), rv32::addi(6, 5, 3),
                                           rv32::addi(10, 0, 0)};
  rv32::exit_(other_code);
  const std::string other = (w.dir / "other.elf").string();
  write_bytes(other, rv32::make_elf(other_code));

  const std::string proof = (w.dir / "seven.proof").string();
  Result p = run("prove --elf '" + a + "' --scale 10 --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  CHECK(load_envelope(proof).workload == "seven");
  Result ok = run("verify --elf '" + a + "' --scale 10 --proof '" + proof + "'", w.dir);
  INFO(ok.output);
  CHECK(ok.code == 0);
  Result same = run("verify --elf '" + renamed + "' --scale 10 --proof '" + proof + "'", w.dir);
  INFO(same.output);
  CHECK(same.code == 0);
  Result wrong = run("verify --elf '" + other + "' --scale 10 --proof '" + proof + "'", w.dir);
  INFO(wrong.output);
  CHECK(wrong.code == 1);
  CHECK(wrong.output.find("REJECTED " + proof + ": rejected at ") != std::string::npos);
}

TEST_CASE("trace --elf and profile --elf stop a guest that never exits at the named bound") {
  Workspace w;
  const auto elf = rv32::make_elf({rv32::jal(0, 0)});  // `j .`: loops forever
  const fs::path loop = w.dir / "loop.elf";
  std::ofstream(loop.string(), std::ios::binary)
      .write(reinterpret_cast<const char*>(elf.data()), static_cast<std::streamsize>(elf.size()));
  const std::string path = "'" + loop.string() + "'";
  Result by_scale = run("trace --elf " + path + " --scale 12", w.dir);
  INFO(by_scale.output);
  CHECK(by_scale.code == 1);
  CHECK(by_scale.output.find("ran 4096 cycles without exiting, the bound (2^12 cycles from "
                             "--scale 12)") != std::string::npos);
  Result by_default = run("trace --elf " + path, w.dir);
  CHECK(by_default.code == 1);
  CHECK(by_default.output.find("(2^20 cycles from --scale 20)") != std::string::npos);
  Result by_flag = run("trace --elf " + path + " --max-cycles 1000", w.dir);
  CHECK(by_flag.code == 1);
  CHECK(by_flag.output.find("ran 1000 cycles without exiting, the bound (--max-cycles 1000)") !=
        std::string::npos);
  Result profile = run("profile --elf " + path + " --scale 12 --format none", w.dir);
  CHECK(profile.code == 1);
  CHECK(profile.output.find("the bound (2^12 cycles from --scale 12)") != std::string::npos);
  Result bad = run("trace --elf " + path + " --max-cycles 0", w.dir);
  CHECK(bad.code == 1);
  CHECK(bad.output.find("--max-cycles 0 out of range") != std::string::npos);
}

TEST_CASE("--pcs selects the scheme; the verifier accepts only proofs made with its scheme") {
  Workspace w;
  const std::string proof = (w.dir / "reveal.proof").string();
  Result p =
      run("prove --workload fibonacci --scale 10 --pcs reveal --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  Result ok =
      run("verify --workload fibonacci --scale 10 --pcs reveal --proof '" + proof + "'", w.dir);
  CHECK(ok.code == 0);
  // A prover cannot pick the reveal-all scheme against the default verifier.
  Result dflt = run("verify --workload fibonacci --scale 10 --proof '" + proof + "'", w.dir);
  CHECK(dflt.code == 1);
  CHECK(dflt.output.find("rejected at proof.header.pcs") != std::string::npos);
  Result bogus =
      run("verify --workload fibonacci --scale 10 --pcs nope --proof '" + proof + "'", w.dir);
  CHECK(bogus.code == 2);
  CHECK(bogus.output.find("unknown commitment scheme 'nope'") != std::string::npos);
}

TEST_CASE("summary.json records the commitment scheme and its parameters (--pcs)") {
  auto run_of = [](const fs::path& runs, const char* trace) {
    rapidjson::Document s =
        parse_json_file(runs / (std::string("latest_") + trace) / "summary.json");
    REQUIRE(s.IsObject());
    CHECK(s["schema_version"].GetUint() == 3);
    REQUIRE(s["run"]["pcs"].IsString());
    REQUIRE(s["run"]["pcs_parameters"].IsString());
    return std::pair<std::string, std::string>(s["run"]["pcs"].GetString(),
                                               s["run"]["pcs_parameters"].GetString());
  };
  Workspace w;
  Result r = run("profile --workload fibonacci --scale 10 --pcs ligero", w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  const auto [ligero, ligero_params] = run_of(w.runs(), "modular_fibonacci_10");
  CHECK(ligero == "ligero");
  CHECK(ligero_params.find("queries=") != std::string::npos);
  Result v =
      run("validate '" + (w.runs() / "latest_modular_fibonacci_10" / "summary.json").string() + "'",
          w.dir);
  INFO(v.output);
  CHECK(v.code == 0);

  // The shared default run (no --pcs) proved with Basefold, whose parameters differ.
  const auto [dflt, dflt_params] = run_of(profiled().runs(), kTrace);
  CHECK(dflt == "basefold");
  CHECK(dflt_params.rfind("basefold rate=", 0) == 0);
  CHECK(dflt_params != ligero_params);
}

TEST_CASE("--backend reference proves the same proof under its own name; a bad name is refused") {
  Workspace w;
  Result r =
      run("profile --workload fibonacci --scale 10 --backend reference --format none "
          "--sink summary -q",
          w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(r.output.find("modular fibonacci (2^10, reference): Prover completed") !=
        std::string::npos);
  rapidjson::Document s =
      parse_json_file(w.runs() / "latest_modular_fibonacci_10_reference" / "summary.json");
  CHECK(std::string(s["run"]["backend"].GetString()) == "reference");
  CHECK_FALSE(fs::exists(w.runs() / "latest_modular_fibonacci_10"));  // its own name only
  // A default run of the same pair proves with the optimized kernels, under the plain name.
  Result o = run("profile --workload fibonacci --scale 10 --format none --sink summary -q", w.dir);
  INFO(o.output);
  REQUIRE(o.code == 0);
  rapidjson::Document d =
      parse_json_file(w.runs() / "latest_modular_fibonacci_10" / "summary.json");
  CHECK(std::string(d["run"]["backend"].GetString()) == "optimized");
  REQUIRE(s["run"]["proof_size_bytes"].IsUint64());
  REQUIRE(d["run"]["proof_size_bytes"].IsUint64());
  CHECK(s["run"]["proof_size_bytes"].GetUint64() == d["run"]["proof_size_bytes"].GetUint64());
  // prove with either backend writes the same proof file, which verify accepts.
  Result p =
      run("prove --workload fibonacci --scale 10 --backend reference --proof ref.proof -q", w.dir);
  INFO(p.output);
  CHECK(p.code == 0);
  Result po = run("prove --workload fibonacci --scale 10 --proof opt.proof -q", w.dir);
  INFO(po.output);
  CHECK(po.code == 0);
  const std::string ref_bytes = slurp(w.dir / "ref.proof");
  CHECK(ref_bytes.size() > 1000);
  CHECK(ref_bytes == slurp(w.dir / "opt.proof"));
  Result v = run("verify --workload fibonacci --scale 10 --proof ref.proof", w.dir);
  INFO(v.output);
  CHECK(v.code == 0);
  // benchmark passes --backend to its profile runs, and --resume looks for the backend's name.
  Result b =
      run("benchmark --benchmarks fibonacci --min-scale 10 --max-scale 10 --backend "
          "reference --format none --resume",
          w.dir);
  INFO(b.output);
  CHECK(b.code == 0);
  CHECK(b.output.find("latest_modular_fibonacci_10_reference") != std::string::npos);
  Result plan =
      run("benchmark --benchmarks fibonacci --min-scale 11 --max-scale 11 --backend "
          "reference --plan",
          w.dir);
  CHECK(plan.output.find("--backend reference") != std::string::npos);
  CHECK(run("benchmark --backend fast", w.dir).code == 2);
  Result bad = run("profile --workload fibonacci --scale 10 --backend fast", w.dir);
  CHECK(bad.code == 2);
  CHECK(bad.output.find("unknown prover backend 'fast' for --backend (known: optimized, "
                        "reference)") != std::string::npos);
}

TEST_CASE("profile prints the stage table; report shows every stage of the latest run") {
  Workspace w;
  Result p = run("profile --workload fibonacci --scale 10", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  const fs::path latest = w.runs() / "latest_modular_fibonacci_10";
  rapidjson::Document s = parse_json_file(latest / "summary.json");
  std::vector<std::string> stages;
  for (const auto& st : s["stages"].GetArray()) stages.push_back(st["label"].GetString());
  REQUIRE(stages.size() >= 2);
  const std::string table_head = "  stage ";
  REQUIRE(p.output.find(table_head) != std::string::npos);
  for (const auto& label : stages) {
    INFO(label);
    CHECK(p.output.find("  " + label + " ", p.output.find(table_head)) != std::string::npos);
  }
  CHECK(p.output.find("jolt-run report benchmark-runs/latest_modular_fibonacci_10") !=
        std::string::npos);

  Result r = run("report latest", w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  for (const auto& label : stages) {
    INFO(label);
    CHECK(r.output.find("\n  " + label + " ") != std::string::npos);
  }
  CHECK(r.output.find("dark time (root self time): ") != std::string::npos);
  CHECK(r.output.find("top 10 of ") != std::string::npos);
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(line.size() <= 80);
  }
  Result bare = run("report", w.dir);  // no argument: the latest run
  CHECK(bare.code == 0);
  CHECK(bare.output == r.output);

  Result j = run("report --json --top 3 '" + latest.string() + "'", w.dir);
  INFO(j.output);
  REQUIRE(j.code == 0);
  rapidjson::Document d;
  d.Parse(j.output.c_str());
  REQUIRE_FALSE(d.HasParseError());
  REQUIRE(d["stages"].Size() == stages.size());
  for (rapidjson::SizeType i = 0; i < d["stages"].Size(); ++i)
    CHECK(std::string(d["stages"][i]["label"].GetString()) == stages[i]);
  CHECK(d["top_self"].Size() == 3);
  CHECK(std::string(d["top_total"][0]["label"].GetString()) == "jolt_prover::prove");
  CHECK(d["root"]["wall_time_ns"].GetUint64() == s["root"]["wall_time_ns"].GetUint64());

  // --quiet drops the table; a run without summary.json is reported with what to do.
  Result q = run("profile --workload fibonacci --scale 10 --quiet --out-dir quiet-runs", w.dir);
  INFO(q.output);
  REQUIRE(q.code == 0);
  CHECK(q.output.find(table_head) == std::string::npos);
  Result none =
      run("profile --workload fibonacci --scale 10 --format none --out-dir csv-runs", w.dir);
  REQUIRE(none.code == 0);
  CHECK(none.output.find(table_head) == std::string::npos);
  Result missing = run("report --out-dir csv-runs", w.dir);
  CHECK(missing.code == 1);
  CHECK(missing.output.find("no summary.json in ") != std::string::npos);
  CHECK(missing.output.find("run `jolt-run profile") != std::string::npos);
  Result empty = run("report --out-dir nowhere", w.dir);
  CHECK(empty.code == 1);
  CHECK(empty.output.find("no output folder 'nowhere'") != std::string::npos);
}

TEST_CASE("--help, help and no arguments list every command; --version names the revision") {
  Workspace w;
  for (const char* args : {"--help", "help", ""}) {
    Result h = run(args, w.dir);
    INFO(args, h.output);
    CHECK(h.code == 0);
    for (const char* cmd :
         {"profile", "prove", "verify", "report", "validate", "benchmark", "diff"})
      CHECK(h.output.find(std::string("\n  ") + cmd + " ") != std::string::npos);
  }
  Result help_report = run("help report", w.dir);
  CHECK(help_report.code == 0);
  CHECK(help_report.output.find("usage: jolt-run report") != std::string::npos);

  Result v = run("--version", w.dir);
  INFO(v.output);
  REQUIRE(v.code == 0);
  const std::string prefix = "jolt-run ";
  REQUIRE(v.output.rfind(prefix, 0) == 0);
  const auto open = v.output.find(" (git ");
  const auto close = v.output.find(")\n");
  REQUIRE(open != std::string::npos);
  REQUIRE(close != std::string::npos);
  const std::string version = v.output.substr(prefix.size(), open - prefix.size());
  CHECK(std::count(version.begin(), version.end(), '.') == 2);
  const std::string rev = v.output.substr(open + 6, close - open - 6);
  REQUIRE_FALSE(rev.empty());
  CHECK((rev == "unknown" || rev.find_first_not_of("0123456789abcdef") == std::string::npos));

  // summary.json records the revision built into the binary, also when run outside the source
  // tree (the workspace is a temporary folder, not a git checkout).
  Result p = run("profile --workload fibonacci --scale 10 --quiet", w.dir);
  REQUIRE(p.code == 0);
  rapidjson::Document s =
      parse_json_file(w.runs() / "latest_modular_fibonacci_10" / "summary.json");
  if (rev == "unknown")
    CHECK(s["run"]["git_rev"].IsNull());
  else
    CHECK(std::string(s["run"]["git_rev"].GetString()) == rev);
}

TEST_CASE("progress: one log line per stage in a pipe, one redrawn line on a terminal, none -q") {
  const bool have_script = std::system("command -v script >/dev/null 2>&1") == 0;
  REQUIRE_MESSAGE(have_script,
                  "script(1) not found: install Debian's bsdutils (an essential package)");
  Workspace w;
  // A pipe (not a terminal): plain log lines, the first run without an estimate.
  Result r = run("profile --workload fibonacci --scale 10 --format none", w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(r.output.find("proving: stage 1/10 prove_stage0") != std::string::npos);
  CHECK(r.output.find("proving: stage 10/10 prove_stage8") != std::string::npos);
  CHECK(r.output.find('\r') == std::string::npos);
  CHECK(r.output.find("left") == std::string::npos);  // no earlier summary: no estimate
  // With an earlier run's summary.json the lines carry an estimate.
  REQUIRE(run("profile --workload fibonacci --scale 10 --sink summary", w.dir).code == 0);
  r = run("profile --workload fibonacci --scale 10 --sink summary", w.dir);
  REQUIRE(r.code == 0);
  CHECK(r.output.find(" left") != std::string::npos);
  // --quiet: nothing.
  r = run("profile --workload fibonacci --scale 10 --format none --quiet", w.dir);
  REQUIRE(r.code == 0);
  CHECK(r.output.find("proving:") == std::string::npos);
  // A pseudo-terminal (script(1)): carriage-return redraws, no log lines of the stages, and the
  // line is blanked out before the result is printed.
  const fs::path out = w.dir / "pty.txt";
  const std::string cmd =
      "cd '" + w.dir.string() +
      "' && script -qc \"'" JOLT_RUN_EXE
      "' profile --workload fibonacci --scale 10 --format none\" /dev/null > '" +
      out.string() + "' 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string tty = slurp(out);
  INFO(tty);
  CHECK(tty.find("\rproving: stage 1/10 prove_stage0") != std::string::npos);
  CHECK(tty.find("info] proving:") == std::string::npos);
  // The result line starts right after the blanked-out progress line ("\r" + blanks + "\r").
  const std::size_t done = tty.find("\rmodular fibonacci (2^10, optimized): Prover completed");
  REQUIRE(done != std::string::npos);
  REQUIRE(done > 0);
  CHECK(tty[done - 1] == ' ');
  CHECK(tty.find("proving:", done) == std::string::npos);
}

TEST_CASE("profile --heap-svg writes a flame chart next to each _prepared snapshot, same bytes") {
  Workspace w;
  Result r = run("profile --workload fibonacci --scale 10 --heap-svg -q", w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  const fs::path run_dir = w.runs() / fs::read_symlink(w.runs() / "latest_modular_fibonacci_10");
  std::size_t charts = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(run_dir)) {
    if (e.path().extension() != ".folded") continue;
    INFO(e.path().string());
    CHECK(e.path().stem().string().find("_prepared") != std::string::npos);
    std::uint64_t folded_bytes = 0;
    std::istringstream lines(slurp(e.path()));
    for (std::string line; std::getline(lines, line);)
      folded_bytes += std::stoull(line.substr(line.rfind(' ') + 1));
    fs::path svg = e.path();
    svg.replace_extension(".svg");
    REQUIRE(fs::exists(svg));
    const std::string text = slurp(svg);
    CHECK(text.find("data-total-bytes=\"" + std::to_string(folded_bytes) + "\"") !=
          std::string::npos);
    ++charts;
  }
  CHECK(charts >= 2);
}
