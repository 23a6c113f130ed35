// Span replay (spans.hpp): per-thread stack discipline, one policy for unbalanced events.
#include <jolt/spans.hpp>

#include <algorithm>

namespace jolt {

std::uint64_t profile_end_ns(const Profile& profile) {
  std::uint64_t end = 0;
  for (const ThreadTrack& t : profile.threads)
    for (const TraceEvent& e : t.events) end = std::max(end, e.ts_ns);
  for (const CounterTrack& c : profile.counters)
    for (const CounterSample& s : c.samples) end = std::max(end, s.ts_ns);
  return end;
}

SpanTree replay_spans(const Profile& profile) {
  SpanTree tree;
  tree.profile_end_ns = profile_end_ns(profile);
  std::size_t begins = 0;
  for (const ThreadTrack& t : profile.threads)
    for (const TraceEvent& e : t.events) begins += e.phase == Phase::kBegin;
  tree.spans.reserve(begins);
  tree.close_order.reserve(begins);
  tree.thread_first.reserve(profile.threads.size() + 1);

  std::vector<std::size_t> open;  // indices into tree.spans, innermost last
  auto close = [&](std::size_t index, std::uint64_t end_ns, std::size_t end_event, SpanClose how) {
    ReplayedSpan& s = tree.spans[index];
    s.duration_ns = end_ns > s.start_ns ? end_ns - s.start_ns : 0;
    s.end_event = end_event;
    s.close = how;
    tree.close_order.push_back(index);
  };
  for (std::size_t ti = 0; ti < profile.threads.size(); ++ti) {
    const ThreadTrack& thread = profile.threads[ti];
    tree.thread_first.push_back(tree.spans.size());
    open.clear();
    for (std::size_t ei = 0; ei < thread.events.size(); ++ei) {
      const TraceEvent& e = thread.events[ei];
      if (e.phase == Phase::kBegin) {
        ReplayedSpan s;
        s.name = e.name;
        s.args = e.args;
        s.thread = ti;
        s.tid = thread.tid;
        s.start_ns = e.ts_ns;
        s.depth = static_cast<std::uint32_t>(open.size());
        s.parent = open.empty() ? kNoParent : open.back();
        s.begin_event = ei;
        open.push_back(tree.spans.size());
        tree.spans.push_back(s);
      } else if (e.phase == Phase::kEnd) {
        auto it = std::find_if(open.rbegin(), open.rend(),
                               [&](std::size_t i) { return tree.spans[i].name == e.name; });
        if (it == open.rend()) {
          ++tree.unmatched_ends;
          continue;
        }
        const std::size_t match = std::size_t(open.rend() - it) - 1;
        while (open.size() > match + 1) {
          close(open.back(), e.ts_ns, ei, SpanClose::kByOuterEnd);
          ++tree.closed_by_outer_end;
          open.pop_back();
        }
        close(open.back(), e.ts_ns, ei, SpanClose::kMatched);
        open.pop_back();
      }
    }
    while (!open.empty()) {
      close(open.back(), tree.profile_end_ns, thread.events.size(), SpanClose::kAtProfileEnd);
      ++tree.closed_at_profile_end;
      open.pop_back();
    }
  }
  tree.thread_first.push_back(tree.spans.size());
  return tree;
}

}  // namespace jolt
