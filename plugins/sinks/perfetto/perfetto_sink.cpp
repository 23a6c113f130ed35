// The `perfetto` sink: writes {run_dir}/trace.pftrace, Perfetto's native protobuf trace (see
// perfetto_trace.hpp for the shape).
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

#include "perfetto_trace.hpp"

namespace {

class PerfettoSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    return jolt::sinks::write_perfetto_trace(profile, ctx.run_dir + "/trace.pftrace");
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(PerfettoSink, "perfetto",
                        "trace.pftrace: Perfetto's protobuf trace (spans, instants, counters)",
                        JOLT_CAP_NEEDS_TRACE)
