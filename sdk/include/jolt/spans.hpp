// Span replay: the SDK's one rule for turning a Profile's per-thread begin/end events into a span
// tree. The summary aggregation, the chrome, folded and memory-page renderers and third-party
// sinks all read spans through it, so they agree on every span, including broken ones.
//
// clang-format off
//   const jolt::SpanTree tree = jolt::replay_spans(profile);
//   for (const jolt::ReplayedSpan& s : tree.spans)
//     std::printf("%*s%.*s %llu ns\n", int(2 * s.depth), "", int(s.name.size()), s.name.data(),
//                 static_cast<unsigned long long>(s.duration_ns));
//   if (tree.dropped_or_closed() != 0) warn("the trace had unbalanced spans");
// clang-format on
//
// The rule, per thread, over its events in recorded order:
//  - a begin opens a span, a child of the innermost span still open on that thread;
//  - an end closes the innermost open span of the same name (recursion closes the inner one);
//    spans opened above it and still open are closed at the same timestamp and flagged
//    SpanClose::kByOuterEnd;
//  - an end with no open span of its name is dropped and counted in unmatched_ends;
//  - a span still open after its thread's last event is closed at the Profile's end (the latest
//    timestamp of any event or counter sample, profile_end_ns) and flagged
//    SpanClose::kAtProfileEnd.
// Every begin therefore yields exactly one span; a flagged span counts like any other (the
// summary aggregates it, the chrome trace closes it), and the counters say how many there were.
// duration_ns = end - start, 0 if the end is earlier than the start.
//
// The tree holds views into the Profile (names, args): it must not outlive the Profile it was
// replayed from. replay_spans is a pure function; call it from any thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/profile.hpp>

namespace jolt {

enum class SpanClose : std::uint8_t {
  kMatched,       // closed by its own end event
  kByOuterEnd,    // still open when an enclosing span's end arrived; closed at that end
  kAtProfileEnd,  // never closed on its thread; closed at SpanTree::profile_end_ns
};

inline constexpr std::size_t kNoParent = std::numeric_limits<std::size_t>::max();

struct ReplayedSpan {
  std::string_view name;           // the begin event's name
  std::span<const Arg> args;       // the begin event's args
  std::size_t thread = 0;          // index into Profile::threads
  std::uint32_t tid = 0;           // that thread's ThreadTrack::tid
  std::uint64_t start_ns = 0;      // begin timestamp
  std::uint64_t duration_ns = 0;   // end - start, clamped at 0
  std::uint32_t depth = 0;         // 0 for a span with no open parent on its thread
  std::size_t parent = kNoParent;  // index into SpanTree::spans of the enclosing span
  std::size_t begin_event = 0;     // index of the begin event in threads[thread].events
  std::size_t end_event = 0;       // index of the end event that closed it; events.size() when
                                   // closed at the Profile's end
  SpanClose close = SpanClose::kMatched;
  std::uint64_t end_ns() const { return start_ns + duration_ns; }
};

struct SpanTree {
  // Threads in Profile order; within a thread, begin order (so a parent precedes its children).
  std::vector<ReplayedSpan> spans;
  // spans of Profile::threads[i] are spans[thread_first[i]] .. spans[thread_first[i + 1] - 1];
  // thread_first has threads.size() + 1 entries.
  std::vector<std::size_t> thread_first;
  // Indices into spans in the order the replay closed them: threads in Profile order; within a
  // thread by end event, the innermost first when one end closes several spans.
  std::vector<std::size_t> close_order;
  std::uint64_t profile_end_ns = 0;         // latest event or counter timestamp in the Profile
  std::uint64_t unmatched_ends = 0;         // end events dropped: no open span of their name
  std::uint64_t closed_by_outer_end = 0;    // spans flagged SpanClose::kByOuterEnd
  std::uint64_t closed_at_profile_end = 0;  // spans flagged SpanClose::kAtProfileEnd
  // Events the replay did not take as recorded: 0 for every well-formed recording.
  std::uint64_t dropped_or_closed() const {
    return unmatched_ends + closed_by_outer_end + closed_at_profile_end;
  }
};

// Replays every thread of `profile` under the rule above.
SpanTree replay_spans(const Profile& profile);

// The latest timestamp of any event or counter sample in `profile` (0 when it has none).
std::uint64_t profile_end_ns(const Profile& profile);

}  // namespace jolt
