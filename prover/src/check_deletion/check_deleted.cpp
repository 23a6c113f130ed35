// check_deleted(): compiled only with -DJOLT_CHECK_DELETION=ON (see verify_check.hpp). Reads
// JOLT_DELETE_CHECK once; the JOLT_VERIFY of that name then behaves as if its line were removed.
#include <cstdlib>
#include <string>

#include <jolt/prover/verify_check.hpp>

namespace jolt::prover::detail {

bool check_deleted(std::string_view name) {
  static const std::string deleted = [] {
    const char* v = std::getenv("JOLT_DELETE_CHECK");
    return std::string(v == nullptr ? "" : v);
  }();
  return !deleted.empty() && name == deleted;
}

}  // namespace jolt::prover::detail
