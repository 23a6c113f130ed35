// Linux /proc readings for the system monitor: per-CPU busy/total jiffies and thread count.
// Thread-safe (stateless reads).
#pragma once
#include <cstdint>
#include <vector>

namespace jolt::core {

struct CpuTimes {
  std::uint64_t busy = 0;
  std::uint64_t total = 0;
};

// Index 0 is the aggregate "cpu" line; 1..n are cpu0..cpu(n-1). Empty if /proc/stat is unreadable.
std::vector<CpuTimes> read_cpu_times();

// Entries in /proc/self/task (0 if unavailable).
std::uint32_t thread_count();

// Percent busy between two readings of the same CPU (0 when no time elapsed).
double busy_percent(const CpuTimes& before, const CpuTimes& after);

}  // namespace jolt::core
