// SystemMonitor: a background thread ("metrics-monitor") sampling counter tracks into the
// active recording session: memory_gib (process RSS), cpu_percent, cores_active_avg,
// cores_active (machine-wide, /proc/stat), thread_count, and this process's own
// process_cpu_percent and process_threads_active (ProcessCpuMeter in proc_stats.hpp).
//
//   jolt::core::SystemMonitor monitor(jolt::core::monitor_interval_from_env());
//   ... run ...
//   monitor.stop();   // also done by the destructor; joins the thread
//
// Interval: MONITOR_INTERVAL seconds (default 0.1, floor 0.05). Construct and stop from one thread.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace jolt::core {

// The sampling interval from the MONITOR_INTERVAL environment variable (seconds; default 0.1;
// at least 50 ms). Throws std::invalid_argument naming the value when it is not a finite number
// of seconds in (0, kMaxMonitorIntervalSecs].
inline constexpr double kMaxMonitorIntervalSecs = 3600;
std::chrono::milliseconds monitor_interval_from_env();

class SystemMonitor {
 public:
  explicit SystemMonitor(std::chrono::milliseconds interval);
  ~SystemMonitor();
  SystemMonitor(const SystemMonitor&) = delete;
  SystemMonitor& operator=(const SystemMonitor&) = delete;
  void stop();

 private:
  void run();
  std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace jolt::core
