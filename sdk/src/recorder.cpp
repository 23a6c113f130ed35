// The span recorder: per-thread append-only buffers, one registry per process, collected into
// a Profile when the recording session stops. The hot path (begin/end) takes no lock.
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "jolt/heap.hpp"
#include "jolt/instrument.hpp"
#include "jolt/process.hpp"
#include "jolt/recorder.hpp"
#include "jolt/taxonomy.hpp"

namespace jolt {
namespace detail {
std::atomic<bool> g_recording{false};
}  // namespace detail

namespace {

// Events are packed into 16-byte slots: a header {label | instant index, tsc | phase | nargs}
// and, for events with args, one slot of arg kinds followed by one {key, value} slot per arg.
// An end event is one slot. Timestamps are raw TSC ticks (low 4 bits carry phase and nargs)
// converted to steady-clock ns at collection, calibrated over the session.
struct Slot {
  std::uint64_t a;
  std::uint64_t b;
};

constexpr std::uint64_t kMetaMask = 0xF;

class EventChunks {
 public:
  static constexpr std::size_t kChunkSlots = 8192;  // 128 KiB
  Slot* reserve(std::size_t n) {
    if (current_ == chunks_.size() || chunks_[current_].used + n > kChunkSlots) advance();
    Chunk& c = chunks_[current_];
    Slot* out = c.slots.get() + c.used;
    c.used += n;
    return out;
  }
  template <class F>
  void for_each_chunk(F&& f) const {
    for (std::size_t i = 0; i <= current_ && i < chunks_.size(); ++i)
      f(chunks_[i].slots.get(), chunks_[i].used);
  }
  bool empty() const { return chunks_.empty() || (current_ == 0 && chunks_[0].used == 0); }
  // Keeps the chunks (their pages stay warm for the next session).
  void clear() {
    for (auto& c : chunks_) c.used = 0;
    current_ = 0;
  }

 private:
  struct Chunk {
    std::unique_ptr<Slot[]> slots;
    std::size_t used;
  };
  void advance() {
    if (current_ < chunks_.size() && chunks_[current_].used > 0) ++current_;
    if (current_ == chunks_.size())
      chunks_.push_back(Chunk{std::make_unique<Slot[]>(kChunkSlots), 0});
  }
  std::vector<Chunk> chunks_;
  std::size_t current_ = 0;
};

struct InstantRecord {
  std::string name;
  std::vector<InstantArg> args;
};

struct CounterRaw {
  const char* name;
  std::uint64_t tick;
  double value;
};

struct OpenStage {
  const char* label;
  std::uint64_t rss;
  std::uint64_t tick;  // the stage span's begin event
};

// A stage RSS row or heap snapshot as recorded: raw ticks, converted when the session stops.
struct StageRowRaw {
  StageRssRow row;
  std::uint64_t open_tick;
  std::uint64_t close_tick;
};
struct HeapRaw {
  HeapSnapshotRecord record;
  std::uint64_t tick;
};

struct ThreadBuffer {
  std::uint32_t tid = 0;
  std::string name;
  EventChunks events;
  std::vector<InstantRecord> instants;
  std::vector<CounterRaw> counters;
  std::vector<OpenStage> open_stages;
};

struct Registry {
  std::mutex mu;
  std::vector<std::unique_ptr<ThreadBuffer>>
      buffers;  // never freed: thread_local pointers stay valid
  std::vector<StageRowRaw> stage_rows;
  std::vector<HeapRaw> heap;
  std::uint64_t start_ns = 0;
  std::uint64_t start_tick = 0;
  std::atomic<bool> heap_wanted{false};
  std::atomic<bool> stage_boundary_heap_wanted{false};
  bool active = false;
};

Registry& registry() {
  static Registry* r = new Registry();  // intentionally leaked: outlives every thread
  return *r;
}

__attribute__((tls_model("initial-exec"))) thread_local ThreadBuffer* tl_buffer = nullptr;

// The invariant TSC is ~2x cheaper to read than clock_gettime; without it, ticks are ns.
bool detect_invariant_tsc() {
#if defined(__x86_64__)
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}
const bool g_use_tsc = detect_invariant_tsc();

inline std::uint64_t tick() noexcept {
#if defined(__x86_64__)
  if (g_use_tsc) return __rdtsc();
#endif
  return now_ns();
}

// Maps ticks to ns relative to the session start.
struct TickScale {
  std::uint64_t start_tick;
  double ns_per_tick;
  std::uint64_t operator()(std::uint64_t t) const {
    t &= ~kMetaMask;
    if (t <= start_tick) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(t - start_tick) * ns_per_tick + 0.5);
  }
};

ThreadBuffer& buffer() {
  if (tl_buffer) return *tl_buffer;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto b = std::make_unique<ThreadBuffer>();
  b->tid = static_cast<std::uint32_t>(r.buffers.size() + 1);
  b->name = "thread-" + std::to_string(b->tid);
  tl_buffer = b.get();
  r.buffers.push_back(std::move(b));
  return *tl_buffer;
}

Arg to_arg(const RawArg& a) {
  Arg out;
  out.key = a.key ? a.key : "";
  switch (a.kind) {
    case ArgKind::kInt:
      out.value = a.i;
      break;
    case ArgKind::kDouble:
      out.value = a.d;
      break;
    case ArgKind::kStaticString:
      out.value = std::string(a.s ? a.s : "");
      break;
    case ArgKind::kNone:
      out.value = std::int64_t{0};
      break;
  }
  return out;
}

Arg to_arg(const InstantArg& a) {
  Arg out;
  out.key = a.key;
  switch (a.kind) {
    case ArgKind::kInt:
      out.value = a.i;
      break;
    case ArgKind::kDouble:
      out.value = a.d;
      break;
    default:
      out.value = a.s;
      break;
  }
  return out;
}

}  // namespace

