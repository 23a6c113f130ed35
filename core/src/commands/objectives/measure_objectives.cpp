// measure-objectives: measures string-keyed objectives (telemetry:<workload>:<metric>,
// callgrind:<bench>:instructions) and prints them as a table or JSON. Telemetry objectives of
// one workload share one fresh `jolt-run profile --format chrome` run (with --heap when any of
// them reads the heap section); jolt-run and the micro-benchmarks are found next to this binary.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands/objectives/objective.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/host/subprocess.hpp"
#include "jolt/host/summary_file.hpp"

namespace po = boost::program_options;
namespace fs = boost::filesystem;
using jolt::objectives::CallgrindObjective;
using jolt::objectives::Objective;
using jolt::objectives::ObjectiveError;
using jolt::objectives::TelemetryObjective;

namespace {

struct Measurement {
  std::optional<double> value;
  std::string error;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ObjectiveError(path + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_executable(const fs::path& p) {
  boost::system::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// One fresh profile run of `workload`; returns the parsed summary.json of latest_{trace_name}.
rapidjson::Document profile_once(const std::string& jolt_run, const std::string& workload,
                                 std::uint32_t scale, bool heap, const std::string& out_dir,
                                 std::string* source) {
  const std::string trace_name = jolt::core::trace_name_for(workload, scale);
  const fs::path link = fs::path(out_dir) / ("latest_" + trace_name);
  boost::system::error_code ec;
  fs::remove(link, ec);  // a stale link must never answer for a failed run
  if (ec && ec != boost::system::errc::no_such_file_or_directory)
    throw ObjectiveError("cannot remove " + link.string() + ": " + ec.message());
  std::vector<std::string> cmd{
      jolt_run,   "profile", "--workload", workload, "--scale", std::to_string(scale),
      "--format", "chrome",  "--out-dir",  out_dir};
  if (heap) cmd.push_back("--heap");
  std::cerr << "Measuring " << workload << " at 2^" << scale << (heap ? " (heap lane)" : "") << ": "
            << jolt::host::command_line(cmd) << "\n";
  const auto r = jolt::host::run_process(cmd, jolt::host::ChildStdout::kToStderr);
  if (!r.ok())
    throw ObjectiveError("profile run failed (" + r.describe() +
                         "): " + jolt::host::command_line(cmd));
  *source = (link / "summary.json").string();
  try {
    return jolt::host::load_summary(*source);
  } catch (const jolt::host::SummaryError& e) {
    throw ObjectiveError(e.what());
  }
}

std::uint64_t measure_callgrind(const CallgrindObjective& c, const fs::path& bin_dir,
                                const std::string& out_dir) {
  const auto v = jolt::host::run_process({"/usr/bin/env", "valgrind", "--version"},
                                         jolt::host::ChildStdout::kToStderr);
  if (!v.ok())
    throw ObjectiveError("valgrind is not available (" + v.describe() +
                         "); install it with scripts/install-deps.sh (Debian package valgrind)");
  const fs::path exe = bin_dir / c.bench;
  if (!is_executable(exe))
    throw ObjectiveError("no micro-benchmark executable " + exe.string() + " (build it: ninja " +
                         c.bench + "; see bench/callgrind/)");
  const fs::path dir = fs::path(out_dir) / "callgrind";
  boost::system::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ObjectiveError("cannot create " + dir.string() + ": " + ec.message());
  const fs::path out_file = dir / (c.bench + ".callgrind.out");
  fs::remove(out_file, ec);
  std::vector<std::string> cmd{"/usr/bin/env",
                               "valgrind",
                               "--tool=callgrind",
                               "-q",
                               "--toggle-collect=main",
                               "--callgrind-out-file=" + out_file.string(),
                               exe.string()};
  std::cerr << "Measuring " << c.bench << ": " << jolt::host::command_line(cmd) << "\n";
  const auto r = jolt::host::run_process(cmd, jolt::host::ChildStdout::kToStderr);
  if (!r.ok())
    throw ObjectiveError("callgrind run failed (" + r.describe() +
                         "): " + jolt::host::command_line(cmd));
  return jolt::objectives::callgrind_total_instructions(read_file(out_file.string()),
                                                        out_file.string());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> keys;
  std::string out_dir, jolt_run;
  std::uint32_t scale = 0;
  bool json = false;
  po::options_description desc(
      "measure-objectives: measure string-keyed objectives\n"
      "usage: measure-objectives --objective KEY [--objective KEY]... [--scale S] [--json] "
      "[--out-dir D]\n"
      "keys: telemetry:<workload>:<metric>  metric = prover_time_s | peak_rss_gib | "
      "peak_memory_gib |\n"
      "        total:<label> | self:<label> | heap:<snapshot> | heap:<snapshot>:<root>\n"
      "      callgrind:<bench>:instructions   (bench = a micro-benchmark in bench/callgrind/)\n"
      "options");
  desc.add_options()("help,h", "show this help")("objective", po::value(&keys)->composing(),
                                                 "objective key (repeatable)")(
      "scale", po::value(&scale),
      "log2 trace length of the profile runs (default per workload: fibonacci 16, sha2-chain "
      "22, sha3-chain 22, btreemap 20)")("json", po::bool_switch(&json), "print JSON, not a table")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder for the profile runs' directories")(
      "jolt-run", po::value(&jolt_run), "jolt-run executable (default: next to this binary)");
  po::variables_map vm;
  try {
    jolt::core::parse_options(argc, argv, desc, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "measure-objectives: " << e.what() << "\n(see `measure-objectives --help`)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  if (keys.empty()) {
    std::cerr << "measure-objectives: give at least one --objective KEY (see --help)\n";
    return 2;
  }
  std::vector<Objective> objectives;
  for (const auto& k : keys) {
    try {
      objectives.push_back(jolt::objectives::parse_objective(k));
    } catch (const ObjectiveError& e) {
      std::cerr << "measure-objectives: ERROR: " << e.what() << "\n";
      return 2;
    }
  }
  fs::path bin_dir;
  try {
    bin_dir = fs::path(jolt::host::self_executable()).parent_path();
  } catch (const std::exception& e) {
    std::cerr << "measure-objectives: " << e.what() << "\n";
    return 1;
  }
  if (jolt_run.empty()) jolt_run = (bin_dir / "jolt-run").string();

  std::vector<Measurement> results(objectives.size());
  // Telemetry: one profile run per workload, in order of first mention.
  std::vector<std::string> workloads;
  for (const auto& o : objectives)
    if (auto* t = std::get_if<TelemetryObjective>(&o.target))
      if (std::find(workloads.begin(), workloads.end(), t->workload) == workloads.end())
        workloads.push_back(t->workload);
  for (const auto& w : workloads) {
    bool heap = false;
    for (const auto& o : objectives)
      if (auto* t = std::get_if<TelemetryObjective>(&o.target))
        heap |= t->workload == w && t->needs_heap();
    std::optional<rapidjson::Document> summary;
    std::string source, error;
    try {
      std::optional<std::uint32_t> s = vm.count("scale") ? std::optional<std::uint32_t>(scale)
                                                         : jolt::objectives::default_scale(w);
      if (!s)
        throw ObjectiveError("workload " + w + " has no default objective scale; pass --scale");
      if (!is_executable(jolt_run))
        throw ObjectiveError("no jolt-run executable at " + jolt_run +
                             " (build it, or pass --jolt-run)");
      summary = profile_once(jolt_run, w, *s, heap, out_dir, &source);
    } catch (const std::exception& e) {
      error = e.what();
    }
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      auto* t = std::get_if<TelemetryObjective>(&objectives[i].target);
      if (!t || t->workload != w) continue;
      if (!summary) {
        results[i].error = error;
        continue;
      }
      try {
        results[i].value = jolt::objectives::extract(*t, *summary, source);
      } catch (const std::exception& e) {
        results[i].error = e.what();
      }
    }
  }
  for (std::size_t i = 0; i < objectives.size(); ++i)
    if (auto* c = std::get_if<CallgrindObjective>(&objectives[i].target)) {
      try {
        results[i].value = static_cast<double>(measure_callgrind(*c, bin_dir, out_dir));
      } catch (const std::exception& e) {
        results[i].error = e.what();
      }
    }

  bool failed = false;
  if (json) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> wr(buf);
    wr.StartObject();
    wr.Key("objectives");
    wr.StartArray();
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      wr.StartObject();
      wr.Key("objective");
      wr.String(objectives[i].key.c_str());
      wr.Key("value");
      if (results[i].value)
        wr.Double(*results[i].value);
      else
        wr.Null();
      wr.Key("units");
      wr.String(objectives[i].units.c_str());
      if (!results[i].value) {
        wr.Key("error");
        wr.String(results[i].error.c_str());
        failed = true;
      }
      wr.EndObject();
    }
    wr.EndArray();
    wr.EndObject();
    std::printf("%s\n", buf.GetString());
  } else {
    std::printf("%-35s %15s %8s\n", "Objective", "Value", "Units");
    std::printf("%s\n", std::string(60, '-').c_str());
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      if (results[i].value) {
        std::printf("%-35s %15.6f %8s\n", objectives[i].key.c_str(), *results[i].value,
                    objectives[i].units.c_str());
      } else {
        std::printf("%-35s %15s %8s\n", objectives[i].key.c_str(), "-",
                    objectives[i].units.c_str());
        std::fprintf(stderr, "ERROR: %s: %s\n", objectives[i].key.c_str(),
                     results[i].error.c_str());
        failed = true;
      }
    }
  }
  std::fflush(stdout);
  return failed ? 1 : 0;
}
