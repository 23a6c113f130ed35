// `jolt-run benchmark`: sweeps workloads across scales, one `jolt-run profile` subprocess per
// (scale, workload) pair — scale outer, workload inner — continuing past failures. A subprocess
// per run keeps the recorder session and the per-run getrusage peak RSS of each run separate.
// The csv sink of each run appends to {out}/modular_timings.csv; this command writes no rows.
// With --runs N each pair is proved N times (each run its own directory and row), after
// --warmup K discarded runs (repeats.hpp), and the pair's statistics go to
// {out}/modular_stats.csv.
// --executor slurm|parallel runs the same plan on a cluster instead (executors.hpp: one Slurm job
// array, or GNU parallel over SSH), one task per (workload, scale) that makes the pair's runs
// one after the other; --plan prints the plan and the commands without running them.
#include <boost/algorithm/string.hpp>
#include <boost/filesystem.hpp>
#include <boost/program_options.hpp>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include "commands/benchmark/executors.hpp"
#include "commands/benchmark/repeats.hpp"
#include "commands/profile/preflight.hpp"
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
  std::string backend = "optimized";  // --backend, which names the pair's runs
  std::string trace_name() const { return trace_name_for(workload, scale, backend); }
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

using ProfileArgs = std::function<std::vector<std::string>(const Pair&)>;

// The closing hint of every sweep: where the rows are and the scripts that render them.
void print_result_hint(const std::string& out_dir, bool repeated) {
  const std::string stats_path = (fs::path(out_dir) / kStatsFileName).string();
  const std::string csv = (fs::path(out_dir) / "modular_timings.csv").string();
  std::printf("\nResults accumulate in %s (per-pair statistics: %s). Render them with:\n",
              csv.c_str(), stats_path.c_str());
  const std::string scripts = result_scripts_dir();
  std::printf("  /usr/bin/python3 %s/benchmark_summary.py --csv %s%s\n", scripts.c_str(),
              csv.c_str(), repeated ? " --repeats median" : "");
  std::printf("  /usr/bin/python3 %s/plot_benchmarks.py --csv %s --output-dir %s\n",
              scripts.c_str(), csv.c_str(), out_dir.c_str());
  std::printf("  /usr/bin/python3 %s/plot_memory_usage.py --traces-dir %s --output-dir %s\n",
              scripts.c_str(), out_dir.c_str(), out_dir.c_str());
  std::fflush(stdout);
}

// --plan's list: one line per (workload, scale, run), and the pairs --resume skips.
void print_plan_list(const std::vector<Pair>& pairs, int runs, int warmup, bool resume,
                     const std::string& out_dir, const char* executor) {
  std::size_t n = 0, skipped = 0;
  std::printf("Plan (executor %s, out dir %s):\n  %-20s %5s  %s\n", executor, out_dir.c_str(),
              "workload", "scale", "run");
  for (const Pair& p : pairs) {
    const std::string trace_name = p.trace_name();
    if (resume && finished_run_exists(out_dir, trace_name)) {
      std::printf("  %-20s %5u  skipped (--resume: found latest_%s)\n", p.workload.c_str(), p.scale,
                  trace_name.c_str());
      ++skipped;
      continue;
    }
    for (int k = 0; k < warmup; ++k)
      std::printf("  %-20s %5u  warmup %d/%d (discarded)\n", p.workload.c_str(), p.scale, k + 1,
                  warmup);
    for (int k = 0; k < runs; ++k, ++n)
      std::printf("  %-20s %5u  %d/%d\n", p.workload.c_str(), p.scale, k + 1, runs);
  }
  std::printf("%zu measured run(s)", n);
  if (skipped) std::printf(", %zu pair(s) skipped", skipped);
  std::printf("\n\n");
}

