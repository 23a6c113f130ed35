// Versions of jolt-run's public schemas: plugin ABI, span taxonomy, summary.json.
//
//   #include <jolt/version.hpp>
//   static_assert(jolt::kAbiMajor == 1);
//
// Each number changes only together with a test that pins the new shape.
#pragma once
#include <cstdint>

namespace jolt {
inline constexpr std::uint16_t kAbiMajor = 1;  // plugin descriptor and interfaces
inline constexpr std::uint16_t kAbiMinor = 0;
inline constexpr std::uint32_t kSummarySchemaVersion = 1;  // summary.json
}  // namespace jolt