std::uint64_t now_ns() noexcept {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

namespace detail {

namespace {

void write_begin(ThreadBuffer& b, const char* label, const RawArg* args, unsigned nargs,
                 std::uint64_t t) noexcept {
  Slot* slot = b.events.reserve(nargs ? 2 + nargs : 1);
  slot[0].a = reinterpret_cast<std::uintptr_t>(label);
  if (nargs) {
    std::uint64_t kinds = 0;
    for (unsigned i = 0; i < nargs; ++i) {
      kinds |= static_cast<std::uint64_t>(args[i].kind) << (8 * i);
      slot[2 + i].a = reinterpret_cast<std::uintptr_t>(args[i].key);
      std::memcpy(&slot[2 + i].b, &args[i].i, sizeof(std::uint64_t));
    }
    slot[1].a = kinds;
    slot[1].b = 0;
  }
  slot[0].b = (t & ~kMetaMask) | (static_cast<std::uint64_t>(Phase::kBegin) << 2) | nargs;
}

void write_end(ThreadBuffer& b, const char* label, std::uint64_t t) noexcept {
  Slot* slot = b.events.reserve(1);
  slot->a = reinterpret_cast<std::uintptr_t>(label);
  slot->b = (t & ~kMetaMask) | (static_cast<std::uint64_t>(Phase::kEnd) << 2);
}

void write_instant(ThreadBuffer& b, const char* name, std::initializer_list<InstantArg> args,
                   std::uint64_t t) {
  b.instants.push_back(InstantRecord{name, std::vector<InstantArg>(args)});
  Slot* slot = b.events.reserve(1);
  slot->a = b.instants.size() - 1;
  slot->b = (t & ~kMetaMask) | (static_cast<std::uint64_t>(Phase::kInstant) << 2);
}

}  // namespace

void begin_span(const char* label, const RawArg* args, unsigned nargs) noexcept {
  ThreadBuffer& b = buffer();
  write_begin(b, label, args, nargs, tick());
}

void end_span(const char* label) noexcept {
  const std::uint64_t t = tick();
  write_end(buffer(), label, t);
}

void begin_stage(const char* label) noexcept {
  ThreadBuffer& b = buffer();
  const std::uint64_t rss = current_rss_bytes();
  const std::uint64_t t = tick();
  try {
    b.open_stages.push_back({label, rss, t});
  } catch (...) {
    // Out of memory: the span is still recorded, its boundary row is not.
  }
  write_begin(b, label, nullptr, 0, t);
}

void end_stage(const char* label) noexcept {
  const std::uint64_t t = tick();
  ThreadBuffer& b = buffer();
  write_end(b, label, t);
  const std::uint64_t rss = current_rss_bytes();
  auto it = std::find_if(b.open_stages.rbegin(), b.open_stages.rend(),
                         [&](const OpenStage& s) { return s.label == label; });
  if (it == b.open_stages.rend()) return;
  const OpenStage open = *it;
  b.open_stages.erase(std::next(it).base(), b.open_stages.end());
  if (!recording()) return;
  try {
    {
      Registry& r = registry();
      std::lock_guard<std::mutex> lock(r.mu);
      r.stage_rows.push_back({StageRssRow{label, open.rss, rss, b.tid, 0, 0}, open.tick, t});
    }
    write_instant(b, taxonomy::kStageRssInstant.data(),
                  {instant_arg(std::string(taxonomy::kStageRssStageArg), std::string(label)),
                   instant_arg(std::string(taxonomy::kStageRssOpenArg),
                               static_cast<double>(open.rss) / kBytesPerGib),
                   instant_arg(std::string(taxonomy::kStageRssCloseArg),
                               static_cast<double>(rss) / kBytesPerGib)},
                  tick());
  } catch (...) {
    // Out of memory while recording a boundary row: drop the row, never the run.
  }
}

}  // namespace detail

InstantArg instant_arg(std::string key, std::int64_t v) {
  InstantArg a;
  a.key = std::move(key);
  a.kind = ArgKind::kInt;
  a.i = v;
  return a;
}
InstantArg instant_arg(std::string key, double v) {
  InstantArg a;
  a.key = std::move(key);
  a.kind = ArgKind::kDouble;
  a.d = v;
  return a;
}
InstantArg instant_arg(std::string key, std::string v) {
  InstantArg a;
  a.key = std::move(key);
  a.kind = ArgKind::kStaticString;
  a.s = std::move(v);
  return a;
}

void instant(const char* name, std::initializer_list<InstantArg> args) noexcept {
  if (!recording()) return;
  try {
    detail::write_instant(buffer(), name, args, tick());
  } catch (...) {
  }
}

void counter(const char* name, double value) noexcept {
  if (!recording()) return;
  try {
    buffer().counters.push_back(CounterRaw{name, tick(), value});
  } catch (...) {
  }
}

void set_current_thread_name(const std::string& name) noexcept {
  try {
    ThreadBuffer& b = buffer();
    std::lock_guard<std::mutex> lock(registry().mu);  // collection reads names
    b.name = name;
  } catch (...) {
  }
}

void RecordingSession::start(const RecordingOptions& options) {
  Registry& r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto& b : r.buffers) {
      b->events.clear();
      b->instants.clear();
      b->counters.clear();
      b->open_stages.clear();
    }
    r.stage_rows.clear();
    r.heap.clear();
    r.heap_wanted.store(options.heap_snapshots, std::memory_order_relaxed);
    r.stage_boundary_heap_wanted.store(false, std::memory_order_relaxed);
    r.start_ns = now_ns();
    r.start_tick = tick();
    r.active = true;
  }
  detail::g_recording.store(true, std::memory_order_release);
}

