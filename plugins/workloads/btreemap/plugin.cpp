// btreemap workload: an ordered map on the RV32IM guest (guest.c, a treap) doing what the
// original BTreeMap benchmark does: insert n, delete n/4, insert n/2, range scans.
// Input: u32 little-endian n (= ops). Output: u32 final size, u32 scan checksum; check_output
// replays the same operations on std::map.
#include <map>

#include <jolt/plugin.hpp>
#include <jolt/workload.hpp>

#include "scale.hpp"

namespace {

// Measured with bench/tracer/guest_cycles (fast-mode tracer, clang 14 -O2 guest): cycles(0) = 165;
// (cycles(n) - cycles(0)) / n grows with the tree depth: 492 at n = 47, 770 at n = 754,
// 923 at n = 3019, 1066 at n = 12079, 1215 at n = 48318. CYCLES_PER_OP = 1250 bounds every
// scale up to 26 (max_scale); beyond that the bound is unmeasured and the scale is refused.
constexpr jolt::workloads::CycleModel kModel{1250.0, 256, 26};

std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

class BTreeMap final : public jolt::Workload {
 public:
  std::uint32_t default_scale() const noexcept override { return 20; }
  std::uint32_t min_scale() const noexcept override {
    return jolt::workloads::min_scale_for(kModel);
  }
  double cycles_per_op() const noexcept override { return kModel.cycles_per_op; }
  std::span<const std::uint8_t> guest_elf() const noexcept override {
    return jolt::workloads::embedded_guest_elf();
  }
  jolt::Status make_input(std::uint32_t scale, jolt::WorkloadInput* out) const noexcept override {
    std::uint64_t ops = 0;
    if (auto st = jolt::workloads::ops_for_scale("btreemap", scale, kModel, &ops); !st) return st;
    out->ops = ops;
    out->bytes.assign(4, 0);
    jolt::workloads::put_u32(out->bytes.data(), static_cast<std::uint32_t>(ops));
    return jolt::Status::success();
  }
  jolt::Status check_output(const jolt::WorkloadInput& in,
                            std::span<const std::uint8_t> output) const noexcept override {
    if (in.bytes.size() != 4) return jolt::Status::error("btreemap: input is not a u32");
    const std::uint32_t n = jolt::workloads::get_u32(in.bytes.data());
    std::map<std::uint32_t, std::uint32_t> m;
    for (std::uint32_t i = 0; i < n; ++i) m[mix(i)] = i * 2654435761u;
    for (std::uint32_t i = 0; i < n / 4; ++i) m.erase(mix(i));
    for (std::uint32_t i = n; i < n + n / 2; ++i) m[mix(i)] = i * 2654435761u;
    std::uint32_t chk = 0x811c9dc5u;
    const std::uint32_t scans = n / 8 ? n / 8 : 1;
    for (std::uint32_t j = 0; j < scans; ++j) {
      auto it = m.lower_bound(mix(n * 2 + j));
      for (int k = 0; k < 16 && it != m.end(); ++k, ++it) {
        chk = (chk ^ it->first) * 0x01000193u;
        chk = (chk ^ it->second) * 0x01000193u;
      }
    }
    const auto size = static_cast<std::uint32_t>(m.size());
    if (output.size() != 8)
      return jolt::Status::error("btreemap: guest wrote " + std::to_string(output.size()) +
                                 " output bytes, expected 8");
    const std::uint32_t got_size = jolt::workloads::get_u32(output.data());
    const std::uint32_t got_chk = jolt::workloads::get_u32(output.data() + 4);
    if (got_size != size || got_chk != chk)
      return jolt::Status::error("btreemap(n=" + std::to_string(n) + "): expected size " +
                                 std::to_string(size) + " checksum " + std::to_string(chk) +
                                 ", guest returned size " + std::to_string(got_size) +
                                 " checksum " + std::to_string(got_chk));
    return jolt::Status::success();
  }
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(BTreeMap, "btreemap",
                            "ordered map: insert n, delete n/4, insert n/2, range scans (RV32IM)")
