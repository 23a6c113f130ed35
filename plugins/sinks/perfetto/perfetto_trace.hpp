// Perfetto's native protobuf trace of a Profile: {run_dir}/trace.pftrace for ui.perfetto.dev and
// trace_processor, several times smaller than trace.json.
//
// clang-format off
//   jolt::Status st = jolt::sinks::write_perfetto_trace(profile, ctx.run_dir + "/trace.pftrace");
// clang-format on
//
// Shape (field names and numbers: schema/perfetto_trace_subset.proto):
//  - sequence 1: the process track (uuid 1, pid 1, named as trace.json's process_name) and one
//    counter track per Profile counter track (uuid 2 + threads + j, child of the process, named
//    as the counter);
//  - one sequence per thread (id 2 + i, i = index in Profile::threads; then the counter-only
//    threads of trace_tracks.hpp): its first packet clears the incremental state, sets the
//    sequence's defaults (the thread track uuid 2 + i; timestamps on clock 64) and describes the
//    thread track (pid 1, the Profile tid, trace.json's thread name); the second is a clock
//    snapshot that makes clock 64 an incremental clock starting at 0 on BOOTTIME's 0; every later
//    packet carries the delta from the previous packet's timestamp and SEQ_NEEDS_INCREMENTAL_STATE;
//  - per thread, in recorded order, the slices of the SDK's span replay (spans.hpp) as
//    TYPE_SLICE_BEGIN / TYPE_SLICE_END, instants as TYPE_INSTANT, and the samples of the counters
//    sampled on that thread as TYPE_COUNTER events (explicit track_uuid; an integral sample as
//    counter_value, the others as double_counter_value) merged by timestamp — the same events,
//    timestamps and normalisation as trace.json (chrome_trace.hpp): timestamps kept non-decreasing
//    per thread, ends closing no span dropped, spans open at the end of the thread closed at the
//    Profile's end, non-finite counter samples left out;
//  - names and argument keys are interned per sequence (InternedData sent on the packet that
//    first uses them); arguments are debug annotations (int_value, double_value, string_value;
//    non-finite doubles are left out, as trace.json writes them as null).
// Timestamps are ns from the run start, exact. Written atomically (temp file + rename).
// Thread-safe (no shared state).
#pragma once
#include <string>

#include <jolt/profile.hpp>
#include <jolt/status.hpp>

namespace jolt::sinks {

Status write_perfetto_trace(const Profile& profile, const std::string& path) noexcept;

}  // namespace jolt::sinks
