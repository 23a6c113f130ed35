// Chrome trace rendering for Perfetto's JSON importer.
//
//   jolt::Status st = jolt::sinks::write_chrome_trace(profile, ctx.run_dir + "/trace.json");
//
// Shape: a bare JSON array (the container Perfetto and the original both accept; no
// displayTimeUnit, which trace processor ignores). ts is µs relative to run start written as
// "<ns/1000>.<ns%1000>" (3 fractional digits, exact ns). pid 1; "M" process_name and thread_name
// first; per thread, span B/E events strictly nested and in non-decreasing ts order, span and
// instant args as recorded (numbers stay numbers), instants "ph":"i","s":"t"; every counter track
// becomes native "ph":"C" events {name: value} on its sampling thread's tid, merged by ts.
// Normalisation (so the file is always importable): B/E pairs are the spans of the SDK's replay
// (spans.hpp) — an end whose open is not on top closes the opens above it at the same ts; an end
// without open is dropped; spans still open at the end of a thread close at the Profile's end;
// non-finite numbers become null (args) or are skipped (counters). Written atomically (temp file +
// rename). Thread-safe (no shared state).
#pragma once
#include <string>

#include <jolt/profile.hpp>
#include <jolt/status.hpp>

namespace jolt::sinks {

Status write_chrome_trace(const Profile& profile, const std::string& path) noexcept;

}  // namespace jolt::sinks
