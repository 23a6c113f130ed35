// The console view of one run: the numbers `jolt-run report` prints from a summary.json, and the
// stage table `jolt-run profile` prints at the end of a run.
//
//   rapidjson::Document s = jolt::core::load_summary(dir + "/summary.json");
//   const jolt::core::RunReport r = jolt::core::report_from_summary_json(s, path, 10);
//   std::cout << jolt::core::render_report_text(r);       // 80 columns
//   std::cout << jolt::core::render_report_json(r);       // the same content for scripts
//
// Every number comes from the summary (schema/summary.schema.json); nothing is derived that the
// summary does not determine, and a field the summary lacks is left out, never shown as 0.
// The `run` object is reported member by member as the summary has it, so fields a newer schema
// adds there appear without a change here. Pure functions; thread-safe.
#pragma once
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <jolt/summary.hpp>

namespace jolt::core {

inline constexpr std::size_t kDefaultReportTop = 10;

struct ReportRunField {
  std::string key;
  // null, bool, unsigned, signed, floating point or string, as in the summary.
  std::variant<std::monostate, bool, std::uint64_t, std::int64_t, double, std::string> value;
};

struct ReportRoot {
  std::string label;
  std::uint64_t wall_time_ns = 0;
  std::uint64_t dark_time_ns = 0;
  double dark_time_fraction = 0;
  std::optional<double> peak_memory_gib;
};

struct ReportStage {
  std::string label;
  std::uint64_t wall_time_ns = 0;
  std::optional<double> share_of_root;  // wall / root wall; absent without a root
  std::optional<double> rss_delta_gib;
  std::optional<double> peak_memory_gib;
};

struct ReportSpan {
  std::string label;
  std::uint64_t count = 0;
  std::uint64_t self_ns = 0;
  std::uint64_t total_ns = 0;
};

struct ReportCounter {
  std::string name;
  std::uint64_t samples = 0;
  double max = 0;
  double mean = 0;
};

struct RunReport {
  std::string source;  // the summary.json it was read from ("" for a run in memory)
  std::uint32_t schema_version = 0;
  std::vector<ReportRunField> run;
  std::optional<ReportRoot> root;
  std::optional<double> peak_rss_gib;
  std::vector<ReportStage> stages;
  std::size_t top_n = kDefaultReportTop;
  std::size_t span_labels = 0;       // distinct labels in the summary
  std::vector<ReportSpan> top_self;  // by self time, descending (ties by label)
  std::vector<ReportSpan> top_total;
  std::vector<ReportCounter> counters;
};

// From a parsed summary.json (see load_summary in jolt/host/summary_file.hpp). Throws
// SummaryError naming `source` and the JSON pointer when a field the schema requires is missing
// or has the wrong type.
RunReport report_from_summary_json(const rapidjson::Value& summary, const std::string& source,
                                   std::size_t top_n);

// From the SDK's aggregation of a run still in memory (what the summary sink would write).
RunReport report_from_summary(const jolt::ProfileSummary& summary, std::size_t top_n);

// The full report, lines of at most 80 columns (span labels longer than their column are cut
// with "~" in the middle; --json has them whole).
std::string render_report_text(const RunReport& report);

// The stage table alone (header + one line per stage), "" when the run has no stages.
std::string render_stage_table(const RunReport& report);

// The same content as one JSON object (pretty-printed, trailing newline).
std::string render_report_json(const RunReport& report);

// Formatting helpers (exposed for tests): "1.234 s", "12.35 ms", "850.0 us", "120 ns";
// "1.23 GiB" / "12.5 MiB", with a sign when `sign` is set.
std::string format_duration_ns(std::uint64_t ns);
std::string format_gib(double gib, bool sign = false);

// Resolves `report`'s RUN_DIR argument to a summary.json path. "latest" (or "") picks the most
// recent `latest_*` link under out_dir (by the UTC timestamp its run directory is named with,
// then the link's own time); a directory means its summary.json; a file is taken as is.
// Throws SummaryError saying what is missing and what to run.
std::string resolve_summary_path(const std::string& arg, const std::string& out_dir);

// The run directory a `latest_*` link under out_dir names, the most recent one as above (the path
// of the link). Throws SummaryError naming out_dir when it has none, ending with `hint` (what to
// run to make one).
std::string latest_run_directory(const std::string& out_dir, const std::string& hint);

}  // namespace jolt::core
