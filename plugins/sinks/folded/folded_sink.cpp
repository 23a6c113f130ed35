// The `folded` sink: writes {run_dir}/{label}.folded for every heap snapshot and, when the run
// has a root span, {run_dir}/memory.html. With the option svg=on (`jolt-run profile --heap-svg`)
// also {run_dir}/{label}.svg, the snapshot's flame chart (flame_svg.hpp), next to each .folded.
#include <jolt/atomic_file.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

#include "flame_svg.hpp"
#include "folded_text.hpp"
#include "heap_snapshots.hpp"
#include "memory_page.hpp"

namespace jolt::heap {
namespace {

class FoldedSink final : public Sink {
 public:
  Status configure(const SinkOptions& options) noexcept override {
    for (const auto& [key, value] : options) {
      if (key != "svg")
        return Status::error("unknown option '" + key + "' (the folded sink takes svg=on|off)");
      if (value != "on" && value != "off")
        return Status::error("svg=" + value + ": expected svg=on or svg=off");
      svg_ = value == "on";
    }
    return Status::success();
  }

  Status write(const Profile& profile, const SinkContext& ctx) noexcept override {
    try {
      if (profile.heap.empty()) return Status::success();  // heap lane off: nothing to write
      const std::optional<RootTimeline> timeline = find_root_timeline(profile);
      const std::vector<SnapshotSummary> snapshots = collect_snapshots(profile, timeline);
      for (const SnapshotSummary& s : snapshots) {
        const std::string path = ctx.run_dir + "/" + folded_file_name(s.label);
        if (Status st = jolt::write_file_atomically(path, render_folded(s.stacks)); !st)
          return Status::error("folded sink: snapshot " + s.label + ": " + st.message);
        if (!svg_) continue;
        const std::string svg = ctx.run_dir + "/" + flame_svg_file_name(s.label);
        if (Status st = jolt::write_file_atomically(svg, render_flame_svg(s.label, s.stacks)); !st)
          return Status::error("folded sink: flame chart of " + s.label + ": " + st.message);
      }
      if (!timeline) return Status::success();  // no jolt_prover::prove span: no time axis
      const std::string page = ctx.run_dir + "/memory.html";
      if (Status st =
              jolt::write_file_atomically(page, render_memory_page(profile, *timeline, snapshots));
          !st)
        return Status::error("folded sink: " + st.message);
      return Status::success();
    } catch (const std::exception& e) {
      return Status::error(std::string("folded sink: ") + e.what() + " while writing to " +
                           ctx.run_dir);
    } catch (...) {
      return Status::error("folded sink: unknown failure while writing to " + ctx.run_dir);
    }
  }

 private:
  bool svg_ = false;
};

}  // namespace
}  // namespace jolt::heap

JOLT_DEFINE_SINK_PLUGIN(jolt::heap::FoldedSink, "folded",
                        "heap snapshots as exact-bytes folded stacks, plus memory.html",
                        JOLT_CAP_HEAP_SNAPSHOTS | JOLT_CAP_NEEDS_TRACE)
