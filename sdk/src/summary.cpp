// Summary aggregation (summary.hpp): replays a Profile's per-thread span events into the
// schema-v1 summary every sink and tool shares.
#include <cmath>
#include <jolt/summary.hpp>

#include <algorithm>
#include <charconv>
#include <limits>
#include <variant>

#include <jolt/taxonomy.hpp>
#include <jolt/version.hpp>

namespace jolt {
namespace {

struct Interval {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint64_t duration() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
  bool contains(std::uint64_t ts) const { return ts >= start_ns && ts <= end_ns; }
};

struct OpenSpan {
  const std::string* name;
  std::uint64_t start_ns;
  std::uint64_t child_ns;
};

// A closed span that matters beyond its aggregate (root or stage), in global close order.
struct ClosedSpan {
  std::string label;
  Interval interval;
  std::uint64_t self_ns = 0;
};

std::optional<double> windowed_max(const std::vector<const CounterSample*>& samples, Interval in) {
  std::optional<double> best;
  for (const CounterSample* s : samples)
    if (in.contains(s->ts_ns) && (!best || s->value > *best)) best = s->value;
  return best;
}

std::string_view trim_quotes(std::string_view s) {
  while (!s.empty() && s.front() == '"') s.remove_prefix(1);
  while (!s.empty() && s.back() == '"') s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

HeapSnapshot summarize_folded(const std::vector<FoldedStack>& stacks) {
  HeapSnapshot snap;
  for (const FoldedStack& f : stacks) {
    std::string_view stack = f.stack;
    const std::string_view root = stack.substr(0, stack.find(';'));
    snap.roots[std::string(root)] += f.bytes;
    snap.total_bytes += f.bytes;
  }
  return snap;
}

HeapSnapshot parse_folded(std::string_view text) {
  std::vector<FoldedStack> stacks;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t sp = line.rfind(' ');
    if (sp == std::string_view::npos || sp == 0) continue;
    const std::string_view digits = line.substr(sp + 1);
    std::uint64_t bytes = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bytes);
    if (digits.empty() || ec != std::errc{} || ptr != digits.data() + digits.size()) continue;
    stacks.push_back({std::string(line.substr(0, sp)), bytes});
  }
  return summarize_folded(stacks);
}

ProfileSummary summarize(const Profile& profile) {
  ProfileSummary out;
  out.schema_version = kSummarySchemaVersion;
  out.taxonomy_version = taxonomy::kTaxonomyVersion;
  out.run.workload = profile.run.workload;
  out.run.scale_log2 = profile.run.scale_log2;
  out.run.backend = profile.run.backend;
  out.run.timestamp_unix_secs = profile.run.timestamp_unix_secs;
  out.run.git_rev = profile.run.git_rev;
  if (profile.peak_rss_bytes) out.peak_rss_gib = double(*profile.peak_rss_bytes) / kBytesPerGib;

  // Replay each thread's stack; remember root and stage closes with their close timestamp.
  struct Close {
    ClosedSpan span;
    std::uint64_t order;  // thread-major sequence, tie-break of equal close timestamps
  };
  std::vector<Close> closes;
  std::vector<std::pair<std::uint64_t, std::string>> snapshot_instants;
  std::uint64_t seq = 0;
  for (const ThreadTrack& thread : profile.threads) {
    std::vector<OpenSpan> stack;
    for (const TraceEvent& e : thread.events) {
      if (e.phase == Phase::kBegin) {
        stack.push_back({&e.name, e.ts_ns, 0});
      } else if (e.phase == Phase::kEnd) {
        auto it = std::find_if(stack.rbegin(), stack.rend(),
                               [&](const OpenSpan& o) { return *o.name == e.name; });
        if (it == stack.rend()) continue;  // unmatched end
        const std::size_t index = std::size_t(stack.rend() - it) - 1;
        const OpenSpan open = stack[index];
        stack.resize(index);  // opens above the match are discarded with it
        const Interval interval{open.start_ns, e.ts_ns};
        const std::uint64_t dur = interval.duration();
        const std::uint64_t self = dur > open.child_ns ? dur - open.child_ns : 0;
        if (!stack.empty()) stack.back().child_ns += dur;
        SpanAggregate& agg = out.spans[e.name];
        agg.count += 1;
        agg.total_ns += dur;
        agg.self_ns += self;
        if (e.name == taxonomy::kRootSpan || starts_with(e.name, "prove_stage"))
          closes.push_back({{e.name, interval, self}, seq++});
      } else {
        for (const Arg& a : e.args)
          if (a.key == "snapshot")
            if (const auto* s = std::get_if<std::string>(&a.value))
              snapshot_instants.emplace_back(e.ts_ns, std::string(trim_quotes(*s)));
      }
    }
  }
  std::stable_sort(closes.begin(), closes.end(), [](const Close& a, const Close& b) {
    return a.span.interval.end_ns < b.span.interval.end_ns;
  });

  std::vector<const CounterSample*> memory;
  {
    std::map<std::string, std::pair<double, double>> sum_max;  // name -> (sum, max)
    for (const CounterTrack& track : profile.counters) {
      if (track.samples.empty()) continue;
      CounterSummary& c = out.counters[track.name];
      auto& [sum, max] =
          sum_max.try_emplace(track.name, 0.0, std::numeric_limits<double>::lowest()).first->second;
      for (const CounterSample& s : track.samples) {
        // NaN and ±Inf samples are skipped (as the chrome sink skips them): JSON has no value
        // for them, and one would poison max and mean. `sum` holds the running mean, which
        // stays finite where a plain sum of large samples would overflow.
        if (!std::isfinite(s.value)) continue;
        c.samples += 1;
        sum += (s.value - sum) / double(c.samples);
        max = std::max(max, s.value);
        if (track.name == "memory_gib") memory.push_back(&s);
      }
      if (c.samples == 0) {
        out.counters.erase(track.name);  // no finite sample: nothing to summarise
        continue;
      }
      c.max = max;
      c.mean = sum;
    }
  }

  // Root: the longest instance (first in close order on ties).
  std::optional<ClosedSpan> root;
  for (const Close& c : closes)
    if (c.span.label == taxonomy::kRootSpan &&
        (!root || c.span.interval.duration() > root->interval.duration()))
      root = c.span;
  if (root) {
    RootSummary r;
    r.label = std::string(taxonomy::kRootSpan);
    r.wall_time_ns = root->interval.duration();
    r.dark_time_ns = root->self_ns;
    r.dark_time_fraction = r.wall_time_ns ? double(r.dark_time_ns) / double(r.wall_time_ns) : 0.0;
    r.peak_memory_gib = windowed_max(memory, root->interval);
    out.root = r;
  }

  // Stages: taxonomy order first, then the other prove_stage* labels in close order.
  std::vector<const ClosedSpan*> ordered;
  for (std::string_view label : taxonomy::kStageSpans)
    for (const Close& c : closes)
      if (c.span.label == label) ordered.push_back(&c.span);
  for (const Close& c : closes)
    if (c.span.label != taxonomy::kRootSpan &&
        std::find(taxonomy::kStageSpans.begin(), taxonomy::kStageSpans.end(), c.span.label) ==
            taxonomy::kStageSpans.end())
      ordered.push_back(&c.span);
  std::map<std::string, std::size_t> occurrence;
  for (const ClosedSpan* span : ordered) {
    StageSummary st;
    st.label = span->label;
    st.wall_time_ns = span->interval.duration();
    const std::size_t nth = occurrence[span->label]++;
    std::size_t seen = 0;
    for (const StageRssRow& row : profile.stage_rss) {
      if (row.stage != span->label) continue;
      if (seen++ != nth) continue;
      st.rss_open_gib = double(row.rss_open_bytes) / kBytesPerGib;
      st.rss_close_gib = double(row.rss_close_bytes) / kBytesPerGib;
      st.rss_delta_gib = *st.rss_close_gib - *st.rss_open_gib;
      break;
    }
    st.peak_memory_gib = windowed_max(memory, span->interval);
    out.stages.push_back(std::move(st));
  }

  // Heap snapshots; a later record of the same label replaces an earlier one.
  for (const HeapSnapshotRecord& rec : profile.heap)
    out.heap[rec.label] = summarize_folded(rec.stacks);
  if (root) {
    std::stable_sort(snapshot_instants.begin(), snapshot_instants.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [ts, label] : snapshot_instants) {
      auto it = out.heap.find(label);
      if (it == out.heap.end()) continue;
      it->second.at_ns = ts > root->interval.start_ns ? ts - root->interval.start_ns : 0;
    }
  }
  return out;
}

}  // namespace jolt
