// JOLT_VERIFY: the one way a verifier states a check, so that every check has a stable name and
// scripts/check_deletion.sh can delete each one in turn and show that some test catches it.
//
//   std::optional<VerifyError> verify_round(...) {
//     JOLT_VERIFY("stage1.sumcheck.round_sum", s0 + s1 == claim,
//                 "round " + std::to_string(i) + ": s(0)+s(1) != running claim");
//     return std::nullopt;
//   }
//
// Rules: the name is a string literal, unique per call site (the deletion script greps them);
// the enclosing function returns std::optional<VerifyError>; `message` is evaluated only when
// the check fails.
//
// Deletion testing: a build configured with -DJOLT_CHECK_DELETION=ON (never CI's or a user's)
// compiles check_deleted() to read the environment variable JOLT_DELETE_CHECK once; the named
// check is then skipped exactly as if its line were removed. Every other build compiles
// check_deleted() to a constant false, so release verifiers carry no switch.
#pragma once
#include <optional>
#include <string_view>

#include <jolt/prover/verify_error.hpp>

namespace jolt::prover::detail {
#ifdef JOLT_CHECK_DELETION
bool check_deleted(std::string_view name);
#else
constexpr bool check_deleted(std::string_view) { return false; }
#endif
}  // namespace jolt::prover::detail

#define JOLT_VERIFY(name, cond, message)                                          \
  do {                                                                            \
    if (!::jolt::prover::detail::check_deleted(name) && !(cond))                  \
      return std::optional<::jolt::prover::VerifyError>(                          \
          ::jolt::prover::VerifyError{std::string(name), std::string(message)}); \
  } while (0)
