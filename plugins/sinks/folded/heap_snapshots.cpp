// The root timeline from the SDK's span replay; snapshot summaries from the records themselves.
#include "heap_snapshots.hpp"

#include <unordered_map>

#include <jolt/spans.hpp>
#include <jolt/taxonomy.hpp>

namespace jolt::heap {

std::optional<RootTimeline> find_root_timeline(const Profile& profile) {
  const SpanTree tree = replay_spans(profile);
  // close_order is grouped by thread (Profile order), so one pass per thread in close order.
  std::optional<RootTimeline> best;
  std::size_t k = 0;
  for (std::size_t thread = 0; thread < profile.threads.size(); ++thread) {
    const std::size_t begin = k;
    while (k < tree.close_order.size() && tree.spans[tree.close_order[k]].thread == thread) ++k;
    std::optional<Interval> root;
    for (std::size_t i = begin; i < k; ++i) {
      const ReplayedSpan& s = tree.spans[tree.close_order[i]];
      const Interval iv{s.start_ns, s.end_ns()};
      if (s.name == taxonomy::kRootSpan && (!root || iv.duration_ns() > root->duration_ns()))
        root = iv;
    }
    if (!root || (best && best->root.duration_ns() >= root->duration_ns())) continue;
    RootTimeline t;
    t.tid = profile.threads[thread].tid;
    t.root = *root;
    for (std::size_t i = begin; i < k; ++i) {
      const ReplayedSpan& s = tree.spans[tree.close_order[i]];
      if (taxonomy::is_stage_span(s.name) && s.end_ns() >= root->start_ns &&
          s.start_ns <= root->end_ns)
        t.stages.push_back(StageBand{std::string(s.name), Interval{s.start_ns, s.end_ns()}});
    }
    best = std::move(t);
  }
  return best;
}

std::vector<FoldedStack> merge_stacks(const std::vector<FoldedStack>& stacks) {
  std::vector<FoldedStack> out;
  std::unordered_map<std::string, std::size_t> index;
  for (const FoldedStack& s : stacks) {
    if (s.bytes == 0 || s.stack.empty()) continue;
    auto [it, inserted] = index.try_emplace(s.stack, out.size());
    if (inserted)
      out.push_back(s);
    else
      out[it->second].bytes += s.bytes;
  }
  return out;
}

std::string root_frame(const std::string& stack) {
  return stack.substr(0, stack.find(';'));
}

std::vector<SnapshotSummary> collect_snapshots(const Profile& profile,
                                               const std::optional<RootTimeline>& timeline) {
  std::map<std::string, const HeapSnapshotRecord*> last;
  for (const HeapSnapshotRecord& rec : profile.heap) last[rec.label] = &rec;

  std::vector<SnapshotSummary> out;
  for (const auto& [label, rec] : last) {
    SnapshotSummary s;
    s.label = label;
    s.stacks = merge_stacks(rec->stacks);
    for (const FoldedStack& f : s.stacks) {
      s.total_bytes += f.bytes;
      s.roots[root_frame(f.stack)] += f.bytes;
    }
    if (timeline)
      s.at_ns = rec->ts_ns > timeline->root.start_ns ? rec->ts_ns - timeline->root.start_ns : 0;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace jolt::heap
