// Run directory naming, the per-trace lock, and the latest_ link.
#include "jolt/core/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/filesystem.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

namespace fs = boost::filesystem;

namespace jolt::core {

std::string trace_name_for(const std::string& workload, std::uint32_t scale,
                           std::string_view backend) {
  std::string w = workload;
  for (char& c : w)
    if (c == '-') c = '_';
  // The default backend's runs keep the plain name; the other's carry it as a suffix.
  const std::string suffix = backend == "optimized" ? "" : "_" + std::string(backend);
  return "modular_" + w + "_" + std::to_string(scale) + suffix;
}

std::string utc_timestamp(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return buf;
}

std::string local_minute_timestamp(std::time_t t) {
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M", &tm);
  return buf;
}

PublishedFile publish_new_file(const std::string& staged, const std::string& dir,
                               const std::string& base, const std::string& ext,
                               const std::function<bool(const std::string&)>& also_taken) {
  struct RemoveStaged {
    const std::string& path;
    ~RemoveStaged() { ::unlink(path.c_str()); }
  } remove_staged{staged};
  constexpr int kMaxNames = 9999;
  for (int k = 1; k <= kMaxNames; ++k) {
    PublishedFile out;
    out.stem = k == 1 ? base : base + "_" + std::to_string(k);
    out.path = dir + "/" + out.stem + ext;
    if (also_taken && also_taken(out.stem)) continue;
    if (::link(staged.c_str(), out.path.c_str()) == 0) return out;
    const int err = errno;
    if (err == EEXIST) continue;
    throw RunError("cannot publish " + staged + " as " + out.path + ": " + std::strerror(err));
  }
  throw RunError("cannot publish " + staged + ": " + dir + "/" + base + ext + " and its " +
                 std::to_string(kMaxNames - 1) + " numbered variants all exist");
}

namespace {
void ensure_dir(const std::string& dir) {
  boost::system::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RunError("cannot create output folder '" + dir + "': " + ec.message());
}
}  // namespace

namespace {
std::string read_small_file(int fd) {
  char buf[64] = {};
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  std::string s(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

bool same_inode(int fd, const std::string& path) {
  struct stat held {};
  struct stat now {};
  if (::fstat(fd, &held) != 0 || ::stat(path.c_str(), &now) != 0) return false;
  return held.st_dev == now.st_dev && held.st_ino == now.st_ino;
}
}  // namespace

RunLock::RunLock(const std::string& out_dir, const std::string& trace_name) {
  ensure_dir(out_dir);
  path_ = (fs::path(out_dir) / (trace_name + ".lock")).string();
  // A run that exits between our open() and flock() unlinks the file we opened; then the
  // path names another inode (or none) and we retry on the current one.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd < 0) {
      const int err = errno;
      if (err == EACCES || err == EROFS || err == EPERM || err == ENOSPC || err == EDQUOT)
        throw RunError("output folder '" + out_dir + "' is not writable (" + std::strerror(err) +
                       "); choose a writable --out-dir");
      throw RunError("cannot create lock file '" + path_ + "': " + std::strerror(err));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = read_small_file(fd);
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw RunError("another profile run for " + trace_name + " is active (" + path_ +
                       " is held" + (holder.empty() ? std::string() : " by pid " + holder) +
                       "); wait for it to finish or stop it");
      throw RunError("cannot lock '" + path_ + "': " + std::strerror(err));
    }
    if (!same_inode(fd, path_)) {
      ::close(fd);
      continue;
    }
    fd_ = fd;
    const std::string pid = std::to_string(::getpid()) + "\n";
    // The PID is informational (error messages); the flock is the lock.
    if (::ftruncate(fd_, 0) == 0) {
      [[maybe_unused]] auto n = ::pwrite(fd_, pid.data(), pid.size(), 0);
    }
    return;
  }
  throw RunError("cannot take the lock '" + path_ + "': it keeps being replaced by other runs");
}

void RunLock::release() noexcept {
  if (fd_ < 0) return;
  // We hold the flock, so no other run can have taken this inode; if the path now names a
  // different file (a user deleted ours and another run created a new one), leave it alone.
  if (same_inode(fd_, path_)) ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

RunLock::~RunLock() {
  release();
}

RunDirectory create_run_directory(const std::string& out_dir, const std::string& trace_name) {
  ensure_dir(out_dir);
  for (int attempt = 0; attempt < 30; ++attempt) {
    const std::time_t now = std::time(nullptr);
    RunDirectory run;
    run.name = utc_timestamp(now) + "_" + trace_name;
    run.timestamp_unix_secs = static_cast<std::uint64_t>(now);
    fs::path p = fs::absolute(fs::path(out_dir) / run.name);
    if (::mkdir(p.c_str(), 0755) == 0) {
      run.path = p.string();
      const int fd = ::open((p / kIncompleteMarker).c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
      if (fd < 0) {
        const int err = errno;
        ::rmdir(p.c_str());
        throw RunError("cannot write in run directory '" + p.string() + "': " + std::strerror(err));
      }
      ::close(fd);
      return run;
    }
    if (errno != EEXIST) {
      const int err = errno;
      if (err == EACCES || err == EROFS || err == EPERM || err == ENOSPC || err == EDQUOT)
        throw RunError("output folder '" + out_dir + "' is not writable (" + std::strerror(err) +
                       "); choose a writable --out-dir");
      throw RunError("cannot create run directory '" + p.string() + "': " + std::strerror(err));
    }
    // A run of the same trace finished within this second: never reuse its folder.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  throw RunError("cannot find a free run directory name for " + trace_name + " in " + out_dir);
}

void warn_if_unfinished_run(const std::string& command, const std::string& path) {
  boost::system::error_code ec;
  const boost::filesystem::path p(path);
  const boost::filesystem::path dir = boost::filesystem::is_directory(p, ec) ? p : p.parent_path();
  if (!boost::filesystem::exists(dir / kIncompleteMarker, ec)) return;
  std::cerr << "jolt-run " << command << ": warning: " << dir.string() << " is marked "
            << kIncompleteMarker
            << ": its run failed or was stopped before it finished, so its files may be partial "
               "or missing\n";
}

bool remove_unfinished_run(const RunDirectory& run) noexcept {
  if (run.path.empty()) return true;
  // Retried: a sink thread may still be creating a file while we remove the folder.
  for (int attempt = 0; attempt < 5; ++attempt) {
    boost::system::error_code ec;
    fs::remove_all(run.path, ec);
    if (!ec && !fs::exists(run.path, ec)) return true;
  }
  return false;
}

void publish_latest(const std::string& out_dir, const std::string& trace_name,
                    const RunDirectory& run) {
  const fs::path marker = fs::path(run.path) / kIncompleteMarker;
  if (::unlink(marker.c_str()) != 0 && errno != ENOENT)
    throw RunError("cannot remove '" + marker.string() + "': " + std::strerror(errno));
  const fs::path link = fs::path(out_dir) / ("latest_" + trace_name);
  const fs::path tmp =
      fs::path(out_dir) / (".latest_" + trace_name + "." + std::to_string(::getpid()));
  ::unlink(tmp.c_str());
  if (::symlink(run.name.c_str(), tmp.c_str()) != 0)
    throw RunError("cannot create link '" + tmp.string() + "': " + std::strerror(errno));
  if (::rename(tmp.c_str(), link.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw RunError("cannot update '" + link.string() + "': " + std::strerror(err));
  }
}

}  // namespace jolt::core
