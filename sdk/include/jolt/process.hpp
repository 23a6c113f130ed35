// Process memory figures used by the recorder, the monitor and the host.
//
//   std::uint64_t rss = jolt::current_rss_bytes();          // /proc/self/statm, 0 if unknown
//   std::optional<std::uint64_t> peak = jolt::peak_rss_bytes();  // getrusage high-water mark
//
// Both are thread-safe and cost one or two system calls.
#pragma once
#include <cstdint>
#include <optional>

namespace jolt {
std::uint64_t current_rss_bytes() noexcept;
std::optional<std::uint64_t> peak_rss_bytes() noexcept;
inline constexpr double kBytesPerGib = 1073741824.0;
}  // namespace jolt
