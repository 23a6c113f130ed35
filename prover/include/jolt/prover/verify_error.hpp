// The one verification-error type: every verifier path (proof decoding, sumcheck, stage checks,
// commitment openings) reports a rejection as {check, message}.
//
//   std::optional<VerifyError> e = verify_proof(...);
//   if (e) std::cerr << "rejected at " << e->check << ": " << e->message << "\n";
//
// `check` is a stable dotted name that tests assert on ("decode.truncated", "stage1.sumcheck",
// "pcs.basefold.fold"); `message` says what failed for a human.
#pragma once
#include <string>

namespace jolt::prover {

struct VerifyError {
  std::string check;
  std::string message;
};

}  // namespace jolt::prover
