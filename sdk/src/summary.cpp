// Summary aggregation (summary.hpp): replays a Profile's per-thread span events into the
// schema-v2 summary every sink and tool shares.
#include <cmath>
#include <jolt/summary.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <limits>

#include <jolt/spans.hpp>
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

// A span that matters beyond its aggregate (root or stage), in global close order.
struct ClosedSpan {
  std::string label;
  Interval interval;
  std::uint64_t self_ns = 0;
  const ReplayedSpan* span = nullptr;
};

// The boundary RSS row of a stage span: same label, thread and interval.
const StageRssRow* rss_row_of(const Profile& profile, const ReplayedSpan& span) {
  for (const StageRssRow& row : profile.stage_rss)
    if (row.tid == span.tid && row.open_ns == span.start_ns && row.close_ns == span.end_ns() &&
        row.stage == span.name)
      return &row;
  return nullptr;
}

std::optional<double> windowed_max(const std::vector<const CounterSample*>& samples, Interval in) {
  std::optional<double> best;
  for (const CounterSample* s : samples)
    if (in.contains(s->ts_ns) && (!best || s->value > *best)) best = s->value;
  return best;
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
  out.run.pcs = profile.run.pcs;
  out.run.pcs_parameters = profile.run.pcs_parameters;
  out.run.trace_length = profile.trace_length;
  if (profile.padded_trace_length != 0) {
    out.run.padded_scale_log2 =
        static_cast<std::uint32_t>(std::bit_width(profile.padded_trace_length) - 1);
    out.run.proof_size_bytes = profile.proof_size_bytes;
  }
  out.run.verified = profile.verified;
  out.run.host = profile.run.host;
  if (profile.peak_rss_bytes) out.peak_rss_gib = double(*profile.peak_rss_bytes) / kBytesPerGib;

  // Aggregate every replayed span; remember root and stage instances in global close order.
  const SpanTree tree = replay_spans(profile);
  std::vector<std::uint64_t> child_ns(tree.spans.size(), 0);
  for (const ReplayedSpan& s : tree.spans)
    if (s.parent != kNoParent) child_ns[s.parent] += s.duration_ns;
  std::vector<ClosedSpan> closes;
  for (std::size_t i : tree.close_order) {  // per-thread close order, threads in Profile order
    const ReplayedSpan& s = tree.spans[i];
    const std::uint64_t self = s.duration_ns > child_ns[i] ? s.duration_ns - child_ns[i] : 0;
    SpanAggregate& agg = out.spans[std::string(s.name)];
    agg.count += 1;
    agg.total_ns += s.duration_ns;
    agg.self_ns += self;
    if (s.name == taxonomy::kRootSpan || taxonomy::is_stage_span(s.name))
      closes.push_back({std::string(s.name), {s.start_ns, s.end_ns()}, self, &s});
  }
  std::stable_sort(closes.begin(), closes.end(), [](const ClosedSpan& a, const ClosedSpan& b) {
    return a.interval.end_ns < b.interval.end_ns;
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
        if (track.name == taxonomy::kMemoryCounter) memory.push_back(&s);
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
  for (const ClosedSpan& c : closes)
    if (c.label == taxonomy::kRootSpan &&
        (!root || c.interval.duration() > root->interval.duration()))
      root = c;
  if (root) {
    RootSummary r;
    r.label = std::string(taxonomy::kRootSpan);
    r.wall_time_ns = root->interval.duration();
    r.dark_time_ns = root->self_ns;
    r.dark_time_fraction = r.wall_time_ns ? double(r.dark_time_ns) / double(r.wall_time_ns) : 0.0;
    r.peak_memory_gib = windowed_max(memory, root->interval);
    out.root = r;
  }
  // The kernel's high-water mark (getrusage) can lag the resident count the monitor samples by a
  // few pages (the kernel folds its per-thread counters in now and then); a high-water mark is
  // never below a sample of what it bounds, so the larger of the two is reported.
  if (out.peak_rss_gib)
    for (const CounterSample* s : memory)
      if (s->value > *out.peak_rss_gib) out.peak_rss_gib = s->value;

  // Stages: taxonomy order first, then the other prove_stage* labels in close order.
  std::vector<const ClosedSpan*> ordered;
  for (std::string_view label : taxonomy::kStageSpans)
    for (const ClosedSpan& c : closes)
      if (c.label == label) ordered.push_back(&c);
  for (const ClosedSpan& c : closes)
    if (c.label != taxonomy::kRootSpan &&
        std::find(taxonomy::kStageSpans.begin(), taxonomy::kStageSpans.end(), c.label) ==
            taxonomy::kStageSpans.end())
      ordered.push_back(&c);
  for (const ClosedSpan* span : ordered) {
    StageSummary st;
    st.label = span->label;
    st.wall_time_ns = span->interval.duration();
    if (const StageRssRow* row = rss_row_of(profile, *span->span)) {
      st.rss_open_gib = double(row->rss_open_bytes) / kBytesPerGib;
      st.rss_close_gib = double(row->rss_close_bytes) / kBytesPerGib;
      st.rss_delta_gib = *st.rss_close_gib - *st.rss_open_gib;
    }
    st.peak_memory_gib = windowed_max(memory, span->interval);
    out.stages.push_back(std::move(st));
  }

  // Heap snapshots; a later record of the same label replaces an earlier one.
  for (const HeapSnapshotRecord& rec : profile.heap) {
    HeapSnapshot& h = out.heap[rec.label] = summarize_folded(rec.stacks);
    if (root)
      h.at_ns = rec.ts_ns > root->interval.start_ns ? rec.ts_ns - root->interval.start_ns : 0;
  }
  return out;
}

}  // namespace jolt
