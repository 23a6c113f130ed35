// Atomic file replacement for the folded sink's artifacts: a reader sees the old file or the
// new one, never half of either.
#pragma once
#include <string>

#include <jolt/status.hpp>

namespace jolt::heap {

// Writes `content` to `path` through `path.tmp.<pid>` + fsync + rename in the same folder.
// The error names the file and the OS reason.
Status write_file_atomically(const std::string& path, const std::string& content) noexcept;

}  // namespace jolt::heap
