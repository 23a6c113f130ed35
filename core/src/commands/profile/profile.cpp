// `jolt-run [profile]`: prove one workload under the recorder, verify, render through sinks,
// and publish the run directory as latest_{trace_name}. With --runs N (and --warmup K) this
// process proves nothing itself: it runs N `jolt-run profile` children with the same options
// (one process per run, so each run's recorder session and peak RSS stay its own), after K
// discarded warmups, and prints the runs' statistics (repeats.hpp).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <jolt/instrument.hpp>
#include <jolt/process.hpp>
#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/sink.hpp>
#include <jolt/spans.hpp>
#include <jolt/summary.hpp>
#include <jolt/taxonomy.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>

#include "commands/benchmark/repeats.hpp"
#include "commands/profile/common_options.hpp"
#include "commands/profile/interrupt.hpp"
#include "commands/profile/measured_prove.hpp"
#include "commands/profile/preflight.hpp"
#include "commands/report/report.hpp"
#include "jolt/core/build_info.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/logging.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/core/system_monitor.hpp"
#include "jolt/cpu_profile/stage_profiles.hpp"
#include "jolt/host/job.hpp"
#include "jolt/host/pipeline.hpp"
#include "jolt/host/plugin_loader.hpp"
#include "jolt/host/progress.hpp"
#include "jolt/host/subprocess.hpp"
#include "jolt/host/summary_file.hpp"

namespace po = boost::program_options;

