// MONITOR_INTERVAL parsing: the default, the 50 ms floor, and values that must be refused.
#include <doctest/doctest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

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
