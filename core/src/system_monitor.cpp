// The metrics-monitor thread: samples RSS, CPU and thread counters at a fixed interval.
#include "jolt/core/system_monitor.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <jolt/instrument.hpp>
#include <jolt/process.hpp>
#include <jolt/taxonomy.hpp>

#include "jolt/core/proc_stats.hpp"

namespace jolt::core {

std::chrono::milliseconds monitor_interval_from_env() {
  double secs = 0.1;
  if (const char* env = std::getenv("MONITOR_INTERVAL")) {
    char* end = nullptr;
    double v = std::strtod(env, &end);
    if (end != env && v > 0)
      secs = v;
    else
      spdlog::warn("MONITOR_INTERVAL='{}' is not a positive number of seconds; using 0.1", env);
  }
  auto ms = static_cast<long>(secs * 1000.0);
  return std::chrono::milliseconds(ms < 50 ? 50 : ms);
}

SystemMonitor::SystemMonitor(std::chrono::milliseconds interval) : interval_(interval) {
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
    jolt::counter(kMemoryCounter.data(), rss_gib);
    jolt::counter(kCpuPercentCounter.data(), cpu);
    jolt::counter(kCoresActiveAvgCounter.data(), cpu / 100.0 * static_cast<double>(ncpu));
    jolt::counter(kCoresActiveCounter.data(), static_cast<double>(active));
    jolt::counter(kThreadCountCounter.data(), static_cast<double>(thread_count()));
    prev = std::move(now);
  }
}

}  // namespace jolt::core
