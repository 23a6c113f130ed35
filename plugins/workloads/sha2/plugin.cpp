// sha2 workload: one SHA-256 of a natural-size message (the 32 bytes [5u8; 32]) on the
// RV32IM guest (guest.c). Input: the message bytes. Output: the 32-byte digest.
// The work does not grow with the scale: any scale >= min_scale() gives the same input.
#include <algorithm>
#include <array>

#include <jolt/plugin.hpp>
#include <jolt/workload.hpp>

#include "host_hashes.hpp"
#include "scale.hpp"

namespace {

constexpr std::size_t kMessageBytes = 32;
// Measured with bench/tracer/guest_cycles: the whole run (startup, hash, output, exit) of the
// 32-byte message is 5581 cycles; rounded up to 5600.
constexpr double kCycles = 5600.0;
// ops is always 1: the mapping is still applied so a too-small scale is refused the same way.
constexpr jolt::workloads::CycleModel kModel{kCycles, 0};

class Sha2 final : public jolt::Workload {
 public:
  std::uint32_t default_scale() const noexcept override { return min_scale(); }
  std::uint32_t min_scale() const noexcept override {
    return jolt::workloads::min_scale_for(kModel);
  }
  double cycles_per_op() const noexcept override { return kModel.cycles_per_op; }
  std::span<const std::uint8_t> guest_elf() const noexcept override {
    return jolt::workloads::embedded_guest_elf();
  }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    std::uint64_t ops = 0;
    if (auto st = jolt::workloads::ops_for_scale("sha2", scale, kModel, &ops); !st) return st;
    out->ops = 1;
    out->bytes.assign(kMessageBytes, 5);
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    const auto want = jolt::workloads::host_sha256(in.bytes);
    if (output.size() != 32 || !std::equal(want.begin(), want.end(), output.begin()))
      return jolt::Status::error("sha2: expected digest " + jolt::workloads::to_hex(want) +
                                 ", guest wrote " + jolt::workloads::to_hex(output));
    return jolt::Status::success();
  }
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Sha2, "sha2", "one SHA-256 of a 32-byte message (RV32IM guest)")
