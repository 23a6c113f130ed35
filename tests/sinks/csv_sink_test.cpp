// The csv sink as a loaded plugin: timings.csv row format and the consolidated CSV's header
// written once across runs.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

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
  p.padded_trace_length = 0;  // derived with the padding rule (jolt/trace_length.hpp)
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

TEST_CASE("csv sink names the file it cannot write; no shared row without the run's own file") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("csv"));
  CHECK((loaded.descriptor().capabilities & JOLT_CAP_SHARED_FILES) != 0);
  const std::string out = sink_test::fresh_dir("csv_fail");
  const jolt::Status no_run =
      loaded.sink().write(jolt::testing::fixture_profile(), {out + "/missing/run", out});
  CHECK_FALSE(no_run.ok);
  CHECK(no_run.message.find(out + "/missing/run/timings.csv") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out + "/modular_timings.csv"));
  const jolt::Status no_out =
      loaded.sink().write(jolt::testing::fixture_profile(), {out, "/nonexistent"});
  CHECK_FALSE(no_out.ok);
  CHECK(no_out.message.find("/nonexistent/modular_timings.csv") != std::string::npos);
  // An empty out dir (another sink failed) writes the run's file only.
  const std::string run = out + "/run";
  std::filesystem::create_directories(run);
  CHECK(loaded.sink().write(jolt::testing::fixture_profile(), {run, ""}).ok);
  CHECK(std::filesystem::exists(run + "/timings.csv"));
  CHECK_FALSE(std::filesystem::exists(out + "/modular_timings.csv"));
}

namespace {
const std::string kHeader =
    "benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,"
    "proof_size_compressed,backend\n";
const std::string kFixtureRow = "fibonacci,16,1.50,65536,43690.67,12345,12345,reference\n";

// Writes `damaged` as modular_timings.csv, runs the csv sink once, returns its status.
jolt::Status append_to(const std::string& damaged, const std::string& out) {
  sink_test::LoadedSink loaded(sink_test::plugin_path("csv"));
  std::filesystem::create_directories(out + "/run");
  std::ofstream(out + "/modular_timings.csv", std::ios::binary) << damaged;
  jolt::Profile p = jolt::testing::fixture_profile();
  p.prove_time_ns = 1'500'000'000;
  return loaded.sink().write(p, {out + "/run", out});
}
}  // namespace

TEST_CASE("a partial last row left by a failed append is dropped, not glued to the next row") {
  const std::string out = sink_test::fresh_dir("csv_partial_row");
  const std::string good = "sha2-chain,22,2.00,4194304,2097152.00,12345,12345,optimized\n";
  REQUIRE(append_to(kHeader + good + "sha3-chain,20,1.2", out).ok);
  CHECK(sink_test::read_file(out + "/modular_timings.csv") == kHeader + good + kFixtureRow);
}

TEST_CASE("an empty or header-cut consolidated CSV gets its header back") {
  for (const std::string& damaged : {std::string(), kHeader.substr(0, 20)}) {
    const std::string out = sink_test::fresh_dir("csv_empty");
    REQUIRE(append_to(damaged, out).ok);
    CHECK(sink_test::read_file(out + "/modular_timings.csv") == kHeader + kFixtureRow);
  }
}

TEST_CASE("a consolidated CSV that is not ours is refused with a clear message, untouched") {
  const std::string out = sink_test::fresh_dir("csv_foreign");
  const std::string foreign = "name,time\nx,1\n";
  const jolt::Status st = append_to(foreign, out);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find(out + "/modular_timings.csv does not start with the header") !=
        std::string::npos);
  CHECK(st.message.find("move it aside") != std::string::npos);
  CHECK(sink_test::read_file(out + "/modular_timings.csv") == foreign);
}

TEST_CASE("an append cut short by a file-size limit leaves the CSV as it was") {
  const std::string out = sink_test::fresh_dir("csv_fsize");
  const std::string before = kHeader + kFixtureRow;
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);               // the write then returns short instead of killing us
    const rlim_t limit = before.size() + 10;  // room for 10 bytes of the new row only
    struct rlimit rl {
      limit, limit
    };
    ::setrlimit(RLIMIT_FSIZE, &rl);
    const jolt::Status st = append_to(before, out);
    ::_exit(st.ok ? 0 : (st.message.find("modular_timings.csv") != std::string::npos ? 3 : 4));
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);  // failed, naming the file
  CHECK(sink_test::read_file(out + "/modular_timings.csv") == before);
}