namespace jolt::core {
namespace {

struct LoadedSink {
  std::string name;
  std::string path;
  std::uint64_t capabilities = 0;
  std::shared_ptr<jolt::Sink> sink;
};

// The stage wall times of the previous run of this workload and scale (its latest_ summary.json),
// in kEmittedStageSpans order; empty when there is none or its stages differ (then no ETA).
std::vector<std::uint64_t> previous_stage_times(const std::string& out_dir,
                                                const std::string& trace_name) {
  const std::string path = out_dir + "/latest_" + trace_name + "/summary.json";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  try {
    const rapidjson::Document doc = host::load_summary(path);
    const RunReport r = report_from_summary_json(doc, path, 0);
    std::vector<std::uint64_t> out;
    for (std::string_view label : jolt::taxonomy::kEmittedStageSpans) {
      const auto it = std::find_if(r.stages.begin(), r.stages.end(),
                                   [&](const ReportStage& s) { return s.label == label; });
      if (it == r.stages.end()) return {};
      out.push_back(it->wall_time_ns);
    }
    return out;
  } catch (const std::exception& e) {
    spdlog::debug("no estimate from {}: {}", path, e.what());
    return {};
  }
}

void print_plugins(const host::PluginLoader& loader) {
  std::cout << "plugin folders:\n";
  for (const auto& d : loader.search_dirs()) std::cout << "  " << d << "\n";
  for (const char* kind : {"workload", "sink"}) {
    std::cout << kind << "s:\n";
    for (const auto& l : loader.list())
      if (l.problem.empty() && l.kind == kind)
        std::printf("  %-14s %s  (%s)\n", l.name.c_str(), l.description.c_str(), l.path.c_str());
  }
  bool header = false;
  for (const auto& l : loader.list())
    if (!l.problem.empty()) {
      if (!header) std::cout << "not loadable:\n";
      header = true;
      std::cout << "  " << l.path << ": " << l.problem << "\n";
    }
}

// Console report for --format default: per-stage boundary RSS and the stage wall times.
void print_console_report(const jolt::Profile& p) {
  if (p.stage_rss.empty()) return;
  std::cout << "Per-stage RSS at span boundaries (start → end, Δ retained):\n";
  for (const auto& row : p.stage_rss) {
    const double open = static_cast<double>(row.rss_open_bytes) / jolt::kBytesPerGib;
    const double close = static_cast<double>(row.rss_close_bytes) / jolt::kBytesPerGib;
    std::printf("  %-14s %10s → %10s  (Δ %10s)\n", row.stage.c_str(), format_memory(open).c_str(),
                format_memory(close).c_str(), format_memory(close - open).c_str());
  }
}

// profile --runs N [--warmup K]: the children get every option given here but --runs, --warmup
// and --out-dir (added back as each child needs it), spelled as the user spelled them.
int run_repeated(int argc, char** argv, const po::options_description& desc,
                 const std::string& out_dir, int runs, int warmup) {
  if (const auto why = repeat_counts_error(runs, warmup, "")) {
    std::cerr << "jolt-run profile: " << *why << "\n";
    return 2;
  }
  std::vector<std::string> args;
  for (const po::option& o : po::command_line_parser(argc, argv).options(desc).run().options) {
    if (o.string_key == "runs" || o.string_key == "warmup" || o.string_key == "out-dir") continue;
    args.insert(args.end(), o.original_tokens.begin(), o.original_tokens.end());
  }
  std::string exe;
  try {
    exe = host::self_executable();
  } catch (const std::exception& e) {
    std::cerr << "jolt-run profile: error: " << e.what() << "\n";
    return 1;
  }
  // Ctrl-C / SIGTERM go to the running child, which removes its unfinished run directory.
  host::forward_interrupts_to_children();
  const auto total = static_cast<std::size_t>(warmup) + static_cast<std::size_t>(runs);
  std::vector<TimingRow> rows;
  std::vector<std::string> dirs;
  std::size_t warmups_done = 0;
  int status = 0;
  for (std::size_t k = 0; k < total; ++k) {
    const bool is_warmup = k < static_cast<std::size_t>(warmup);
    if (is_warmup)
      std::printf("=== warmup %zu/%d (discarded) ===\n", k + 1, warmup);
    else
      std::printf("=== run %zu/%d ===\n", k - static_cast<std::size_t>(warmup) + 1, runs);
    std::fflush(stdout);
    const ChildRun child =
        is_warmup ? run_warmup_child(exe, args, out_dir) : run_profile_child(exe, args, out_dir);
    if (const int sig = interrupt_signal_of(child.process); sig != 0) {
      if (!is_warmup && child.ok()) {
        rows.push_back(*child.row);
        dirs.push_back(child.run_name);
      }
      std::fflush(stdout);
      std::fprintf(stderr, "jolt-run profile: interrupted (%s)\n", strsignal(sig));
      status = 128 + sig;
      break;
    }
    if (!child.process.ok() || (!is_warmup && !child.row)) {
      std::fflush(stdout);
      std::fprintf(stderr, "jolt-run profile: error: %s %zu of %s %d failed (%s): %s\n",
                   is_warmup ? "warmup" : "run",
                   is_warmup ? k + 1 : k - static_cast<std::size_t>(warmup) + 1,
                   is_warmup ? "--warmup" : "--runs", is_warmup ? warmup : runs,
                   child.process.ok() ? child.error.c_str() : child.process.describe().c_str(),
                   host::command_line(child.command).c_str());
      status = 1;
      break;
    }
    if (is_warmup) {
      ++warmups_done;
    } else {
      rows.push_back(*child.row);
      dirs.push_back(child.run_name);
    }
  }
  if (rows.empty()) return status;
  const PairStats st =
      pair_stats(rows.front().benchmark_name, rows.front().scale, rows, warmups_done, dirs);
  try {
    update_stats_file(out_dir, {st});
  } catch (const std::exception& e) {
    std::cerr << "jolt-run profile: error: " << e.what() << "\n";
    if (status == 0) status = 1;
  }
  std::printf("\nRepeated runs: %s\nStatistics: %s/%s\n", describe_stats(st).c_str(),
              out_dir.c_str(), kStatsFileName);
  std::fflush(stdout);
  return status;
}

int run_profile(int argc, char** argv) {
  GuestOptions g;
  std::string format, out_dir;
  std::vector<std::string> sinks;
  bool list_plugins = false, heap = false, quiet = false, pprof = false, heap_svg = false;
  int runs = 1, warmup = 0;
  po::options_description desc(
      "jolt-run profile: prove a workload under the profiler, verify the proof, write the run's "
      "artifacts\nusage: jolt-run [profile] --workload NAME|PATH [--sink "
      "NAME|PATH[:key=value,...]]... "
      "[options]\noptions");
  desc.add_options()("help,h", "show this help")(
      "sink,s", po::value(&sinks)->composing(),
      "sink plugin by name or path (repeatable); NAME:key=value,... passes options to it")(
      "format", po::value(&format),
      "chrome = chrome+summary+csv sinks; none = no recorder (prove() timed alone, csv only; "
      "a --sink that reads spans gets none); default = the stage report on the console and the "
      "csv sink, no trace file. Default: chrome unless --sink is given")(
      "heap", po::bool_switch(&heap), "also take per-batch heap snapshots (adds the folded sink)")(
      "heap-svg", po::bool_switch(&heap_svg),
      "--heap, plus a flame chart {snapshot}.svg next to each snapshot's .folded file")(
      "pprof", po::bool_switch(&pprof),
      "also sample the prover's CPU stacks at PPROF_FREQ Hz (default 100) into one pprof profile "
      "per stage and one for the whole prove: {run_dir}/pprof/{stage}.pb, prove.pb")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder for run directories")(
      "quiet,q", po::bool_switch(&quiet),
      "do not print the stage table at the end (`jolt-run report` prints it and more)")(
      "runs", po::value(&runs),
      "prove N times, one child process per run (each its own run directory and CSV row), "
      "then print the median, min, max and MAD of the prove time and merge them into "
      "{out}/modular_stats.csv")(
      "warmup", po::value(&warmup),
      "with --runs: first K discarded runs (no row, no run directory kept)")(
      "list-plugins", po::bool_switch(&list_plugins), "list the plugins found and exit");
  g.add_to(desc);
  g.add_pcs_to(desc);
  g.add_backend_to(desc);
  PreflightOptions preflight;
  preflight.add_to(desc);
  po::variables_map vm;
  if (auto rc = g.parse("profile", desc, argc, argv, vm)) return *rc;
  try {
    configure_logging(g.log_level);
  } catch (const std::exception& e) {
    std::cerr << "jolt-run profile: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("warmup") && !vm.count("runs")) {
    std::cerr << "jolt-run profile: --warmup goes with --runs N (warmups before N measured runs)\n";
    return 2;
  }
  if (vm.count("runs") && !list_plugins)
    return run_repeated(argc, argv, desc, out_dir, runs, warmup);
  // Before any thread exists, so that every later thread leaves SIGINT/SIGTERM to the watcher.
  InterruptWatcher::start();
  host::PluginLoader loader(g.plugin_paths);
  if (list_plugins) {
    print_plugins(loader);
    return 0;
  }

