// The heap side of a Profile as the folded sink reads it: the root span's interval and stage
// bands on the root's thread, and each snapshot's merged stacks, per-root totals and instant.
//
//   auto timeline = jolt::heap::find_root_timeline(profile);          // nullopt: no root span
//   auto snaps = jolt::heap::collect_snapshots(profile, timeline);    // label-sorted
//   for (const auto& s : snaps) use(s.label, s.total_bytes, s.roots, s.at_ns);
//
// Pure functions of the Profile; safe to call from any thread.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jolt/profile.hpp>

namespace jolt::heap {

struct Interval {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint64_t duration_ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
};

struct StageBand {
  std::string label;  // "prove_stage3"
  Interval interval;
};

// The longest instance of the root span and the `prove_stage*` spans of its thread that overlap
// it (close order), as jolt::replay_spans (spans.hpp) replays them.
struct RootTimeline {
  std::uint32_t tid = 0;
  Interval root;
  std::vector<StageBand> stages;
};

std::optional<RootTimeline> find_root_timeline(const Profile& profile);

struct SnapshotSummary {
  std::string label;                           // "Stage2Batch_prepared"
  std::vector<FoldedStack> stacks;             // duplicates summed, zero-byte stacks dropped
  std::uint64_t total_bytes = 0;               // sum over stacks
  std::map<std::string, std::uint64_t> roots;  // first frame -> bytes
  std::optional<std::uint64_t> at_ns;          // record's ts_ns - root start (>= 0)
};

// One summary per distinct label, sorted by label. A label recorded twice keeps its last record
// (the file {label}.folded could only hold one of them). at_ns is set when a root timeline is
// given.
std::vector<SnapshotSummary> collect_snapshots(const Profile& profile,
                                               const std::optional<RootTimeline>& timeline);

// Sums stacks that occur more than once (keeping first-seen order) and drops zero-byte ones.
std::vector<FoldedStack> merge_stacks(const std::vector<FoldedStack>& stacks);

// The first `;`-separated frame of a folded stack.
std::string root_frame(const std::string& stack);

}  // namespace jolt::heap
