// Run directory naming, the per-trace lock, and the latest_ link.
#include "jolt/core/run_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/filesystem.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

namespace fs = boost::filesystem;

namespace jolt::core {

std::string trace_name_for(const std::string& workload, std::uint32_t scale) {
  std::string w = workload;
  for (char& c : w)
    if (c == '-') c = '_';
  return "modular_" + w + "_" + std::to_string(scale);
}

std::string utc_timestamp(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return buf;
}

namespace {
void ensure_dir(const std::string& dir) {
  boost::system::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RunError("cannot create output folder '" + dir + "': " + ec.message());
}
}  // namespace

RunLock::RunLock(const std::string& out_dir, const std::string& trace_name) {
  ensure_dir(out_dir);
  path_ = (fs::path(out_dir) / (trace_name + ".lock")).string();
  int fd = ::open(path_.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    throw RunError("another profile run for " + trace_name + " appears active (" + path_ + ": " +
                   std::strerror(err) + "); if no run is alive, delete the stale lock file");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  [[maybe_unused]] auto n = ::write(fd, pid.data(), pid.size());
  ::close(fd);
}

RunLock::~RunLock() {
  ::unlink(path_.c_str());
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
      return run;
    }
    if (errno != EEXIST)
      throw RunError("cannot create run directory '" + p.string() + "': " + std::strerror(errno));
    // A run of the same trace finished within this second: never reuse its folder.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  throw RunError("cannot find a free run directory name for " + trace_name + " in " + out_dir);
}

void publish_latest(const std::string& out_dir, const std::string& trace_name,
                    const RunDirectory& run) {
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
