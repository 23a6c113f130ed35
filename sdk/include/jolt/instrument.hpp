// Instrumentation: RAII spans, instants and counter samples recorded into per-thread buffers.
//
//   #include <jolt/instrument.hpp>
//   void prove_batch(std::size_t rounds, std::size_t members) {
//     JOLT_SPAN("prove_batch", jolt::arg("num_rounds", rounds), jolt::arg("members", members));
//     for (std::size_t r = 0; r < rounds; ++r) { JOLT_SPAN("sumcheck_round", jolt::arg("round",
//     r)); }
//   }
//
// Labels must be string literals (or otherwise live for the whole process): the recorder keeps
// the pointer. Every call here is thread-safe; each thread appends to its own buffer without a
// lock. With no recording session active a span costs one relaxed atomic load and a branch.
// Hot-loop rule (taxonomy.hpp): never open a span inside a per-index loop.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace jolt {

enum class ArgKind : std::uint8_t { kNone, kInt, kDouble, kStaticString };

// One span/instant argument as recorded on the hot path: a static key and a scalar value.
struct RawArg {
  const char* key = nullptr;
  ArgKind kind = ArgKind::kNone;
  union {
    std::int64_t i;
    double d;
    const char* s;
  };
  RawArg() : i(0) {}
};

template <class T>
inline RawArg arg(const char* key, T value) noexcept {
  RawArg a;
  a.key = key;
  if constexpr (std::is_floating_point_v<T>) {
    a.kind = ArgKind::kDouble;
    a.d = static_cast<double>(value);
  } else if constexpr (std::is_convertible_v<T, const char*>) {
    a.kind = ArgKind::kStaticString;
    a.s = value;
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>,
                  "span args are numbers or static strings");
    a.kind = ArgKind::kInt;
    a.i = static_cast<std::int64_t>(value);
  }
  return a;
}

inline constexpr unsigned kMaxSpanArgs = 3;

namespace detail {
extern std::atomic<bool> g_recording;
void begin_span(const char* label, const RawArg* args, unsigned nargs) noexcept;
void end_span(const char* label) noexcept;
// A stage span's begin/end plus its boundary RSS row, stamped with the same clock read.
void begin_stage(const char* label) noexcept;
void end_stage(const char* label) noexcept;
}  // namespace detail

// True while a recording session is active (relaxed; a hint for skipping optional work).
inline bool recording() noexcept {
  return detail::g_recording.load(std::memory_order_relaxed);
}

// A span from construction to destruction on the calling thread.
class Span {
 public:
  explicit Span(const char* label) noexcept : label_(recording() ? label : nullptr) {
    if (label_) detail::begin_span(label_, nullptr, 0);
  }
  template <class... A>
  Span(const char* label, RawArg first, A... rest) noexcept
      : label_(recording() ? label : nullptr) {
    static_assert(sizeof...(A) + 1 <= kMaxSpanArgs, "at most kMaxSpanArgs span args");
    if (label_) {
      const RawArg args[] = {first, rest...};
      detail::begin_span(label_, args, sizeof...(A) + 1);
    }
  }
  ~Span() {
    if (label_) detail::end_span(label_);
  }
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  const char* label_;
};

// A pipeline stage span (`prove_stageN`): also samples process RSS at open and close, which
// becomes the stage's rss_open/close rows in summary.json and a `stage_rss` instant.
class StageSpan {
 public:
  explicit StageSpan(const char* label) noexcept : label_(recording() ? label : nullptr) {
    if (label_) detail::begin_stage(label_);
  }
  ~StageSpan() {
    if (label_) detail::end_stage(label_);
  }
  StageSpan(const StageSpan&) = delete;
  StageSpan& operator=(const StageSpan&) = delete;

 private:
  const char* label_;
};

// An instant event on the calling thread. String values are copied.
struct InstantArg {
  std::string key;
  ArgKind kind = ArgKind::kNone;
  std::int64_t i = 0;
  double d = 0;
  std::string s;
};
InstantArg instant_arg(std::string key, std::int64_t v);
InstantArg instant_arg(std::string key, double v);
InstantArg instant_arg(std::string key, std::string v);
void instant(const char* name, std::initializer_list<InstantArg> args = {}) noexcept;

// A counter sample (one point of a Perfetto counter track named `name`).
void counter(const char* name, double value) noexcept;

// Names the calling thread in the trace ("main", "tbb-worker-3", ...).
void set_current_thread_name(const std::string& name) noexcept;

// Nanoseconds on the steady clock used for every timestamp.
std::uint64_t now_ns() noexcept;

}  // namespace jolt

#define JOLT_DETAIL_CONCAT2(a, b) a##b
#define JOLT_DETAIL_CONCAT(a, b) JOLT_DETAIL_CONCAT2(a, b)
// JOLT_SPAN("label", jolt::arg("k", v)...) — a span for the rest of the enclosing scope.
#define JOLT_SPAN(...) ::jolt::Span JOLT_DETAIL_CONCAT(jolt_span_, __LINE__)(__VA_ARGS__)
// JOLT_STAGE_SPAN("prove_stageN") — a stage span with boundary RSS samples.
#define JOLT_STAGE_SPAN(label) ::jolt::StageSpan JOLT_DETAIL_CONCAT(jolt_stage_, __LINE__)(label)
