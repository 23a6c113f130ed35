// tracer_bench: RV32IM interpreter throughput in instructions/second, unrecorded (fast mode)
// and recorded (one TraceRow per instruction), on the fibonacci and sha2-chain guests.
// Usage: tracer_bench [plugin-dir]. Prints the best of 3 runs; numbers only, no thresholds.
// Scales stay at 2^21 so a recorded trace (~64 B/row) stays near 128 MB on a shared machine.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <jolt/prover/tracer/tracer.hpp>

#include <jolt/host/plugin_loader.hpp>
#include <jolt/workload.hpp>

namespace {

double best_rate(const jolt::prover::ElfImage& elf, const std::vector<std::uint8_t>& input,
                 bool record, std::uint64_t* cycles) {
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    jolt::prover::ExecOptions opt;
    opt.record = record;
    const auto t0 = std::chrono::steady_clock::now();
    const auto run = jolt::prover::execute(elf, input, opt);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    *cycles = run.cycles;
    best = std::max(best, static_cast<double>(run.cycles) / s);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : JOLT_PLUGIN_BUILD_DIR;
  for (auto [name, scale] :
       {std::pair{"fibonacci", 21u}, std::pair{"sha2-chain", 21u}, std::pair{"btreemap", 21u}}) {
    const auto w =
        jolt::host::PluginLoader({dir}).load(name, JOLT_PLUGIN_WORKLOAD).create<jolt::Workload>();
    const auto elf = jolt::prover::load_elf(w->guest_elf());
    jolt::WorkloadInput in;
    if (auto st = w->make_input(scale, &in); !st) {
      std::printf("%s: %s\n", name, st.message.c_str());
      return 1;
    }
    std::uint64_t cycles = 0;
    const double fast = best_rate(elf, in.bytes, false, &cycles);
    const double rec = best_rate(elf, in.bytes, true, &cycles);
    std::printf(
        "%-10s scale %2u: %10llu instr  unrecorded %7.1f M instr/s  recorded %7.1f M instr/s\n",
        name, scale, static_cast<unsigned long long>(cycles), fast / 1e6, rec / 1e6);
  }
  return 0;
}
