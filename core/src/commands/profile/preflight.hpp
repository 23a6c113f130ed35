// The memory pre-flight check of `profile` (and of the runs `benchmark` starts): before tracing,
// compare the prover's estimated peak for 2^scale padded rows (jolt::prover::
// estimate_prover_memory) with the memory this process may use, and refuse a run that would not
// fit, naming the largest scale that does. --force skips the refusal; --memory-budget GiB plans
// against a given amount instead of what the machine has available.
#pragma once
#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/pipeline/prover.hpp>

namespace jolt::core {

struct PreflightOptions {
  bool force = false;
  std::optional<double> memory_budget_gib;  // unset: what the machine has available

  void add_to(boost::program_options::options_description& desc);
  // Why the options cannot be used (a --memory-budget that is not a positive number of GiB).
  std::optional<std::string> error() const;
};

// Memory this process may still use: MemAvailable from /proc/meminfo, lowered to the cgroup v2
// limit (memory.max − memory.current) when one applies. `source` names where the figure came
// from. nullopt when neither can be read.
std::optional<std::uint64_t> available_memory_bytes(std::string* source);

struct MemoryPlan {
  std::uint64_t needed_bytes = 0;     // the estimate at the requested scale
  std::uint64_t available_bytes = 0;  // budget or available memory
  std::string available_source;       // "--memory-budget", "MemAvailable", "cgroup memory.max"
  std::optional<unsigned> largest_fitting_scale;  // nullopt: not even 2^1 fits
  bool fits() const { return needed_bytes <= available_bytes; }
};

// The plan for proving `workload` at 2^scale padded rows with `pcs` against `available` bytes.
MemoryPlan plan_memory(
    unsigned scale, jolt::prover::PcsKind pcs, std::uint64_t available,
    std::string available_source,
    jolt::prover::ProverBackend backend = jolt::prover::ProverBackend::kOptimized);

// The refusal text for a plan that does not fit: what was asked, the estimate, what is
// available and from where, the largest scale that fits, and the two ways on.
std::string memory_refusal(
    const std::string& workload, unsigned scale, jolt::prover::PcsKind pcs, const MemoryPlan& plan,
    jolt::prover::ProverBackend backend = jolt::prover::ProverBackend::kOptimized);

// Runs the check for `profile`: nullopt when the run may go ahead (it fits, --force, or the
// available memory cannot be read — then it logs a warning), else the refusal text.
std::optional<std::string> preflight_memory(
    const PreflightOptions& opt, const std::string& workload, unsigned scale,
    jolt::prover::PcsKind pcs,
    jolt::prover::ProverBackend backend = jolt::prover::ProverBackend::kOptimized);

}  // namespace jolt::core
