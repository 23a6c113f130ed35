// Perfetto protobuf rendering: packets encoded with ProtoWriter into a buffer that is flushed to
// an AtomicOutputFile.
#include "perfetto_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include <jolt/atomic_file.hpp>
#include <jolt/spans.hpp>

#include "protobuf_writer.hpp"
#include "trace_tracks.hpp"

namespace jolt::sinks {
namespace {

// Field numbers, as in schema/perfetto_trace_subset.proto.
namespace trace {
constexpr std::uint32_t kPacket = 1;
}
namespace packet {
constexpr std::uint32_t kTimestamp = 8;
constexpr std::uint32_t kTimestampClockId = 58;
constexpr std::uint32_t kSequenceId = 10;
constexpr std::uint32_t kSequenceFlags = 13;
constexpr std::uint32_t kInternedData = 12;
constexpr std::uint32_t kDefaults = 59;
constexpr std::uint32_t kClockSnapshot = 6;
constexpr std::uint32_t kTrackEvent = 11;
constexpr std::uint32_t kTrackDescriptor = 60;
constexpr std::uint64_t kIncrementalStateCleared = 1;
constexpr std::uint64_t kNeedsIncrementalState = 2;
}  // namespace packet
namespace defaults {
constexpr std::uint32_t kTimestampClockId = 58;
constexpr std::uint32_t kTrackEventDefaults = 11;
constexpr std::uint32_t kTrackUuid = 11;  // TrackEventDefaults.track_uuid
}  // namespace defaults
namespace clock {
constexpr std::uint32_t kClocks = 1;
constexpr std::uint32_t kClockId = 1;
constexpr std::uint32_t kTimestamp = 2;
constexpr std::uint32_t kIsIncremental = 3;
constexpr std::uint32_t kBootTime = 6;
constexpr std::uint32_t kIncremental = 64;  // first sequence-scoped clock id
}  // namespace clock
namespace track {
constexpr std::uint32_t kUuid = 1;
constexpr std::uint32_t kParentUuid = 5;
constexpr std::uint32_t kName = 2;
constexpr std::uint32_t kProcess = 3;
constexpr std::uint32_t kThread = 4;
constexpr std::uint32_t kCounter = 8;
constexpr std::uint32_t kPid = 1;  // ProcessDescriptor.pid, ThreadDescriptor.pid
constexpr std::uint32_t kProcessName = 6;
constexpr std::uint32_t kTid = 2;
constexpr std::uint32_t kThreadName = 5;
}  // namespace track
namespace event {
constexpr std::uint32_t kType = 9;
constexpr std::uint32_t kTrackUuid = 11;
constexpr std::uint32_t kNameIid = 10;
constexpr std::uint32_t kDebugAnnotations = 4;
constexpr std::uint32_t kCounterValue = 30;
constexpr std::uint32_t kDoubleCounterValue = 44;
constexpr std::uint64_t kSliceBegin = 1;
constexpr std::uint64_t kSliceEnd = 2;
constexpr std::uint64_t kInstant = 3;
constexpr std::uint64_t kCounter = 4;
}  // namespace event
namespace annotation {
constexpr std::uint32_t kNameIid = 1;
constexpr std::uint32_t kIntValue = 4;
constexpr std::uint32_t kDoubleValue = 5;
constexpr std::uint32_t kStringValue = 6;
}  // namespace annotation
namespace interned {
constexpr std::uint32_t kEventNames = 2;
constexpr std::uint32_t kDebugAnnotationNames = 3;
constexpr std::uint32_t kIid = 1;
constexpr std::uint32_t kName = 2;
}  // namespace interned

constexpr std::int64_t kPid = 1;  // as in trace.json
constexpr std::uint64_t kProcessUuid = 1;
constexpr std::uint32_t kDescriptorSequence = 1;

// Packets go through one reused ProtoWriter into a buffer written out in large chunks.
class PacketFile {
 public:
  explicit PacketFile(AtomicOutputFile& out) : out_(out) {}
  ProtoWriter& packet() {
    packet_.clear();
    return packet_;
  }
  bool finish_packet() {
    char length[10];
    const char tag = static_cast<char>((trace::kPacket << 3) | ProtoWriter::kLengthDelimited);
    buffer_.push_back(tag);
    buffer_.append(length, ProtoWriter::encode_varint(packet_.size(), length));
    buffer_.append(packet_.bytes());
    return buffer_.size() < kFlushAt || flush();
  }
  bool flush() {
    const bool ok = std::fwrite(buffer_.data(), 1, buffer_.size(), out_.stream()) == buffer_.size();
    buffer_.clear();
    return ok;
  }

