// The `csv` sink: the per-run timings.csv (one row, no header) and the sweep-wide
// modular_timings.csv in the out dir (appended; header only when the file is new).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include <jolt/atomic_file.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

#include "csv_rows.hpp"

namespace {

// Appends `row` to the sweep-wide CSV so that a failed append (full disk, file-size limit, a
// kill) never leaves a partial row or a header-less file behind:
//  - appenders of the same out dir take an exclusive flock(2) on the file, one at a time;
//  - an empty file (a failed first write) gets the header; the header and the row go out in one
//    write(2), and a short write is truncated back to where the file was;
//  - a partial last line left by an older failed append is dropped (reported on stderr);
//  - a file that does not start with this build's header is refused, naming it.
jolt::Status append_consolidated(const std::string& path, const std::string& row) {
  const std::string header = jolt::sinks::kTimingsCsvHeader;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    return jolt::Status::error("cannot open " + path + " for appending: " + std::strerror(errno) +
                               "; check that the out dir is writable");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }  // also drops the flock
  } closer{fd};
  auto fail = [&](const std::string& what) {
    return jolt::Status::error("Failed to write consolidated timing to " + path + ": " + what);
  };
  while (::flock(fd, LOCK_EX) != 0)
    if (errno != EINTR) return fail(std::string("cannot lock it: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(std::strerror(errno));
  off_t size = st.st_size;

  // The header, or a prefix of it (a first write cut short), must open the file.
  std::string head(std::min<std::size_t>(header.size(), static_cast<std::size_t>(size)), '\0');
  if (!head.empty() &&
      ::pread(fd, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size()))
    return fail(std::string("cannot read it: ") + std::strerror(errno));
  if (header.compare(0, head.size(), head) != 0)
    return jolt::Status::error(path + " does not start with the header this build writes (" +
                               header.substr(0, header.size() - 1) +
                               "); it is damaged or from another version: move it aside and "
                               "rerun");
  if (static_cast<std::size_t>(size) < header.size()) {
    if (size > 0 && ::ftruncate(fd, 0) != 0) return fail(std::strerror(errno));
    if (size > 0)
      std::fprintf(stderr, "csv sink: %s held only part of its header; rewrote the header\n",
                   path.c_str());
    size = 0;
  } else {
    // Drop a partial last line (no trailing newline).
    char last = '\n';
    if (::pread(fd, &last, 1, size - 1) != 1) return fail(std::strerror(errno));
    if (last != '\n') {
      off_t keep = size - 1;
      char buf[4096];
      bool found = false;
      while (keep > 0 && !found) {
        const off_t from = keep > static_cast<off_t>(sizeof(buf)) ? keep - sizeof(buf) : 0;
        const auto n = static_cast<std::size_t>(keep - from);
        if (::pread(fd, buf, n, from) != static_cast<ssize_t>(n)) return fail(std::strerror(errno));
        for (std::size_t i = n; i-- > 0;)
          if (buf[i] == '\n') {
            keep = from + static_cast<off_t>(i) + 1;
            found = true;
            break;
          }
        if (!found) keep = from;
      }
      if (::ftruncate(fd, keep) != 0) return fail(std::strerror(errno));
      std::fprintf(stderr,
                   "csv sink: %s ended in a partial row (%lld bytes, left by an interrupted "
                   "write); dropped it\n",
                   path.c_str(), static_cast<long long>(size - keep));
      size = keep;
    }
  }

  const std::string text = size == 0 ? header + row : row;
  const ssize_t n = ::write(fd, text.data(), text.size());  // O_APPEND: one write, at the end
  if (n != static_cast<ssize_t>(text.size())) {
    const int err = n < 0 ? errno : ENOSPC;
    [[maybe_unused]] const int t = ::ftruncate(fd, size);  // never leave a partial row
    return fail(std::strerror(err));
  }
  return jolt::Status::success();
}

class CsvSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    try {
      const std::string row = jolt::sinks::timings_csv_row(profile);
      // The run's row is appended to the shared file only once the run's own file is written
      // (the host hands an empty out_dir when another sink failed: JOLT_CAP_SHARED_FILES).
      const jolt::Status run = jolt::write_file_atomically(ctx.run_dir + "/timings.csv", row);
      if (!run || ctx.out_dir.empty()) return run;
      return append_consolidated(ctx.out_dir + "/modular_timings.csv", row);
    } catch (const std::exception& e) {
      return jolt::Status::error(std::string("csv sink failed: ") + e.what());
    } catch (...) {
      return jolt::Status::error("csv sink failed (unknown error)");
    }
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(CsvSink, "csv", "timings.csv per run and modular_timings.csv across runs",
                        JOLT_CAP_SHARED_FILES)