void print_local_plan(const std::string& exe, const std::string& out_dir,
                      const std::vector<Pair>& pairs, const ProfileArgs& profile_args, int runs,
                      int warmup, bool resume) {
  print_plan_list(pairs, runs, warmup, resume, out_dir, "local");
  std::printf("Executor local: one run at a time on this machine, in this order:\n");
  for (const Pair& p : pairs) {
    if (resume && finished_run_exists(out_dir, p.trace_name())) continue;
    std::vector<std::string> cmd{exe, "profile"};
    const auto args = profile_args(p);
    cmd.insert(cmd.end(), args.begin(), args.end());
    if (warmup > 0) {
      auto w = cmd;
      w.insert(w.end(), {"--out-dir", out_dir + "/.warmup-PID"});
      std::printf("  %d× %s  (warmup, folder removed)\n", warmup, host::command_line(w).c_str());
    }
    cmd.insert(cmd.end(), {"--out-dir", out_dir});
    std::printf("  %d× %s\n", runs, host::command_line(cmd).c_str());
  }
  std::fflush(stdout);
}

// --executor slurm|parallel: the plan's tasks on the cluster (executors.hpp), then the same
// summary as the local executor, failures listed with their job ids and logs.
int run_cluster_benchmark(ClusterOptions opt, const std::string& exe,
                          const std::vector<Pair>& pairs, const ProfileArgs& profile_args, int runs,
                          int warmup, bool resume, bool plan_only) {
  const char* name = executor_name(opt.kind);
  if (warmup > 0) {
    std::fprintf(stderr,
                 "jolt-run benchmark: --warmup with --executor %s: each cluster task is one "
                 "measured run on whichever host the scheduler picks, so a warmup would not warm "
                 "that host; drop --warmup, or use --executor local\n",
                 name);
    return 2;
  }
  std::vector<SweepTask> tasks;
  std::size_t skipped = 0;
  std::uint32_t largest = 0;
  for (const Pair& p : pairs) {
    const std::string trace_name = p.trace_name();
    if (resume && finished_run_exists(opt.out_dir, trace_name)) {
      if (!plan_only)
        std::printf("  ⏭ Skipping %s at 2^%u (found %s/latest_%s)\n", p.workload.c_str(), p.scale,
                    opt.out_dir.c_str(), trace_name.c_str());
      ++skipped;
      continue;
    }
    std::vector<std::string> cmd{exe, "profile"};
    const auto args = profile_args(p);
    cmd.insert(cmd.end(), args.begin(), args.end());
    cmd.insert(cmd.end(), {"--out-dir", opt.out_dir});
    tasks.push_back({p.workload, p.scale, static_cast<std::size_t>(runs), cmd});
    largest = std::max(largest, p.scale);
  }
  if (largest) {
    // The prover's memory model (preflight.hpp) for the default commitment scheme, which is what
    // the tasks' `profile` uses (benchmark passes no --pcs), and the sweep's backend.
    const std::uint64_t need = plan_memory(largest, jolt::prover::default_pcs_kind(), 0, "",
                                           *jolt::prover::parse_backend(pairs.front().backend))
                                   .needed_bytes;
    opt.mem_mib = (need + (1u << 20) - 1) >> 20;
  }
  if (plan_only) {
    print_plan_list(pairs, runs, warmup, resume, opt.out_dir, name);
    print_cluster_plan(opt, tasks, new_sweep_dir(opt.out_dir), std::cout);
    std::cout.flush();
    if (const auto why = executor_unavailable(opt))
      std::printf("\nNote: this machine could not run it: %s\n", why->c_str());
    return 0;
  }
  if (tasks.empty()) {
    std::printf("Nothing to run: every pair has its latest_ link (%zu skipped).\n", skipped);
    return 0;
  }
  if (const auto why = executor_unavailable(opt)) {
    std::fprintf(stderr, "jolt-run benchmark: %s\n", why->c_str());
    return 2;
  }
  boost::system::error_code ec;
  fs::create_directories(opt.out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "jolt-run benchmark: cannot create --out-dir %s: %s\n",
                 opt.out_dir.c_str(), ec.message().c_str());
    return 1;
  }
  // Ctrl-C / SIGTERM while waiting: the job array is cancelled (slurm) or GNU parallel is
  // signalled; finished tasks keep their latest_ links, so --resume runs the rest.
  host::forward_interrupts_to_children();
  const auto t0 = std::chrono::steady_clock::now();
  const ClusterResult r = run_cluster_sweep(opt, tasks);
  if (!r.launched) {
    std::fprintf(stderr, "jolt-run benchmark: %s\n", r.error.c_str());
    return 1;
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::size_t completed = 0, unfinished = 0, abandoned = 0;
  std::vector<std::string> failed;
  std::vector<std::string> stats_lines;
  bool stats_error = false;
  // One task per pair: its measured rows and run directories.
  for (const TaskOutcome& o : r.outcomes) {
    completed += o.runs_done;
    if (o.unfinished) unfinished += o.task->runs - o.runs_done;
    if (!o.ok && !o.unfinished) {  // one failed run; the pair's later runs were not attempted
      if (o.task->runs > o.runs_done + 1) abandoned += o.task->runs - o.runs_done - 1;
      failed.push_back(o.task->workload + " at 2^" + std::to_string(o.task->scale) + ": " +
                       (opt.kind == ExecutorKind::kSlurm ? "job " : "") + o.job + ", " + o.why +
                       "\n       log: " + o.log);
    }
    if (!o.rows.empty()) {  // as the local executor: every pair run gets its stats row
      const PairStats st = pair_stats(o.task->workload, o.task->scale, o.rows, 0, o.run_names);
      try {
        update_stats_file(opt.out_dir, {st});
      } catch (const std::exception& e) {
        std::fprintf(stderr, "  ❌ cannot write the statistics: %s\n", e.what());
        stats_error = true;
      }
      stats_lines.push_back(describe_stats(st));
    }
  }

  const std::string where =
      opt.kind == ExecutorKind::kSlurm ? "Slurm job " + r.job_id : std::string("GNU parallel");
  std::printf("================================================\n");
  std::printf("Benchmark sweep summary (%zu runs on %s in %s):\n",
              (tasks.size() + skipped) * static_cast<std::size_t>(runs), where.c_str(),
              host::format_duration(elapsed).c_str());
  std::printf("  ✓ Completed: %zu\n", completed);
  if (skipped) std::printf("  ⏭ Skipped: %zu\n", skipped);
  if (unfinished)
    std::printf("  ⏹ Interrupted: %zu run(s) not finished (rerun with --resume to do them)\n",
                unfinished);
  if (!failed.empty()) {
    std::printf("  ❌ Failed: %zu\n", failed.size());
    for (const auto& f : failed) std::printf("     %s\n", f.c_str());
    if (abandoned)
      std::printf("     (%zu later run(s) of failed pairs not attempted)\n", abandoned);
  }
  if (!r.error.empty()) std::printf("  ❌ %s\n", r.error.c_str());
  if (runs > 1 && !stats_lines.empty()) {
    std::printf("\nPer pair (median, min, max, MAD of the prove time; also in %s/%s):\n",
                opt.out_dir.c_str(), kStatsFileName);
    for (const auto& l : stats_lines) std::printf("  %s\n", l.c_str());
  }
  std::printf("Task script, logs and exit statuses: %s\n", r.sweep_dir.c_str());
  print_result_hint(opt.out_dir, runs > 1);
  if (r.interrupt_signal) {
    std::fprintf(stderr, "jolt-run benchmark: interrupted (%s); rerun with --resume\n",
                 strsignal(r.interrupt_signal));
    return 128 + r.interrupt_signal;
  }
  return failed.empty() && r.error.empty() && !stats_error ? 0 : 1;
}

