// sha2-chain workload: h = seed, then n times h = SHA-256(h), on the RV32IM guest (guest.c).
// Input: the 32-byte seed [5u8; 32], then u32 little-endian n (= ops). Output: the final h.
#include <algorithm>
#include <array>

#include <jolt/plugin.hpp>
#include <jolt/workload.hpp>

#include "host_hashes.hpp"
#include "scale.hpp"

namespace {

// Measured with bench/tracer/guest_cycles (fast-mode tracer, clang 14 -O2 guest): cycles(0) = 199,
// (cycles(n) - cycles(0)) / n = 5487.00 for n from 14 to 15099 (one 32-byte message = one
// compression per hash). Per-op rounded up by one cycle, fixed to 256.
constexpr jolt::workloads::CycleModel kModel{5488.0, 256};

class Sha2Chain final : public jolt::Workload {
 public:
  std::uint32_t default_scale() const noexcept override { return 22; }
  std::uint32_t min_scale() const noexcept override {
    return jolt::workloads::min_scale_for(kModel);
  }
  double cycles_per_op() const noexcept override { return kModel.cycles_per_op; }
  std::span<const std::uint8_t> guest_elf() const noexcept override {
    return jolt::workloads::embedded_guest_elf();
  }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    std::uint64_t ops = 0;
    if (auto st = jolt::workloads::ops_for_scale("sha2-chain", scale, kModel, &ops); !st) return st;
    out->ops = ops;
    out->bytes.assign(36, 5);
    jolt::workloads::put_u32(out->bytes.data() + 32, static_cast<std::uint32_t>(ops));
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    if (in.bytes.size() != 36) return jolt::Status::error("sha2-chain: input is not seed + u32");
    std::array<std::uint8_t, 32> h{};
    std::copy(in.bytes.begin(), in.bytes.begin() + 32, h.begin());
    const std::uint32_t n = jolt::workloads::get_u32(in.bytes.data() + 32);
    for (std::uint32_t i = 0; i < n; ++i) h = jolt::workloads::host_sha256(h);
    if (output.size() != 32 || !std::equal(h.begin(), h.end(), output.begin()))
      return jolt::Status::error("sha2-chain: expected " + jolt::workloads::to_hex(h) + " after " +
                                 std::to_string(n) + " hashes, guest wrote " +
                                 jolt::workloads::to_hex(output));
    return jolt::Status::success();
  }
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Sha2Chain, "sha2-chain",
                            "SHA-256 hash chain from a 32-byte seed (RV32IM guest)")