 private:
  static constexpr std::size_t kFlushAt = 1 << 20;
  AtomicOutputFile& out_;
  ProtoWriter packet_;
  std::string buffer_;
};

struct CounterPoint {
  std::uint64_t ts_ns;
  std::uint64_t track_uuid;
  double value;
};

// A sample written as an int64 (a shorter varint than the 8 bytes of a double) without loss.
bool is_integral(double v) {
  return std::trunc(v) == v && std::fabs(v) <= 9007199254740992.0;
}

// One thread's sequence: interning tables and the incremental clock.
class Sequence {
 public:
  Sequence(PacketFile& file, std::uint32_t id, std::uint64_t track_uuid)
      : file_(file), id_(id), track_uuid_(track_uuid) {}

  bool start(std::uint32_t tid, const std::string& thread_name) {
    ProtoWriter& w = file_.packet();
    w.uint(packet::kSequenceId, id_);
    w.uint(packet::kSequenceFlags, packet::kIncrementalStateCleared);
    w.uint(packet::kTimestampClockId, clock::kBootTime);
    w.uint(packet::kTimestamp, 0);
    const auto defaults = w.begin_nested(packet::kDefaults);
    w.uint(defaults::kTimestampClockId, clock::kIncremental);
    const auto event_defaults = w.begin_nested(defaults::kTrackEventDefaults);
    w.uint(defaults::kTrackUuid, track_uuid_);
    w.end_nested(event_defaults);
    w.end_nested(defaults);
    const auto descriptor = w.begin_nested(packet::kTrackDescriptor);
    w.uint(track::kUuid, track_uuid_);
    w.uint(track::kParentUuid, kProcessUuid);
    const auto thread = w.begin_nested(track::kThread);
    w.int64(track::kPid, kPid);
    w.int64(track::kTid, tid);
    w.string(track::kThreadName, thread_name);
    w.end_nested(thread);
    w.end_nested(descriptor);
    if (!file_.finish_packet()) return false;

    ProtoWriter& s = file_.packet();
    s.uint(packet::kSequenceId, id_);
    s.uint(packet::kSequenceFlags, packet::kNeedsIncrementalState);
    s.uint(packet::kTimestampClockId, clock::kBootTime);
    s.uint(packet::kTimestamp, 0);
    const auto snapshot = s.begin_nested(packet::kClockSnapshot);
    const auto boottime = s.begin_nested(clock::kClocks);
    s.uint(clock::kClockId, clock::kBootTime);
    s.uint(clock::kTimestamp, 0);
    s.end_nested(boottime);
    const auto incremental = s.begin_nested(clock::kClocks);
    s.uint(clock::kClockId, clock::kIncremental);
    s.uint(clock::kTimestamp, 0);
    s.uint(clock::kIsIncremental, 1);
    s.end_nested(incremental);
    s.end_nested(snapshot);
    return file_.finish_packet();
  }

  bool begin(const TraceEvent& e, std::uint64_t ts) { return named(e, event::kSliceBegin, ts); }
  bool instant(const TraceEvent& e, std::uint64_t ts) { return named(e, event::kInstant, ts); }

  bool end(std::uint64_t ts) {
    ProtoWriter& w = event_packet(ts);
    const auto te = w.begin_nested(packet::kTrackEvent);
    w.uint(event::kType, event::kSliceEnd);
    w.end_nested(te);
    return file_.finish_packet();
  }

  // A counter sample on its counter track; an integral value as counter_value (a varint
  // shorter than the 8 bytes of double_counter_value), the others as double_counter_value.
  bool counter(const CounterPoint& c) {
    ProtoWriter& w = event_packet(c.ts_ns);
    const auto te = w.begin_nested(packet::kTrackEvent);
    w.uint(event::kType, event::kCounter);
    w.uint(event::kTrackUuid, c.track_uuid);
    if (is_integral(c.value))
      w.int64(event::kCounterValue, static_cast<std::int64_t>(c.value));
    else
      w.double_value(event::kDoubleCounterValue, c.value);
    w.end_nested(te);
    return file_.finish_packet();
  }

