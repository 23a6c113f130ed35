// Atomic file output (atomic_file.hpp): temp file in the target's folder, fsync, rename.
#include <jolt/atomic_file.hpp>

#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace jolt {
namespace {
std::string os_error(int err) {
  return std::strerror(err);
}
}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string path)
    : path_(std::move(path)), temp_(path_ + ".tmp." + std::to_string(::getpid())) {}

AtomicOutputFile::~AtomicOutputFile() {
  discard();
}

void AtomicOutputFile::discard() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
    std::remove(temp_.c_str());
  }
}

bool AtomicOutputFile::open() {
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) {
    status_ = Status::error("cannot create " + temp_ + " (for " + path_ + "): " + os_error(errno) +
                            "; check that the run directory exists and is writable");
    return false;
  }
  return true;
}

Status AtomicOutputFile::commit() {
  if (!file_) return status_.ok ? Status::error("internal: " + path_ + " was not opened") : status_;
  const bool write_failed = std::ferror(file_) != 0;
  const bool flush_failed = std::fflush(file_) != 0;
  const int err = errno;
  const bool sync_failed = !write_failed && !flush_failed && ::fsync(::fileno(file_)) != 0;
  if (write_failed || flush_failed || sync_failed) {
    discard();
    return Status::error("writing " + temp_ + " (for " + path_ + ") failed: " +
                         os_error(err ? err : EIO) + "; check free disk space and permissions");
  }
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0) {
    const int e = errno;
    std::remove(temp_.c_str());
    return Status::error("closing " + temp_ + " failed: " + os_error(e));
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    std::remove(temp_.c_str());
    return Status::error("cannot rename " + temp_ + " to " + path_ + ": " + os_error(e) +
                         "; check permissions of the run directory");
  }
  return Status::success();
}

Status write_file_atomically(const std::string& path, std::string_view content) noexcept {
  try {
    AtomicOutputFile out(path);
    if (!out.open()) return out.status();
    if (!content.empty()) std::fwrite(content.data(), 1, content.size(), out.stream());
    return out.commit();
  } catch (const std::exception& e) {
    return Status::error("writing " + path + ": " + e.what());
  }
}

}  // namespace jolt
