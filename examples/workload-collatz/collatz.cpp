// collatz: an out-of-tree jolt-run workload, built only against the installed SDK.
// Input u32 n; the guest sums the Collatz stopping times of 1..n; the host checks the sum.
#include <jolt/plugin.hpp>
#include <jolt/workload.hpp>

#include <cstddef>

extern "C" {
extern const unsigned char jolt_guest_elf_data[];  // embedded by jolt_add_guest_workload
extern const std::size_t jolt_guest_elf_size;
}

namespace {

std::uint64_t steps_up_to(std::uint32_t n) {
  std::uint64_t total = 0;
  for (std::uint64_t i = 1; i <= n; ++i)
    for (std::uint64_t x = i; x != 1; ++total) x = (x & 1) ? 3 * x + 1 : x / 2;
  return total;
}

// Measured with `jolt-run trace --workload ./libcollatz.so`: about 150 RV32IM cycles per
// starting value for n in the low thousands (64-bit arithmetic on a 32-bit core); the mapping
// uses 200 to stay below 2^scale as n (and the mean stopping time) grows.
constexpr double kCyclesPerOp = 200.0;

class Collatz final : public jolt::Workload {
 public:
  std::uint32_t default_scale() const noexcept override { return 14; }
  std::uint32_t min_scale() const noexcept override { return 10; }
  double cycles_per_op() const noexcept override { return kCyclesPerOp; }
  std::span<const std::uint8_t> guest_elf() const noexcept override {
    return {jolt_guest_elf_data, jolt_guest_elf_size};
  }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    if (scale < min_scale())
      return jolt::Status::error("collatz needs --scale " + std::to_string(min_scale()) +
                                 " or more");
    const auto target = static_cast<std::uint64_t>(static_cast<double>(1ull << scale) * 0.9);
    out->ops = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(static_cast<double>(target) / kCyclesPerOp));
    const auto n = static_cast<std::uint32_t>(out->ops);
    out->bytes = {static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8),
                  static_cast<std::uint8_t>(n >> 16), static_cast<std::uint8_t>(n >> 24)};
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    if (output.size() != 4) return jolt::Status::error("collatz: expected 4 output bytes");
    const std::uint32_t got = static_cast<std::uint32_t>(output[0]) |
                              (static_cast<std::uint32_t>(output[1]) << 8) |
                              (static_cast<std::uint32_t>(output[2]) << 16) |
                              (static_cast<std::uint32_t>(output[3]) << 24);
    const auto want = static_cast<std::uint32_t>(steps_up_to(static_cast<std::uint32_t>(in.ops)));
    if (got != want)
      return jolt::Status::error("collatz: guest says " + std::to_string(got) +
                                 " steps, host says " + std::to_string(want));
    return jolt::Status::success();
  }
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Collatz, "collatz", "total Collatz steps of 1..n (out-of-tree example)")
