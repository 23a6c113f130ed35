// MONITOR_INTERVAL parsing: the default, the 50 ms floor, and values that must be refused. The
// process counters: ProcessCpuMeter against busy and sleeping threads, the /proc/self/task
// readers, and the monitor recording them. The two encodings of the samples (counter tracks,
// legacy instants with counters.* args).
#include <doctest/doctest.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <jolt/profile.hpp>
#include <jolt/recorder.hpp>
#include <jolt/taxonomy.hpp>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "jolt/core/proc_stats.hpp"
#include "jolt/core/system_monitor.hpp"

using jolt::core::monitor_interval_from_env;

TEST_CASE("MONITOR_INTERVAL: seconds in (0, 3600]; inf, 1e308 and huge integers are refused") {
  ::unsetenv("MONITOR_INTERVAL");
  CHECK(monitor_interval_from_env().count() == 100);
  ::setenv("MONITOR_INTERVAL", "0.25", 1);
  CHECK(monitor_interval_from_env().count() == 250);
  ::setenv("MONITOR_INTERVAL", "0.001", 1);
  CHECK(monitor_interval_from_env().count() == 50);
  ::setenv("MONITOR_INTERVAL", "3600", 1);
  CHECK(monitor_interval_from_env().count() == 3'600'000);
  for (const char* bad :
       {"inf", "1e308", "1e400", "99999999999999999999999", "nan", "-1", "0", "0.5s", "", "fast"}) {
    INFO(bad);
    ::setenv("MONITOR_INTERVAL", bad, 1);
    try {
      monitor_interval_from_env();
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("MONITOR_INTERVAL='" + std::string(bad) +
                                       "' is not a sampling interval") != std::string::npos);
    }
  }
  ::unsetenv("MONITOR_INTERVAL");
}

namespace {

using jolt::core::ProcessCpuMeter;

// `n` threads spinning until stop(); each one's CPU time is read through its pthread CPU clock, so
// the tests compare the meter with what the busy threads themselves used (the machine is shared:
// a busy thread may get less than a whole core).
class BusyThreads {
 public:
  explicit BusyThreads(int n) {
    for (int i = 0; i < n; ++i)
      threads_.emplace_back([this] {
        while (!stop_.load(std::memory_order_relaxed)) {
        }
      });
  }
  ~BusyThreads() { stop(); }
  BusyThreads(const BusyThreads&) = delete;
  BusyThreads& operator=(const BusyThreads&) = delete;

