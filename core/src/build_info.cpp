// The version and revision baked into the binary (the generated header is included here only,
// so a new revision recompiles this one file).
#include "jolt/core/build_info.hpp"

#include <cstring>

#include "jolt_build_info.hpp"

namespace jolt::core {

const char* version() {
  return JOLT_RUN_VERSION;
}

const char* git_revision() {
  return JOLT_RUN_GIT_REV;
}

std::optional<std::string> built_git_rev() {
  if (std::strcmp(JOLT_RUN_GIT_REV, "unknown") == 0) return std::nullopt;
  return std::string(JOLT_RUN_GIT_REV);
}

}  // namespace jolt::core
