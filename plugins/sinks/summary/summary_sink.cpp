// The `summary` sink: writes {run_dir}/summary.json, the schema-v2 aggregates of the run.
#include <exception>

#include <jolt/atomic_file.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>
#include <jolt/summary.hpp>

#include "summary_json.hpp"

namespace {

class SummarySink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    const std::string path = ctx.run_dir + "/summary.json";
    try {
      jolt::ProfileSummary summary = jolt::summarize(profile);
      if (!summary.run.git_rev) summary.run.git_rev = jolt::sinks::git_short_rev();
      return jolt::write_file_atomically(path, jolt::sinks::summary_to_json(summary));
    } catch (const std::exception& e) {
      return jolt::Status::error("summary sink: writing " + path + " failed: " + e.what());
    } catch (...) {
      return jolt::Status::error("summary sink: writing " + path + " failed (unknown error)");
    }
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(SummarySink, "summary",
                        "summary.json: per-span, stage, counter and heap aggregates (schema v3)",
                        JOLT_CAP_NEEDS_TRACE)
