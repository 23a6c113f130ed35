// The padding rule (sdk/include/jolt/trace_length.hpp): the proof system, the workloads' scale
// mapping and the sinks all use it, so its values are pinned here.
#include <doctest/doctest.h>

#include <cstdint>

#include <jolt/trace_length.hpp>

TEST_CASE("padded trace length: at least 256 rows and always one padding row") {
  CHECK(jolt::kMinPaddedTraceLength == 256);
  CHECK(jolt::padded_trace_length(0) == 256);
  CHECK(jolt::padded_trace_length(255) == 256);
  CHECK(jolt::padded_trace_length(256) == 512);  // n rows need n + 1: one padding row
  CHECK(jolt::padded_trace_length(511) == 512);
  CHECK(jolt::padded_trace_length(1000) == 1024);
  CHECK(jolt::padded_trace_length(3'000'000) == (std::uint64_t{1} << 22));
  CHECK(jolt::padded_trace_length((std::uint64_t{1} << 40) - 1) == (std::uint64_t{1} << 40));
  CHECK(jolt::log_padded_trace_length(0) == 8);
  CHECK(jolt::log_padded_trace_length(1000) == 10);
  static_assert(jolt::padded_trace_length(65535) == 65536);
}