  // CPU time thread i has used so far, ns.
  std::uint64_t cpu_ns(std::size_t i) {
    clockid_t clock{};
    REQUIRE(::pthread_getcpuclockid(threads_[i].native_handle(), &clock) == 0);
    timespec ts{};
    REQUIRE(::clock_gettime(clock, &ts) == 0);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(ts.tv_nsec);
  }
  std::size_t size() const { return threads_.size(); }
  void stop() {
    stop_.store(true, std::memory_order_relaxed);
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// Each busy thread runs for at least this much CPU time before the meter is read (a shared machine
// stretches the wall time this takes; on an idle one it is 0.6 s).
constexpr std::uint64_t kBusyCpuNs = 600'000'000;
constexpr auto kBusyTimeout = std::chrono::seconds(20);

}  // namespace

TEST_CASE("process_cpu_percent: a sleeping process shows about 0 and no active thread") {
  ProcessCpuMeter meter(static_cast<int>(::gettid()));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const ProcessCpuMeter::Interval r = meter.sample();
  CHECK(r.wall_secs >= 0.5);
  CHECK(r.cpu_percent >= 0.0);
  CHECK(r.cpu_percent < 10.0);
  CHECK(r.threads_active == 0);
}

TEST_CASE("process_cpu_percent follows one and two busy threads; threads_active counts them") {
  for (const int n : {1, 2}) {
    INFO(n << " busy thread(s)");
    ProcessCpuMeter meter(static_cast<int>(::gettid()));
    const auto t0 = std::chrono::steady_clock::now();
    BusyThreads busy(n);
    const auto least_cpu_ns = [&] {
      std::uint64_t least = busy.cpu_ns(0);
      for (std::size_t i = 1; i < busy.size(); ++i) least = std::min(least, busy.cpu_ns(i));
      return least;
    };
    while (least_cpu_ns() < kBusyCpuNs) {
      REQUIRE(std::chrono::steady_clock::now() - t0 < kBusyTimeout);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::vector<double> shares;  // of each busy thread: its CPU time / the elapsed wall time
    double busy_percent = 0;
    const auto t1 = std::chrono::steady_clock::now();
    const double wall_ns =
        static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    for (std::size_t i = 0; i < busy.size(); ++i) {
      shares.push_back(static_cast<double>(busy.cpu_ns(i)) / wall_ns);
      busy_percent += 100.0 * shares.back();
    }
    const ProcessCpuMeter::Interval r = meter.sample();
    busy.stop();
    INFO("process_cpu_percent " << r.cpu_percent << ", busy threads' own " << busy_percent
                                << ", threads_active " << r.threads_active);
    // The busy threads' own share is ≈100 per thread on an idle machine, less on a shared one; the
    // meter sees what they used (the rest of the process sleeps), with a wide margin for the few
    // ms between the readings.
    CHECK(r.cpu_percent >= busy_percent - 10.0);
    CHECK(r.cpu_percent <= busy_percent + 25.0);
    CHECK(r.cpu_percent <= 100.0 * n + 25.0);
    // Every busy thread that ran at least twice the 10 % rule's share is counted; nothing else ran.
    const auto clearly_active =
        static_cast<std::uint32_t>(std::count_if(shares.begin(), shares.end(), [](double s) {
          return s >= 2 * ProcessCpuMeter::kActiveThreadShare;
        }));
    CHECK(r.threads_active >= clearly_active);
    CHECK(r.threads_active <= static_cast<std::uint32_t>(n));
  }
}

TEST_CASE("read_thread_cpu_times lists this thread, sorted, within the process's CPU time") {
  const int self = static_cast<int>(::gettid());
  const std::vector<jolt::core::ThreadCpuTime> threads = jolt::core::read_thread_cpu_times();
  const std::uint64_t process_ns = jolt::core::process_cpu_time_ns();
  REQUIRE_FALSE(threads.empty());
  CHECK(std::is_sorted(threads.begin(), threads.end(),
                       [](const auto& a, const auto& b) { return a.tid < b.tid; }));
  const auto me =
      std::find_if(threads.begin(), threads.end(), [&](const auto& t) { return t.tid == self; });
  REQUIRE(me != threads.end());
  CHECK(me->cpu_ns > 0);
  CHECK(me->cpu_ns <= process_ns);
}

TEST_CASE("task_stat_cpu_ticks: utime + stime counted after the last ')' of the thread name") {
  // Fields 1..15 of a /proc/<pid>/task/<tid>/stat line; the name holds a space and a ')'.
  CHECK(jolt::core::task_stat_cpu_ticks("4242 (tbb w) 1) R 1 4242 4242 0 -1 4194368 "
                                        "120 0 0 0 731 29 0 0 20 0 4 0") == 760u);
  CHECK(jolt::core::task_stat_cpu_ticks("4242 (main) S 1 2 3 4 5 6 7 8 9 10 11 12") == 23u);
  CHECK_FALSE(jolt::core::task_stat_cpu_ticks("4242 (main) S 1 2 3").has_value());
  CHECK_FALSE(jolt::core::task_stat_cpu_ticks("no name here").has_value());
}

TEST_CASE("the monitor records process_cpu_percent and process_threads_active beside the others") {
  ::setenv("MONITOR_INTERVAL", "0.05", 1);
  const auto interval = monitor_interval_from_env();
  ::unsetenv("MONITOR_INTERVAL");
  jolt::RecordingSession::start({});
  jolt::Profile p;
  {
    BusyThreads busy(1);
    jolt::core::SystemMonitor monitor(interval);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    monitor.stop();
    busy.stop();
    p = jolt::RecordingSession::stop();
  }
  std::map<std::string, std::vector<double>> tracks;
  for (const auto& c : p.counters)
    for (const auto& s : c.samples) tracks[c.name].push_back(s.value);
  using namespace jolt::taxonomy;
  for (auto name : {kMemoryCounter, kCpuPercentCounter, kCoresActiveAvgCounter, kCoresActiveCounter,
                    kThreadCountCounter, kProcessCpuPercentCounter, kProcessThreadsActiveCounter}) {
    INFO(name);
    CHECK(tracks[std::string(name)].size() >= 3);
  }
  // The busy thread ran in most intervals; the monitor's own thread is never counted.
  const auto& cpu = tracks[std::string(kProcessCpuPercentCounter)];
  const auto& active = tracks[std::string(kProcessThreadsActiveCounter)];
  REQUIRE_FALSE(cpu.empty());
  REQUIRE_FALSE(active.empty());
  CHECK(*std::max_element(cpu.begin(), cpu.end()) >= 10.0);
  CHECK(*std::max_element(active.begin(), active.end()) >= 1.0);
  // Only the busy thread may be active: the test's main thread sleeps.
  CHECK(*std::max_element(active.begin(), active.end()) <= 1.0);
}

namespace {

// Runs a monitor at the 50 ms floor inside a recording session until it has taken `samples`.
jolt::Profile monitored(jolt::core::MetricEncoding encoding) {
  jolt::RecordingSession::start(jolt::RecordingOptions{});
  jolt::core::SystemMonitor monitor(std::chrono::milliseconds(50), encoding);
  std::this_thread::sleep_for(std::chrono::milliseconds(230));
  monitor.stop();
  return jolt::RecordingSession::stop();
}

}  // namespace

TEST_CASE("the monitor records counter tracks, or with kInstantArgs one instant per sample") {
  using namespace jolt::taxonomy;
  const jolt::Profile tracks = monitored(jolt::core::MetricEncoding::kCounterTracks);
  std::set<std::string> names;
  for (const jolt::CounterTrack& c : tracks.counters) {
    names.insert(c.name);
    CHECK(c.samples.size() >= 2);
  }
  CHECK(names == std::set<std::string>{
                     std::string(kMemoryCounter), std::string(kCpuPercentCounter),
                     std::string(kCoresActiveAvgCounter), std::string(kCoresActiveCounter),
                     std::string(kThreadCountCounter), std::string(kProcessCpuPercentCounter),
                     std::string(kProcessThreadsActiveCounter)});
  for (const jolt::ThreadTrack& t : tracks.threads) CHECK(t.events.empty());

  const jolt::Profile legacy = monitored(jolt::core::MetricEncoding::kInstantArgs);
  CHECK(legacy.counters.empty());
  std::size_t instants = 0;
  for (const jolt::ThreadTrack& t : legacy.threads)
    for (const jolt::TraceEvent& e : t.events) {
      REQUIRE(e.phase == jolt::Phase::kInstant);
      CHECK(e.name == jolt::core::kMetricsInstant);
      CHECK(t.name == "metrics-monitor");
      REQUIRE(e.args.size() == 7);
      const std::string prefix(jolt::core::kMetricArgPrefix);
      CHECK(e.args[0].key == prefix + std::string(kMemoryCounter));
      CHECK(e.args[1].key == prefix + std::string(kCpuPercentCounter));
      CHECK(e.args[2].key == prefix + std::string(kCoresActiveAvgCounter));
      CHECK(e.args[3].key == prefix + std::string(kCoresActiveCounter));
      CHECK(e.args[4].key == prefix + std::string(kThreadCountCounter));
      CHECK(e.args[5].key == prefix + std::string(kProcessCpuPercentCounter));
      CHECK(e.args[6].key == prefix + std::string(kProcessThreadsActiveCounter));
      CHECK(std::get<double>(e.args[0].value) > 0.0);   // this process's RSS
      CHECK(std::get<double>(e.args[4].value) >= 2.0);  // main and the monitor
      ++instants;
    }
  CHECK(instants >= 2);
}
