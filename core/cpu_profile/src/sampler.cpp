// The SIGPROF sampler (sampler.hpp). The handler's only shared state is the globals below, all
// lock-free atomics: a record is [header, tid, pc...], reserved with one fetch_add on
// g_used_words, filled, then published by storing its non-zero header with release order.
#include "jolt/cpu_profile/sampler.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace jolt::cpu_profile {
namespace {

constexpr std::uintptr_t kCommitted = std::uintptr_t{1} << 63;
constexpr std::size_t kRecordHeaderWords = 2;  // header, tid

std::atomic<bool> g_sampler_exists{false};
std::atomic<bool> g_accepting{false};
std::atomic<int> g_in_handler{0};
std::atomic<std::uintptr_t*> g_buffer{nullptr};
std::atomic<std::size_t> g_buffer_words{0};
std::atomic<std::size_t> g_used_words{0};
std::atomic<std::uint64_t> g_dropped{0};
std::atomic<std::uint32_t> g_phase{0};
std::atomic<bool> g_handler_installed{false};

struct UnwindState {
  std::uintptr_t pcs[CpuSampler::kMaxFrames];
  bool before_insn[CpuSampler::kMaxFrames];
  std::size_t depth = 0;
};

_Unwind_Reason_Code collect_frame(_Unwind_Context* context, void* arg) {
  auto* state = static_cast<UnwindState*>(arg);
  if (state->depth >= CpuSampler::kMaxFrames) return _URC_END_OF_STACK;
  int ip_before_insn = 0;
  const _Unwind_Ptr ip = _Unwind_GetIPInfo(context, &ip_before_insn);
  if (ip == 0) return _URC_END_OF_STACK;
  state->pcs[state->depth] = static_cast<std::uintptr_t>(ip);
  state->before_insn[state->depth] = ip_before_insn != 0;
  ++state->depth;
  return _URC_NO_REASON;
}

void on_sigprof(int, siginfo_t*, void*) {
  const int saved_errno = errno;
  g_in_handler.fetch_add(1, std::memory_order_seq_cst);
  if (g_accepting.load(std::memory_order_seq_cst)) {
    UnwindState state;
    _Unwind_Backtrace(&collect_frame, &state);
    // The unwinder marks the frame interrupted by the signal (the one after the kernel's signal
    // frame) as "IP before instruction"; the frames before it are this handler and the
    // trampoline. Without the mark, the whole stack is kept.
    std::size_t first = 0;
    for (std::size_t i = 0; i < state.depth; ++i)
      if (state.before_insn[i]) {
        first = i;
        break;
      }
    const std::size_t frames = state.depth - first;
    const std::size_t words = kRecordHeaderWords + frames;
    const std::size_t at = g_used_words.fetch_add(words, std::memory_order_relaxed);
    std::uintptr_t* buffer = g_buffer.load(std::memory_order_acquire);
    if (frames == 0 || buffer == nullptr ||
        at + words > g_buffer_words.load(std::memory_order_relaxed)) {
      g_dropped.fetch_add(1, std::memory_order_relaxed);
    } else {
      buffer[at + 1] = static_cast<std::uintptr_t>(::syscall(SYS_gettid));
      for (std::size_t i = 0; i < frames; ++i) {
        std::uintptr_t pc = state.pcs[first + i];
        // A return address points after the call; minus one lands inside it (its line).
        if (!state.before_insn[first + i] && pc > 0) --pc;
        buffer[at + kRecordHeaderWords + i] = pc;
      }
      const std::uintptr_t header =
          kCommitted |
          (static_cast<std::uintptr_t>(g_phase.load(std::memory_order_relaxed)) << 16) | frames;
      std::atomic_ref<std::uintptr_t>(buffer[at]).store(header, std::memory_order_release);
    }
  }
  g_in_handler.fetch_sub(1, std::memory_order_seq_cst);
  errno = saved_errno;
}

std::uint64_t clock_ns(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

void set_timer(unsigned hz) {
  itimerval timer{};
  if (hz != 0) {
    const long usec = std::max(1L, 1000000L / static_cast<long>(hz));
    timer.it_interval.tv_sec = usec / 1000000;
    timer.it_interval.tv_usec = usec % 1000000;
    timer.it_value = timer.it_interval;
  }
  if (::setitimer(ITIMER_PROF, &timer, nullptr) != 0)
    throw std::system_error(errno, std::generic_category(), "setitimer(ITIMER_PROF)");
}

}  // namespace

Frequency frequency_from_env(const char* text) {
  Frequency f;
  if (text == nullptr || *text == '\0') return f;
  const std::string value(text);
  const auto bad = [&] {
    return std::invalid_argument(
        "PPROF_FREQ=" + value + ": expected a whole number of samples per second (" +
        std::to_string(kMinFrequencyHz) + " to " + std::to_string(kMaxFrequencyHz) + ", default " +
        std::to_string(kDefaultFrequencyHz) + ")");
  };
  std::size_t i = 0;
  const bool negative = !value.empty() && value[0] == '-';
  if (negative) ++i;
  if (i == value.size()) throw bad();
  unsigned long long n = 0;
  for (; i < value.size(); ++i) {
    if (value[i] < '0' || value[i] > '9') throw bad();
    if (n < std::numeric_limits<unsigned>::max())
      n = n * 10 + static_cast<unsigned>(value[i] - '0');
  }
  if (negative || n < kMinFrequencyHz) {
    f.hz = kMinFrequencyHz;
  } else if (n > kMaxFrequencyHz) {
    f.hz = kMaxFrequencyHz;
  } else {
    f.hz = static_cast<unsigned>(n);
    return f;
  }
  f.warning = "PPROF_FREQ=" + value + " is outside " + std::to_string(kMinFrequencyHz) + ".." +
              std::to_string(kMaxFrequencyHz) + " Hz; sampling at " + std::to_string(f.hz) + " Hz";
  return f;
}

CpuSampler::CpuSampler(unsigned hz, std::size_t buffer_words) : hz_(hz) {
  if (hz < kMinFrequencyHz || hz > kMaxFrequencyHz)
    throw std::invalid_argument("CpuSampler: " + std::to_string(hz) + " Hz is outside " +
                                std::to_string(kMinFrequencyHz) + ".." +
                                std::to_string(kMaxFrequencyHz));
  if (g_sampler_exists.exchange(true))
    throw std::logic_error("CpuSampler: another sampler is already running in this process");
  try {
    void* memory = ::mmap(nullptr, buffer_words * sizeof(std::uintptr_t), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED)
      throw std::system_error(errno, std::generic_category(), "CpuSampler: mmap of the buffer");
    buffer_ = static_cast<std::uintptr_t*>(memory);
    buffer_words_ = buffer_words;
    // Unwind once outside any handler so the unwinder's one-time setup never runs in one.
    UnwindState warmup;
    _Unwind_Backtrace(&collect_frame, &warmup);
    if (!g_handler_installed.load()) {
      struct sigaction action {};
      action.sa_sigaction = &on_sigprof;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      sigemptyset(&action.sa_mask);
      if (::sigaction(SIGPROF, &action, nullptr) != 0)
        throw std::system_error(errno, std::generic_category(), "CpuSampler: sigaction(SIGPROF)");
      g_handler_installed.store(true);
    }
    g_used_words.store(0);
    g_dropped.store(0);
    g_phase.store(0);
    g_buffer_words.store(buffer_words_);
    g_buffer.store(buffer_, std::memory_order_release);
    g_accepting.store(true);
    cpu_start_ns_ = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    wall_start_ns_ = clock_ns(CLOCK_MONOTONIC);
    set_timer(hz);
    running_ = true;
  } catch (...) {
    g_accepting.store(false);
    g_buffer.store(nullptr);
    if (buffer_ != nullptr) ::munmap(buffer_, buffer_words_ * sizeof(std::uintptr_t));
    buffer_ = nullptr;
    g_sampler_exists.store(false);
    throw;
  }
}

CpuSampler::~CpuSampler() {
  if (running_) {
    try {
      stop();
    } catch (...) {
    }
  }
}

void CpuSampler::set_phase(std::uint32_t phase) noexcept {
  g_phase.store(phase & 0xffffffffu, std::memory_order_relaxed);
}

SamplingResult CpuSampler::stop() {
  SamplingResult result;
  if (!running_) return result;
  running_ = false;
  try {
    set_timer(0);
  } catch (...) {
    // Disarming cannot fail for a valid ITIMER_PROF; the accepting flag below stops sampling.
  }
  g_accepting.store(false, std::memory_order_seq_cst);
  // A handler that entered before the flag dropped finishes its record; later ones see the flag.
  while (g_in_handler.load(std::memory_order_seq_cst) != 0)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  result.cpu_time_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_start_ns_;
  result.wall_time_ns = clock_ns(CLOCK_MONOTONIC) - wall_start_ns_;
  result.dropped = g_dropped.load();
  const std::size_t used = std::min(g_used_words.load(), buffer_words_);
  std::size_t at = 0;
  while (at + kRecordHeaderWords <= used) {
    const std::uintptr_t header =
        std::atomic_ref<std::uintptr_t>(buffer_[at]).load(std::memory_order_acquire);
    if ((header & kCommitted) == 0) break;  // the reservation that overflowed the buffer
    const std::size_t frames = header & 0xffff;
    RawSample s;
    s.phase = static_cast<std::uint32_t>((header >> 16) & 0xffffffffu);
    s.tid = static_cast<std::uint32_t>(buffer_[at + 1]);
    s.pcs.assign(buffer_ + at + kRecordHeaderWords, buffer_ + at + kRecordHeaderWords + frames);
    result.samples.push_back(std::move(s));
    at += kRecordHeaderWords + frames;
  }
  g_buffer.store(nullptr, std::memory_order_release);
  ::munmap(buffer_, buffer_words_ * sizeof(std::uintptr_t));
  buffer_ = nullptr;
  g_sampler_exists.store(false);
  return result;
}

}  // namespace jolt::cpu_profile
