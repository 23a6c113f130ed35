// `jolt-run legacy profile --name W --format chrome [--scale S] [--monitor] [--pprof]
// [--heap-svg]`: the seed's legacy lane. The same prover, workloads and measured prove as
// `jolt-run profile` (measured_prove.hpp), written in the legacy prover's layout instead of a run
// directory:
//   {out}/perfetto_traces/{name}_{YYYYmmdd-HHMM local}.json    the chrome trace (chrome sink's
//                                                              renderer, chrome_trace.hpp); a
//                                                              name already taken gets _2, _3, ...
//   {out}/pprof/{name}_{stage}.pb, {out}/pprof/{name}_prove.pb --pprof (core/cpu_profile)
//   {out}/flamecharts/{trace stem}/stage{N}_start_flamechart.svg, stage{N}_end_flamechart.svg
//                                                              --heap-svg: stages 2-7, plus
//                                                              {Snapshot}_flamechart.svg for
//                                                              each per-batch snapshot of them
// --monitor records the system monitor's samples the legacy way, as instants with
// "counters.<metric>" args (MetricEncoding::kInstantArgs); scripts/postprocess_trace.py rewrites
// them into counter tracks. Every file is written atomically; no latest_ link, no summary.json.
#include <spdlog/spdlog.h>

#include <boost/filesystem.hpp>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <jolt/atomic_file.hpp>
#include <jolt/taxonomy.hpp>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "chrome_trace.hpp"
#include "commands/profile/common_options.hpp"
#include "commands/profile/measured_prove.hpp"
#include "commands/profile/preflight.hpp"
#include "flame_svg.hpp"
#include "heap_snapshots.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/logging.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/core/system_monitor.hpp"
#include "jolt/host/pipeline.hpp"
#include "jolt/host/plugin_loader.hpp"

namespace po = boost::program_options;
namespace fs = boost::filesystem;

