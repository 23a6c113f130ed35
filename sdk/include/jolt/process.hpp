// Process memory figures used by the recorder, the monitor and the host, and the machine's
// description a run records.
//
//   std::uint64_t rss = jolt::current_rss_bytes();          // /proc/self/statm, 0 if unknown
//   std::optional<std::uint64_t> peak = jolt::peak_rss_bytes();  // getrusage high-water mark
//   jolt::HostInfo host = jolt::read_host_info();           // CPU model, CPUs online, MemTotal
//
// All are thread-safe; the RSS readers cost one or two system calls, read_host_info reads two
// /proc files.
#pragma once
#include <cstdint>
#include <optional>

#include <jolt/profile.hpp>

namespace jolt {
std::uint64_t current_rss_bytes() noexcept;
std::optional<std::uint64_t> peak_rss_bytes() noexcept;
HostInfo read_host_info();
inline constexpr double kBytesPerGib = 1073741824.0;
}  // namespace jolt
