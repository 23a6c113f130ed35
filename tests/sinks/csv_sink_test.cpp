// The csv sink as a loaded plugin: timings.csv row format and the consolidated CSV's header
// written once across runs.
#include <doctest/doctest.h>

#include "fixture_profile.hpp"
#include "sink_test_support.hpp"

TEST_CASE("csv sink writes timings.csv and appends modular_timings.csv with one header") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("csv"));
  CHECK(std::string(loaded.descriptor().name) == "csv");
  const std::string out = sink_test::fresh_dir("csv_out");
  const std::string run1 = out + "/run1", run2 = out + "/run2";
  std::filesystem::create_directories(run1);
  std::filesystem::create_directories(run2);
  jolt::Profile p = jolt::testing::fixture_profile();
  p.prove_time_ns = 1'500'000'000;
  REQUIRE(loaded.sink().write(p, {run1, out}).ok);
  p.run.workload = "sha2-chain";
  p.run.scale_log2 = 22;
  p.padded_trace_length = 0;  // derived: next power of two of trace_length
  p.trace_length = 3'000'000;
  p.prove_time_ns = 2'000'000'000;
  p.run.backend = "optimized";
  REQUIRE(loaded.sink().write(p, {run2, out}).ok);

  const std::string row1 = "fibonacci,16,1.50,65536,43690.67,12345,12345,reference\n";
  const std::string row2 = "sha2-chain,22,2.00,4194304,2097152.00,12345,12345,optimized\n";
  CHECK(sink_test::read_file(run1 + "/timings.csv") == row1);
  CHECK(sink_test::read_file(run2 + "/timings.csv") == row2);
  CHECK(sink_test::read_file(out + "/modular_timings.csv") ==
        "benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,"
        "proof_size_compressed,backend\n" +
            row1 + row2);
  CHECK_FALSE(sink_test::has_temp_files(run1));
}

TEST_CASE("csv sink names the file it cannot write") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("csv"));
  const jolt::Status st =
      loaded.sink().write(jolt::testing::fixture_profile(), {"/nonexistent/run", "/nonexistent"});
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("/nonexistent/run/timings.csv") != std::string::npos);
  CHECK(st.message.find("/nonexistent/modular_timings.csv") != std::string::npos);
}
