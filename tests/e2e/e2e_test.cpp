// End-to-end: the real jolt-run binary proves a real workload and writes its run directory.
#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <sys/wait.h>

#include <boost/filesystem.hpp>
#include <cstdio>
#include <fstream>
#include <jolt/taxonomy.hpp>
#include <set>
#include <sstream>
#include <string>

namespace fs = boost::filesystem;

namespace {

struct Result {
  int code = -1;
  std::string output;
};

Result run(const std::string& args, const fs::path& cwd) {
  const std::string cmd = "cd '" + cwd.string() + "' && '" JOLT_RUN_EXE "' " + args + " 2>&1";
  Result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof(buf), p)) r.output.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p.string(), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Workspace {
  fs::path dir = fs::temp_directory_path() / fs::unique_path("jolt-e2e-%%%%%%");
  Workspace() { fs::create_directories(dir); }
  ~Workspace() { fs::remove_all(dir); }
  fs::path runs() const { return dir / "benchmark-runs"; }
};

constexpr const char* kTrace = "modular_fibonacci_13";

// One successful chrome run shared by the checks below (proving is the slow part).
const Workspace& profiled() {
  static Workspace w;
  static bool done = false;
  if (!done) {
    done = true;
    Result r = run("profile --workload fibonacci --scale 13 --format chrome", w.dir);
    INFO(r.output);
    REQUIRE(r.code == 0);
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
  rapidjson::Document trace;
  const std::string trace_text = slurp(run_dir / "trace.json");
  trace.Parse(trace_text.c_str());
  REQUIRE_FALSE(trace.HasParseError());
  const auto& events = trace.IsArray() ? trace : trace["traceEvents"];
  REQUIRE(events.IsArray());
  std::set<std::string> begun;
  bool counter_track = false;
  for (const auto& e : events.GetArray()) {
    const std::string ph = e["ph"].GetString();
    if (ph == "B") begun.insert(e["name"].GetString());
    if (ph == "C") counter_track = true;
  }
  for (auto label : jolt::taxonomy::kAlwaysPresentSpans) {
    INFO(label);
    CHECK(begun.count(std::string(label)) == 1);
  }
  CHECK(trace_text.find("counters.") == std::string::npos);
  (void)counter_track;  // a 2^12 prove can finish between two monitor samples

  // summary.json: validates, root present, stages in pipeline order.
  Result v = run("validate '" + (run_dir / "summary.json").string() + "'", w.dir);
  INFO(v.output);
  CHECK(v.code == 0);
  Result vt = run("validate '" + (run_dir / "trace.json").string() + "'", w.dir);
  INFO(vt.output);
  CHECK(vt.code == 0);
  rapidjson::Document s;
  s.Parse(slurp(run_dir / "summary.json").c_str());
  REQUIRE_FALSE(s.HasParseError());
  CHECK(s["schema_version"].GetUint() == 1);
  CHECK(std::string(s["run"]["workload"].GetString()) == "fibonacci");
  CHECK(s["run"]["scale_log2"].GetUint() == 13);
  CHECK(std::string(s["root"]["label"].GetString()) == "jolt_prover::prove");
  CHECK(s["root"]["wall_time_ns"].GetUint64() > 0);
  const double dark = s["root"]["dark_time_fraction"].GetDouble();
  CHECK(dark >= 0.0);
  CHECK(dark <= 1.0);
  CHECK(s["peak_rss_gib"].IsNumber());
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

TEST_CASE("a failing sink fails the run and leaves latest_ and the earlier run intact") {
  const Workspace& w = profiled();
  const fs::path latest = w.runs() / (std::string("latest_") + kTrace);
  const std::string before = fs::read_symlink(latest).string();
  Result r =
      run("profile --workload fibonacci --scale 13 --sink summary --sink '" JOLT_FAILING_SINK "'",
          w.dir);
  CHECK(r.code != 0);
  CHECK(r.output.find("sink 'failing'") != std::string::npos);
  CHECK(fs::read_symlink(latest).string() == before);
  CHECK(fs::exists(w.runs() / before / "summary.json"));
}

TEST_CASE("bad plugin arguments get errors that name the plugin and what to do") {
  Workspace w;
  Result twice =
      run("profile --workload fibonacci --scale 13 --sink summary --sink summary", w.dir);
  CHECK(twice.code != 0);
  CHECK(twice.output.find("sink 'summary' is given twice") != std::string::npos);
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

TEST_CASE("--format none runs without a recorder and still writes the CSV row") {
  Workspace w;
  Result r = run("profile --workload fibonacci --scale 13 --format none", w.dir);
  INFO(r.output);
  REQUIRE(r.code == 0);
  const fs::path run_dir = w.runs() / fs::read_symlink(w.runs() / "latest_modular_fibonacci_13");
  CHECK(fs::exists(run_dir / "timings.csv"));
  CHECK_FALSE(fs::exists(run_dir / "trace.json"));
  CHECK_FALSE(fs::exists(run_dir / "summary.json"));
}

TEST_CASE("a stale lock refuses the run with the remedy") {
  Workspace w;
  fs::create_directories(w.runs());
  std::ofstream(w.runs() / "modular_fibonacci_13.lock") << "12345\n";
  Result r = run("profile --workload fibonacci --scale 13 --format none", w.dir);
  CHECK(r.code != 0);
  CHECK(r.output.find("another profile run for modular_fibonacci_13 appears active") !=
        std::string::npos);
  CHECK(r.output.find("delete the stale lock file") != std::string::npos);
}

TEST_CASE(
    "prove writes a proof file that verify accepts, and a truncated one is rejected by name") {
  Workspace w;
  const std::string proof = (w.dir / "fib.proof").string();
  Result p = run("prove --workload fibonacci --scale 13 --proof '" + proof + "'", w.dir);
  INFO(p.output);
  REQUIRE(p.code == 0);
  Result ok = run("verify --workload fibonacci --scale 13 --proof '" + proof + "'", w.dir);
  CHECK(ok.code == 0);
  CHECK(ok.output.find("is a valid proof") != std::string::npos);
  const std::string bytes = slurp(proof);
  const std::string cut = (w.dir / "cut.proof").string();
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  Result bad = run("verify --workload fibonacci --scale 13 --proof '" + cut + "'", w.dir);
  CHECK(bad.code == 1);
  CHECK(bad.output.find("REJECTED") != std::string::npos);
  CHECK(bad.output.find("rejected at decode.truncated") != std::string::npos);
  Result wrong = run("verify --workload fibonacci --scale 14 --proof '" + proof + "'", w.dir);
  CHECK(wrong.code == 1);  // the statement (input, trace length) differs
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
