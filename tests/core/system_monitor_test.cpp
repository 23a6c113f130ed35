// MONITOR_INTERVAL parsing: the default, the 50 ms floor, and values that must be refused; the two
// encodings of the samples (counter tracks, legacy instants with counters.* args).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <jolt/recorder.hpp>
#include <jolt/taxonomy.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

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
  CHECK(names == std::set<std::string>{std::string(kMemoryCounter), std::string(kCpuPercentCounter),
                                       std::string(kCoresActiveAvgCounter),
                                       std::string(kCoresActiveCounter),
                                       std::string(kThreadCountCounter)});
  for (const jolt::ThreadTrack& t : tracks.threads) CHECK(t.events.empty());

  const jolt::Profile legacy = monitored(jolt::core::MetricEncoding::kInstantArgs);
  CHECK(legacy.counters.empty());
  std::size_t instants = 0;
  for (const jolt::ThreadTrack& t : legacy.threads)
    for (const jolt::TraceEvent& e : t.events) {
      REQUIRE(e.phase == jolt::Phase::kInstant);
      CHECK(e.name == jolt::core::kMetricsInstant);
      CHECK(t.name == "metrics-monitor");
      REQUIRE(e.args.size() == 5);
      const std::string prefix(jolt::core::kMetricArgPrefix);
      CHECK(e.args[0].key == prefix + std::string(kMemoryCounter));
      CHECK(e.args[1].key == prefix + std::string(kCpuPercentCounter));
      CHECK(e.args[2].key == prefix + std::string(kCoresActiveAvgCounter));
      CHECK(e.args[3].key == prefix + std::string(kCoresActiveCounter));
      CHECK(e.args[4].key == prefix + std::string(kThreadCountCounter));
      CHECK(std::get<double>(e.args[0].value) > 0.0);   // this process's RSS
      CHECK(std::get<double>(e.args[4].value) >= 2.0);  // main and the monitor
      ++instants;
    }
  CHECK(instants >= 2);
}
