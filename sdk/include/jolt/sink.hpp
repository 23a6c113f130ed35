// Sink: a plugin that turns the run's Profile into artifacts in the run directory.
//
// clang-format off
//   class TopSpans final : public jolt::Sink {
//    public:
//     jolt::Status write(const jolt::Profile& p, const jolt::SinkContext& ctx) noexcept override {
//       return jolt::write_file_atomically(ctx.run_dir + "/top.md", render(p));  // atomic_file.hpp
//     }
//   };
//   JOLT_DEFINE_SINK_PLUGIN(TopSpans, "top-spans", "Markdown top spans", JOLT_CAP_NEEDS_TRACE)
// clang-format on
//
// Spans: read them through jolt::replay_spans (spans.hpp), never by matching begin/end events
// yourself; the numbers of summary.json come from jolt::summarize (summary.hpp).
//
// write() runs once per run, after prove and verify, on the main thread. Report failure through
// the Status (naming the file and what to do). Since ABI 4.3 write() and configure() may also
// throw: the host reports the exception's message as this sink's failure, the other sinks still
// run (a 4.2 host ends the process instead, as their overriders were noexcept). Write files
// atomically (jolt::write_file_atomically) so an earlier artifact is never half-overwritten.
//
// Options: `--sink NAME:key=value,key2=value2` hands the pairs to configure(), called once right
// after the sink is created and before anything is proved, so a wrong option fails the run before
// it starts. The default accepts none; a sink with options overrides it, keeps what it needs and
// names any key it does not know in the returned Status.
#pragma once
#include <map>
#include <string>

#include <jolt/profile.hpp>
#include <jolt/status.hpp>

namespace jolt {

struct SinkContext {
  std::string run_dir;  // this run's directory (exists)
  // The benchmark-runs folder, for files shared across runs (modular_timings.csv); empty means
  // write none. A sink that writes them declares JOLT_CAP_SHARED_FILES (plugin.hpp).
  std::string out_dir;
};

using SinkOptions = std::map<std::string, std::string>;

class Sink {
 public:
  virtual ~Sink() = default;
  // Not noexcept since ABI 4.3 (an overrider may still be).
  virtual Status write(const Profile& profile, const SinkContext& ctx) = 0;
  // Since ABI 4; not noexcept since ABI 4.3.
  virtual Status configure(const SinkOptions& options) {
    if (options.empty()) return {};
    return Status::error("takes no options (got '" + options.begin()->first + "')");
  }
};

}  // namespace jolt
