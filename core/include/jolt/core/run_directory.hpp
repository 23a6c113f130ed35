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
#include <stdexcept>
#include <string>

namespace jolt::core {

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// modular_{workload with '-' -> '_'}_{scale}
std::string trace_name_for(const std::string& workload, std::uint32_t scale);

// "YYYYmmdd-HHMMSS" in UTC.
std::string utc_timestamp(std::time_t t);

// Holds {out}/{trace_name}.lock for its lifetime (O_CREAT|O_EXCL).
class RunLock {
 public:
  RunLock(const std::string& out_dir, const std::string& trace_name);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct RunDirectory {
  std::string path;  // absolute
  std::string name;  // {timestamp}_{trace_name}
  std::uint64_t timestamp_unix_secs = 0;
};

// Creates a fresh run directory; never reuses an existing one (waits for the next second).
RunDirectory create_run_directory(const std::string& out_dir, const std::string& trace_name);

// Points {out}/latest_{trace_name} at run.name (relative), replacing any old link atomically.
void publish_latest(const std::string& out_dir, const std::string& trace_name,
                    const RunDirectory& run);

}  // namespace jolt::core
