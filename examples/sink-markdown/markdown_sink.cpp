// Example third-party sink: {run_dir}/top_spans.md, the ten span labels with the most self time
// (from the SDK's summary aggregation), as a Markdown table.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <jolt/atomic_file.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>
#include <jolt/summary.hpp>

namespace {

std::string render(const jolt::ProfileSummary& s) {
  std::vector<std::pair<std::string, jolt::SpanAggregate>> spans(s.spans.begin(), s.spans.end());
  std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
    return a.second.self_ns > b.second.self_ns;
  });
  if (spans.size() > 10) spans.resize(10);
  std::string out = "# Top spans by self time: " + s.run.workload + " (2^" +
                    std::to_string(s.run.scale_log2) + ", " + s.run.backend + ")\n\n";
  char line[512];
  if (s.root) {
    std::snprintf(line, sizeof line, "Prove wall time %.3f ms, dark time %.1f%%.\n\n",
                  double(s.root->wall_time_ns) / 1e6, 100.0 * s.root->dark_time_fraction);
    out += line;
  }
  out += "| # | span | count | self ms | total ms |\n|---|---|---:|---:|---:|\n";
  int rank = 0;
  for (const auto& [label, a] : spans) {
    std::snprintf(line, sizeof line, "| %d | `%s` | %llu | %.3f | %.3f |\n", ++rank, label.c_str(),
                  static_cast<unsigned long long>(a.count), double(a.self_ns) / 1e6,
                  double(a.total_ns) / 1e6);
    out += line;
  }
  return out;
}

class MarkdownTopSpans final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    const std::string path = ctx.run_dir + "/top_spans.md";
    try {
      return jolt::write_file_atomically(path, render(jolt::summarize(profile)));
    } catch (const std::exception& e) {
      return jolt::Status::error("markdown sink: writing " + path + " failed: " + e.what());
    }
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(MarkdownTopSpans, "markdown-top-spans",
                        "top_spans.md: the ten spans with the most self time", JOLT_CAP_NEEDS_TRACE)
