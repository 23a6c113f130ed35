// Process RSS readings: current (statm) and peak (getrusage).
#include "jolt/process.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace jolt {

std::uint64_t current_rss_bytes() noexcept {
  int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128];
  ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  char* end = nullptr;
  std::strtoull(buf, &end, 10);  // total program size
  unsigned long long resident = std::strtoull(end, nullptr, 10);
  static const long page = ::sysconf(_SC_PAGESIZE);
  return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(page);
}

std::optional<std::uint64_t> peak_rss_bytes() noexcept {
  struct rusage ru {};
  if (::getrusage(RUSAGE_SELF, &ru) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024u;  // Linux reports KiB
}

HostInfo read_host_info() {
  HostInfo h;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    std::string model = line.substr(colon + 1);
    model.erase(0, model.find_first_not_of(" \t"));
    if (!model.empty()) h.cpu_model = model;
    break;
  }
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0) h.logical_cpus = static_cast<std::uint32_t>(online);
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemTotal:", 0) != 0) continue;
    const unsigned long long kib = std::strtoull(line.c_str() + 9, nullptr, 10);
    if (kib > 0) h.memory_bytes = static_cast<std::uint64_t>(kib) * 1024u;
    break;
  }
  return h;
}

}  // namespace jolt
