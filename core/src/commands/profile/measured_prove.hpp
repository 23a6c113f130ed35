// The measured prove that `jolt-run profile` and `jolt-run legacy profile` share: prove_job with
// the recording session, the system monitor, the per-stage CPU profiler and the progress line
// around prove() alone, and the Profile filled with what the host knows about the run. The two
// commands differ only in where they write what this returns.
//
//   MeasuredProveOptions o{.record = true, .monitor_interval = monitor_interval_from_env()};
//   MeasuredProve m = measured_prove(loaded, pcs, o);   // throws what prove_job throws
//   fill_run_results(m.profile, run_info_for(loaded, pcs, ...), m.report);
//
// With JOLT_LOG=debug (or --log-level debug) the process RSS is logged at every stage boundary.
// Call from the main thread; one measured prove at a time.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <jolt/profile.hpp>
#include <jolt/prover/pcs/scheme.hpp>

#include "jolt/core/system_monitor.hpp"
#include "jolt/cpu_profile/stage_profiles.hpp"
#include "jolt/host/job.hpp"
#include "jolt/host/pipeline.hpp"

namespace jolt::core {

struct MeasuredProveOptions {
  bool record = false;          // a recording session around prove() (spans, instants, stage RSS)
  bool heap_snapshots = false;  // with record: per-batch heap snapshots
  // With heap_snapshots: also snapshots at the start and end of stages 2-7 (Stage3_start, ...)
  bool stage_boundary_heap_snapshots = false;
  // With record: the system monitor's interval and how it records its samples; no monitor when
  // unset.
  std::optional<std::chrono::milliseconds> monitor_interval;
  MetricEncoding monitor_encoding = MetricEncoding::kCounterTracks;
  std::optional<unsigned> pprof_hz;              // sample CPU stacks per stage at this rate
  bool quiet = false;                            // no progress line
  std::vector<std::uint64_t> previous_stage_ns;  // a previous run's stage times, for the ETA
  jolt::prover::ProverBackend backend = jolt::prover::ProverBackend::kOptimized;
};

struct MeasuredProve {
  host::ProveReport report;
  jolt::Profile profile;  // the recording (empty without record) and peak_rss_bytes
  std::unique_ptr<jolt::cpu_profile::StageCpuProfiler> cpu_profiler;  // stopped; null: no pprof
};

// prove_job(loaded.job, loaded.scale, ...) measured as `options` says. On an exception every
// sampler is stopped and the recording ended before it propagates.
MeasuredProve measured_prove(const host::LoadedJob& loaded, jolt::prover::PcsKind pcs,
                             const MeasuredProveOptions& options);

// The RunInfo of a run of `loaded` proved with `pcs` and `backend` (scheme name and parameters,
// the backend's name, git revision, host), named trace_name, writing into run_dir inside out_dir.
jolt::RunInfo run_info_for(const host::LoadedJob& loaded, jolt::prover::PcsKind pcs,
                           jolt::prover::ProverBackend backend, std::uint64_t timestamp_unix_secs,
                           const std::string& trace_name, const std::string& run_dir,
                           const std::string& out_dir);

// profile.run = run and the prove results of `report` (time, proof size, lengths, verified).
void fill_run_results(jolt::Profile& profile, jolt::RunInfo run, const host::ProveReport& report);

// The result lines both commands print: prove time and speed, peak RSS, proof size, and the
// padded scale when it is below the requested one. `lane` starts each line ("modular", "legacy").
// The prove line ends with the prove's CPU time and its ratio to the wall time (the parallel
// speedup: 2.00x = both of two cores busy throughout).
void print_prove_result(const char* lane, const jolt::Profile& profile,
                        std::uint64_t prove_cpu_time_ns);

// Writes the CPU profiles to {dir}/{prefix}{stage}.pb and {dir}/{prefix}prove.pb — or, when the
// environment sets PPROF_PREFIX (the original's variable), to {PPROF_PREFIX}{stage}.pb and
// {PPROF_PREFIX}prove.pb, its folder created — and prints one line saying where and how many
// samples. Throws std::runtime_error naming a file it could not write (the ones written before
// are removed).
void write_cpu_profiles(const jolt::cpu_profile::StageCpuProfiler& profiler, unsigned hz,
                        const std::string& dir, const std::string& prefix);

// "1.50 GiB" at or above one GiB, else "12.00 MiB".
std::string format_memory(double gib);

}  // namespace jolt::core