  try {
    // Which sinks: --format shorthand, or the --sink list.
    const bool format_given = vm.count("format") > 0;
    if (format_given && format != "chrome" && format != "none" && format != "default")
      throw host::PipelineError("--format " + format + ": expected chrome, none or default");
    if (!format_given) format = sinks.empty() ? "chrome" : "";
    // --sink NAME[:key=value,...]: the plugin and the options its configure() receives.
    std::vector<host::SinkSpec> sink_specs;
    for (const auto& s : sinks) sink_specs.push_back(host::parse_sink_spec(s));
    if (format == "chrome") {
      for (const char* s : {"chrome", "summary", "csv"}) sink_specs.push_back({s, {}});
    } else if (format == "none" || format == "default") {
      sink_specs.push_back({"csv", {}});
    }
    if (heap_svg) {
      // An explicit --sink folded gets the option instead of a second folded sink.
      const auto folded =
          std::find_if(sink_specs.begin(), sink_specs.end(),
                       [](const host::SinkSpec& s) { return s.plugin == "folded"; });
      if (folded != sink_specs.end())
        folded->options["svg"] = "on";
      else
        sink_specs.push_back({"folded", {{"svg", "on"}}});
    } else if (heap) {
      sink_specs.push_back({"folded", {}});
    }

    std::vector<LoadedSink> loaded_sinks;
    // A plugin file by its canonical path, and the --sink that named it (empty: the shorthand).
    std::map<std::string, std::string> named_by;
    for (std::size_t i = 0; i < sink_specs.size(); ++i) {
      const host::SinkSpec& spec = sink_specs[i];
      const std::string& s = spec.plugin;
      const bool is_explicit = i < sinks.size();  // the --sink options come first
      host::LoadedPlugin p = loader.load(s, JOLT_PLUGIN_SINK);
      std::error_code ec;
      std::string file = std::filesystem::weakly_canonical(p.path(), ec).string();
      if (ec) file = p.path();
      if (const auto seen = named_by.find(file); seen != named_by.end()) {
        // The shorthand and an explicit --sink may name the same plugin: that is one sink. Two
        // --sink options naming one file, in any spelling, would run it once and drop one's
        // options.
        if (is_explicit && !seen->second.empty())
          throw host::PipelineError(
              seen->second == s
                  ? "sink '" + s + "' is given twice; each sink runs once per run — drop the repeat"
                  : "--sink '" + s + "' and --sink '" + seen->second + "' name the same plugin (" +
                        file +
                        "); each sink runs once per run — drop one, and give its options "
                        "to the other");
        continue;
      }
      named_by[file] = is_explicit ? s : "";
      for (const auto& l : loaded_sinks)
        if (l.name == p.name())
          throw host::PipelineError("two sinks are named '" + p.name() + "' (" + l.path + " and " +
                                    file + "); pass only one of them");
      loaded_sinks.push_back(
          LoadedSink{p.name(), file, p.descriptor().capabilities, p.create<jolt::Sink>()});
      // Options are checked now, before anything is proved. Since ABI 4.3 configure may throw.
      jolt::Status st;
      try {
        st = loaded_sinks.back().sink->configure(spec.options);
      } catch (const std::exception& e) {
        st = jolt::Status::error(std::string("configure threw an exception: ") + e.what());
      } catch (...) {
        st = jolt::Status::error("configure threw an unknown exception");
      }
      if (!st) throw host::PluginError("sink '" + p.name() + "' (" + file + "): " + st.message);
    }
    bool needs_trace = format == "default";
    bool wants_heap = false;
    for (const auto& s : loaded_sinks) {
      needs_trace |= (s.capabilities & (JOLT_CAP_NEEDS_TRACE | JOLT_CAP_HEAP_SNAPSHOTS)) != 0;
      wants_heap |= (s.capabilities & JOLT_CAP_HEAP_SNAPSHOTS) != 0;
    }
    if (format == "none") {
      // No recorder runs: a sink that reads spans or heap snapshots gets a profile without them
      // (the summary keeps the run's facts, the chrome trace only its metadata).
      for (const auto& s : loaded_sinks)
        if ((s.capabilities & (JOLT_CAP_NEEDS_TRACE | JOLT_CAP_HEAP_SNAPSHOTS)) != 0)
          spdlog::warn(
              "--format none records no spans or heap snapshots: sink '{}' writes its files "
              "without them (drop --format none to record them)",
              s.name);
      needs_trace = wants_heap = false;
    }

    // Checked before any work: a bad MONITOR_INTERVAL fails now, not after the trace.
    const std::chrono::milliseconds monitor_interval =
        needs_trace ? monitor_interval_from_env() : std::chrono::milliseconds(100);
    // PPROF_FREQ is checked now too; a rate outside the sane range is clamped with a warning.
    std::optional<jolt::cpu_profile::Frequency> pprof_rate;
    if (pprof) {
      pprof_rate = jolt::cpu_profile::frequency_from_env(std::getenv("PPROF_FREQ"));
      if (pprof_rate->warning) spdlog::warn("{}", *pprof_rate->warning);
    }
    host::LoadedJob loaded = host::load_job(loader, g.spec);
    // Before any run directory or trace: a run that cannot fit is refused now, not killed later.
    if (auto why = preflight_memory(preflight, loaded.job.workload, loaded.scale, g.pcs, g.backend))
      throw host::PipelineError(*why);
    const std::string trace_name =
        trace_name_for(loaded.job.workload, loaded.scale, jolt::prover::backend_name(g.backend));
    RunLock lock(out_dir, trace_name);
    std::unique_lock<std::recursive_mutex> creating(InterruptWatcher::finishing());
    RunDirectory run = create_run_directory(out_dir, trace_name);
    InterruptWatcher::Armed armed(lock, run);  // a signal from here on removes `run`
    creating.unlock();
    spdlog::info("Running modular {} profile at scale 2^{} in {}", loaded.job.workload,
                 loaded.scale, run.path);

    MeasuredProveOptions measure;
    measure.backend = g.backend;
    measure.record = needs_trace;
    measure.heap_snapshots = wants_heap;
    if (needs_trace) measure.monitor_interval = monitor_interval;
    if (pprof_rate) measure.pprof_hz = pprof_rate->hz;
    measure.quiet = quiet;
    measure.previous_stage_ns = previous_stage_times(out_dir, trace_name);
    MeasuredProve measured = measured_prove(loaded, g.pcs, measure);
    const host::ProveReport& report = measured.report;
    jolt::Profile& profile = measured.profile;
    fill_run_results(profile,
                     run_info_for(loaded, g.pcs, g.backend, run.timestamp_unix_secs, trace_name,
                                  run.path, boost::filesystem::absolute(out_dir).string()),
                     report);
    print_prove_result("modular", profile, report.prove_cpu_time_ns);

    if (const jolt::SpanTree tree = jolt::replay_spans(profile); tree.dropped_or_closed() != 0)
      spdlog::warn(
          "the recording had unbalanced spans: {} end(s) without a begin were dropped, {} span(s) "
          "closed by an enclosing span's end, {} left open and closed at the recording's end",
          tree.unmatched_ends, tree.closed_by_outer_end, tree.closed_at_profile_end);
    if (format == "default") print_console_report(profile);
    const jolt::SinkContext ctx{run.path, profile.run.out_dir};
    if (measured.cpu_profiler)
      write_cpu_profiles(*measured.cpu_profiler, pprof_rate->hz, run.path + "/pprof", "");
    // Every sink runs even when an earlier one fails: one broken (third-party) sink must not cost
    // the run the other sinks' artifacts. Any failure fails the run and latest_ stays put.
    // Sinks that write files shared across runs (JOLT_CAP_SHARED_FILES: the csv sink's
    // modular_timings.csv) run last, and get the out dir only when every other sink succeeded:
    // a shared file never records a run that failed. A signal arriving while the sinks write
    // waits for them (see interrupt.hpp).
    InterruptWatcher::Finishing finishing;
    std::vector<const LoadedSink*> write_order;
    for (const auto& s : loaded_sinks)
      if ((s.capabilities & JOLT_CAP_SHARED_FILES) == 0) write_order.push_back(&s);
    const std::size_t first_shared = write_order.size();
    for (const auto& s : loaded_sinks)
      if ((s.capabilities & JOLT_CAP_SHARED_FILES) != 0) write_order.push_back(&s);
    std::vector<std::string> sink_failures;
    for (std::size_t i = 0; i < write_order.size(); ++i) {
      const LoadedSink& s = *write_order[i];
      jolt::Status st;
      try {
        st = s.sink->write(profile, i >= first_shared && !sink_failures.empty()
                                        ? jolt::SinkContext{run.path, ""}
                                        : ctx);
      } catch (const std::exception& e) {
        st = jolt::Status::error(std::string("threw an exception: ") + e.what());
      } catch (...) {
        st = jolt::Status::error("threw an unknown exception");
      }
      if (!st) {
        std::cerr << "jolt-run profile: error: sink '" << s.name << "' (" << s.path
                  << ") failed: " << st.message << "\n";
        sink_failures.push_back(s.name);
        continue;
      }
      spdlog::debug("sink {} wrote its artifacts", s.name);
    }
    if (!sink_failures.empty()) {
      std::string names;
      for (const auto& n : sink_failures) names += (names.empty() ? "'" : ", '") + n + "'";
      throw host::PipelineError(std::to_string(sink_failures.size()) + " of " +
                                std::to_string(loaded_sinks.size()) + " sinks failed (" + names +
                                "); the run directory " + run.path + " is incomplete and latest_" +
                                trace_name + " was not moved");
    }
    // The original's closing lines: the root span and its dark time, the run, and the trace and
    // summary files the sinks wrote.
    const std::optional<jolt::ProfileSummary> summary =
        needs_trace ? std::optional<jolt::ProfileSummary>(jolt::summarize(profile)) : std::nullopt;
    if (summary && summary->root)
      std::printf("modular %s (2^%u): root span %.2fs, dark time %.1f%%\n",
                  loaded.job.workload.c_str(), loaded.scale,
                  static_cast<double>(summary->root->wall_time_ns) / 1e9,
                  100.0 * summary->root->dark_time_fraction);
    publish_latest(out_dir, trace_name, run);
    armed.published();
    std::printf("Run:     %s (-> %s/latest_%s)\n", run.path.c_str(), out_dir.c_str(),
                trace_name.c_str());
    for (const auto& [label, file] :
         {std::pair{"Trace:  ", "trace.json"}, std::pair{"Summary:", "summary.json"}})
      if (std::error_code ec; std::filesystem::exists(std::filesystem::path(run.path) / file, ec))
        std::printf("%s %s/%s\n", label, run.path.c_str(), file);
    if (!quiet && summary) {
      // The short form of `jolt-run report`, from the same aggregation the summary sink writes.
      const std::string table =
          render_stage_table(report_from_summary(*summary, kDefaultReportTop));
      if (!table.empty()) {
        std::cout << "\n" << table;
        if (std::any_of(loaded_sinks.begin(), loaded_sinks.end(),
                        [](const LoadedSink& s) { return s.name == "summary"; }))
          std::cout << "top spans, dark time, counters: jolt-run report " << out_dir << "/latest_"
                    << trace_name << "\n";
      }
      std::cout.flush();
    }
    return 0;
  } catch (const std::bad_alloc&) {
    std::cerr << "jolt-run profile: error: out of memory (outside the trace/prove/verify stages, "
                 "which name their allocation); use a smaller --scale or free memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run profile: error: " << e.what() << "\n";
    return 1;
  }
}

const CommandRegistration kProfile{
    "profile", "prove a workload under the profiler (default command)", &run_profile};

}  // namespace
}  // namespace jolt::core
