// A sink that always fails, to prove a failed sink leaves latest_ and earlier runs untouched.
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

namespace {
class FailingSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext& ctx) noexcept override {
    return jolt::Status::error("refusing to write into " + ctx.run_dir + " (test sink)");
  }
};
}  // namespace

JOLT_DEFINE_SINK_PLUGIN(FailingSink, "failing", "always fails (test fixture)", 0)
