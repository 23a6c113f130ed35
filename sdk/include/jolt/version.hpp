// Versions of jolt-run's public schemas: plugin ABI, span taxonomy, summary.json.
//
//   #include <jolt/version.hpp>
//   static_assert(jolt::kAbiMajor == 4);
//
// Each number changes only together with a test that pins the new shape (tests/sdk/
// abi_version_test.cpp) and an entry in sdk/CHANGELOG.md. The major changes when a plugin built
// against the previous SDK would misread what the host passes it (a field added to a struct the
// host hands over, a removed symbol); the minor when the SDK only gains something.
#pragma once
#include <cstdint>

namespace jolt {
inline constexpr std::uint16_t kAbiMajor = 4;  // plugin descriptor, interfaces, Profile
inline constexpr std::uint16_t kAbiMinor = 3;
// summary.json (2: run.pcs*; 3: run.trace_length, padded_scale_log2, proof_size_bytes, verified,
// host)
inline constexpr std::uint32_t kSummarySchemaVersion = 3;
}  // namespace jolt
