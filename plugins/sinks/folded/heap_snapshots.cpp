// Replays the root thread's spans and joins heap snapshot records with their instants.
#include "heap_snapshots.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include <jolt/taxonomy.hpp>

namespace jolt::heap {
namespace {

struct OpenSpan {
  std::string_view name;
  std::uint64_t start_ns;
};

// Calls on_close(name, interval) for every span of `track` that closes, in close order.
template <class F>
void replay_spans(const ThreadTrack& track, F&& on_close) {
  std::vector<OpenSpan> open;
  for (const TraceEvent& e : track.events) {
    if (e.phase == Phase::kBegin) {
      open.push_back({e.name, e.ts_ns});
    } else if (e.phase == Phase::kEnd) {
      auto it = std::find_if(open.rbegin(), open.rend(),
                             [&](const OpenSpan& s) { return s.name == e.name; });
      if (it == open.rend()) continue;  // unmatched end
      const OpenSpan span = *it;
      open.erase(std::next(it).base(), open.end());
      on_close(span.name, Interval{span.start_ns, std::max(e.ts_ns, span.start_ns)});
    }
  }
}

const std::string* snapshot_arg(const TraceEvent& e) {
  for (const Arg& a : e.args)
    if (a.key == "snapshot") return std::get_if<std::string>(&a.value);
  return nullptr;
}

}  // namespace

std::optional<RootTimeline> find_root_timeline(const Profile& profile) {
  std::optional<RootTimeline> best;
  for (const ThreadTrack& track : profile.threads) {
    std::optional<Interval> root;
    replay_spans(track, [&](std::string_view name, Interval iv) {
      if (name == taxonomy::kRootSpan && (!root || iv.duration_ns() > root->duration_ns()))
        root = iv;
    });
    if (!root || (best && best->root.duration_ns() >= root->duration_ns())) continue;
    RootTimeline t;
    t.tid = track.tid;
    t.root = *root;
    replay_spans(track, [&](std::string_view name, Interval iv) {
      if (name.starts_with("prove_stage") && iv.end_ns >= root->start_ns &&
          iv.start_ns <= root->end_ns)
        t.stages.push_back(StageBand{std::string(name), iv});
    });
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

  std::map<std::string, std::uint64_t> instant_ns;  // label -> last instant ts
  for (const ThreadTrack& track : profile.threads)
    for (const TraceEvent& e : track.events) {
      if (e.phase != Phase::kInstant || e.name != taxonomy::kHeapSnapshotInstant) continue;
      const std::string* label = snapshot_arg(e);
      if (!label) continue;
      auto [it, inserted] = instant_ns.try_emplace(*label, e.ts_ns);
      if (!inserted) it->second = std::max(it->second, e.ts_ns);
    }

  std::vector<SnapshotSummary> out;
  for (const auto& [label, rec] : last) {
    SnapshotSummary s;
    s.label = label;
    s.stacks = merge_stacks(rec->stacks);
    for (const FoldedStack& f : s.stacks) {
      s.total_bytes += f.bytes;
      s.roots[root_frame(f.stack)] += f.bytes;
    }
    if (timeline) {
      auto it = instant_ns.find(label);
      if (it != instant_ns.end())
        s.at_ns = it->second > timeline->root.start_ns ? it->second - timeline->root.start_ns : 0;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace jolt::heap
