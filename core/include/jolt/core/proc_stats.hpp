// Linux /proc readings for the system monitor: per-CPU busy/total jiffies, thread count, and this
// process's own CPU time (whole process and per thread).
// The free functions are thread-safe (stateless reads); a ProcessCpuMeter belongs to one thread.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace jolt::core {

struct CpuTimes {
  std::uint64_t busy = 0;
  std::uint64_t total = 0;
};

// Index 0 is the aggregate "cpu" line; 1..n are cpu0..cpu(n-1). Empty if /proc/stat is unreadable.
std::vector<CpuTimes> read_cpu_times();

// Entries in /proc/self/task (0 if unavailable).
std::uint32_t thread_count();

// Percent busy between two readings of the same CPU (0 when no time elapsed).
double busy_percent(const CpuTimes& before, const CpuTimes& after);

// CPU time this process has used so far, in ns: every thread, live or exited, user and system
// (clock_gettime(CLOCK_PROCESS_CPUTIME_ID), nanosecond resolution). 0 if the clock is unavailable.
std::uint64_t process_cpu_time_ns();

// utime + stime in clock ticks from one line of /proc/<pid>/task/<tid>/stat (fields 14 and 15,
// counted after the last ')' since the thread name, field 2, may hold spaces and ')'); nullopt for
// a line that does not have them.
std::optional<std::uint64_t> task_stat_cpu_ticks(std::string_view stat_line);

struct ThreadCpuTime {
  int tid = 0;
  std::uint64_t cpu_ns = 0;
};

// Every live thread of this process with the CPU time it has used so far, in ns, sorted by tid:
// the first field of /proc/self/task/<tid>/schedstat (the scheduler's run time, ns), or utime +
// stime of /proc/self/task/<tid>/stat (clock ticks) on a kernel without schedstat. A thread that
// exits while the folder is read is left out. Empty if /proc/self/task is unreadable.
std::vector<ThreadCpuTime> read_thread_cpu_times();

// The process's CPU use between two readings, for the process_cpu_percent and
// process_threads_active counters. Construction takes the first reading; each sample() reports
// the interval since the previous reading and starts the next one.
class ProcessCpuMeter {
 public:
  // A thread is active in an interval when its CPU time grew by at least this share of the
  // interval's wall time (10 ms of a 0.1 s interval).
  static constexpr double kActiveThreadShare = 0.1;

  struct Interval {
    double wall_secs = 0;              // steady-clock time since the previous reading
    double cpu_percent = 0;            // process CPU time / wall time × 100 (200 = two cores busy)
    std::uint32_t threads_active = 0;  // threads that ran ≥ kActiveThreadShare of wall_secs
  };

  // `excluded_tid`: a thread left out of threads_active (the monitor passes its own); 0 for none.
  // Its CPU time still counts in cpu_percent, which is the whole process's.
  explicit ProcessCpuMeter(int excluded_tid = 0);
  Interval sample();

 private:
  int excluded_tid_;
  std::chrono::steady_clock::time_point wall_;
  std::uint64_t process_cpu_ns_;
  std::vector<ThreadCpuTime> threads_;  // sorted by tid
};

}  // namespace jolt::core