 private:
  ProtoWriter& event_packet(std::uint64_t ts) {
    ProtoWriter& w = file_.packet();
    w.uint(packet::kTimestamp, ts - last_ts_);  // callers keep ts non-decreasing
    last_ts_ = ts;
    w.uint(packet::kSequenceId, id_);
    w.uint(packet::kSequenceFlags, packet::kNeedsIncrementalState);
    return w;
  }

  // The iid of `name` in `table`; a name seen for the first time is added to `fresh`.
  static std::uint64_t intern(std::unordered_map<std::string, std::uint64_t>& table,
                              const std::string& name, std::vector<const std::string*>& fresh) {
    auto [it, inserted] = table.try_emplace(name, table.size() + 1);
    if (inserted) fresh.push_back(&it->first);
    return it->second;
  }

  bool named(const TraceEvent& e, std::uint64_t type, std::uint64_t ts) {
    fresh_names_.clear();
    fresh_keys_.clear();
    const std::uint64_t name_iid = intern(names_, e.name, fresh_names_);
    key_iids_.clear();
    for (const Arg& a : e.args) key_iids_.push_back(intern(keys_, a.key, fresh_keys_));

    ProtoWriter& w = event_packet(ts);
    if (!fresh_names_.empty() || !fresh_keys_.empty()) {
      const auto data = w.begin_nested(packet::kInternedData);
      auto entries = [&](std::uint32_t field, const std::vector<const std::string*>& fresh,
                         const std::unordered_map<std::string, std::uint64_t>& table) {
        for (const std::string* s : fresh) {
          const auto entry = w.begin_nested(field);
          w.uint(interned::kIid, table.at(*s));
          w.string(interned::kName, *s);
          w.end_nested(entry);
        }
      };
      entries(interned::kEventNames, fresh_names_, names_);
      entries(interned::kDebugAnnotationNames, fresh_keys_, keys_);
      w.end_nested(data);
    }
    const auto te = w.begin_nested(packet::kTrackEvent);
    w.uint(event::kType, type);
    w.uint(event::kNameIid, name_iid);
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      const ArgValue& v = e.args[i].value;
      const double* d = std::get_if<double>(&v);
      if (d && !std::isfinite(*d)) continue;
      const auto a = w.begin_nested(event::kDebugAnnotations);
      w.uint(annotation::kNameIid, key_iids_[i]);
      if (const auto* n = std::get_if<std::int64_t>(&v))
        w.int64(annotation::kIntValue, *n);
      else if (d)
        w.double_value(annotation::kDoubleValue, *d);
      else
        w.string(annotation::kStringValue, std::get<std::string>(v));
      w.end_nested(a);
    }
    w.end_nested(te);
    return file_.finish_packet();
  }

  PacketFile& file_;
  std::uint32_t id_;
  std::uint64_t track_uuid_;
  std::uint64_t last_ts_ = 0;
  std::unordered_map<std::string, std::uint64_t> names_, keys_;
  std::vector<const std::string*> fresh_names_, fresh_keys_;
  std::vector<std::uint64_t> key_iids_;
};

// One thread's events in recorded order, as chrome_trace.cpp's write_thread renders them.
bool write_thread(Sequence& seq, const ThreadTrack& t, const SpanTree& tree, std::size_t thread,
                  const std::vector<CounterPoint>& counters) {
  const std::vector<const ReplayedSpan*> closing = spans_by_closing_event(tree, thread);
  std::size_t next_close = 0, next_counter = 0;
  std::uint64_t last = 0;
  bool ok = true;
  auto flush_counters = [&](std::uint64_t upto) {
    for (; ok && next_counter < counters.size() && counters[next_counter].ts_ns <= upto;
         ++next_counter) {
      CounterPoint c = counters[next_counter];
      c.ts_ns = std::max(c.ts_ns, last);
      ok = seq.counter(c);
      last = c.ts_ns;
    }
  };
  for (std::size_t ei = 0; ok && ei < t.events.size(); ++ei) {
    const TraceEvent& e = t.events[ei];
    const std::uint64_t ts = std::max(e.ts_ns, last);
    flush_counters(ts);
    if (e.phase == Phase::kBegin) {
      ok = ok && seq.begin(e, ts);
    } else if (e.phase == Phase::kEnd) {
      for (; ok && next_close < closing.size() && closing[next_close]->end_event == ei;
           ++next_close)
        ok = seq.end(ts);
    } else {
      ok = ok && seq.instant(e, ts);
    }
    last = ts;
  }
  flush_counters(UINT64_MAX);
  const std::uint64_t end = std::max(last, tree.profile_end_ns);
  for (; ok && next_close < closing.size(); ++next_close) ok = seq.end(end);
  return ok;
}

}  // namespace

