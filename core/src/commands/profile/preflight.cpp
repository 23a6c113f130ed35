// The memory pre-flight check (preflight.hpp).
#include "commands/profile/preflight.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <jolt/prover/pipeline/prover.hpp>
#include <sstream>

namespace jolt::core {
namespace po = boost::program_options;

namespace {

// MiB below 1 GiB, else GiB with one decimal.
std::string gib(std::uint64_t bytes) {
  char buf[32];
  if (bytes < (std::uint64_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1u << 20));
  else
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return buf;
}

std::optional<std::uint64_t> read_u64_file(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  if (!(f >> s) || s == "max") return std::nullopt;
  try {
    return static_cast<std::uint64_t>(std::stoull(s));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

void PreflightOptions::add_to(po::options_description& desc) {
  desc.add_options()("force", po::bool_switch(&force),
                     "run even when the memory pre-flight check estimates that the prover's peak "
                     "exceeds the memory available")(
      // Checked as the options are parsed: a usage error (exit code 2) before anything runs.
      "memory-budget", po::value<double>()->value_name("GiB")->notifier([this](double gib) {
        memory_budget_gib = gib;
        if (auto why = error()) throw po::error(*why);
      }),
      "GiB the pre-flight check plans against instead of the memory available now");
}

std::optional<std::string> PreflightOptions::error() const {
  if (!memory_budget_gib) return std::nullopt;
  const double gib = *memory_budget_gib;
  if (gib > 0 && std::isfinite(gib) && gib * static_cast<double>(1u << 30) >= 1)
    return std::nullopt;
  std::ostringstream out;
  out << "--memory-budget " << gib
      << ": expected a positive number of GiB (the memory the run may use, e.g. 16); leave it "
         "out to plan against the memory available now";
  return out.str();
}

std::optional<std::uint64_t> available_memory_bytes(std::string* source) {
  std::optional<std::uint64_t> avail;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream in(line.substr(13));
    std::uint64_t kib = 0;
    if (in >> kib) avail = kib * 1024;
    break;
  }
  if (avail && source) *source = "MemAvailable";
  // cgroup v2: "0::/path" in /proc/self/cgroup names this process's group.
  std::ifstream cg("/proc/self/cgroup");
  for (std::string line; std::getline(cg, line);) {
    if (line.rfind("0::", 0) != 0) continue;
    const std::string dir = "/sys/fs/cgroup" + line.substr(3);
    const auto max = read_u64_file(dir + "/memory.max");
    if (!max) break;
    const std::uint64_t current = read_u64_file(dir + "/memory.current").value_or(0);
    const std::uint64_t left = *max > current ? *max - current : 0;
    if (!avail || left < *avail) {
      avail = left;
      if (source) *source = "cgroup memory.max";
    }
    break;
  }
  return avail;
}

MemoryPlan plan_memory(unsigned scale, jolt::prover::PcsKind pcs, std::uint64_t available,
                       std::string available_source, jolt::prover::ProverBackend backend) {
  const jolt::prover::MemoryEstimate est = jolt::prover::estimate_prover_memory(pcs, backend);
  MemoryPlan plan;
  plan.needed_bytes = est.peak_bytes(scale);
  plan.available_bytes = available;
  plan.available_source = std::move(available_source);
  for (unsigned s = 1; s <= 40 && est.peak_bytes(s) <= available; ++s)
    plan.largest_fitting_scale = s;
  return plan;
}

std::string memory_refusal(const std::string& workload, unsigned scale, jolt::prover::PcsKind pcs,
                           const MemoryPlan& plan, jolt::prover::ProverBackend backend) {
  const jolt::prover::MemoryEstimate est = jolt::prover::estimate_prover_memory(pcs, backend);
  std::ostringstream out;
  out << "proving " << workload << " at scale 2^" << scale << " needs about "
      << gib(plan.needed_bytes) << " by the prover's memory model (" << jolt::prover::pcs_name(pcs)
      << (backend == jolt::prover::ProverBackend::kReference ? ", reference backend" : "") << ": "
      << est.bytes_per_row << " bytes per padded cycle + " << est.fixed_bytes / (1u << 20)
      << " MiB), but " << gib(plan.available_bytes) << " is available (" << plan.available_source
      << "); ";
  if (plan.largest_fitting_scale)
    out << "the largest scale that fits is 2^" << *plan.largest_fitting_scale << ": use --scale "
        << *plan.largest_fitting_scale << " or smaller";
  else
    out << "no scale fits: free memory";
  out << ", or pass --force to run anyway";
  return out.str();
}

std::optional<std::string> preflight_memory(const PreflightOptions& opt,
                                            const std::string& workload, unsigned scale,
                                            jolt::prover::PcsKind pcs,
                                            jolt::prover::ProverBackend backend) {
  std::uint64_t available = 0;
  std::string source;
  if (auto why = opt.error()) return why;
  if (opt.memory_budget_gib) {
    available = static_cast<std::uint64_t>(*opt.memory_budget_gib * static_cast<double>(1u << 30));
    source = "--memory-budget";
  } else if (auto a = available_memory_bytes(&source)) {
    available = *a;
  } else {
    spdlog::warn(
        "memory pre-flight check skipped: neither /proc/meminfo nor the cgroup says how "
        "much memory is available");
    return std::nullopt;
  }
  const MemoryPlan plan = plan_memory(scale, pcs, available, source, backend);
  if (plan.fits()) return std::nullopt;
  const std::string why = memory_refusal(workload, scale, pcs, plan, backend);
  if (opt.force) {
    spdlog::warn("{} (running anyway: --force)", why);
    return std::nullopt;
  }
  return why;
}

}  // namespace jolt::core
