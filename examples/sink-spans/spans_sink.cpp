// Example third-party sink: {run_dir}/spans.jsonl, one JSON line per span (thread, depth, name,
// start and duration in ns), from the SDK's span replay; written atomically by the SDK.
#include <exception>
#include <jolt/atomic_file.hpp>
#include <jolt/json.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>
#include <jolt/spans.hpp>
#include <string>

class SpanList final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    try {
      std::string out;
      for (const jolt::ReplayedSpan& s : jolt::replay_spans(profile).spans)
        out += "{\"tid\":" + std::to_string(s.tid) + ",\"depth\":" + std::to_string(s.depth) +
               ",\"name\":" + jolt::json_quote(s.name) +
               ",\"start_ns\":" + std::to_string(s.start_ns) +
               ",\"duration_ns\":" + std::to_string(s.duration_ns) + "}\n";
      return jolt::write_file_atomically(ctx.run_dir + "/spans.jsonl", out);
    } catch (const std::exception& e) {
      return jolt::Status::error(std::string("span-list sink: ") + e.what());
    }
  }
};

JOLT_DEFINE_SINK_PLUGIN(SpanList, "span-list", "spans.jsonl: every span with depth and duration",
                        JOLT_CAP_NEEDS_TRACE)
