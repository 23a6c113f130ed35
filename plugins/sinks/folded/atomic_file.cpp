// Temp file + rename writer used for every file the folded sink produces.
#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace jolt::heap {

Status write_file_atomically(const std::string& path, const std::string& content) noexcept {
  try {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
      return Status::error("cannot create " + tmp + ": " + std::strerror(errno) +
                           " (is the run directory writable?)");
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
      const ssize_t n = ::write(fd, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        const std::string why = std::strerror(errno);
        ::close(fd);
        ::unlink(tmp.c_str());
        return Status::error("cannot write " + tmp + ": " + why + " (disk full?)");
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
      const std::string why = std::strerror(errno);
      ::unlink(tmp.c_str());
      return Status::error("cannot flush " + tmp + ": " + why);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      ::unlink(tmp.c_str());
      return Status::error("cannot rename " + tmp + " to " + path + ": " + why);
    }
    return Status::success();
  } catch (...) {
    return Status::error("out of memory while writing " + path);
  }
}

}  // namespace jolt::heap
