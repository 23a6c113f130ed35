// SystemMonitor: a background thread ("metrics-monitor") sampling into the active recording
// session (as counter tracks, or as instants: MetricEncoding below): memory_gib (process RSS),
// cpu_percent, cores_active_avg, cores_active (machine-wide, /proc/stat), thread_count, and this
// process's own process_cpu_percent and process_threads_active (ProcessCpuMeter in proc_stats.hpp).
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
#include <string_view>
#include <thread>

namespace jolt::core {

// The sampling interval from the MONITOR_INTERVAL environment variable (seconds; default 0.1;
// at least 50 ms). Throws std::invalid_argument naming the value when it is not a finite number
// of seconds in (0, kMaxMonitorIntervalSecs].
inline constexpr double kMaxMonitorIntervalSecs = 3600;
std::chrono::milliseconds monitor_interval_from_env();

// How each sample is recorded. kCounterTracks (`jolt-run profile`): one counter sample per metric,
// which the chrome sink writes as "ph":"C" counter tracks. kInstantArgs (`jolt-run legacy
// profile`, the legacy prover's encoding): one kMetricsInstant instant per sample carrying every
// metric as an arg "counters.<name>"; scripts/postprocess_trace.py rewrites those into counter
// tracks.
enum class MetricEncoding { kCounterTracks, kInstantArgs };
inline constexpr std::string_view kMetricsInstant = "metrics_sample";
inline constexpr std::string_view kMetricArgPrefix = "counters.";

class SystemMonitor {
 public:
  explicit SystemMonitor(std::chrono::milliseconds interval,
                         MetricEncoding encoding = MetricEncoding::kCounterTracks);
  ~SystemMonitor();
  SystemMonitor(const SystemMonitor&) = delete;
  SystemMonitor& operator=(const SystemMonitor&) = delete;
  void stop();

 private:
  void run();
  std::chrono::milliseconds interval_;
  MetricEncoding encoding_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace jolt::core
