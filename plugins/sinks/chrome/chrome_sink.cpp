// The `chrome` sink: writes {run_dir}/trace.json for Perfetto (see chrome_trace.hpp for the shape).
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

#include "chrome_trace.hpp"

namespace {

class ChromeSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    return jolt::sinks::write_chrome_trace(profile, ctx.run_dir + "/trace.json");
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(ChromeSink, "chrome",
                        "trace.json for Perfetto: spans, instants, counter tracks",
                        JOLT_CAP_NEEDS_TRACE)
