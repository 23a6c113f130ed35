// Host-side SHA-256 and Keccak-256 for check_output: the same portable C as the guests
// (common/guest/*.c, compiled for the host too), validated by known-answer tests.
//
//   std::array<std::uint8_t, 32> d = jolt::workloads::host_sha256(bytes);
//
// Pure functions; thread-safe.
#pragma once
#include <array>
#include <cstdint>
#include <span>

extern "C" {
#include "guest/keccak256.h"
#include "guest/sha256.h"
}

namespace jolt::workloads {

inline std::array<std::uint8_t, 32> host_sha256(std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, 32> out{};
  sha256(data.data(), data.size(), out.data());
  return out;
}
inline std::array<std::uint8_t, 32> host_keccak256(std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, 32> out{};
  keccak256(data.data(), data.size(), out.data());
  return out;
}

}  // namespace jolt::workloads
