// CPU sampling for pprof profiles: SIGPROF every 1/hz seconds of process CPU time
// (setitimer(ITIMER_PROF)); the kernel delivers each expiry to a thread that is running, so every
// busy thread (main, oneTBB workers) is sampled in proportion to the CPU it uses. The handler
// unwinds the interrupted thread's stack through the .eh_frame tables (_Unwind_Backtrace, which
// takes no lock and allocates nothing on glibc >= 2.35 with GCC >= 12's libgcc) into one
// preallocated buffer reserved by an atomic bump pointer, so nothing in it locks or allocates.
//
//   const auto hz = jolt::cpu_profile::frequency_from_env(std::getenv("PPROF_FREQ"));
//   jolt::cpu_profile::CpuSampler sampler(hz.hz);
//   sampler.set_phase(3);                       // later samples are tagged 3 (e.g. a stage)
//   jolt::cpu_profile::SamplingResult r = sampler.stop();
//
// One sampler at a time per process (a second throws std::logic_error). The SIGPROF handler stays
// installed after the first sampler (a SIGPROF still in flight after stop() must not kill the
// process); it does nothing while no sampler runs. Syscalls it interrupts restart (SA_RESTART).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jolt::cpu_profile {

inline constexpr unsigned kDefaultFrequencyHz = 100;
// Below 1 Hz a stage would rarely get a sample; above 1000 Hz the handler's own cost grows past
// the 5 % overhead budget, and the kernel checks process CPU timers only once per scheduler tick.
inline constexpr unsigned kMinFrequencyHz = 1;
inline constexpr unsigned kMaxFrequencyHz = 1000;

struct Frequency {
  unsigned hz = kDefaultFrequencyHz;
  std::optional<std::string> warning;  // set when the requested rate was clamped
};

// The PPROF_FREQ value `text` (nullptr or empty: the default, 100 Hz). A whole number outside
// [kMinFrequencyHz, kMaxFrequencyHz] is clamped into it with a warning; anything else throws
// std::invalid_argument naming PPROF_FREQ and the accepted range.
Frequency frequency_from_env(const char* text);

struct RawSample {
  std::uint32_t phase = 0;          // the phase current when the sample was taken
  std::uint32_t tid = 0;            // kernel thread id of the sampled thread
  std::vector<std::uintptr_t> pcs;  // leaf first: the interrupted instruction, then callers'
                                    // return addresses minus one (inside the call instruction)
};

struct SamplingResult {
  std::vector<RawSample> samples;
  std::uint64_t dropped = 0;      // samples that did not fit the buffer
  std::uint64_t cpu_time_ns = 0;  // process CPU time from start to stop
  std::uint64_t wall_time_ns = 0;
};

class CpuSampler {
 public:
  static constexpr std::size_t kMaxFrames = 64;
  // Words of sample buffer (8 bytes each): address space reserved up front, touched only as
  // samples arrive (about 40 frames ~ 330 bytes per sample).
  static constexpr std::size_t kDefaultBufferWords = std::size_t{1} << 23;

  // Starts sampling at `hz` samples per CPU-second. Throws std::logic_error while another
  // sampler runs, std::system_error when the buffer, the handler or the timer cannot be set up.
  explicit CpuSampler(unsigned hz, std::size_t buffer_words = kDefaultBufferWords);
  ~CpuSampler();
  CpuSampler(const CpuSampler&) = delete;
  CpuSampler& operator=(const CpuSampler&) = delete;

  // Tags the samples taken from now on with `phase` (thread-safe, async-signal-safe).
  void set_phase(std::uint32_t phase) noexcept;
  // Disarms the timer, waits for handlers still running, and returns the samples in the order
  // they were reserved. Call once; later calls return an empty result.
  SamplingResult stop();

  unsigned hz() const { return hz_; }

 private:
  unsigned hz_;
  std::uintptr_t* buffer_ = nullptr;
  std::size_t buffer_words_ = 0;
  bool running_ = false;
  std::uint64_t cpu_start_ns_ = 0;
  std::uint64_t wall_start_ns_ = 0;
};

}  // namespace jolt::cpu_profile
