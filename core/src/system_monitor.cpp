// The metrics-monitor thread: samples RSS, CPU and thread counters at a fixed interval.
#include "jolt/core/system_monitor.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <jolt/instrument.hpp>
#include <jolt/process.hpp>
#include <jolt/taxonomy.hpp>
#include <stdexcept>
#include <string>

#include "jolt/core/proc_stats.hpp"

namespace jolt::core {

std::chrono::milliseconds monitor_interval_from_env() {
  const char* env = std::getenv("MONITOR_INTERVAL");
  if (!env) return std::chrono::milliseconds(100);
  // The whole value must be a finite number of seconds in (0, kMaxMonitorIntervalSecs]: "inf",
  // "1e308" or a huge integer would overflow the conversion to milliseconds.
  char* end = nullptr;
  errno = 0;
  const double secs = std::strtod(env, &end);
  while (end && *end == ' ') ++end;
  if (end == env || *end != '\0' || errno == ERANGE || !std::isfinite(secs) || !(secs > 0) ||
      secs > kMaxMonitorIntervalSecs)
    throw std::invalid_argument("MONITOR_INTERVAL='" + std::string(env) +
                                "' is not a sampling interval: expected seconds in (0, " +
                                std::to_string(static_cast<int>(kMaxMonitorIntervalSecs)) +
                                "], e.g. 0.1 (unset it for the default)");
  const auto ms = static_cast<long>(secs * 1000.0);
  return std::chrono::milliseconds(ms < 50 ? 50 : ms);
}

SystemMonitor::SystemMonitor(std::chrono::milliseconds interval, MetricEncoding encoding)
    : interval_(interval), encoding_(encoding) {
  thread_ = std::thread([this] { run(); });
}

SystemMonitor::~SystemMonitor() {
  stop();
}

void SystemMonitor::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SystemMonitor::run() {
  jolt::set_current_thread_name("metrics-monitor");
  std::vector<CpuTimes> prev = read_cpu_times();
  // The monitor's own thread is not one of the prover's; its CPU time is in process_cpu_percent.
  ProcessCpuMeter process(static_cast<int>(::gettid()));
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, interval_, [this] { return stop_; })) {
    std::vector<CpuTimes> now = read_cpu_times();
    const double rss_gib = static_cast<double>(jolt::current_rss_bytes()) / jolt::kBytesPerGib;
    double cpu = 0;
    int active = 0;
    const std::size_t ncpu = now.empty() ? 0 : now.size() - 1;
    if (now.size() == prev.size() && !now.empty()) {
      cpu = busy_percent(prev[0], now[0]);
      for (std::size_t i = 1; i < now.size(); ++i)
        if (busy_percent(prev[i], now[i]) > 0.1) ++active;
    }
    using namespace jolt::taxonomy;  // counter names: string literals, so .data() ends in NUL
    const double cores_avg = cpu / 100.0 * static_cast<double>(ncpu);
    const double threads = static_cast<double>(thread_count());
    const ProcessCpuMeter::Interval own = process.sample();
    const double threads_active = static_cast<double>(own.threads_active);
    if (encoding_ == MetricEncoding::kCounterTracks) {
      jolt::counter(kMemoryCounter.data(), rss_gib);
      jolt::counter(kCpuPercentCounter.data(), cpu);
      jolt::counter(kCoresActiveAvgCounter.data(), cores_avg);
      jolt::counter(kCoresActiveCounter.data(), static_cast<double>(active));
      jolt::counter(kThreadCountCounter.data(), threads);
      jolt::counter(kProcessCpuPercentCounter.data(), own.cpu_percent);
      jolt::counter(kProcessThreadsActiveCounter.data(), threads_active);
    } else {
      const auto metric = [](std::string_view name, double v) {
        return jolt::instant_arg(std::string(kMetricArgPrefix) + std::string(name), v);
      };
      jolt::instant(
          kMetricsInstant.data(),
          {metric(kMemoryCounter, rss_gib), metric(kCpuPercentCounter, cpu),
           metric(kCoresActiveAvgCounter, cores_avg),
           metric(kCoresActiveCounter, static_cast<double>(active)),
           metric(kThreadCountCounter, threads), metric(kProcessCpuPercentCounter, own.cpu_percent),
           metric(kProcessThreadsActiveCounter, threads_active)});
    }
    prev = std::move(now);
  }
}

}  // namespace jolt::core
