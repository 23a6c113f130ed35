// Run directories: {out}/{YYYYmmdd-HHMMSS UTC}_{trace_name}/, a lock file per trace_name, and
// the `latest_{trace_name}` relative symlink that moves only after a fully successful run.
//
//   jolt::core::RunLock lock(out, trace_name);        // throws RunError if another run is active
//   auto run = jolt::core::create_run_directory(out, trace_name);
//   ... prove, verify, sinks ...
//   jolt::core::publish_latest(out, trace_name, run); // atomic switch of the link
//
// Not thread-safe; one run per process.
#pragma once
#include <cstdint>
#include <ctime>
#include <functional>
#include <stdexcept>
#include <string>

namespace jolt::core {

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// modular_{workload with '-' -> '_'}_{scale}, then _{backend} for a backend other than the default
// ("optimized"): modular_sha2_chain_16_reference.
std::string trace_name_for(const std::string& workload, std::uint32_t scale,
                           std::string_view backend = "optimized");

// "YYYYmmdd-HHMMSS" in UTC.
std::string utc_timestamp(std::time_t t);

// "YYYYmmdd-HHMM" in local time: the legacy prover's trace timestamp
// (perfetto_traces/{name}_{timestamp}.json).
std::string local_minute_timestamp(std::time_t t);

// A file published under a name no other file had.
struct PublishedFile {
  std::string path;  // {dir}/{stem}{ext}
  std::string stem;  // the base stem, or base_2, base_3, ...
};

// Publishes `staged`, a complete file inside `dir`, as {dir}/{base}{ext}, or when that name is
// taken as {dir}/{base}_2{ext}, {base}_3{ext}, ...: the first free name, claimed with link(2),
// which fails instead of replacing an existing file, so two processes publishing the same base at
// the same moment get different names and neither file is overwritten. A reader sees the
// complete file or none. `also_taken(stem)` may reject a stem for another reason (a folder named
// by it exists). `staged` is removed in every case. Throws RunError naming the file and the errno
// text (e.g. a folder that cannot be written), or after 9999 taken names.
PublishedFile publish_new_file(const std::string& staged, const std::string& dir,
                               const std::string& base, const std::string& ext,
                               const std::function<bool(const std::string&)>& also_taken = {});

// Holds an advisory flock(2) on {out}/{trace_name}.lock for its lifetime. The kernel drops the
// flock however the process ends (Ctrl-C, kill -9, a crash), so a lock file left behind never
// blocks a later run; only a live holder does. The file carries the holder's PID for the error
// message. On destruction the file is unlinked only while it is still the inode this object
// holds, so a run never deletes a lock that another run created after it.
// Throws RunError when the folder cannot be created or written (naming the folder and the
// errno text) or when a live run holds the lock (naming its PID).
class RunLock {
 public:
  RunLock(const std::string& out_dir, const std::string& trace_name);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  const std::string& path() const { return path_; }
  // Unlinks the lock file if this object still holds it (idempotent; async-signal-safe, so a
  // signal handler may call it before _exit).
  void release() noexcept;

 private:
  std::string path_;
  int fd_ = -1;
};

struct RunDirectory {
  std::string path;  // absolute
  std::string name;  // {timestamp}_{trace_name}
  std::uint64_t timestamp_unix_secs = 0;
};

// Creates a fresh run directory; never reuses an existing one (waits for the next second).
// The directory starts with an empty `.incomplete` marker (kIncompleteMarker); publish_latest
// removes it, so a run directory left by a killed run is marked as such. Only `latest_` links
// name finished runs (benchmark --resume and the scripts read only those).
RunDirectory create_run_directory(const std::string& out_dir, const std::string& trace_name);
inline constexpr const char* kIncompleteMarker = ".incomplete";

// For the commands that read runs (report, diff, sql): when path (a run directory or a file in
// one) is still marked kIncompleteMarker — its run failed or was killed before publish_latest —
// prints a warning saying so on stderr ("jolt-run {command}: warning: …").
void warn_if_unfinished_run(const std::string& command, const std::string& path);

// Removes a run directory that never became a finished run (interrupted or failed before
// publish_latest). Best effort; returns false when something could not be removed.
bool remove_unfinished_run(const RunDirectory& run) noexcept;

// Removes run's incomplete marker, then points {out}/latest_{trace_name} at run.name (relative),
// replacing any old link atomically.
void publish_latest(const std::string& out_dir, const std::string& trace_name,
                    const RunDirectory& run);

}  // namespace jolt::core
