// memory.html: the self-contained memory page (RSS envelope, stage bands, one composition
// column per heap snapshot, icicles, exact-bytes table), rendered from the embedded template
// memory_template.html with the run's data JSON substituted for its placeholder.
//
//   auto timeline = jolt::heap::find_root_timeline(profile);
//   auto snaps = jolt::heap::collect_snapshots(profile, timeline);
//   std::string html = jolt::heap::render_memory_page(profile, *timeline, snaps);
//
// Pure functions; thread-safe.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <jolt/profile.hpp>

#include "heap_snapshots.hpp"

namespace jolt::heap {

// The template's one placeholder, replaced by the data JSON.
inline constexpr std::string_view kDataPlaceholder = "__JOLT_MEMORY_DATA_JSON__";
// At most this many RSS points reach the page (max-per-bucket decimation keeps the envelope).
inline constexpr std::size_t kMaxRssPoints = 1500;

// The page's data, compact JSON. Times are seconds relative to the root span's start:
//   {trace_name, run{workload,scale_log2,backend,timestamp_unix_secs,git_rev}, peak_rss_gib,
//    prove_time_s, duration_s, stages[{label,start_s,end_s}], rss[[t_s,gib]...],
//    snapshots[{label, at_s|null, total_bytes, roots{frame:bytes}, stacks[[stack,bytes]...]}]}
// Every "</" is written as "<\/" so the JSON cannot close the <script> element it sits in.
std::string memory_page_data_json(const Profile& profile, const RootTimeline& timeline,
                                  const std::vector<SnapshotSummary>& snapshots);

// memory_template.html as embedded at build time.
std::string_view memory_page_template();

// The template with the data JSON substituted (exactly one placeholder is replaced).
std::string render_memory_page(const Profile& profile, const RootTimeline& timeline,
                               const std::vector<SnapshotSummary>& snapshots);

// [t_s, gib] points of every `memory_gib` counter track inside the root interval (plus the last
// sample before it, at t = 0), decimated to at most `max_points` by keeping each bucket's max.
std::vector<std::pair<double, double>> rss_envelope(const Profile& profile, const Interval& root,
                                                    std::size_t max_points = kMaxRssPoints);

}  // namespace jolt::heap