Status write_perfetto_trace(const Profile& profile, const std::string& path) noexcept {
  try {
    AtomicOutputFile out(path);
    if (!out.open()) return out.status();
    PacketFile file(out);
    const std::vector<std::uint32_t> counter_only = counter_only_tids(profile);
    const std::size_t thread_tracks = profile.threads.size() + counter_only.size();
    const std::uint64_t first_thread_uuid = kProcessUuid + 1;
    const std::uint64_t first_counter_uuid = first_thread_uuid + thread_tracks;

    bool ok = true;
    {
      ProtoWriter& w = file.packet();
      w.uint(packet::kSequenceId, kDescriptorSequence);
      w.uint(packet::kTimestamp, 0);
      const auto descriptor = w.begin_nested(packet::kTrackDescriptor);
      w.uint(track::kUuid, kProcessUuid);
      const auto process = w.begin_nested(track::kProcess);
      w.int64(track::kPid, kPid);
      w.string(track::kProcessName, process_track_name(profile));
      w.end_nested(process);
      w.end_nested(descriptor);
      ok = file.finish_packet();
    }
    std::map<std::uint32_t, std::vector<CounterPoint>> counters;  // tid -> points by ts
    for (std::size_t j = 0; ok && j < profile.counters.size(); ++j) {
      const CounterTrack& c = profile.counters[j];
      ProtoWriter& w = file.packet();
      w.uint(packet::kSequenceId, kDescriptorSequence);
      w.uint(packet::kTimestamp, 0);
      const auto descriptor = w.begin_nested(packet::kTrackDescriptor);
      w.uint(track::kUuid, first_counter_uuid + j);
      w.uint(track::kParentUuid, kProcessUuid);
      w.string(track::kName, c.name);
      w.end_nested(w.begin_nested(track::kCounter));
      w.end_nested(descriptor);
      ok = file.finish_packet();
      for (const CounterSample& s : c.samples)
        if (std::isfinite(s.value))
          counters[c.tid].push_back({s.ts_ns, first_counter_uuid + j, s.value});
    }
    for (auto& [tid, points] : counters)
      std::stable_sort(
          points.begin(), points.end(),
          [](const CounterPoint& a, const CounterPoint& b) { return a.ts_ns < b.ts_ns; });

    static const std::vector<CounterPoint> kNone;
    const SpanTree tree = replay_spans(profile);
    std::uint32_t sequence_id = kDescriptorSequence + 1;
    std::uint64_t uuid = first_thread_uuid;
    for (std::size_t i = 0; ok && i < profile.threads.size(); ++i) {
      const ThreadTrack& t = profile.threads[i];
      Sequence seq(file, sequence_id++, uuid++);
      ok = seq.start(t.tid, thread_track_name(t));
      const auto it = counters.find(t.tid);
      ok = ok && write_thread(seq, t, tree, i, it == counters.end() ? kNone : it->second);
    }
    for (std::size_t k = 0; ok && k < counter_only.size(); ++k) {
      Sequence seq(file, sequence_id++, uuid++);
      ok = seq.start(counter_only[k], counter_thread_name(counter_only[k]));
      for (const CounterPoint& c : counters.at(counter_only[k])) ok = ok && seq.counter(c);
    }
    if (!ok || !file.flush())
      return Status::error("writing perfetto trace " + path +
                           " failed: the disk may be full; free space and re-run");
    return out.commit();
  } catch (const std::exception& e) {
    return Status::error("writing perfetto trace " + path + " failed: " + e.what());
  } catch (...) {
    return Status::error("writing perfetto trace " + path + " failed (unknown error)");
  }
}

}  // namespace jolt::sinks
