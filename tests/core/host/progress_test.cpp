// The progress line's text: stage k of n, elapsed time, and the estimate from an earlier run.
#include "jolt/host/progress.hpp"

#include <doctest/doctest.h>

using jolt::host::ProveProgress;
using namespace std::chrono_literals;

TEST_CASE("progress: stage, elapsed and the estimate from an earlier run's stage times") {
  const jolt::host::ProveProgress none(jolt::host::ProveProgress::Mode::kOff, 3, {});
  CHECK(none.line(0, "prove_stage0", 1500ms, 0ms) ==
        "proving: stage 1/3 prove_stage0   1.5 s elapsed");
  // Earlier run: 10 s, 20 s, 30 s. At stage 2, 4 s into it: 20 + 30 − 4 = 46 s left.
  const jolt::host::ProveProgress eta(jolt::host::ProveProgress::Mode::kOff, 3,
                                      {10'000'000'000, 20'000'000'000, 30'000'000'000});
  CHECK(eta.line(1, "prove_stage1", 14s, 4s) ==
        "proving: stage 2/3 prove_stage1   14.0 s elapsed, ~46.0 s left");
  CHECK(eta.line(2, "prove_stage2", 125s, 31s) ==
        "proving: stage 3/3 prove_stage2   2m05s elapsed, finishing");
  CHECK(eta.line(0, "prove_stage0", 0s, 0s).find("~1m00s left") != std::string::npos);
  // An earlier run with another number of stages gives no estimate.
  const jolt::host::ProveProgress other(jolt::host::ProveProgress::Mode::kOff, 3, {1, 2});
  CHECK(other.line(0, "prove_stage0", 0s, 0s).find("left") == std::string::npos);
}
