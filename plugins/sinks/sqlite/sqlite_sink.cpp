// The `sqlite` sink: writes {run_dir}/trace.db, the run's trace as SQLite tables named as
// trace_processor names them (see trace_db.hpp), for `jolt-run sql` and the `sqlite3` shell.
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

#include "trace_db.hpp"

namespace {

class SqliteSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    return jolt::sinks::write_trace_db(profile, ctx.run_dir + "/trace.db");
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(SqliteSink, "sqlite",
                        "trace.db: slices, threads, counters and args as trace_processor tables",
                        JOLT_CAP_NEEDS_TRACE)
