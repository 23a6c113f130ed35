// Scale -> op count mapping shared by the workload plugins, plus the embedded guest ELF.
//
//   constexpr jolt::workloads::CycleModel kModel{/*cycles_per_op=*/3400, /*fixed_cycles=*/300};
//   std::uint64_t ops = 0;
//   if (auto st = jolt::workloads::ops_for_scale("sha2-chain", scale, kModel, &ops); !st) return
//   st;
//
// target = floor(0.9 * 2^scale), ops = max(1, floor(target / cycles_per_op)) as the original.
// The model's cycles_per_op and fixed_cycles are measured upper bounds (see each plugin), so
// predicted = fixed + ops * cycles_per_op bounds the real cycle count; a scale is accepted only
// when padded_length(predicted) <= 2^scale. Pure functions; thread-safe.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <jolt/status.hpp>
#include <jolt/trace_length.hpp>

extern "C" {
extern const unsigned char jolt_guest_elf_data[];
extern const std::size_t jolt_guest_elf_size;
}

namespace jolt::workloads {

inline std::span<const std::uint8_t> embedded_guest_elf() noexcept {
  return {jolt_guest_elf_data, jolt_guest_elf_size};
}

struct CycleModel {
  double cycles_per_op;          // measured marginal trace rows per op (upper bound)
  std::uint64_t fixed_cycles;    // measured trace rows independent of ops (startup, I/O, exit)
  std::uint32_t max_scale = 30;  // largest scale the measurement covers
};

inline std::uint64_t ops_formula(std::uint32_t scale, double cycles_per_op) {
  const auto target = static_cast<std::uint64_t>(static_cast<double>(1ull << scale) * 0.9);
  return std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(static_cast<double>(target) / cycles_per_op));
}

inline std::uint64_t predicted_padded(std::uint64_t ops, const CycleModel& m) {
  const auto cycles = m.fixed_cycles + static_cast<std::uint64_t>(
                                           std::ceil(static_cast<double>(ops) * m.cycles_per_op));
  return jolt::padded_trace_length(cycles);
}

inline bool scale_fits(std::uint32_t scale, std::uint64_t ops, const CycleModel& m) {
  return predicted_padded(ops, m) <= (1ull << scale);
}

inline std::uint32_t min_scale_for(const CycleModel& m) {
  for (std::uint32_t s = 8; s <= m.max_scale; ++s)
    if (scale_fits(s, ops_formula(s, m.cycles_per_op), m)) return s;
  return m.max_scale;
}

inline Status ops_for_scale(const std::string& name, std::uint32_t scale, const CycleModel& m,
                            std::uint64_t* ops) {
  const std::uint32_t smallest = min_scale_for(m);
  if (scale > m.max_scale)
    return Status::error(name + ": scale " + std::to_string(scale) + " is above the largest " +
                         "measured scale " + std::to_string(m.max_scale));
  if (scale < smallest || !scale_fits(scale, ops_formula(scale, m.cycles_per_op), m))
    return Status::error(name + ": scale " + std::to_string(scale) +
                         " is too small (the padded trace would exceed 2^" + std::to_string(scale) +
                         "); the smallest scale that works is " + std::to_string(smallest));
  *ops = ops_formula(scale, m.cycles_per_op);
  return Status::success();
}

inline void put_u32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline std::uint32_t get_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

inline std::string to_hex(std::span<const std::uint8_t> b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (auto c : b) s.push_back(kDigits[c >> 4]), s.push_back(kDigits[c & 15]);
  return s;
}

}  // namespace jolt::workloads
