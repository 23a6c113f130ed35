// Sinks that fail: "failing" returns an error Status (proves a failed sink leaves latest_ and
// earlier runs untouched while the other sinks still run); built with JOLT_TEST_CRASHING_SINK it
// is "crashing", which kills the process (proves a crash leaves nothing that blocks a rerun).
#include <csignal>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

namespace {
class FailingSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext& ctx) noexcept override {
#ifdef JOLT_TEST_CRASHING_SINK
    std::raise(SIGKILL);
#endif
    return jolt::Status::error("refusing to write into " + ctx.run_dir + " (test sink)");
  }
};
}  // namespace

#ifdef JOLT_TEST_CRASHING_SINK
JOLT_DEFINE_SINK_PLUGIN(FailingSink, "crashing", "kills the process (test fixture)", 0)
#else
JOLT_DEFINE_SINK_PLUGIN(FailingSink, "failing", "always fails (test fixture)", 0)
#endif
