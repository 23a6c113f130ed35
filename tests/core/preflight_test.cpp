// The memory pre-flight check of profile and prove (core/src/commands/profile/preflight.hpp):
// the plan against a budget, the largest scale that fits, the refusal text, --force.
#include <doctest/doctest.h>
#include <cmath>

#include <jolt/prover/pipeline/prover.hpp>

#include "commands/profile/preflight.hpp"

using namespace jolt::core;
using jolt::prover::PcsKind;

TEST_CASE("preflight: the plan names the largest scale whose estimate fits") {
  const auto est = jolt::prover::estimate_prover_memory(PcsKind::kBasefold);
  const std::uint64_t budget = est.peak_bytes(20);  // exactly 2^20 fits
  const MemoryPlan at20 = plan_memory(20, PcsKind::kBasefold, budget, "test");
  CHECK(at20.fits());
  CHECK(at20.largest_fitting_scale == 20u);
  const MemoryPlan at21 = plan_memory(21, PcsKind::kBasefold, budget, "test");
  CHECK_FALSE(at21.fits());
  CHECK(at21.needed_bytes == est.peak_bytes(21));
  CHECK(at21.largest_fitting_scale == 20u);
  // Below the fixed part nothing fits.
  const MemoryPlan none = plan_memory(4, PcsKind::kBasefold, est.fixed_bytes / 2, "test");
  CHECK_FALSE(none.fits());
  CHECK_FALSE(none.largest_fitting_scale.has_value());
}

TEST_CASE(
    "preflight: the schemes' estimates are ordered as measured (Ligero > reveal > Basefold)") {
  const auto b = jolt::prover::estimate_prover_memory(PcsKind::kBasefold);
  const auto r = jolt::prover::estimate_prover_memory(PcsKind::kReveal);
  const auto l = jolt::prover::estimate_prover_memory(PcsKind::kLigero);
  CHECK(b.bytes_per_row < r.bytes_per_row);
  CHECK(r.bytes_per_row < l.bytes_per_row);
  // The seed's default run, sha2-chain at 2^22, fits a 24 GiB machine with Basefold.
  CHECK(b.peak_bytes(22) < std::uint64_t{20} << 30);
  CHECK(b.peak_bytes(40) > b.peak_bytes(22));
  CHECK(b.peak_bytes(60) == b.peak_bytes(40));  // clamped, no overflow
}

TEST_CASE("preflight: the refusal says what, how much, from where, and the ways on") {
  PreflightOptions opt;
  opt.memory_budget_gib = 0.5;
  const auto why = preflight_memory(opt, "sha2-chain", 24, PcsKind::kBasefold);
  REQUIRE(why.has_value());
  CHECK(why->find("sha2-chain at scale 2^24") != std::string::npos);
  CHECK(why->find("512 MiB is available (--memory-budget)") != std::string::npos);
  CHECK(why->find("needs about 13.8 GiB") != std::string::npos);
  CHECK(why->find("the largest scale that fits is 2^19: use --scale 19 or smaller") !=
        std::string::npos);
  CHECK(why->find("--force") != std::string::npos);
  CHECK_FALSE(preflight_memory(opt, "sha2-chain", 19, PcsKind::kBasefold).has_value());
  opt.force = true;
  CHECK_FALSE(preflight_memory(opt, "sha2-chain", 24, PcsKind::kBasefold).has_value());
  opt.force = false;
  // A budget that is not a positive number of GiB is named as given, not planned against (an
  // explicit 0 is not "unset").
  for (const double gib : {-1.0, 0.0, std::nan(""), 1e-12}) {
    CAPTURE(gib);
    opt.memory_budget_gib = gib;
    REQUIRE(opt.error().has_value());
    const auto bad = preflight_memory(opt, "sha2-chain", 10, PcsKind::kBasefold);
    REQUIRE(bad.has_value());
    CHECK(bad->find("--memory-budget ") == 0);
    CHECK(bad->find("expected a positive number of GiB") != std::string::npos);
  }
  opt.memory_budget_gib = -1;
  CHECK(preflight_memory(opt, "sha2-chain", 10, PcsKind::kBasefold)->find("--memory-budget -1:") ==
        0);
  opt.memory_budget_gib = 0;
  CHECK(preflight_memory(opt, "sha2-chain", 10, PcsKind::kBasefold)->find("--memory-budget 0:") ==
        0);
  opt.memory_budget_gib.reset();
  CHECK_FALSE(opt.error().has_value());
}

TEST_CASE("preflight: this machine's available memory is readable and plausible") {
  std::string source;
  const auto avail = available_memory_bytes(&source);
  REQUIRE(avail.has_value());
  CHECK(*avail > (std::uint64_t{16} << 20));
  CHECK((source == "MemAvailable" || source == "cgroup memory.max"));
}
