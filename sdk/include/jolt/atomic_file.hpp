// Atomic file output: a reader sees the previous file or the complete new one, never a torn
// write. The one writer of every artifact in the tree (sinks, the host's proof files) and the one
// a third-party sink should use.
//
// clang-format off
//   if (jolt::Status st = jolt::write_file_atomically(ctx.run_dir + "/top.md", text); !st)
//     return st;                                  // names the file and what to do
//
//   jolt::AtomicOutputFile out(ctx.run_dir + "/trace.json");   // streaming variant
//   if (!out.open()) return out.status();
//   std::fwrite(data, 1, n, out.stream());
//   return out.commit();                          // fflush + fsync + rename over the target
// clang-format on
//
// The temp file is `<path>.tmp.<pid>` in the target's folder. Not thread-safe per object; two
// objects writing the same path from one process race on the temp name. Destroying an
// uncommitted object removes the temp file.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

#include <jolt/status.hpp>

namespace jolt {

class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  bool open();  // creates the temp file; on failure status() says why
  std::FILE* stream() { return file_; }
  Status commit();  // flush, fsync, close, rename; an error names the file
  const Status& status() const { return status_; }
  const std::string& path() const { return path_; }

 private:
  void discard();
  std::string path_;
  std::string temp_;
  std::FILE* file_ = nullptr;
  Status status_;
};

// Writes `content` to `path` through an AtomicOutputFile. Never throws.
Status write_file_atomically(const std::string& path, std::string_view content) noexcept;

}  // namespace jolt