void RecordingSession::want_stage_boundary_heap_snapshots(bool on) noexcept {
  registry().stage_boundary_heap_wanted.store(on, std::memory_order_relaxed);
}

bool RecordingSession::active() noexcept {
  return detail::g_recording.load(std::memory_order_acquire);
}

Profile RecordingSession::stop() {
  Profile profile;
  detail::g_recording.store(false, std::memory_order_release);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.active = false;
  r.heap_wanted.store(false, std::memory_order_relaxed);
  r.stage_boundary_heap_wanted.store(false, std::memory_order_relaxed);
  TickScale scale{r.start_tick & ~kMetaMask, 1.0};
  if (g_use_tsc) {
    // Calibrate ticks against the steady clock over the session (at least 20 ms of it).
    std::uint64_t stop_ns = now_ns();
    while (stop_ns - r.start_ns < 20'000'000) {
      struct timespec pause = {0, 1'000'000};
      nanosleep(&pause, nullptr);
      stop_ns = now_ns();
    }
    const std::uint64_t stop_tick = tick();
    scale.ns_per_tick = static_cast<double>(stop_ns - r.start_ns) /
                        static_cast<double>(stop_tick - scale.start_tick);
  }
  for (auto& b : r.buffers) {
    if (!b->events.empty() || !b->counters.empty()) {  // counter-only threads keep their name
      ThreadTrack track;
      track.tid = b->tid;
      track.name = b->name;
      b->events.for_each_chunk([&](const Slot* slots, std::size_t used) {
        for (std::size_t i = 0; i < used;) {
          const Slot& h = slots[i];
          TraceEvent out;
          out.phase = static_cast<Phase>((h.b >> 2) & 0x3);
          const unsigned nargs = static_cast<unsigned>(h.b & 0x3);
          out.ts_ns = scale(h.b);
          if (out.phase == Phase::kInstant) {
            const InstantRecord& rec = b->instants[h.a];
            out.name = rec.name;
            for (const auto& a : rec.args) out.args.push_back(to_arg(a));
            i += 1;
          } else {
            out.name = reinterpret_cast<const char*>(h.a);
            if (nargs) {
              for (unsigned k = 0; k < nargs; ++k) {
                RawArg a;
                a.kind = static_cast<ArgKind>((slots[i + 1].a >> (8 * k)) & 0xFF);
                a.key = reinterpret_cast<const char*>(slots[i + 2 + k].a);
                std::memcpy(&a.i, &slots[i + 2 + k].b, sizeof(std::uint64_t));
                out.args.push_back(to_arg(a));
              }
              i += 2 + nargs;
            } else {
              i += 1;
            }
          }
          track.events.push_back(std::move(out));
        }
      });
      profile.threads.push_back(std::move(track));
    }
    if (!b->counters.empty()) {
      std::map<std::string, CounterTrack> by_name;
      for (const auto& c : b->counters) {
        CounterTrack& t = by_name[c.name];
        t.name = c.name;
        t.tid = b->tid;
        t.samples.push_back({scale(c.tick), c.value});
      }
      for (auto& [_, t] : by_name) profile.counters.push_back(std::move(t));
    }
    b->events.clear();
    b->instants.clear();
    b->counters.clear();
    b->open_stages.clear();
  }
  profile.stage_rss.reserve(r.stage_rows.size());
  for (StageRowRaw& raw : r.stage_rows) {
    raw.row.open_ns = scale(raw.open_tick);
    raw.row.close_ns = scale(raw.close_tick);
    profile.stage_rss.push_back(std::move(raw.row));
  }
  r.stage_rows.clear();
  profile.heap.reserve(r.heap.size());
  for (HeapRaw& raw : r.heap) {
    raw.record.ts_ns = scale(raw.tick);
    profile.heap.push_back(std::move(raw.record));
  }
  r.heap.clear();
  return profile;
}

