// `jolt-run profile --pprof`: the real binary proves a small workload and writes one CPU profile
// per stage plus prove.pb into {run_dir}/pprof/.
#include <doctest/doctest.h>

#include <algorithm>
#include <jolt/taxonomy.hpp>
#include <string>
#include <thread>

#include "../e2e/run_support.hpp"  // run, run_shell, Workspace: the e2e tests' runner
#include "decoded_profile.hpp"

using jolt::cpu_profile::testing::decode_profile;

namespace {

constexpr const char* kTrace = "modular_fibonacci_15";

// One --pprof run shared by the checks (PPROF_FREQ above the range: clamped to the maximum).
const Workspace& profiled(Result* out = nullptr) {
  static Workspace w;
  static Result r;
  static bool done = false;
  if (!done) {
    done = true;
    r = run("profile --workload fibonacci --scale 15 --format none --pprof -q", w.dir,
            "PPROF_FREQ=5000");
  }
  if (out) *out = r;
  return w;
}

fs::path pprof_dir(const Workspace& w) {
  return fs::canonical(w.dir / "benchmark-runs" / (std::string("latest_") + kTrace)) / "pprof";
}

bool has_prover_function(const jolt::cpu_profile::testing::DecodedProfile& d) {
  return std::any_of(d.strings.begin(), d.strings.end(),
                     [](const std::string& s) { return s.rfind("jolt::prover::", 0) == 0; });
}

}  // namespace

TEST_CASE("profile --pprof writes one decodable CPU profile per stage and one for the prove") {
  Result r;
  const Workspace& w = profiled(&r);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(r.output.find("PPROF_FREQ=5000 is outside") != std::string::npos);  // the clamp warning
  CHECK(r.output.find("pprof:   11 CPU profiles") != std::string::npos);
  const fs::path dir = pprof_dir(w);
  std::uint64_t stage_samples = 0;
  // A stage shorter than a few sampling periods holds at most two samples, or none, and those
  // may come from a pool thread spinning between parallel loops rather than from prover code
  // (stage 6a takes about a millisecond at any scale: 0, 1 or 2 samples in 5 runs at 2^15, and
  // its frame was TBB's in 1 run of 10). The prover's frames are required in every stage long
  // enough to hold kAttributed samples, at most two stages may be shorter than that, and the
  // stages together hold the prove's samples.
  constexpr std::uint64_t kAttributed = 5;
  int short_stages = 0;
  for (std::string_view label : jolt::taxonomy::kEmittedStageSpans) {
    const fs::path file = dir / (std::string(label) + ".pb");
    INFO(file.string());
    REQUIRE(fs::exists(file));
    const auto d = decode_profile(file.string());
    INFO(d.text.substr(0, 1500));
    REQUIRE(d.exit_code == 0);
    CHECK(d.period == 1000000);  // clamped to 1000 Hz
    stage_samples += d.sample_count;
    if (d.sample_count >= kAttributed)
      CHECK(has_prover_function(d));
    else
      ++short_stages;
  }
  CHECK(short_stages <= 2);
  const auto whole = decode_profile((dir / "prove.pb").string());
  INFO(whole.text.substr(0, 1500));
  REQUIRE(whole.exit_code == 0);
  CHECK(has_prover_function(whole));
  CHECK(whole.sample_count >= stage_samples);
  // Every sample of the prove falls in one of its stages (equal in 5 runs of 5 at 2^15; the root's
  // own time around the stages is a few milliseconds).
  CHECK(static_cast<double>(stage_samples) >= 0.9 * static_cast<double>(whole.sample_count));
  // Samples are taken per CPU-second: at most 1000 per CPU-second (fewer when the kernel's tick
  // is slower), and no more CPU-seconds than cores × wall time.
  const double seconds = static_cast<double>(whole.duration_nanos) * 1e-9;
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  double cpu_seconds = -1;
  for (const std::string& s : whole.strings)
    if (s.rfind("process CPU time ", 0) == 0) cpu_seconds = std::stod(s.substr(17));
  INFO("samples ", whole.sample_count, " over ", seconds, " s wall, ", cpu_seconds, " s CPU");
  REQUIRE(cpu_seconds > 0);
  CHECK(cpu_seconds <= seconds * cores * 1.05 + 0.05);
  CHECK(static_cast<double>(whole.sample_count) >= 0.05 * 1000 * cpu_seconds);
  CHECK(static_cast<double>(whole.sample_count) <= 1.2 * 1000 * cpu_seconds + 10);
  // The mappings name the binary (so pprof can find it) and the workload plugin.
  const std::string exe = fs::canonical(JOLT_RUN_EXE).string();
  CHECK(std::find(whole.strings.begin(), whole.strings.end(), exe) != whole.strings.end());
  CHECK(std::any_of(whole.strings.begin(), whole.strings.end(), [](const std::string& s) {
    return s.find("fibonacci") != std::string::npos && s.find(".so") != std::string::npos;
  }));
}

TEST_CASE("PPROF_PREFIX, the original's variable, names where the CPU profiles go") {
  Workspace w;
  const fs::path prefix = w.dir / "elsewhere" / "custom_";
  for (const char* cmd : {"profile --workload fibonacci --scale 10 --format none --pprof -q",
                          "legacy profile --name fibonacci --scale 10 --pprof -q"}) {
    INFO(cmd);
    fs::remove_all(w.dir / "elsewhere");
    const Result r = run(cmd, w.dir, "PPROF_PREFIX='" + prefix.string() + "'");
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK(fs::exists(w.dir / "elsewhere" / "custom_prove.pb"));
    CHECK(fs::exists(w.dir / "elsewhere" / "custom_prove_stage0.pb"));
    CHECK(fs::exists(w.dir / "elsewhere" / "custom_prove_stage8.pb"));
  }
  // Not in the run directory or the legacy pprof folder.
  CHECK_FALSE(fs::exists(w.dir / "benchmark-runs" / "latest_modular_fibonacci_10" / "pprof"));
  CHECK_FALSE(fs::exists(w.dir / "benchmark-runs" / "pprof"));
}

TEST_CASE("profile --pprof with a PPROF_FREQ that is not a number fails before proving") {
  Workspace w;
  const Result r = run("profile --workload fibonacci --scale 10 --pprof", w.dir, "PPROF_FREQ=fast");
  INFO(r.output);
  CHECK(r.code == 1);
  CHECK(r.output.find("PPROF_FREQ=fast") != std::string::npos);
  CHECK_FALSE(fs::exists(w.dir / "benchmark-runs" / "latest_modular_fibonacci_10"));
}

TEST_CASE("pprof (built from Debian's sources) reads a stage profile: pprof -top") {
  const Workspace& w = profiled();
  const fs::path file = pprof_dir(w) / "prove.pb";
  REQUIRE(fs::exists(file));
  const Result r = run_shell(
      std::string("'") + JOLT_PPROF + "' -top -symbolize=none '" + file.string() + "'", w.dir);
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK(r.output.find("Type: cpu") != std::string::npos);
  CHECK(r.output.find("jolt::prover::") != std::string::npos);  // named functions in the table
}
