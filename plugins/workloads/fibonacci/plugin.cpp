// fibonacci workload: fib(n) mod 2^32 in a loop on the RV32IM guest (guest.c).
// Input: u32 little-endian n (= ops). Output: u32 little-endian fib(n) mod 2^32.
#include <jolt/plugin.hpp>
#include <jolt/workload.hpp>

#include "scale.hpp"

namespace {

// Measured with bench/tracer/guest_cycles (fast-mode tracer, clang 14 -O2 guest) in trace rows
// (cycles plus virtual-sequence rows): rows(0) = 81, (rows(n) - rows(0)) / n = 7.00 for every n
// from 131 to 8628282 (the loop body is add, mv, addi, bne plus the empty asm barrier's moves; 3
// more for the exit). Fixed rounded up.
constexpr jolt::workloads::CycleModel kModel{7.0, 96};

class Fibonacci final : public jolt::Workload {
 public:
  std::uint32_t default_scale() const noexcept override { return 16; }
  std::uint32_t min_scale() const noexcept override {
    return jolt::workloads::min_scale_for(kModel);
  }
  double cycles_per_op() const noexcept override { return kModel.cycles_per_op; }
  std::span<const std::uint8_t> guest_elf() const noexcept override {
    return jolt::workloads::embedded_guest_elf();
  }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    std::uint64_t ops = 0;
    if (auto st = jolt::workloads::ops_for_scale("fibonacci", scale, kModel, &ops); !st) return st;
    out->ops = ops;
    out->bytes.assign(4, 0);
    jolt::workloads::put_u32(out->bytes.data(), static_cast<std::uint32_t>(ops));
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    if (in.bytes.size() != 4) return jolt::Status::error("fibonacci: input is not a u32");
    const std::uint32_t n = jolt::workloads::get_u32(in.bytes.data());
    std::uint32_t a = 0, b = 1;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t t = a + b;
      a = b;
      b = t;
    }
    if (output.size() != 4)
      return jolt::Status::error("fibonacci: guest wrote " + std::to_string(output.size()) +
                                 " output bytes, expected 4");
    const std::uint32_t got = jolt::workloads::get_u32(output.data());
    if (got != a)
      return jolt::Status::error("fibonacci: fib(" + std::to_string(n) + ") mod 2^32 = " +
                                 std::to_string(a) + ", guest returned " + std::to_string(got));
    return jolt::Status::success();
  }
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Fibonacci, "fibonacci", "fib(n) mod 2^32 in a loop (RV32IM guest)")