int run_benchmark(int argc, char** argv) {
  std::uint32_t min_scale = 18, max_scale = 21;
  std::vector<std::string> benchmarks;
  std::string format, out_dir, executor_arg, slurm_args_text, sshloginfile, backend;
  bool resume = false, heap = false, plan_only = false;
  int runs = 1, warmup = 0;
  double poll_seconds = 10;
  po::options_description desc(
      "jolt-run benchmark: prove every workload at every scale in a range, one profile subprocess "
      "per run\nusage: jolt-run benchmark [--min-scale N] [--max-scale N] [--benchmarks A,B] "
      "[--runs N [--warmup K]] [--resume] [--executor local|slurm|parallel] [--plan] "
      "[options]\noptions");
  desc.add_options()("help,h", "show this help")(
      "min-scale", po::value(&min_scale)->default_value(18), "smallest log2 trace length")(
      "max-scale", po::value(&max_scale)->default_value(21),
      "largest log2 trace length (inclusive)")(
      "benchmarks", po::value(&benchmarks)->composing(),
      "comma-separated workloads (default: fibonacci,sha2-chain,sha3-chain,btreemap)")(
      "runs", po::value(&runs)->default_value(1),
      "measured runs per pair, each its own run directory and CSV row; their median, min, max "
      "and MAD go to {out}/modular_stats.csv")(
      "warmup", po::value(&warmup)->default_value(0),
      "discarded runs per pair before the measured ones (no row, no run directory kept)")(
      "resume", po::bool_switch(&resume),
      "skip pairs whose {out}/latest_{trace_name} link resolves to a run directory")(
      "format", po::value(&format)->default_value("chrome"),
      "chrome|none|default, passed to profile")("heap", po::bool_switch(&heap),
                                                "pass --heap to every profile run")(
      "backend", po::value(&backend)->default_value("optimized"),
      "optimized|reference, passed to profile (reference runs are named ..._reference)")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder for run directories, modular_timings.csv and modular_stats.csv")(
      "executor", po::value(&executor_arg)->default_value("local"),
      "local (one run at a time here), slurm (one `sbatch --array` job array, one task per "
      "workload and scale making its --runs in turn) or parallel (the same tasks through GNU "
      "parallel over SSH, --sshloginfile); cluster hosts must share --out-dir and this "
      "jolt-run's path")(
      "slurm-args", po::value(&slurm_args_text),
      "extra sbatch options, e.g. \"--partition=long --time=02:00:00\"; without --mem, each "
      "task asks for the pre-flight memory estimate of the sweep's largest scale")(
      "sshloginfile", po::value(&sshloginfile),
      "--executor parallel: GNU parallel's host list, one a line (`:` is this machine)")(
      "poll-seconds", po::value(&poll_seconds)->default_value(10),
      "--executor slurm: seconds between squeue polls")(
      "plan", po::bool_switch(&plan_only),
      "print the (workload, scale, run) list and the commands the executor would run; run "
      "nothing");
  // Passed to every profile run: each checks its own pair's estimate before tracing.
  PreflightOptions preflight;
  preflight.add_to(desc);
  po::variables_map vm;
  try {
    parse_options(argc, argv, desc, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run benchmark: " << e.what() << "\n(see `jolt-run benchmark --help`)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  for (const auto& [flag, s] : {std::pair{"--min-scale", min_scale}, {"--max-scale", max_scale}})
    if (s < 1 || s > kMaxSweepScale) {
      std::cerr << "jolt-run benchmark: " << flag << " " << s
                << " out of range: expected a log2 trace length in 1..=40\n";
      return 2;
    }
  if (min_scale > max_scale) {
    std::cerr << "jolt-run benchmark: --min-scale " << min_scale << " is above --max-scale "
              << max_scale << ": the sweep would run nothing; pass --min-scale ≤ --max-scale\n";
    return 2;
  }
  if (!jolt::prover::parse_backend(backend)) {
    std::cerr << "jolt-run benchmark: unknown prover backend '" << backend
              << "' for --backend (known: optimized, reference)\n";
    return 2;
  }
  if (const auto why = repeat_counts_error(runs, warmup, " per pair")) {
    std::cerr << "jolt-run benchmark: " << *why << "\n";
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

  const auto executor = parse_executor(executor_arg);
  if (!executor) {
    std::cerr << "jolt-run benchmark: --executor " << executor_arg
              << ": expected local, slurm or parallel\n";
    return 2;
  }
  if (*executor != ExecutorKind::kSlurm &&
      (vm.count("slurm-args") || !vm["poll-seconds"].defaulted())) {
    std::cerr << "jolt-run benchmark: --slurm-args and --poll-seconds are for --executor slurm\n";
    return 2;
  }
  if (*executor != ExecutorKind::kParallel && vm.count("sshloginfile")) {
    std::cerr << "jolt-run benchmark: --sshloginfile is for --executor parallel\n";
    return 2;
  }
  if (!(poll_seconds > 0 && poll_seconds <= 3600)) {
    std::cerr << "jolt-run benchmark: --poll-seconds " << poll_seconds
              << ": expected seconds between squeue polls, more than 0 and at most 3600\n";
    return 2;
  }

  // Every run of a local sweep would fail on it (a cluster's machines have their own folders).
  // An unknown workload is left to its runs, as the original does: it fails its pairs only.
  if (boost::system::error_code ec; *executor == ExecutorKind::kLocal && fs::exists(out_dir, ec) &&
                                    !fs::is_directory(out_dir, ec)) {
    std::cerr << "jolt-run benchmark: --out-dir " << out_dir
              << " is a file, not a folder; choose another --out-dir\n";
    return 2;
  }

  std::vector<Pair> pairs;
  for (std::uint32_t s = min_scale; s <= max_scale; ++s)
    for (const auto& w : workloads) pairs.push_back({w, s, backend});
  // The profile options of every run of a pair (--out-dir is added by whoever starts it).
  const ProfileArgs profile_args = [&](const Pair& pair) {
    std::vector<std::string> args{
        "--workload", pair.workload, "--scale", std::to_string(pair.scale), "--format", format};
    if (heap) args.push_back("--heap");
    if (pair.backend != "optimized") args.insert(args.end(), {"--backend", pair.backend});
    if (preflight.force) args.push_back("--force");
    if (preflight.memory_budget_gib) {
      // The shortest text that reads back as the same double.
      char gib[64];
      const auto end = std::to_chars(gib, gib + sizeof gib, *preflight.memory_budget_gib).ptr;
      args.insert(args.end(), {"--memory-budget", std::string(gib, end)});
    }
    return args;
  };

  if (*executor != ExecutorKind::kLocal) {
    ClusterOptions opt;
    opt.kind = *executor;
    opt.out_dir = fs::absolute(out_dir).lexically_normal().string();
    opt.sshloginfile = sshloginfile.empty() ? sshloginfile : fs::absolute(sshloginfile).string();
    opt.poll_seconds = poll_seconds;
    try {
      opt.slurm_args = split_shell_words(slurm_args_text);
    } catch (const std::invalid_argument& e) {
      std::cerr << "jolt-run benchmark: " << e.what() << "\n";
      return 2;
    }
    return run_cluster_benchmark(opt, exe, pairs, profile_args, runs, warmup, resume, plan_only);
  }

  if (plan_only) {
    print_local_plan(exe, out_dir, pairs, profile_args, runs, warmup, resume);
    return 0;
  }

  // Ctrl-C / SIGTERM: the running profile child gets the signal, removes its unfinished run
  // directory and exits 130/143; then we stop, so `--resume` re-runs exactly the unfinished
  // pairs (those without a latest_ link).
  host::forward_interrupts_to_children();
  const auto n_warmup = static_cast<std::size_t>(warmup), n_runs = static_cast<std::size_t>(runs);
  const std::size_t per_pair = n_warmup + n_runs;
  const bool repeated = per_pair > 1;
  const std::size_t total = pairs.size() * per_pair;  // child runs, warmups included

  using Clock = std::chrono::steady_clock;
  const auto sweep_start = Clock::now();
  std::size_t completed = 0, skipped = 0, warmups_done = 0, failed_runs = 0, abandoned = 0;
  double measured_seconds = 0;  // wall time of the runs actually executed
  std::size_t executed = 0;
  std::vector<std::string> failed;       // one line per failed run, with its command
  std::vector<std::string> stats_lines;  // describe_stats of each pair run here
  bool stats_error = false;
  std::uint32_t current_scale = 0;
  bool interrupted = false;

  int interrupt_signal = 0;
  for (std::size_t pi = 0; pi < pairs.size() && !interrupted; ++pi) {
    const Pair& pair = pairs[pi];
    if ((interrupt_signal = host::pending_interrupt()) != 0) {
      interrupted = true;
      break;
    }
    if (pair.scale != current_scale) {
      current_scale = pair.scale;
      std::printf("=== Running benchmarks at scale 2^%u ===\n\n", pair.scale);
    }
    const std::string trace_name = pair.trace_name();
    if (resume && finished_run_exists(out_dir, trace_name)) {
      std::printf("  ⏭ Skipping %s (found %s/latest_%s)\n", pair.workload.c_str(), out_dir.c_str(),
                  trace_name.c_str());
      ++skipped;
      continue;
    }
    const std::vector<std::string> args = profile_args(pair);
    std::vector<TimingRow> rows;
    std::vector<std::string> dirs;
    std::size_t pair_warmups = 0;
    for (std::size_t k = 0; k < per_pair; ++k) {
      const bool is_warmup = k < n_warmup;
      const std::size_t run_no = pi * per_pair + k + 1;
      // Estimate from the mean of runs executed so far (skipped pairs cost nothing).
      const double elapsed = std::chrono::duration<double>(Clock::now() - sweep_start).count();
      const std::size_t remaining = total - run_no + 1;
      std::string eta =
          executed ? host::format_duration(measured_seconds / static_cast<double>(executed) *
                                           static_cast<double>(remaining))
                   : std::string("unknown");
      std::string which;
      if (repeated)
        which = is_warmup ? " (warmup " + std::to_string(k + 1) + "/" + std::to_string(n_warmup) +
                                ", discarded)"
                          : " (run " + std::to_string(k - n_warmup + 1) + "/" +
                                std::to_string(n_runs) + ")";
      std::printf("[%zu/%zu] %s at 2^%u%s — elapsed %s, estimated time left %s\n", run_no, total,
                  pair.workload.c_str(), pair.scale, which.c_str(),
                  host::format_duration(elapsed).c_str(), eta.c_str());
      std::fflush(stdout);

      const auto t0 = Clock::now();
      const ChildRun child =
          is_warmup ? run_warmup_child(exe, args, out_dir) : run_profile_child(exe, args, out_dir);
      const host::ProcessResult& r = child.process;
      const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
      measured_seconds += secs;
      ++executed;
      if (const int sig = interrupt_signal_of(r); sig != 0) {
        // Interrupted (ours, or the child's own process group got Ctrl-C): stop the sweep. A run
        // that completed before the signal counts as completed (its latest_ link exists).
        interrupt_signal = sig;
        interrupted = true;
        if (!is_warmup && child.ok()) {
          ++completed;
          rows.push_back(*child.row);
          dirs.push_back(child.run_name);
        }
        std::fflush(stdout);
        std::fprintf(stderr, "  ⏹ interrupted: %s at 2^%u%s (%s)\n\n", pair.workload.c_str(),
                     pair.scale, which.c_str(), r.describe().c_str());
        break;
      }
      const std::string line = host::command_line(child.command);
      if (!r.ok() || (!is_warmup && !child.row)) {
        // The common failures (an unknown workload, a scale below the workload's minimum) fail
        // every run of the pair alike: the pair's remaining runs are not attempted.
        std::fflush(stdout);
        const std::string why = !r.ok() ? r.describe() : child.error;
        if (!r.spawned)
          std::fprintf(stderr, "  ❌ FAILED to spawn (%s): %s\n", r.spawn_error.c_str(),
                       line.c_str());
        else
          std::fprintf(stderr, "  ❌ FAILED (%s): %s\n", why.c_str(), line.c_str());
        ++failed_runs;
        failed.push_back(line + "  [" + why + "]");
        abandoned += per_pair - k - 1;
        if (per_pair - k - 1 > 0)
          std::fprintf(stderr, "     (the other %zu run(s) of this pair are not attempted)\n",
                       per_pair - k - 1);
        std::fprintf(stderr, "\n");
        break;
      }
      if (is_warmup) {
        ++warmups_done;
        ++pair_warmups;
        std::printf("  ✓ warmup of %s at 2^%u in %s (discarded)\n\n", pair.workload.c_str(),
                    pair.scale, host::format_duration(secs).c_str());
      } else {
        ++completed;
        rows.push_back(*child.row);
        dirs.push_back(child.run_name);
        std::printf("  ✓ %s at 2^%u in %s\n\n", pair.workload.c_str(), pair.scale,
                    host::format_duration(secs).c_str());
      }
      std::fflush(stdout);
    }
    if (!rows.empty()) {
      const PairStats st = pair_stats(pair.workload, pair.scale, rows, pair_warmups, dirs);
      try {
        update_stats_file(out_dir, {st});
      } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "  ❌ cannot write the statistics: %s\n\n", e.what());
        stats_error = true;
      }
      stats_lines.push_back(describe_stats(st));
      if (repeated) std::printf("  ≡ %s\n\n", stats_lines.back().c_str());
    }
    std::fflush(stdout);
  }

  const double elapsed = std::chrono::duration<double>(Clock::now() - sweep_start).count();
  std::printf("================================================\n");
  std::printf("Benchmark sweep summary (%zu runs in %s):\n", total,
              host::format_duration(elapsed).c_str());
  std::printf("  ✓ Completed: %zu\n", completed);
  if (warmups_done) std::printf("  ♨ Warmup runs (discarded): %zu\n", warmups_done);
  if (skipped) std::printf("  ⏭ Skipped: %zu\n", skipped);
  if (interrupted)
    std::printf("  ⏹ Interrupted: %zu run(s) not finished (rerun with --resume to do them)\n",
                total - skipped * per_pair - completed - warmups_done - failed_runs - abandoned);
  if (!failed.empty()) {
    std::printf("  ❌ Failed: %zu\n", failed.size());
    for (const auto& f : failed) std::printf("     %s\n", f.c_str());
    if (abandoned)
      std::printf("     (%zu later run(s) of failed pairs not attempted)\n", abandoned);
  }
  const std::string stats_path = (fs::path(out_dir) / kStatsFileName).string();
  if (repeated && !stats_lines.empty()) {
    std::printf("\nPer pair (median, min, max, MAD of the prove time; also in %s):\n",
                stats_path.c_str());
    for (const auto& l : stats_lines) std::printf("  %s\n", l.c_str());
  }
  if (stats_error) std::printf("  ❌ %s could not be written (see above)\n", stats_path.c_str());
  print_result_hint(out_dir, repeated);
  if (interrupted) {
    std::fprintf(stderr, "jolt-run benchmark: interrupted (%s)\n", strsignal(interrupt_signal));
    return 128 + interrupt_signal;
  }
  return failed.empty() && !stats_error ? 0 : 1;
}

const CommandRegistration kReg{
    "benchmark", "sweep workloads across scales (one profile subprocess per run)", &run_benchmark};

}  // namespace
}  // namespace jolt::core
