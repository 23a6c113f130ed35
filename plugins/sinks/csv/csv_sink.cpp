// The `csv` sink: the per-run timings.csv (one row, no header) and the sweep-wide
// modular_timings.csv in the out dir (appended; header only when the file is new).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include <sys/stat.h>

#include <jolt/atomic_file.hpp>
#include <jolt/plugin.hpp>
#include <jolt/sink.hpp>

#include "csv_rows.hpp"

namespace {

jolt::Status append_consolidated(const std::string& path, const std::string& row) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f)
    return jolt::Status::error("cannot open " + path + " for appending: " + std::strerror(errno) +
                               "; check that the out dir is writable");
  std::string text = exists ? row : std::string(jolt::sinks::kTimingsCsvHeader) + row;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed)
    return jolt::Status::error("Failed to write consolidated timing to " + path + ": " +
                               std::strerror(errno));
  return jolt::Status::success();
}

class CsvSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile& profile, const jolt::SinkContext& ctx) noexcept override {
    try {
      const std::string row = jolt::sinks::timings_csv_row(profile);
      // Both files are attempted; a failure of either is reported (naming the file).
      jolt::Status run = jolt::write_file_atomically(ctx.run_dir + "/timings.csv", row);
      jolt::Status all = jolt::Status::success();
      if (!ctx.out_dir.empty())
        all = append_consolidated(ctx.out_dir + "/modular_timings.csv", row);
      if (!run) return all ? run : jolt::Status::error(run.message + "; " + all.message);
      return all;
    } catch (const std::exception& e) {
      return jolt::Status::error(std::string("csv sink failed: ") + e.what());
    } catch (...) {
      return jolt::Status::error("csv sink failed (unknown error)");
    }
  }
};

}  // namespace

JOLT_DEFINE_SINK_PLUGIN(CsvSink, "csv", "timings.csv per run and modular_timings.csv across runs",
                        0)