// ---- heap snapshots ----

bool heap_snapshots_wanted() noexcept {
  return recording() && registry().heap_wanted.load(std::memory_order_relaxed);
}

bool stage_boundary_heap_snapshots_wanted() noexcept {
  return heap_snapshots_wanted() &&
         registry().stage_boundary_heap_wanted.load(std::memory_order_relaxed);
}

void record_heap_snapshot(const std::string& label,
                          const std::vector<const HeapReportable*>& owners) {
  if (!heap_snapshots_wanted()) return;
  FoldedStackBuilder builder;
  for (const HeapReportable* o : owners)
    if (o) o->visit_heap(builder);
  ThreadBuffer& b = buffer();
  const std::uint64_t t = tick();  // the record and its instant share one timestamp
  HeapRaw raw{HeapSnapshotRecord{label, builder.take(), b.tid, 0}, t};
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.heap.push_back(std::move(raw));
  }
  detail::write_instant(b, taxonomy::kHeapSnapshotInstant.data(),
                        {instant_arg(std::string(taxonomy::kHeapSnapshotArg), label)}, t);
}

void record_heap_snapshot(const std::string& label,
                          std::initializer_list<const HeapReportable*> owners) {
  record_heap_snapshot(label, std::vector<const HeapReportable*>(owners));
}

void FoldedStackBuilder::enter(std::string_view frame) {
  path_.emplace_back(frame);
}

void FoldedStackBuilder::exit() {
  if (!path_.empty()) path_.pop_back();
}

void FoldedStackBuilder::bytes(std::string_view frame, std::uint64_t n) {
  if (n == 0) return;
  std::string stack;
  for (const auto& p : path_) {
    stack += p;
    stack += ';';
  }
  stack += frame;
  for (auto& s : out_)
    if (s.stack == stack) {
      s.bytes += n;
      return;
    }
  out_.push_back(FoldedStack{std::move(stack), n});
}

std::vector<FoldedStack> FoldedStackBuilder::take() {
  return std::move(out_);
}

}  // namespace jolt
