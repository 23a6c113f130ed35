// /proc/stat and /proc/self/task readers.
#include "jolt/core/proc_stats.hpp"

#include <dirent.h>

#include <fstream>
#include <sstream>
#include <string>

namespace jolt::core {

std::vector<CpuTimes> read_cpu_times() {
  std::vector<CpuTimes> out;
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) break;
    std::istringstream ss(line);
    std::string label;
    ss >> label;
    std::uint64_t v[10] = {};
    for (auto& x : v) ss >> x;
    // user nice system idle iowait irq softirq steal (guest fields are inside user/nice)
    const std::uint64_t idle = v[3] + v[4];
    const std::uint64_t total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    out.push_back(CpuTimes{total - idle, total});
  }
  return out;
}

std::uint32_t thread_count() {
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return 0;
  std::uint32_t n = 0;
  while (dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') ++n;
  ::closedir(d);
  return n;
}

double busy_percent(const CpuTimes& before, const CpuTimes& after) {
  if (after.total <= before.total) return 0.0;
  const double dt = static_cast<double>(after.total - before.total);
  const double db = after.busy >= before.busy ? static_cast<double>(after.busy - before.busy) : 0.0;
  return 100.0 * db / dt;
}

}  // namespace jolt::core
