// trace.db: a Profile as a SQLite database with trace_processor's table and column names, so
// queries written for Perfetto's trace_processor on a loaded trace.json run unchanged in the
// `sqlite3` shell and in `jolt-run sql`, e.g.
//
// clang-format off
//   SELECT name, COUNT(*) AS n, SUM(dur)/1e9 AS total_s FROM slice GROUP BY name
//   ORDER BY total_s DESC LIMIT 15
//
//   jolt::Status st = jolt::sinks::write_trace_db(profile, ctx.run_dir + "/trace.db");
//
// Tables (ts and dur in ns from the run start; ids from 0):
//   process(upid, pid, name)                         one row: pid 1, trace.json's process_name
//   thread(utid, tid, name, upid)                    Profile threads in order, then the
//                                                    counter-only threads (trace_tracks.hpp)
//   thread_track(id, name, utid)                     one per thread, id = utid
//   counter_track(id, name)                          one per Profile counter track, ids after
//                                                    the thread tracks
//   track(id, name, type)                            view: both kinds ('thread_track',
//                                                    'counter_track')
//   slice(id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id)
//        the spans of the SDK's replay (spans.hpp: ts = start, dur = duration, depth, parent)
//        and the instants (dur 0; depth and parent: the spans open on the thread at that
//        point), per thread in recorded order; category NULL (the Profile has none);
//        arg_set_id NULL when the event has no args
//   counter(id, ts, track_id, value)                 every finite sample
//   args(id, arg_set_id, flat_key, key, int_value, string_value, real_value, value_type)
//        one row per arg; key = flat_key = "args.<key>" (trace_processor's keys for a JSON
//        trace's args); value_type 'int', 'real' or 'string'; a non-finite double is left out
//        (trace.json writes it as null)
//   metadata(name, str_value, int_value)             trace_name, workload, scale_log2
// Indexes: slice(name), slice(track_id, ts), counter(track_id, ts), args(arg_set_id).
// clang-format on
// Written atomically: built in `<path>.tmp.<pid>` in one transaction, fsync'ed, renamed over
// `path`. Thread-safe (no shared state).
#pragma once
#include <string>

#include <jolt/profile.hpp>
#include <jolt/status.hpp>

namespace jolt::sinks {

Status write_trace_db(const Profile& profile, const std::string& path) noexcept;

}  // namespace jolt::sinks
