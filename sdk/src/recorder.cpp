// The span recorder: per-thread append-only buffers, one registry per process, collected into
// a Profile when the recording session stops. The hot path (begin/end) takes no lock.
#include <time.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>

#include "jolt/heap.hpp"
#include "jolt/instrument.hpp"
#include "jolt/process.hpp"
#include "jolt/recorder.hpp"

namespace jolt {
namespace detail {
std::atomic<bool> g_recording{false};
}  // namespace detail

namespace {

struct RawEvent {
  const char* label;
  std::uint64_t ts;
  Phase phase;
  std::uint8_t nargs;
  std::uint32_t instant_index;  // into ThreadBuffer::instants when phase == kInstant
  RawArg args[kMaxSpanArgs];
};

struct InstantRecord {
  std::string name;
  std::vector<InstantArg> args;
};

struct CounterRaw {
  const char* name;
  std::uint64_t ts;
  double value;
};

// Append-only storage in fixed chunks: appending never moves earlier events.
class EventChunks {
 public:
  static constexpr std::size_t kChunk = 2048;
  RawEvent& push() {
    if (used_ == kChunk || chunks_.empty()) {
      chunks_.push_back(std::make_unique<std::array<RawEvent, kChunk>>());
      used_ = 0;
    }
    return (*chunks_.back())[used_++];
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t c = 0; c < chunks_.size(); ++c) {
      std::size_t n = (c + 1 == chunks_.size()) ? used_ : kChunk;
      for (std::size_t i = 0; i < n; ++i) f((*chunks_[c])[i]);
    }
  }
  bool empty() const { return chunks_.empty(); }
  void clear() {
    chunks_.clear();
    used_ = 0;
  }

 private:
  std::vector<std::unique_ptr<std::array<RawEvent, kChunk>>> chunks_;
  std::size_t used_ = 0;
};

struct OpenStage {
  const char* label;
  std::uint64_t rss;
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
  std::vector<StageRssRow> stage_rows;
  std::vector<HeapSnapshotRecord> heap;
  std::uint64_t start_ns = 0;
  std::atomic<bool> heap_wanted{false};
  bool active = false;
};

Registry& registry() {
  static Registry* r = new Registry();  // intentionally leaked: outlives every thread
  return *r;
}

thread_local ThreadBuffer* tl_buffer = nullptr;

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

std::uint64_t relative(std::uint64_t ts, std::uint64_t start) {
  return ts > start ? ts - start : 0;
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

void begin_span(const char* label, const RawArg* args, unsigned nargs) noexcept {
  ThreadBuffer& b = buffer();
  RawEvent& e = b.events.push();
  e.label = label;
  e.phase = Phase::kBegin;
  e.nargs = static_cast<std::uint8_t>(nargs);
  for (unsigned i = 0; i < nargs; ++i) e.args[i] = args[i];
  e.ts = now_ns();
}

void end_span(const char* label) noexcept {
  const std::uint64_t ts = now_ns();
  ThreadBuffer& b = buffer();
  RawEvent& e = b.events.push();
  e.label = label;
  e.phase = Phase::kEnd;
  e.nargs = 0;
  e.ts = ts;
}

void stage_boundary(const char* label, bool open) noexcept {
  ThreadBuffer& b = buffer();
  const std::uint64_t rss = current_rss_bytes();
  if (open) {
    b.open_stages.push_back({label, rss});
    return;
  }
  auto it = std::find_if(b.open_stages.rbegin(), b.open_stages.rend(),
                         [&](const OpenStage& s) { return s.label == label; });
  if (it == b.open_stages.rend()) return;
  const std::uint64_t open_rss = it->rss;
  b.open_stages.erase(std::next(it).base(), b.open_stages.end());
  try {
    {
      Registry& r = registry();
      std::lock_guard<std::mutex> lock(r.mu);
      r.stage_rows.push_back(StageRssRow{label, open_rss, rss});
    }
    instant("stage_rss", {instant_arg("stage", std::string(label)),
                          instant_arg("rss_open_gib", static_cast<double>(open_rss) / kBytesPerGib),
                          instant_arg("rss_close_gib", static_cast<double>(rss) / kBytesPerGib)});
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
    ThreadBuffer& b = buffer();
    b.instants.push_back(InstantRecord{name, std::vector<InstantArg>(args)});
    RawEvent& e = b.events.push();
    e.label = nullptr;
    e.phase = Phase::kInstant;
    e.nargs = 0;
    e.instant_index = static_cast<std::uint32_t>(b.instants.size() - 1);
    e.ts = now_ns();
  } catch (...) {
  }
}

void counter(const char* name, double value) noexcept {
  if (!recording()) return;
  try {
    buffer().counters.push_back(CounterRaw{name, now_ns(), value});
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
    r.start_ns = now_ns();
    r.active = true;
  }
  detail::g_recording.store(true, std::memory_order_release);
}

bool RecordingSession::active() noexcept {
  return detail::g_recording.load(std::memory_order_acquire);
}

void RecordingSession::stop_into(Profile& profile) {
  detail::g_recording.store(false, std::memory_order_release);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.active = false;
  r.heap_wanted.store(false, std::memory_order_relaxed);
  const std::uint64_t start = r.start_ns;
  profile.threads.clear();
  profile.counters.clear();
  for (auto& b : r.buffers) {
    if (!b->events.empty()) {
      ThreadTrack track;
      track.tid = b->tid;
      track.name = b->name;
      b->events.for_each([&](const RawEvent& e) {
        TraceEvent out;
        out.phase = e.phase;
        out.ts_ns = relative(e.ts, start);
        if (e.phase == Phase::kInstant) {
          const InstantRecord& rec = b->instants[e.instant_index];
          out.name = rec.name;
          for (const auto& a : rec.args) out.args.push_back(to_arg(a));
        } else {
          out.name = e.label;
          for (unsigned i = 0; i < e.nargs; ++i) out.args.push_back(to_arg(e.args[i]));
        }
        track.events.push_back(std::move(out));
      });
      profile.threads.push_back(std::move(track));
    }
    if (!b->counters.empty()) {
      std::map<std::string, CounterTrack> by_name;
      for (const auto& c : b->counters) {
        CounterTrack& t = by_name[c.name];
        t.name = c.name;
        t.tid = b->tid;
        t.samples.push_back({relative(c.ts, start), c.value});
      }
      for (auto& [_, t] : by_name) profile.counters.push_back(std::move(t));
    }
    b->events.clear();
    b->instants.clear();
    b->counters.clear();
    b->open_stages.clear();
  }
  profile.stage_rss = std::move(r.stage_rows);
  r.stage_rows.clear();
  profile.heap = std::move(r.heap);
  r.heap.clear();
}

// ---- heap snapshots ----

bool heap_snapshots_wanted() noexcept {
  return recording() && registry().heap_wanted.load(std::memory_order_relaxed);
}

void record_heap_snapshot(const std::string& label,
                          const std::vector<const HeapReportable*>& owners) {
  if (!heap_snapshots_wanted()) return;
  FoldedStackBuilder builder;
  for (const HeapReportable* o : owners)
    if (o) o->visit_heap(builder);
  HeapSnapshotRecord rec{label, builder.take()};
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.heap.push_back(std::move(rec));
  }
  instant("heap_snapshot", {instant_arg("snapshot", label)});
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
