// One pprof CPU profile per prover stage plus one for the whole prove, from one CpuSampler run:
// each sample carries the stage that was running when it was taken.
//
//   jolt::cpu_profile::StageCpuProfiler cpu(hz);                  // starts sampling
//   options.on_stage = [&](std::size_t k, std::string_view label) { cpu.stage_started(k, label); };
//   ... prove ...
//   cpu.stop();
//   cpu.write(run_dir + "/pprof", "");   // pprof/prove_stage0.pb ... pprof/prove.pb
//
// stage_started is called from the prover's thread; write after stop.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jolt/cpu_profile/sampler.hpp"

namespace jolt::cpu_profile {

// The name of the whole-prove profile ({prefix}prove.pb).
inline constexpr std::string_view kWholeProveProfile = "prove";

class StageCpuProfiler {
 public:
  explicit StageCpuProfiler(unsigned hz);
  void stage_started(std::size_t index, std::string_view label);
  void stop();

  struct StageWindow {
    std::string label;
    std::uint64_t start_ns = 0;  // since the sampler started
    std::uint64_t end_ns = 0;
    std::size_t samples = 0;
  };
  // After stop(): the stages in the order they started, and the samples.
  const std::vector<StageWindow>& stages() const { return stages_; }
  const SamplingResult& result() const { return result_; }

  // Writes {dir}/{prefix}{stage label}.pb for every stage that started and
  // {dir}/{prefix}prove.pb, gzip-compressed, each atomically; creates `dir`. Returns the paths.
  // On a failure the files it wrote are removed and std::runtime_error names the file.
  std::vector<std::string> write(const std::string& dir, const std::string& prefix) const;

 private:
  static constexpr std::uint32_t kBeforeFirstStage = 0xffff;
  using Clock = std::chrono::steady_clock;
  CpuSampler sampler_;
  Clock::time_point start_;
  std::int64_t start_unix_ns_ = 0;
  std::vector<StageWindow> stages_;
  SamplingResult result_;
  bool stopped_ = false;
};

}  // namespace jolt::cpu_profile
