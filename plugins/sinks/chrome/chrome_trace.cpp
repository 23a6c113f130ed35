// Chrome trace rendering with RapidJSON's Writer straight into a buffered temp file.
#include "chrome_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string_view>
#include <variant>
#include <vector>

#include <rapidjson/filewritestream.h>
#include <rapidjson/writer.h>

#include <jolt/atomic_file.hpp>
#include <jolt/spans.hpp>

#include "trace_tracks.hpp"

namespace jolt::sinks {
namespace {

using Writer = rapidjson::Writer<rapidjson::FileWriteStream>;

struct CounterPoint {
  std::uint64_t ts_ns;
  const std::string* name;
  double value;
};

class TraceWriter {
 public:
  explicit TraceWriter(Writer& w) : w_(w) {}

  void ts(std::uint64_t ns) {
    char buf[32];
    const int n =
        std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000),
                      static_cast<unsigned long long>(ns % 1000));
    w_.Key("ts");
    w_.RawValue(buf, rapidjson::SizeType(n), rapidjson::kNumberType);
  }

  void header(std::string_view name, const char* ph, std::uint32_t tid) {
    w_.StartObject();
    w_.Key("name");
    w_.String(name.data(), rapidjson::SizeType(name.size()));
    w_.Key("ph");
    w_.String(ph);
    w_.Key("pid");
    w_.Uint(1);
    w_.Key("tid");
    w_.Uint(tid);
  }

  void metadata(const char* what, std::uint32_t tid, const std::string& value) {
    header(what, "M", tid);
    w_.Key("args");
    w_.StartObject();
    w_.Key("name");
    w_.String(value);
    w_.EndObject();
    w_.EndObject();
  }

  void args(const std::vector<Arg>& args) {
    w_.Key("args");
    w_.StartObject();
    for (const Arg& a : args) {
      w_.Key(a.key.data(), rapidjson::SizeType(a.key.size()));
      if (const auto* i = std::get_if<std::int64_t>(&a.value)) {
        w_.Int64(*i);
      } else if (const auto* d = std::get_if<double>(&a.value)) {
        std::isfinite(*d) ? void(w_.Double(*d)) : void(w_.Null());
      } else {
        w_.String(std::get<std::string>(a.value));
      }
    }
    w_.EndObject();
  }

  void begin(const TraceEvent& e, std::uint32_t tid, std::uint64_t ts_ns) {
    header(e.name, "B", tid);
    ts(ts_ns);
    if (!e.args.empty()) args(e.args);
    w_.EndObject();
  }

  void end(std::string_view name, std::uint32_t tid, std::uint64_t ts_ns) {
    header(name, "E", tid);
    ts(ts_ns);
    w_.EndObject();
  }

  void instant(const TraceEvent& e, std::uint32_t tid, std::uint64_t ts_ns) {
    header(e.name, "i", tid);
    w_.Key("s");
    w_.String("t");
    ts(ts_ns);
    args(e.args);
    w_.EndObject();
  }

  void counter(const CounterPoint& c, std::uint32_t tid) {
    header(*c.name, "C", tid);
    ts(c.ts_ns);
    w_.Key("args");
    w_.StartObject();
    w_.Key(c.name->data(), rapidjson::SizeType(c.name->size()));
    w_.Double(c.value);
    w_.EndObject();
    w_.EndObject();
  }

 private:
  Writer& w_;
};

// Writes one thread's events in recorded order; which B/E pairs exist is the SDK's span replay
// (spans.hpp): an end writes an E for every span the replay closed at it (innermost first), an
// end that closed nothing is dropped, and spans closed at the Profile's end get their E last.
void write_thread(TraceWriter& tw, const ThreadTrack& t, const SpanTree& tree, std::size_t thread,
                  const std::vector<CounterPoint>& counters) {
  const std::vector<const ReplayedSpan*> closing = spans_by_closing_event(tree, thread);
  std::size_t next_close = 0;
  std::uint64_t last = 0;
  std::size_t next_counter = 0;
  auto flush_counters = [&](std::uint64_t upto) {
    while (next_counter < counters.size() && counters[next_counter].ts_ns <= upto) {
      tw.counter(counters[next_counter], t.tid);
      last = std::max(last, counters[next_counter].ts_ns);
      ++next_counter;
    }
  };
  for (std::size_t ei = 0; ei < t.events.size(); ++ei) {
    const TraceEvent& e = t.events[ei];
    const std::uint64_t ts = std::max(e.ts_ns, last);  // keep per-thread ts non-decreasing
    flush_counters(ts);
    if (e.phase == Phase::kBegin) {
      tw.begin(e, t.tid, ts);
    } else if (e.phase == Phase::kEnd) {
      if (next_close == closing.size() || closing[next_close]->end_event != ei)
        continue;  // closed no span: dropped
      for (; next_close < closing.size() && closing[next_close]->end_event == ei; ++next_close)
        tw.end(closing[next_close]->name, t.tid, ts);
    } else {
      tw.instant(e, t.tid, ts);
    }
    last = ts;
  }
  flush_counters(UINT64_MAX);
  const std::uint64_t end = std::max(last, tree.profile_end_ns);
  for (; next_close < closing.size(); ++next_close) tw.end(closing[next_close]->name, t.tid, end);
}

}  // namespace

Status write_chrome_trace(const Profile& profile, const std::string& path) noexcept {
  try {
    AtomicOutputFile out(path);
    if (!out.open()) return out.status();
    std::vector<char> buffer(1 << 16);
    rapidjson::FileWriteStream stream(out.stream(), buffer.data(), buffer.size());
    Writer w(stream);
    TraceWriter tw(w);

    std::map<std::uint32_t, std::vector<CounterPoint>> counters;  // tid -> points by ts
    for (const CounterTrack& c : profile.counters)
      for (const CounterSample& s : c.samples)
        if (std::isfinite(s.value)) counters[c.tid].push_back({s.ts_ns, &c.name, s.value});
    for (auto& [tid, points] : counters)
      std::stable_sort(
          points.begin(), points.end(),
          [](const CounterPoint& a, const CounterPoint& b) { return a.ts_ns < b.ts_ns; });

    w.StartArray();
    tw.metadata("process_name", 0, process_track_name(profile));
    for (const ThreadTrack& t : profile.threads)
      tw.metadata("thread_name", t.tid, thread_track_name(t));
    static const std::vector<CounterPoint> kNone;
    const SpanTree tree = replay_spans(profile);
    for (std::size_t i = 0; i < profile.threads.size(); ++i) {
      const ThreadTrack& t = profile.threads[i];
      auto it = counters.find(t.tid);
      write_thread(tw, t, tree, i, it == counters.end() ? kNone : it->second);
      if (it != counters.end()) counters.erase(it);
    }
    for (const auto& [tid, points] : counters) {  // counters sampled on a thread with no track
      tw.metadata("thread_name", tid, counter_thread_name(tid));
      for (const CounterPoint& c : points) tw.counter(c, tid);
    }
    w.EndArray();
    stream.Flush();
    std::fputc('\n', out.stream());
    return out.commit();
  } catch (const std::exception& e) {
    return Status::error("writing chrome trace " + path + " failed: " + e.what());
  } catch (...) {
    return Status::error("writing chrome trace " + path + " failed (unknown error)");
  }
}

}  // namespace jolt::sinks
