// Test sinks. "failing" returns an error Status (proves a failed sink leaves latest_ and earlier
// runs untouched while the other sinks still run); built with JOLT_TEST_CRASHING_SINK it is
// "crashing", which kills the process (proves a crash leaves nothing that blocks a rerun); built
// with JOLT_TEST_OPTIONS_SINK it is "options", which takes the options file=NAME (required) and
// note=TEXT and writes "note=TEXT" into NAME in the run directory; built with JOLT_TEST_SLOW_SINK
// it is "slow", which writes slow.started into the run directory and then takes 3 s (a signal sent
// once that file exists lands while the sinks write); built with JOLT_TEST_THROWING_SINK it is
// "throwing", whose write() throws (and whose configure() throws given the option at=configure).
#include <chrono>
#include <csignal>
#include <fstream>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>
#include <stdexcept>
#include <thread>

namespace {
#ifdef JOLT_TEST_OPTIONS_SINK
class OptionsSink final : public jolt::Sink {
 public:
  jolt::Status configure(const jolt::SinkOptions& options) noexcept override {
    for (const auto& [key, value] : options) {
      if (key == "file")
        file_ = value;
      else if (key == "note")
        note_ = value;
      else
        return jolt::Status::error("unknown option '" + key + "' (this sink takes file and note)");
    }
    if (file_.empty()) return jolt::Status::error("option file=NAME is required");
    return {};
  }
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext& ctx) noexcept override {
    std::ofstream(ctx.run_dir + "/" + file_) << "note=" << note_ << "\n";
    return {};
  }

 private:
  std::string file_, note_;
};
#endif
#ifdef JOLT_TEST_THROWING_SINK
class ThrowingSink final : public jolt::Sink {
 public:
  jolt::Status configure(const jolt::SinkOptions& options) override {
    if (options.count("at") && options.at("at") == "configure")
      throw std::runtime_error("configure boom (test sink)");
    return {};
  }
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext&) override {
    throw std::runtime_error("write boom (test sink)");
  }
};
#endif
#ifdef JOLT_TEST_SLOW_SINK
class SlowSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext& ctx) noexcept override {
    std::ofstream(ctx.run_dir + "/slow.started") << "1\n";
    std::this_thread::sleep_for(std::chrono::seconds(3));
    return {};
  }
};
#endif
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

#if defined(JOLT_TEST_THROWING_SINK)
JOLT_DEFINE_SINK_PLUGIN(ThrowingSink, "throwing", "throws from write (test fixture)", 0)
#elif defined(JOLT_TEST_SLOW_SINK)
JOLT_DEFINE_SINK_PLUGIN(SlowSink, "slow", "takes 3 s to write (test fixture)", 0)
#elif defined(JOLT_TEST_OPTIONS_SINK)
JOLT_DEFINE_SINK_PLUGIN(OptionsSink, "options", "writes its options (test fixture)", 0)
#elif defined(JOLT_TEST_CRASHING_SINK)
JOLT_DEFINE_SINK_PLUGIN(FailingSink, "crashing", "kills the process (test fixture)", 0)
#else
JOLT_DEFINE_SINK_PLUGIN(FailingSink, "failing", "always fails (test fixture)", 0)
#endif
