// The process and thread names a rendered trace gives a Profile, shared by the trace sinks
// (chrome: trace.json, perfetto: trace.pftrace, sqlite: trace.db) so every artifact of a run
// names its tracks alike.
//
// clang-format off
//   const std::string process = jolt::sinks::process_track_name(profile);  // "jolt-run modular_…"
//   for (const jolt::ThreadTrack& t : profile.threads) use(jolt::sinks::thread_track_name(t));
//   for (std::uint32_t tid : jolt::sinks::counter_only_tids(profile))
//     use(jolt::sinks::counter_thread_name(tid));                          // "counters-7"
// clang-format on
//
// Pure functions; thread-safe.
#pragma once
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <algorithm>
#include <jolt/profile.hpp>
#include <jolt/spans.hpp>

namespace jolt::sinks {

// "jolt-run {trace_name}" (the workload when the Profile has no trace name).
inline std::string process_track_name(const Profile& profile) {
  return "jolt-run " +
         (profile.run.trace_name.empty() ? profile.run.workload : profile.run.trace_name);
}

// The thread's recorded name, "thread-{tid}" when it has none.
inline std::string thread_track_name(const ThreadTrack& thread) {
  return thread.name.empty() ? "thread-" + std::to_string(thread.tid) : thread.name;
}

// The name of a thread that sampled counters but recorded no events of its own.
inline std::string counter_thread_name(std::uint32_t tid) {
  return "counters-" + std::to_string(tid);
}

// Tids, ascending, of the counter tracks with at least one finite sample whose sampling thread
// has no ThreadTrack in the Profile: each gets a thread of its own named counter_thread_name.
inline std::vector<std::uint32_t> counter_only_tids(const Profile& profile) {
  std::set<std::uint32_t> with_track;
  for (const ThreadTrack& t : profile.threads) with_track.insert(t.tid);
  std::set<std::uint32_t> tids;
  for (const CounterTrack& c : profile.counters) {
    if (with_track.count(c.tid) != 0) continue;
    for (const CounterSample& s : c.samples)
      if (std::isfinite(s.value)) {
        tids.insert(c.tid);
        break;
      }
  }
  return {tids.begin(), tids.end()};
}

// The spans of thread `thread` of the replayed tree in the order a trace closes them: by closing
// event, innermost first for one event (the E events a trace writes at each end).
inline std::vector<const ReplayedSpan*> spans_by_closing_event(const SpanTree& tree,
                                                               std::size_t thread) {
  const std::size_t first = tree.thread_first[thread];
  const std::size_t last_span = tree.thread_first[thread + 1];
  std::vector<const ReplayedSpan*> closing;
  closing.reserve(last_span - first);
  for (std::size_t i = first; i < last_span; ++i) closing.push_back(&tree.spans[i]);
  std::stable_sort(
      closing.begin(), closing.end(), [](const ReplayedSpan* a, const ReplayedSpan* b) {
        return a->end_event != b->end_event ? a->end_event < b->end_event : a->depth > b->depth;
      });
  return closing;
}

}  // namespace jolt::sinks
