// jolt::replay_spans: the span tree (thread, start, duration, depth, parent, args) and the one
// policy for unbalanced events, with its counters.
#include <doctest/doctest.h>

#include <jolt/spans.hpp>

using namespace jolt;

namespace {
TraceEvent b(std::string name, std::uint64_t ts, std::vector<Arg> args = {}) {
  return {Phase::kBegin, std::move(name), ts, std::move(args)};
}
TraceEvent e(std::string name, std::uint64_t ts) {
  return {Phase::kEnd, std::move(name), ts, {}};
}
}  // namespace

TEST_CASE("a balanced recording replays into a tree with depth, parent, args and durations") {
  Profile p;
  p.threads.push_back({1,
                       "main",
                       {b("root", 10, {{"trace_length", std::int64_t{64}}}),
                        b("child", 20),
                        {Phase::kInstant, "tick", 25, {}},
                        e("child", 50),
                        b("child", 60),
                        b("leaf", 61),
                        e("leaf", 62),
                        e("child", 70),
                        e("root", 100)}});
  p.threads.push_back({2, "worker", {b("job", 30), e("job", 45)}});
  const SpanTree t = replay_spans(p);
  REQUIRE(t.spans.size() == 5);
  CHECK(t.dropped_or_closed() == 0);
  CHECK(t.profile_end_ns == 100);
  REQUIRE(t.thread_first == std::vector<std::size_t>{0, 4, 5});

  const ReplayedSpan& root = t.spans[0];
  CHECK(root.name == "root");
  CHECK(root.tid == 1);
  CHECK(root.depth == 0);
  CHECK(root.parent == kNoParent);
  CHECK(root.start_ns == 10);
  CHECK(root.duration_ns == 90);
  REQUIRE(root.args.size() == 1);
  CHECK(root.args[0].key == "trace_length");
  CHECK(root.close == SpanClose::kMatched);

  CHECK(t.spans[1].name == "child");
  CHECK(t.spans[1].parent == 0);
  CHECK(t.spans[1].depth == 1);
  CHECK(t.spans[1].duration_ns == 30);
  CHECK(t.spans[3].name == "leaf");
  CHECK(t.spans[3].parent == 2);
  CHECK(t.spans[3].depth == 2);
  CHECK(t.spans[3].end_ns() == 62);

  const ReplayedSpan& job = t.spans[4];
  CHECK(job.thread == 1);
  CHECK(job.tid == 2);
  CHECK(job.depth == 0);  // threads never nest into each other
  CHECK(job.duration_ns == 15);
  // Close order: per thread, by end event.
  CHECK(t.close_order == std::vector<std::size_t>{1, 3, 2, 0, 4});
}

TEST_CASE("unbalanced events: dropped ends counted, open spans closed and flagged") {
  Profile p;
  p.threads.push_back({1,
                       "main",
                       {e("stray", 5), b("outer", 10), b("inner", 20), b("innermost", 30),
                        e("outer", 100), e("inner", 110), b("never_closed", 200)}});
  p.counters.push_back({"memory_gib", 1, {{300, 1.0}}});  // the Profile's last timestamp
  const SpanTree t = replay_spans(p);
  CHECK(t.unmatched_ends == 2);  // "stray" and the late "inner"
  CHECK(t.closed_by_outer_end == 2);
  CHECK(t.closed_at_profile_end == 1);
  CHECK(t.dropped_or_closed() == 5);
  CHECK(t.profile_end_ns == 300);
  REQUIRE(t.spans.size() == 4);
  CHECK(t.spans[0].close == SpanClose::kMatched);
  CHECK(t.spans[0].duration_ns == 90);
  CHECK(t.spans[1].close == SpanClose::kByOuterEnd);
  CHECK(t.spans[1].end_ns() == 100);
  CHECK(t.spans[2].close == SpanClose::kByOuterEnd);
  CHECK(t.spans[2].end_ns() == 100);
  CHECK(t.spans[1].end_event == t.spans[0].end_event);
  CHECK(t.spans[3].close == SpanClose::kAtProfileEnd);
  CHECK(t.spans[3].end_ns() == 300);
  CHECK(t.spans[3].end_event == p.threads[0].events.size());
  // One end closing several spans closes the innermost first.
  CHECK(t.close_order == std::vector<std::size_t>{2, 1, 0, 3});
}

TEST_CASE("recursion: an end closes the innermost open span of its name") {
  Profile p;
  p.threads.push_back({1, "main", {b("f", 0), b("f", 10), e("f", 30), e("f", 100)}});
  const SpanTree t = replay_spans(p);
  REQUIRE(t.spans.size() == 2);
  CHECK(t.spans[1].duration_ns == 20);
  CHECK(t.spans[1].parent == 0);
  CHECK(t.spans[0].duration_ns == 100);
  CHECK(t.dropped_or_closed() == 0);
}

TEST_CASE("an end earlier than its begin gives duration 0; an empty Profile an empty tree") {
  Profile p;
  p.threads.push_back({1, "main", {b("a", 50), e("a", 40)}});
  CHECK(replay_spans(p).spans.at(0).duration_ns == 0);
  const SpanTree empty = replay_spans(Profile{});
  CHECK(empty.spans.empty());
  CHECK(empty.thread_first == std::vector<std::size_t>{0});
  CHECK(empty.profile_end_ns == 0);
}
