// Atomic artifact output for the in-tree sinks: a reader sees the previous file or the complete
// new one, never a torn write.
//
//   AtomicOutputFile out(ctx.run_dir + "/trace.json");
//   if (!out.open()) return out.status();
//   std::fwrite(data, 1, n, out.stream());
//   return out.commit();  // fflush + fsync + rename over the target
//
// Not thread-safe; one writer per object. Destroying an uncommitted object removes the temp file.
#pragma once
#include <cstdio>
#include <string>

#include <jolt/status.hpp>

namespace jolt::sinks {

class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  bool open();  // creates `path.tmp.<pid>` in the target's folder
  std::FILE* stream() { return file_; }
  Status commit();  // flush, fsync, close, rename; error names the file
  const Status& status() const { return status_; }
  const std::string& path() const { return path_; }

 private:
  void discard();
  std::string path_;
  std::string temp_;
  std::FILE* file_ = nullptr;
  Status status_;
};

// Whole-buffer convenience wrapper around AtomicOutputFile.
Status write_file_atomically(const std::string& path, const std::string& content) noexcept;

}  // namespace jolt::sinks
