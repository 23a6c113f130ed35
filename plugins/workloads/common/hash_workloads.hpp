// The four hash workloads share two shapes: a chain (h = seed, then n times h = H(h)) and a
// single digest of a fixed natural-size message. Each plugin instantiates one of these with its
// name, host hash and measured cycle model.
//
//   class Sha2Chain final : public jolt::workloads::HashChain<&jolt::workloads::host_sha256> {
//    public:
//     Sha2Chain() : HashChain("sha2-chain", kModel) {}
//   };
#pragma once
#include <algorithm>
#include <array>
#include <string>

#include <jolt/workload.hpp>

#include "host_hashes.hpp"
#include "scale.hpp"

namespace jolt::workloads {

using HostHash = std::array<std::uint8_t, 32> (*)(std::span<const std::uint8_t>);

// Input: the 32-byte seed [5u8; 32], then u32 little-endian n (= ops). Output: the final h.
template <HostHash kHash>
class HashChain : public jolt::Workload {
 public:
  HashChain(const char* name, CycleModel model) : name_(name), model_(model) {}
  std::uint32_t default_scale() const noexcept override { return 22; }
  std::uint32_t min_scale() const noexcept override { return min_scale_for(model_); }
  double cycles_per_op() const noexcept override { return model_.cycles_per_op; }
  std::span<const std::uint8_t> guest_elf() const noexcept override { return embedded_guest_elf(); }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    std::uint64_t ops = 0;
    if (auto st = ops_for_scale(name_, scale, model_, &ops); !st) return st;
    out->ops = ops;
    out->bytes.assign(36, 5);
    put_u32(out->bytes.data() + 32, static_cast<std::uint32_t>(ops));
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    if (in.bytes.size() != 36)
      return jolt::Status::error(std::string(name_) + ": input is not seed + u32");
    std::array<std::uint8_t, 32> h{};
    std::copy(in.bytes.begin(), in.bytes.begin() + 32, h.begin());
    const std::uint32_t n = get_u32(in.bytes.data() + 32);
    for (std::uint32_t i = 0; i < n; ++i) h = kHash(h);
    if (output.size() != 32 || !std::equal(h.begin(), h.end(), output.begin()))
      return jolt::Status::error(std::string(name_) + ": expected " + to_hex(h) + " after " +
                                 std::to_string(n) + " hashes, guest wrote " + to_hex(output));
    return jolt::Status::success();
  }

 private:
  const char* name_;
  CycleModel model_;
};

// One digest of the natural-size message [5u8; 32]. The work does not grow with the scale: any
// scale >= min_scale() gives the same input; the mapping still refuses a too-small scale.
template <HostHash kHash>
class SingleHash : public jolt::Workload {
 public:
  static constexpr std::size_t kMessageBytes = 32;
  SingleHash(const char* name, double run_cycles) : name_(name), model_{run_cycles, 0} {}
  std::uint32_t default_scale() const noexcept override { return min_scale(); }
  std::uint32_t min_scale() const noexcept override { return min_scale_for(model_); }
  double cycles_per_op() const noexcept override { return model_.cycles_per_op; }
  std::span<const std::uint8_t> guest_elf() const noexcept override { return embedded_guest_elf(); }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    std::uint64_t ops = 0;
    if (auto st = ops_for_scale(name_, scale, model_, &ops); !st) return st;
    out->ops = 1;
    out->bytes.assign(kMessageBytes, 5);
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    const auto want = kHash(in.bytes);
    if (output.size() != 32 || !std::equal(want.begin(), want.end(), output.begin()))
      return jolt::Status::error(std::string(name_) + ": expected digest " + to_hex(want) +
                                 ", guest wrote " + to_hex(output));
    return jolt::Status::success();
  }

 private:
  const char* name_;
  CycleModel model_;
};

}  // namespace jolt::workloads
