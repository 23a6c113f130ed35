// The measured prove shared by profile and legacy profile (measured_prove.hpp).
#include "commands/profile/measured_prove.hpp"

#include <spdlog/spdlog.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <jolt/instrument.hpp>
#include <jolt/process.hpp>
#include <jolt/recorder.hpp>
#include <jolt/taxonomy.hpp>
#include <string>

#include "jolt/core/build_info.hpp"
#include "jolt/core/huge_pages.hpp"
#include "jolt/host/progress.hpp"

namespace jolt::core {
namespace {

// JOLT_LOG=debug: the process RSS where one stage ends and the next begins.
void log_stage_boundary_rss(std::string_view what) {
  if (!spdlog::should_log(spdlog::level::debug)) return;
  const double gib = static_cast<double>(jolt::current_rss_bytes()) / jolt::kBytesPerGib;
  spdlog::debug("memory usage {}: RSS {}", what, format_memory(gib));
}

// JOLT_LOG=debug: whether malloc runs on transparent huge pages (main() re-runs jolt-run with
// glibc.malloc.hugetlb=1 unless JOLT_HUGEPAGES=0, huge_pages.hpp) and how much of the process's
// memory they hold now (AnonHugePages of /proc/self/smaps_rollup).
void log_huge_pages(std::string_view when) {
  if (!spdlog::should_log(spdlog::level::debug)) return;
  const bool on = malloc_on_huge_pages();
  std::string held = "unknown";
  std::ifstream in("/proc/self/smaps_rollup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("AnonHugePages:", 0) == 0) {
      const double kib = std::strtod(line.c_str() + std::strlen("AnonHugePages:"), nullptr);
      held = format_memory(kib / (1024.0 * 1024.0));
    }
  spdlog::debug("malloc {}: {}; anonymous memory in huge pages: {}", when,
                on ? "transparent huge pages (glibc.malloc.hugetlb=1)"
                   : "normal pages (no glibc.malloc.hugetlb=1 at start-up)",
                held);
}

}  // namespace

std::string format_memory(double gib) {
  char buf[64];
  if (gib >= 1.0 || gib <= -1.0)
    std::snprintf(buf, sizeof(buf), "%.2f GiB", gib);
  else
    std::snprintf(buf, sizeof(buf), "%.2f MiB", gib * 1024.0);
  return buf;
}

MeasuredProve measured_prove(const host::LoadedJob& loaded, jolt::prover::PcsKind pcs,
                             const MeasuredProveOptions& options) {
  MeasuredProve out;
  std::unique_ptr<SystemMonitor> monitor;
  host::ProveProgress progress(host::ProveProgress::mode_for(options.quiet),
                               jolt::taxonomy::kEmittedStageSpans.size(),
                               options.previous_stage_ns);
  try {
    out.report = host::prove_job(
        loaded.job, loaded.scale,
        [&] {
          log_stage_boundary_rss("before prove");
          log_huge_pages("before prove");
          // Sampling covers prove() alone, as the prove time does.
          if (options.pprof_hz)
            out.cpu_profiler =
                std::make_unique<jolt::cpu_profile::StageCpuProfiler>(*options.pprof_hz);
          if (!options.record) return;
          jolt::set_current_thread_name("main");
          jolt::RecordingSession::start(jolt::RecordingOptions{options.heap_snapshots});
          if (options.stage_boundary_heap_snapshots)
            jolt::RecordingSession::want_stage_boundary_heap_snapshots(true);
          if (options.monitor_interval)
            monitor = std::make_unique<SystemMonitor>(*options.monitor_interval,
                                                      options.monitor_encoding);
        },
        [&] {
          if (out.cpu_profiler) out.cpu_profiler->stop();
          if (monitor) monitor->stop();
          if (options.record) out.profile = jolt::RecordingSession::stop();
          log_stage_boundary_rss("after prove (end of the last stage)");
          log_huge_pages("after prove");
        },
        pcs,
        [&](std::size_t k, std::string_view label) {
          if (out.cpu_profiler) out.cpu_profiler->stage_started(k, label);
          log_stage_boundary_rss("at the start of " + std::string(label));
          progress.stage(k, label);
        },
        options.backend);
    progress.finish();
  } catch (...) {
    progress.finish();
    if (out.cpu_profiler) out.cpu_profiler->stop();
    if (monitor) monitor->stop();
    if (jolt::RecordingSession::active()) out.profile = jolt::RecordingSession::stop();
    throw;
  }
  out.profile.peak_rss_bytes = jolt::peak_rss_bytes();  // before rendering, as the original
  return out;
}

jolt::RunInfo run_info_for(const host::LoadedJob& loaded, jolt::prover::PcsKind pcs,
                           jolt::prover::ProverBackend backend, std::uint64_t timestamp_unix_secs,
                           const std::string& trace_name, const std::string& run_dir,
                           const std::string& out_dir) {
  // The scheme prove_job proved and verified with (the verifier checked the proof's parameters
  // string against this same configuration), so summary.json says which scheme made the proof.
  const std::unique_ptr<jolt::prover::CommitmentScheme> scheme =
      jolt::prover::make_commitment_scheme(pcs);
  return jolt::RunInfo{loaded.job.workload,
                       loaded.scale,
                       std::string(jolt::prover::backend_name(backend)),
                       timestamp_unix_secs,
                       built_git_rev(),
                       trace_name,
                       run_dir,
                       out_dir,
                       std::string(scheme->name()),
                       scheme->parameters(),
                       jolt::read_host_info()};
}

void fill_run_results(jolt::Profile& profile, jolt::RunInfo run, const host::ProveReport& report) {
  profile.run = std::move(run);
  profile.prove_time_ns = report.prove_time_ns;
  profile.proof_size_bytes = report.proof.size();
  profile.trace_length = report.trace_length;
  profile.padded_trace_length = report.padded_length;
  profile.verified = report.verified;
}

void print_prove_result(const char* lane, const jolt::Profile& p, std::uint64_t prove_cpu_time_ns) {
  const char* workload = p.run.workload.c_str();
  const std::uint32_t scale = p.run.scale_log2;
  const double secs = static_cast<double>(p.prove_time_ns) / 1e9;
  const double cpu_secs = static_cast<double>(prove_cpu_time_ns) / 1e9;
  const char* backend = p.run.backend.c_str();
  std::printf(
      "%s %s (2^%u, %s): Prover completed in %.2fs (%.1f kHz / padded %.1f kHz), "
      "CPU time %.2fs (%.2fx wall)\n",
      lane, workload, scale, backend, secs,
      secs > 0 ? static_cast<double>(p.trace_length) / secs / 1000.0 : 0.0,
      secs > 0 ? static_cast<double>(p.padded_trace_length) / secs / 1000.0 : 0.0, cpu_secs,
      secs > 0 ? cpu_secs / secs : 0.0);
  if (p.peak_rss_bytes)
    std::printf("%s %s (2^%u, %s): Peak RSS %s\n", lane, workload, scale, backend,
                format_memory(static_cast<double>(*p.peak_rss_bytes) / jolt::kBytesPerGib).c_str());
  std::printf("%s %s (2^%u): proof %llu bytes, verified\n", lane, workload, scale,
              static_cast<unsigned long long>(p.proof_size_bytes));
  // The run keeps the original's name (the requested scale); say so when the trace was padded
  // to a smaller power of two than that, as summary.json's run.padded_scale_log2 records.
  if (p.padded_trace_length != 0 && p.padded_trace_length < (std::uint64_t{1} << scale))
    std::printf(
        "%s %s (2^%u): proved at padded scale 2^%d (%llu trace rows); the run is "
        "named by the requested scale\n",
        lane, workload, scale, std::countr_zero(p.padded_trace_length),
        static_cast<unsigned long long>(p.trace_length));
}

void write_cpu_profiles(const jolt::cpu_profile::StageCpuProfiler& profiler, unsigned hz,
                        const std::string& default_dir, const std::string& default_prefix) {
  std::string dir = default_dir, prefix = default_prefix;
  if (const char* env = std::getenv("PPROF_PREFIX"); env && *env) {
    // "out/sha3_" -> out/sha3_prove.pb; "out/" -> out/prove.pb; "sha3_" -> ./sha3_prove.pb.
    const std::string p = env;
    const std::size_t slash = p.rfind('/');
    dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : p.substr(0, slash));
    prefix = slash == std::string::npos ? p : p.substr(slash + 1);
  }
  const std::vector<std::string> files = profiler.write(dir, prefix);
  const jolt::cpu_profile::SamplingResult& cpu = profiler.result();
  std::printf("pprof:   %zu CPU profiles in %s (%zu samples at %u Hz", files.size(), dir.c_str(),
              cpu.samples.size(), hz);
  if (cpu.dropped != 0)
    std::printf(", %llu dropped: the sample buffer was full",
                static_cast<unsigned long long>(cpu.dropped));
  std::printf(")\n");
}

}  // namespace jolt::core
