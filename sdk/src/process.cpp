// Process RSS readings: current (statm) and peak (getrusage).
#include "jolt/process.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>

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

}  // namespace jolt
