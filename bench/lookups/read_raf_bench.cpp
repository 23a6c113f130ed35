// Instruction lookups (prover/src/engine/lookups): the read-raf's eight address phases, its
// cycle rounds and the key-bit sumcheck (RA virtualization + booleanity), timed at several trace
// lengths on a random mix of the 19 instruction tables (one cycle in 11 without a lookup), median
// of `reps`. Each address phase should cost Θ(T): the ns-per-cycle columns stay flat across
// scales and the time ratio between scales two bits apart is ≈ 4. With --workload, the lookups
// of a real guest's trace at each scale instead (lookups_for's steps, one cycle each; the
// cycle count is the steps' padded count). Prints the process's peak RSS at the end. Not a test.
//   read_raf_bench [log_T list=14,16,18] [reps=3]
//   read_raf_bench --workload sha2-chain [scales=16] [reps=3]
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <jolt/prover/lookups/instruction_lookup_map.hpp>
#include <jolt/prover/lookups/instruction_lookups.hpp>
#include <jolt/prover/lookups/instruction_tables.hpp>
#include <jolt/prover/tracer/tracer.hpp>

#include <jolt/host/plugin_loader.hpp>
#include <jolt/workload.hpp>

using jolt::prover::Fr;
using jolt::prover::Transcript;
namespace lk = jolt::prover::lookups;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

lk::InstructionLookupWitness make_witness(std::size_t log_t) {
  std::mt19937_64 rng(log_t);
  lk::InstructionLookupWitness w;
  const std::size_t n = std::size_t{1} << log_t;
  w.keys.reserve(n);
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint64_t pick = rng() % 209;  // 19 tables × 11, the last 19 values: no lookup
    if (pick >= 190) {
      w.keys.push_back(0);
      w.tables.push_back(lk::kNoTable);
      w.raf.push_back(0);
      continue;
    }
    const auto t = static_cast<lk::LookupTable>(pick % lk::kNumInstructionTables);
    const auto x = static_cast<std::uint32_t>(rng()), y = static_cast<std::uint32_t>(rng());
    const bool one_operand = !lk::takes_operand_pair(t);
    w.keys.push_back(one_operand ? (t == lk::LookupTable::RangeCheck ? std::uint64_t{x} + y
                                                                     : std::uint64_t{x} * y)
                                 : lk::interleave(x, y));
    w.tables.push_back(static_cast<std::uint8_t>(t));
    w.raf.push_back(one_operand ? 1 : 0);
  }
  return w;
}

}  // namespace

// The lookup witness of a workload's trace at `scale`.
lk::InstructionLookupWitness workload_witness(const std::string& name, std::uint32_t scale) {
  const auto w = jolt::host::PluginLoader({JOLT_PLUGIN_BUILD_DIR})
                     .load(name, JOLT_PLUGIN_WORKLOAD)
                     .create<jolt::Workload>();
  jolt::WorkloadInput in;
  const auto st = w->make_input(scale, &in);
  if (!st.ok)
    throw std::runtime_error(name + " at scale " + std::to_string(scale) + ": " + st.message);
  jolt::prover::ExecOptions opt;
  opt.record = true;
  opt.max_cycles = 1ull << 28;
  const auto ex = jolt::prover::execute(jolt::prover::load_elf(w->guest_elf()), in.bytes, opt);
  std::printf("%s scale %u: %zu trace rows\n", name.c_str(), scale, ex.rows.size());
  return lk::lookup_witness_of(ex.rows);
}

int main(int argc, char** argv) {
  std::string workload;
  if (argc > 2 && std::string(argv[1]) == "--workload") {
    workload = argv[2];
    argv += 2;
    argc -= 2;
  }
  std::vector<std::size_t> sizes = {14, 16, 18};
  if (!workload.empty()) sizes = {16};
  if (argc > 1) {
    sizes.clear();
    std::stringstream ss(argv[1]);
    for (std::string s; std::getline(ss, s, ',');) sizes.push_back(std::stoul(s));
  }
  const int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf(
      "instruction lookups, W = 32 (64-bit keys, %u-bit phases, %zu virtual chunks), "
      "median of %d\n",
      lk::kPhaseBits, lk::virtual_chunks(32), reps);
  std::printf("%5s %9s | %-62s | %9s %9s %9s %9s\n", "log_T", "cycles",
              "address phase 1..8, ns per cycle", "phases ms", "cycle ms", "bits ms", "verify ms");
  double prev_phases = 0;
  std::size_t prev_log = 0;
  for (std::size_t scale : sizes) {
    const lk::InstructionLookupWitness w =
        workload.empty() ? make_witness(scale)
                         : workload_witness(workload, static_cast<std::uint32_t>(scale));
    const auto log_t = static_cast<std::size_t>(std::countr_zero(w.cycles()));
    std::mt19937_64 rng(1);
    std::vector<Fr> r(log_t);
    for (auto& x : r) x = Fr::from_u64(rng()) * Fr::from_u64(rng());
    const lk::InstructionLookupClaims claims = lk::lookup_claims(w, r);
    std::vector<std::vector<double>> phase(8);
    std::vector<double> cycle, bits, verify_ms;
    for (int rep = 0; rep < reps; ++rep) {
      Transcript tp("read-raf-bench");
      const lk::InstructionLookupProof proof = lk::prove_instruction_lookups(w, r, claims, tp);
      const lk::ReadRafTimings& t = lk::last_read_raf_timings();
      for (std::size_t p = 0; p < 8; ++p) phase[p].push_back(t.phase_seconds[p]);
      cycle.push_back(t.cycle_seconds);
      bits.push_back(t.key_bits_seconds);
      Transcript tv("read-raf-bench");
      lk::InstructionLookupOpenings o;
      const auto v0 = std::chrono::steady_clock::now();
      if (auto e = lk::verify_instruction_lookups(32, log_t, r, claims, proof, tv, o)) {
        std::fprintf(stderr, "read_raf_bench: the proof was rejected at %s\n", e->check.c_str());
        return 1;
      }
      verify_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - v0).count());
    }
    const double n = static_cast<double>(std::size_t{1} << log_t);
    std::string cols;
    double phases = 0;
    for (std::size_t p = 0; p < 8; ++p) {
      const double m = median(phase[p]);
      phases += m;
      char buf[16];
      std::snprintf(buf, sizeof buf, "%7.0f ", m * 1e9 / n);
      cols += buf;
    }
    std::printf("%5zu %9.0f | %-62s | %9.1f %9.1f %9.1f %9.2f\n", log_t, n, cols.c_str(),
                phases * 1e3, median(cycle) * 1e3, median(bits) * 1e3, median(verify_ms));
    if (prev_phases > 0)
      std::printf("      address phases 2^%zu / 2^%zu: x%.2f for x%.0f cycles\n", log_t, prev_log,
                  phases / prev_phases, std::ldexp(1.0, static_cast<int>(log_t - prev_log)));
    prev_phases = phases;
    prev_log = log_t;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak RSS %.1f MiB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
  return 0;
}