namespace jolt::core {
namespace {

constexpr const char* kUsage =
    "jolt-run legacy profile: the legacy prover's profiling lane (same prover and workloads as "
    "`jolt-run profile`, the legacy output layout)\n"
    "usage: jolt-run legacy profile --name NAME --format chrome [--scale S] [--monitor] [--pprof] "
    "[--heap-svg]\n"
    "  trace:       {out}/perfetto_traces/{name}_{YYYYmmdd-HHMM local}[_K].json (_2, _3, ... when "
    "the name is taken)\n"
    "  --monitor:   metric samples as instants; `python3 scripts/postprocess_trace.py FILE...` "
    "turns them into counter tracks\n"
    "  --pprof:     {out}/pprof/{name}_{stage}.pb and {out}/pprof/{name}_prove.pb\n"
    "  --heap-svg:  {out}/flamecharts/{trace stem}/stage{N}_start_flamechart.svg and "
    "stage{N}_end_flamechart.svg for stages 2-7, and {Snapshot}_flamechart.svg for their per-batch "
    "snapshots\n"
    "options";

// The stages the legacy prover drew flame charts for: 2 to 7 (the spans prove_stage2 ...
// prove_stage7, 6a and 6b included).
bool is_stage_2_to_7(const std::string& stage_span) {
  constexpr std::size_t n = jolt::taxonomy::kStageSpanPrefix.size();
  return jolt::taxonomy::is_stage_span(stage_span) && stage_span.size() > n &&
         stage_span[n] >= '2' && stage_span[n] <= '7';
}

// The labels of the heap snapshots taken while one of stages 2-7 ran, by the stage spans'
// intervals (their stage_rss rows): the stage's own ("Stage2Batch_prepared", "Stage3_start")
// and its kernels' ("RamReadWriteChecking_prepared" in stage 2).
std::set<std::string> snapshots_in_stages_2_to_7(const jolt::Profile& profile) {
  std::set<std::string> labels;
  for (const jolt::HeapSnapshotRecord& h : profile.heap)
    for (const jolt::StageRssRow& row : profile.stage_rss)
      if (is_stage_2_to_7(row.stage) && row.open_ns <= h.ts_ns && h.ts_ns <= row.close_ns) {
        labels.insert(h.label);
        break;
      }
  return labels;
}

// The legacy prover's chart name for a stage-boundary snapshot ("Stage3_start" ->
// "stage3_start_flamechart.svg"); other snapshots keep their label ("Stage3_prepared" ->
// "Stage3_prepared_flamechart.svg").
std::string chart_file_name(const std::string& label) {
  const bool boundary = label.ends_with("_start") || label.ends_with("_end");
  return (boundary ? "s" + label.substr(1) : label) + "_flamechart.svg";
}

// Removes the staged trace if the run ends before publishing it.
struct StagedFile {
  std::string path;
  ~StagedFile() { ::unlink(path.c_str()); }
};

// Removes the staged flame-chart folder if the run ends before renaming it into place.
struct StagedFolder {
  std::string path;
  ~StagedFolder() {
    boost::system::error_code ec;
    fs::remove_all(path, ec);
  }
};

void create_folder(const std::string& dir) {
  boost::system::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RunError("cannot create the folder " + dir + ": " + ec.message());
}

int run_legacy_profile(int argc, char** argv) {
  GuestOptions g;
  std::string format, out_dir;
  bool monitor = false, pprof = false, heap_svg = false, quiet = false;
  po::options_description desc(kUsage);
  desc.add_options()("help,h", "show this help")(
      "format", po::value(&format)->default_value("chrome"),
      "chrome (the legacy lane writes chrome traces only)")(
      "monitor", po::bool_switch(&monitor),
      "sample RSS, CPU and threads every MONITOR_INTERVAL seconds (default 0.1) as instants with "
      "counters.* args")("pprof", po::bool_switch(&pprof),
                         "per-stage pprof CPU profiles at PPROF_FREQ Hz (default 100)")(
      "heap-svg", po::bool_switch(&heap_svg),
      "take heap snapshots and draw the flame chart of each one of stages 2-7")(
      "out-dir", po::value(&out_dir)->default_value("benchmark-runs"),
      "folder holding perfetto_traces/, pprof/ and flamecharts/")(
      "quiet,q", po::bool_switch(&quiet), "no progress line while proving");
  g.add_to(desc);
  g.add_pcs_to(desc);
  g.add_backend_to(desc);
  PreflightOptions preflight;
  preflight.add_to(desc);
  po::variables_map vm;
  if (auto rc = g.parse("legacy profile", desc, argc, argv, vm)) return *rc;
  try {
    configure_logging(g.log_level);
  } catch (const std::exception& e) {
    std::cerr << "jolt-run legacy profile: " << e.what() << "\n";
    return 2;
  }
  auto usage_error = [](const std::string& why) {
    std::cerr << "jolt-run legacy profile: " << why << "\n(see `jolt-run legacy profile --help`)\n";
    return 2;
  };
  if (format != "chrome")
    return usage_error("--format " + format +
                       ": the legacy lane writes chrome traces only (--format chrome); "
                       "`jolt-run profile` has the other formats");
  if (!g.spec.elf.empty())
    return usage_error(
        "--elf: the legacy lane profiles named workloads (--name); "
        "`jolt-run profile --elf` profiles your own ELF");
  if (g.spec.workload.empty())
    return usage_error(
        "--name NAME is required (sha2, sha3, sha2-chain, sha3-chain, fibonacci, btreemap or an "
        "installed workload plugin)");
  if (g.spec.workload.find('/') != std::string::npos || g.spec.workload.starts_with("."))
    return usage_error("--name " + g.spec.workload +
                       ": a workload name, not a path (it names the output files); `jolt-run "
                       "--list-plugins` lists the installed workloads");

  try {
    // Environment checked before any work, as in `profile`.
    std::optional<std::chrono::milliseconds> monitor_interval;
    if (monitor) monitor_interval = monitor_interval_from_env();
    std::optional<jolt::cpu_profile::Frequency> pprof_rate;
    if (pprof) {
      pprof_rate = jolt::cpu_profile::frequency_from_env(std::getenv("PPROF_FREQ"));
      if (pprof_rate->warning) spdlog::warn("{}", *pprof_rate->warning);
    }
    host::PluginLoader loader(g.plugin_paths);
    host::LoadedJob loaded = host::load_job(loader, g.spec);
    if (auto why = preflight_memory(preflight, loaded.job.workload, loaded.scale, g.pcs, g.backend))
      throw host::PipelineError(*why);
    const std::string& name = loaded.job.workload;
    const std::string out_abs = fs::absolute(out_dir).string();
    const std::string traces_dir = out_abs + "/perfetto_traces";
    create_folder(traces_dir);
    spdlog::info("Running legacy {} profile at scale 2^{}", name, loaded.scale);

    MeasuredProveOptions measure;
    measure.backend = g.backend;
    measure.record = true;
    measure.heap_snapshots = heap_svg;
    measure.stage_boundary_heap_snapshots = heap_svg;
    measure.monitor_interval = monitor_interval;
    measure.monitor_encoding = MetricEncoding::kInstantArgs;
    if (pprof_rate) measure.pprof_hz = pprof_rate->hz;
    measure.quiet = quiet;
    MeasuredProve measured = measured_prove(loaded, g.pcs, measure);
    jolt::Profile& profile = measured.profile;

    // The trace is written to a staging file (a dot file, not *.json, so no glob of the traces
    // picks it up), then published under the first free name {name}_{stamp}[_K].json: two runs
    // in the same minute never overwrite each other's trace (publish_new_file).
    const std::time_t now = std::time(nullptr);
    const std::string base = name + "_" + local_minute_timestamp(now);
    const std::string charts_root = out_abs + "/flamecharts";
    fill_run_results(profile,
                     run_info_for(loaded, g.pcs, g.backend, static_cast<std::uint64_t>(now), base,
                                  traces_dir, out_abs),
                     measured.report);
    print_prove_result("legacy", profile, measured.report.prove_cpu_time_ns);

    StagedFile staged{traces_dir + "/." + base + "." + std::to_string(::getpid()) + ".staging"};
    if (const jolt::Status st = jolt::sinks::write_chrome_trace(profile, staged.path); !st)
      throw RunError(st.message);
    const PublishedFile trace = publish_new_file(
        staged.path, traces_dir, base, ".json",
        [&](const std::string& stem) { return heap_svg && fs::exists(charts_root + "/" + stem); });
    const std::string& trace_path = trace.path;
    std::printf("Trace:   %s\n", trace_path.c_str());
    if (monitor)
      std::printf(
          "         metrics as instants; counter tracks: python3 "
          "scripts/postprocess_trace.py %s\n",
          trace_path.c_str());
    if (measured.cpu_profiler)
      write_cpu_profiles(*measured.cpu_profiler, pprof_rate->hz, out_abs + "/pprof", name + "_");
    if (heap_svg) {
      // Named by the trace's stem, which publish_new_file made unique (and checked no folder
      // of that name exists). The charts are written into a staging folder (a dot folder) that
      // is renamed into place once all of them are there: the folder is whole or absent.
      const std::string charts_dir = charts_root + "/" + trace.stem;
      StagedFolder staging{charts_root + "/." + trace.stem + "." + std::to_string(::getpid()) +
                           ".staging"};
      std::size_t charts = 0, boundary_charts = 0;
      const std::set<std::string> in_stages = snapshots_in_stages_2_to_7(profile);
      for (const jolt::heap::SnapshotSummary& s :
           jolt::heap::collect_snapshots(profile, std::nullopt)) {
        if (in_stages.count(s.label) == 0) continue;
        if (charts == 0) create_folder(staging.path);
        const std::string file = chart_file_name(s.label);
        const std::string path = staging.path + "/" + file;
        if (const jolt::Status st =
                jolt::write_file_atomically(path, jolt::heap::render_flame_svg(s.label, s.stacks));
            !st)
          throw RunError("flame chart of " + s.label + ": " + st.message);
        ++charts;
        if (file.starts_with("stage")) ++boundary_charts;
      }
      // Stages 2-7, a start and an end each (prover.cpp's boundary_snapshot).
      if (boundary_charts != 12)
        throw RunError("--heap-svg: the prover took " + std::to_string(boundary_charts) +
                       " stage start/end heap snapshots in stages 2-7, not 12");
      if (::rename(staging.path.c_str(), charts_dir.c_str()) != 0)
        throw RunError("cannot rename the flame charts' folder " + staging.path + " to " +
                       charts_dir + ": " + std::strerror(errno));
      std::printf(
          "Flame charts: %zu in %s (stage{N}_start / stage{N}_end for stages 2-7, and one per "
          "per-batch snapshot taken in them, after its prepare)\n",
          charts, charts_dir.c_str());
    }
    return 0;
  } catch (const std::bad_alloc&) {
    std::cerr << "jolt-run legacy profile: error: out of memory (outside the trace/prove/verify "
                 "stages, which name their allocation); use a smaller --scale or free memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run legacy profile: error: " << e.what() << "\n";
    return 1;
  }
}

// `jolt-run legacy <subcommand>`: `profile` is the one the legacy lane has.
int run_legacy(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "profile") == 0) {
    std::string arg0 = "jolt-run legacy profile";
    std::vector<char*> args{arg0.data()};
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    return run_legacy_profile(static_cast<int>(args.size() - 1), args.data());
  }
  const bool help =
      argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
                    std::strcmp(argv[1], "help") == 0);
  (help ? std::cout : std::cerr)
      << "usage: jolt-run legacy profile --name NAME --format chrome [--scale S] [--monitor] "
         "[--pprof] [--heap-svg]\n"
      << (help || argc < 2 ? std::string()
                           : "jolt-run legacy: unknown subcommand '" + std::string(argv[1]) +
                                 "' (the legacy lane has `profile`)\n")
      << "`jolt-run legacy profile --help` describes the options.\n";
  return help ? 0 : 2;
}

const CommandRegistration kLegacy{
    "legacy", "the legacy prover's lane: `legacy profile` writes the legacy trace layout",
    &run_legacy};

}  // namespace
}  // namespace jolt::core
