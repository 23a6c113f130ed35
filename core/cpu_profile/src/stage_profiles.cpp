// StageCpuProfiler (stage_profiles.hpp).
#include "jolt/cpu_profile/stage_profiles.hpp"

#include <cstdio>
#include <filesystem>
#include <jolt/atomic_file.hpp>
#include <stdexcept>

#include "jolt/cpu_profile/pprof.hpp"

namespace jolt::cpu_profile {

StageCpuProfiler::StageCpuProfiler(unsigned hz)
    : sampler_(hz),
      start_(Clock::now()),
      start_unix_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count()) {
  sampler_.set_phase(kBeforeFirstStage);
}

void StageCpuProfiler::stage_started(std::size_t index, std::string_view label) {
  if (stopped_) return;
  const auto now = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count());
  if (!stages_.empty()) stages_.back().end_ns = now;
  // Phases index stages_ (the prover's own stage index is only used for ordering).
  (void)index;
  stages_.push_back(StageWindow{std::string(label), now, now, 0});
  sampler_.set_phase(static_cast<std::uint32_t>(stages_.size() - 1));
}

void StageCpuProfiler::stop() {
  if (stopped_) return;
  stopped_ = true;
  result_ = sampler_.stop();
  const auto now = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count());
  if (!stages_.empty()) stages_.back().end_ns = now;
  for (const RawSample& s : result_.samples)
    if (s.phase < stages_.size()) ++stages_[s.phase].samples;
}

std::vector<std::string> StageCpuProfiler::write(const std::string& dir,
                                                 const std::string& prefix) const {
  if (!stopped_) throw std::logic_error("StageCpuProfiler::write before stop()");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("cannot create the pprof folder " + dir + ": " + ec.message() +
                             "; check its parent exists and is writable");
  Symbolizer symbols;
  const std::uint64_t period_ns = 1000000000ull / sampler_.hz();
  std::vector<std::string> written;
  const auto fail = [&](const std::string& message) {
    for (const std::string& p : written) std::remove(p.c_str());
    throw std::runtime_error(message);
  };
  const auto emit = [&](const std::string& name, std::uint32_t phase, bool all,
                        std::uint64_t start_ns, std::uint64_t end_ns) {
    std::vector<const RawSample*> chosen;
    for (const RawSample& s : result_.samples)
      if (all || s.phase == phase) chosen.push_back(&s);
    ProfileSpec spec;
    spec.period_ns = period_ns;
    spec.duration_ns = end_ns - start_ns;
    spec.time_unix_ns = start_unix_ns_ + static_cast<std::int64_t>(start_ns);
    spec.comments.push_back("jolt-run CPU profile: " + name + ", " + std::to_string(sampler_.hz()) +
                            " Hz of process CPU time, " + std::to_string(chosen.size()) +
                            " samples");
    if (all) {
      char cpu[96];
      std::snprintf(cpu, sizeof(cpu), "process CPU time %.3f s over %.3f s of wall time",
                    static_cast<double>(result_.cpu_time_ns) * 1e-9,
                    static_cast<double>(result_.wall_time_ns) * 1e-9);
      spec.comments.push_back(cpu);
    }
    if (all && result_.dropped != 0)
      spec.comments.push_back(std::to_string(result_.dropped) +
                              " samples dropped (the sample buffer was full)");
    const std::string path = dir + "/" + prefix + name + ".pb";
    std::string bytes;
    try {
      bytes = gzip_compress(encode_pprof(chosen, symbols, spec));
    } catch (const std::exception& e) {
      fail("pprof profile " + path + ": " + e.what());
    }
    if (Status st = write_file_atomically(path, bytes); !st) fail(st.message);
    written.push_back(path);
  };
  for (std::size_t k = 0; k < stages_.size(); ++k)
    emit(stages_[k].label, static_cast<std::uint32_t>(k), false, stages_[k].start_ns,
         stages_[k].end_ns);
  emit(std::string(kWholeProveProfile), 0, true, 0, result_.wall_time_ns);
  return written;
}

}  // namespace jolt::cpu_profile
