// Builds memory.html's data JSON with RapidJSON and substitutes it into the embedded template.
#include "memory_page.hpp"

#include <algorithm>
#include <cmath>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <jolt/process.hpp>
#include <jolt/taxonomy.hpp>

namespace jolt::heap {

extern const std::string_view kMemoryPageTemplate;  // memory_template_embedded.cpp

namespace {

double seconds_since(std::uint64_t ts_ns, std::uint64_t start_ns) {
  return ts_ns > start_ns ? static_cast<double>(ts_ns - start_ns) / 1e9 : 0.0;
}

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// RapidJSON refuses NaN/Inf; a broken sample becomes null rather than truncating the page data.
void write_number(JsonWriter& w, double v) {
  if (std::isfinite(v))
    w.Double(v);
  else
    w.Null();
}

void write_run(JsonWriter& w, const RunInfo& run) {
  w.StartObject();
  w.Key("workload");
  w.String(run.workload);
  w.Key("scale_log2");
  w.Uint(run.scale_log2);
  w.Key("backend");
  w.String(run.backend);
  w.Key("timestamp_unix_secs");
  w.Uint64(run.timestamp_unix_secs);
  w.Key("git_rev");
  if (run.git_rev)
    w.String(*run.git_rev);
  else
    w.Null();
  w.EndObject();
}

std::string trace_name_of(const Profile& profile) {
  if (!profile.run.trace_name.empty()) return profile.run.trace_name;
  const std::string& dir = profile.run.run_dir;
  const std::size_t slash = dir.find_last_of('/');
  std::string base = slash == std::string::npos ? dir : dir.substr(slash + 1);
  return base.empty() ? "trace" : base;
}

}  // namespace

std::vector<std::pair<double, double>> rss_envelope(const Profile& profile, const Interval& root,
                                                    std::size_t max_points) {
  std::vector<CounterSample> all;
  for (const CounterTrack& t : profile.counters)
    if (t.name == taxonomy::kMemoryCounter)
      all.insert(all.end(), t.samples.begin(), t.samples.end());
  std::stable_sort(all.begin(), all.end(), [](const CounterSample& a, const CounterSample& b) {
    return a.ts_ns < b.ts_ns;
  });
  std::vector<std::pair<double, double>> in_window;
  const CounterSample* before = nullptr;
  for (const CounterSample& s : all) {
    if (s.ts_ns < root.start_ns)
      before = &s;
    else if (s.ts_ns <= root.end_ns)
      in_window.emplace_back(seconds_since(s.ts_ns, root.start_ns), s.value);
  }
  if (before) in_window.insert(in_window.begin(), {0.0, before->value});
  if (max_points == 0 || in_window.size() <= max_points) return in_window;
  // Bucket max: the envelope is what the page draws, so a decimated peak must survive.
  const std::size_t stride = (in_window.size() + max_points - 1) / max_points;
  std::vector<std::pair<double, double>> out;
  for (std::size_t i = 0; i < in_window.size(); i += stride) {
    const auto end =
        in_window.begin() + static_cast<std::ptrdiff_t>(std::min(i + stride, in_window.size()));
    out.push_back(
        *std::max_element(in_window.begin() + static_cast<std::ptrdiff_t>(i), end,
                          [](const auto& a, const auto& b) { return a.second < b.second; }));
  }
  return out;
}

std::string memory_page_data_json(const Profile& profile, const RootTimeline& timeline,
                                  const std::vector<SnapshotSummary>& snapshots) {
  rapidjson::StringBuffer buf;
  JsonWriter w(buf);
  const std::uint64_t start = timeline.root.start_ns;
  w.StartObject();
  w.Key("trace_name");
  w.String(trace_name_of(profile));
  w.Key("run");
  write_run(w, profile.run);
  w.Key("peak_rss_gib");
  if (profile.peak_rss_bytes)
    w.Double(static_cast<double>(*profile.peak_rss_bytes) / kBytesPerGib);
  else
    w.Null();
  w.Key("prove_time_s");
  w.Double(static_cast<double>(profile.prove_time_ns) / 1e9);
  w.Key("duration_s");
  w.Double(static_cast<double>(timeline.root.duration_ns()) / 1e9);
  w.Key("stages");
  w.StartArray();
  for (const StageBand& s : timeline.stages) {
    w.StartObject();
    w.Key("label");
    w.String(s.label);
    w.Key("start_s");
    w.Double(seconds_since(s.interval.start_ns, start));
    w.Key("end_s");
    w.Double(seconds_since(s.interval.end_ns, start));
    w.EndObject();
  }
  w.EndArray();
  w.Key("rss");
  w.StartArray();
  for (const auto& [t, gib] : rss_envelope(profile, timeline.root)) {
    w.StartArray();
    write_number(w, t);
    write_number(w, gib);
    w.EndArray();
  }
  w.EndArray();
  w.Key("snapshots");
  w.StartArray();
  for (const SnapshotSummary& s : snapshots) {
    w.StartObject();
    w.Key("label");
    w.String(s.label);
    w.Key("at_s");
    if (s.at_ns)
      w.Double(static_cast<double>(*s.at_ns) / 1e9);
    else
      w.Null();
    w.Key("total_bytes");
    w.Uint64(s.total_bytes);
    w.Key("roots");
    w.StartObject();
    for (const auto& [frame, bytes] : s.roots) {
      w.Key(frame.c_str(), static_cast<rapidjson::SizeType>(frame.size()), true);
      w.Uint64(bytes);
    }
    w.EndObject();
    w.Key("stacks");
    w.StartArray();
    for (const FoldedStack& f : s.stacks) {
      w.StartArray();
      w.String(f.stack);
      w.Uint64(f.bytes);
      w.EndArray();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();

  // '<' only occurs inside JSON strings; \u003c there keeps "</script" and "<!--" out of the
  // <script> element's text while JSON.parse reads the same string back.
  std::string escaped;
  escaped.reserve(buf.GetSize());
  for (const char* c = buf.GetString(); *c; ++c) {
    if (*c == '<')
      escaped += "\\u003c";
    else
      escaped += *c;
  }
  return escaped;
}

std::string_view memory_page_template() {
  return kMemoryPageTemplate;
}

std::string render_memory_page(const Profile& profile, const RootTimeline& timeline,
                               const std::vector<SnapshotSummary>& snapshots) {
  std::string page(kMemoryPageTemplate);
  const std::size_t at = page.find(kDataPlaceholder);
  if (at == std::string::npos) return page;  // unreachable: memory_page_test pins the placeholder
  page.replace(at, kDataPlaceholder.size(), memory_page_data_json(profile, timeline, snapshots));
  return page;
}

}  // namespace jolt::heap
