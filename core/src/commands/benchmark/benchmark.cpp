// `jolt-run benchmark`: sweeps workloads across scales, one `jolt-run profile` subprocess per
// (scale, workload) pair — scale outer, workload inner — continuing past failures. A subprocess
// per run keeps the recorder session and the per-run getrusage peak RSS of each run separate.
// The csv sink of each run appends to {out}/modular_timings.csv; this command writes no rows.
#include <boost/algorithm/string.hpp>
#include <boost/filesystem.hpp>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "jolt/core/command.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/host/subprocess.hpp"

namespace po = boost::program_options;
namespace fs = boost::filesystem;

namespace jolt::core {
namespace {

// Where the result scripts are: installed next to the binary (<prefix>/bin/jolt-run ->
// <prefix>/share/jolt-run/scripts, `cmake --install`), else the source tree this binary was built
// from; "scripts" (relative) when neither is there.
std::string result_scripts_dir() {
  const fs::path exe = fs::path(host::self_executable());
  for (const fs::path& dir : {exe.parent_path().parent_path() / JOLT_SCRIPTS_INSTALL_SUBDIR,
                              fs::path(JOLT_SCRIPTS_SOURCE_DIR)}) {
    boost::system::error_code ec;
    if (fs::exists(dir / "plot_benchmarks.py", ec)) return fs::canonical(dir, ec).string();
  }
  return "scripts";
}

constexpr std::uint32_t kMaxSweepScale = 40;
const char* const kDefaultWorkloads = "fibonacci,sha2-chain,sha3-chain,btreemap";

struct Pair {
  std::string workload;
  std::uint32_t scale;
};

std::vector<std::string> split_list(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    std::vector<std::string> parts;
    boost::split(parts, v, boost::is_any_of(","));
    for (auto& p : parts) {
      boost::trim(p);
      if (!p.empty()) out.push_back(p);
    }
  }
  return out;
}

// Follows the link: a dangling latest_ link counts as absent, as in the original.
bool finished_run_exists(const std::string& out_dir, const std::string& trace_name) {
  boost::system::error_code ec;
  return fs::exists(fs::path(out_dir) / ("latest_" + trace_name), ec);
}

int run_benchmark(int argc, char** argv) {
  std::uint32_t min_scale = 18, max_scale = 21;
  std::vector<std::string> benchmarks;
  std::string format, out_dir;
  bool resume = false, heap = false;
  po::options_description desc(
      "jolt-run benchmark: prove every workload at every scale in a range, one profile subprocess "
      "per run\nusage: jolt-run benchmark [--min-scale N] [--max-scale N] [--benchmarks A,B] "
      "[--resume] [options]\noptions");
  desc.add_options()("help,h", "show this help")(
      "min-scale", po::value(&min_scale)->default_value(18), "smallest log2 trace length")(
      "max-scale", po::value(&max_scale)->default_value(21),
      "largest log2 trace length (inclusive)")(
      "benchmarks", po::value(&benchmarks)->composing(),
      "comma-separated workloads (default: fibonacci,sha2-chain,sha3-chain,btreemap)")(
      "resume", po::bool_switch(&resume),
      "skip pairs whose {out}/latest_{trace_name} link resolves to a run directory")(
      "format", po::value(&format)->default_value("chrome"),
      "chrome|none|default, passed to profile")("heap", po::bool_switch(&heap),
                                                "pass --heap to every profile run")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder for run directories and modular_timings.csv");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run benchmark: " << e.what() << "\n(see `jolt-run benchmark --help`)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  for (std::uint32_t s : {min_scale, max_scale})
    if (s < 1 || s > kMaxSweepScale) {
      std::cerr << "jolt-run benchmark: --scale " << s
                << " out of range: expected a log2 trace length in 1..=40\n";
      return 2;
    }
  if (format != "chrome" && format != "none" && format != "default") {
    std::cerr << "jolt-run benchmark: --format " << format
              << ": expected chrome, none or default\n";
    return 2;
  }
  std::vector<std::string> workloads =
      split_list(benchmarks.empty() ? std::vector<std::string>{kDefaultWorkloads} : benchmarks);
  if (workloads.empty()) {
    std::cerr << "jolt-run benchmark: --benchmarks names no workload\n";
    return 2;
  }

  std::string exe;
  try {
    exe = host::self_executable();
  } catch (const std::exception& e) {
    std::cerr << "jolt-run benchmark: " << e.what() << "\n";
    return 1;
  }

  // Ctrl-C / SIGTERM: the running profile child gets the signal, removes its unfinished run
  // directory and exits 130/143; then we stop, so `--resume` re-runs exactly the unfinished
  // pairs (those without a latest_ link).
  host::forward_interrupts_to_children();

  std::vector<Pair> pairs;
  for (std::uint32_t s = min_scale; s <= max_scale && min_scale <= max_scale; ++s)
    for (const auto& w : workloads) pairs.push_back({w, s});
  const std::size_t total = pairs.size();

  using Clock = std::chrono::steady_clock;
  const auto sweep_start = Clock::now();
  std::size_t completed = 0, skipped = 0, done = 0;
  double measured_seconds = 0;  // wall time of the runs actually executed
  std::size_t executed = 0;
  std::vector<std::string> failed;
  std::uint32_t current_scale = 0;
  bool interrupted = false;

  int interrupt_signal = 0;
  for (const auto& pair : pairs) {
    if ((interrupt_signal = host::pending_interrupt()) != 0) {
      interrupted = true;
      break;
    }
    if (pair.scale != current_scale) {
      current_scale = pair.scale;
      std::printf("=== Running benchmarks at scale 2^%u ===\n\n", pair.scale);
    }
    ++done;
    const std::string trace_name = trace_name_for(pair.workload, pair.scale);
    if (resume && finished_run_exists(out_dir, trace_name)) {
      std::printf("  ⏭ Skipping %s (found %s/latest_%s)\n", pair.workload.c_str(), out_dir.c_str(),
                  trace_name.c_str());
      ++skipped;
      continue;
    }
    // Estimate from the mean of runs executed so far (skipped pairs cost nothing).
    const double elapsed = std::chrono::duration<double>(Clock::now() - sweep_start).count();
    const std::size_t remaining = total - done + 1;
    std::string eta = executed
                          ? host::format_duration(measured_seconds / static_cast<double>(executed) *
                                                  static_cast<double>(remaining))
                          : std::string("unknown");
    std::printf("[%zu/%zu] %s at 2^%u — elapsed %s, estimated time left %s\n", done, total,
                pair.workload.c_str(), pair.scale, host::format_duration(elapsed).c_str(),
                eta.c_str());

    std::vector<std::string> cmd{
        exe,        "profile", "--workload", pair.workload, "--scale", std::to_string(pair.scale),
        "--format", format,    "--out-dir",  out_dir};
    if (heap) cmd.push_back("--heap");
    const auto t0 = Clock::now();
    const host::ProcessResult r = host::run_process(cmd);
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    measured_seconds += secs;
    ++executed;
    if (host::pending_interrupt() != 0 || r.term_signal == SIGINT || r.term_signal == SIGTERM ||
        (r.spawned && (r.exit_code == 128 + SIGINT || r.exit_code == 128 + SIGTERM))) {
      // Interrupted (ours, or the child's own process group got Ctrl-C): stop the sweep. A run
      // that completed before the signal counts as completed (its latest_ link exists).
      interrupt_signal = host::pending_interrupt() != 0 ? host::pending_interrupt()
                         : r.term_signal != 0           ? r.term_signal
                                                        : r.exit_code - 128;
      interrupted = true;
      if (r.ok()) ++completed;
      std::fflush(stdout);
      std::fprintf(stderr, "  ⏹ interrupted: %s at 2^%u (%s)\n\n", pair.workload.c_str(),
                   pair.scale, r.describe().c_str());
      break;
    }
    if (r.ok()) {
      ++completed;
      std::printf("  ✓ %s at 2^%u in %s\n\n", pair.workload.c_str(), pair.scale,
                  host::format_duration(secs).c_str());
    } else {
      const std::string line = host::command_line(cmd);
      std::fflush(stdout);
      if (r.spawned)
        std::fprintf(stderr, "  ❌ FAILED (%s): %s\n\n", r.describe().c_str(), line.c_str());
      else
        std::fprintf(stderr, "  ❌ FAILED to spawn (%s): %s\n\n", r.spawn_error.c_str(),
                     line.c_str());
      failed.push_back(line + "  [" + r.describe() + "]");
    }
    std::fflush(stdout);
  }

  const double elapsed = std::chrono::duration<double>(Clock::now() - sweep_start).count();
  std::printf("================================================\n");
  std::printf("Benchmark sweep summary (%zu runs in %s):\n", total,
              host::format_duration(elapsed).c_str());
  std::printf("  ✓ Completed: %zu\n", completed);
  if (skipped) std::printf("  ⏭ Skipped: %zu\n", skipped);
  if (interrupted)
    std::printf("  ⏹ Interrupted: %zu run(s) not finished (rerun with --resume to do them)\n",
                total - completed - skipped - failed.size());
  if (!failed.empty()) {
    std::printf("  ❌ Failed: %zu\n", failed.size());
    for (const auto& f : failed) std::printf("     %s\n", f.c_str());
  }
  const std::string csv = (fs::path(out_dir) / "modular_timings.csv").string();
  std::printf("\nResults accumulate in %s. Render them with:\n", csv.c_str());
  const std::string scripts = result_scripts_dir();
  std::printf("  /usr/bin/python3 %s/benchmark_summary.py --csv %s\n", scripts.c_str(),
              csv.c_str());
  std::printf("  /usr/bin/python3 %s/plot_benchmarks.py --csv %s --output-dir %s\n",
              scripts.c_str(), csv.c_str(), out_dir.c_str());
  std::printf("  /usr/bin/python3 %s/plot_memory_usage.py --traces-dir %s --output-dir %s\n",
              scripts.c_str(), out_dir.c_str(), out_dir.c_str());
  std::fflush(stdout);
  if (interrupted) {
    std::fprintf(stderr, "jolt-run benchmark: interrupted (%s)\n", strsignal(interrupt_signal));
    return 128 + interrupt_signal;
  }
  return failed.empty() ? 0 : 1;
}

const CommandRegistration kReg{
    "benchmark", "sweep workloads across scales (one profile subprocess per run)", &run_benchmark};

}  // namespace
}  // namespace jolt::core
