// What the jolt-run binary was built from: the project version and the git revision of the
// source tree at configure time (CMake runs `git rev-parse --short HEAD`; core/CMakeLists.txt).
//
//   std::cout << "jolt-run " << jolt::core::version() << " (" << jolt::core::git_revision() << ")";
//   summary.run.git_rev = jolt::core::built_git_rev();  // nullopt outside git
#pragma once
#include <optional>
#include <string>

namespace jolt::core {

// PROJECT_VERSION of the top-level CMakeLists.txt ("0.1.0").
const char* version();

// The short revision, or "unknown" when the tree was configured outside a git checkout.
const char* git_revision();

// git_revision() as an optional: nullopt instead of "unknown".
std::optional<std::string> built_git_rev();

}  // namespace jolt::core
