// guest_cycles: measures each workload guest's trace rows (fast-mode tracer: RV32IM cycles plus
// the rows of virtual sequences, the length the prover pads) for given op counts, and the
// resulting per-op cost; the numbers written into each plugin's CycleModel come from here.
// Usage: guest_cycles [plugin-dir]
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

#include <jolt/prover/tracer/tracer.hpp>

#include <jolt/host/plugin_loader.hpp>
#include <jolt/workload.hpp>
#include "../../plugins/workloads/common/scale.hpp"

namespace {

std::uint64_t cycles(const jolt::prover::ElfImage& elf, const std::vector<std::uint8_t>& input) {
  jolt::prover::ExecOptions opt;
  opt.record = false;
  return jolt::prover::execute(elf, input, opt).trace_rows;
}

std::vector<std::uint8_t> input_for(const std::string& name, std::uint32_t n) {
  std::vector<std::uint8_t> in;
  if (name.find("chain") != std::string::npos) {
    in.assign(36, 5);
    jolt::workloads::put_u32(in.data() + 32, n);
  } else if (name == "sha2" || name == "sha3") {
    in.assign(32, 5);
  } else {
    in.assign(4, 0);
    jolt::workloads::put_u32(in.data(), n);
  }
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : JOLT_PLUGIN_BUILD_DIR;
  for (const char* name : {"fibonacci", "sha2", "sha3", "sha2-chain", "sha3-chain", "btreemap"}) {
    try {
      const auto w =
          jolt::host::PluginLoader({dir}).load(name, JOLT_PLUGIN_WORKLOAD).create<jolt::Workload>();
      const auto elf = jolt::prover::load_elf(w->guest_elf());
      const std::uint64_t base = cycles(elf, input_for(name, 0));
      std::printf("%-10s cycles(0)=%llu model cpo=%.1f min_scale=%u default_scale=%u\n", name,
                  static_cast<unsigned long long>(base), w->cycles_per_op(), w->min_scale(),
                  w->default_scale());
      for (std::uint32_t s = 10; s <= 26; s += 2) {
        const std::uint64_t n = jolt::workloads::ops_formula(s, w->cycles_per_op());
        const std::uint64_t c = cycles(elf, input_for(name, static_cast<std::uint32_t>(n)));
        std::printf(
            "  scale %2u: ops %8llu cycles %10llu  (cycles-cycles(0))/ops %.2f  padded 2^%d\n", s,
            static_cast<unsigned long long>(n), static_cast<unsigned long long>(c),
            static_cast<double>(c - base) / static_cast<double>(n),
            static_cast<int>(std::bit_width(jolt::prover::padded_length(c))) - 1);
      }
      jolt::WorkloadInput in;
      if (auto st = w->make_input(w->default_scale(), &in); st) {
        const std::uint64_t c = cycles(elf, in.bytes);
        std::printf("  default scale %u: ops %llu cycles %llu\n", w->default_scale(),
                    static_cast<unsigned long long>(in.ops), static_cast<unsigned long long>(c));
      }
    } catch (const std::exception& e) {
      std::printf("%-10s error: %s\n", name, e.what());
    }
  }
  return 0;
}
