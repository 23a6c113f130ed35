// Batched sumcheck: the prover's round loop (prove_batch) and the verifier's replay
// (verify_batch), sharing one Fiat–Shamir order.
//
//   std::vector<BatchMember> ms = {{&outer_kernel, Fr::zero()}};
//   BatchProverOutput out = prove_batch(ms, transcript);          // spans prove_batch,
//   SumcheckVerified v;
//   if (auto e = verify_batch({claim}, {rounds}, max_degree, out.proof, transcript, v)) reject(*e);
//   // then check Σ coeff_i·expected_i(v.point_of(i)) == v.final_claim
//
// Rules:
//  * begin: every input claim is absorbed ("sumcheck_claim"), then ONE batching coefficient per
//    member is drawn ("batching_coeff");
//  * members are tail-aligned: a member with m < M rounds is inactive for the first M − m rounds;
//    its claim enters scaled by 2^(M−m) and while inactive it contributes the constant claim/2;
//  * every round the combined polynomial (coefficients, degree ≤ max member degree) satisfies
//    s(0)+s(1) = running claim (prover self-check; verifier check), is absorbed
//    ("sumcheck_poly") and the challenge r_j is drawn ("sumcheck_challenge").
// A member's point is the last m challenges, in order (big-endian variable order).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <jolt/prover/sumcheck/kernel.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

struct SumcheckProof {
  std::vector<UniPoly> round_polys;
};

struct BatchMember {
  SumcheckKernel* kernel;
  Fr input_claim;
};

struct BatchProverOutput {
  SumcheckProof proof;
  std::vector<Fr> challenges;                   // all M challenges
  std::vector<Fr> coefficients;                 // one per member
  Fr final_claim;                               // running claim after the last round
  std::vector<std::vector<Fr>> member_outputs;  // output_claims() of every member
};

// self_check = false skips the prover-side s(0)+s(1) checks (tests forge proofs that way).
BatchProverOutput prove_batch(const std::vector<BatchMember>& members, Transcript& transcript,
                              bool self_check = true);

// What the verifier's replay derives from an accepted sumcheck.
struct SumcheckVerified {
  std::vector<Fr> challenges;
  std::vector<Fr> coefficients;
  Fr final_claim;
  // The point of a member with `rounds` rounds: the trailing `rounds` challenges.
  std::vector<Fr> point_of(std::size_t rounds) const {
    return std::vector<Fr>(challenges.end() - static_cast<std::ptrdiff_t>(rounds),
                           challenges.end());
  }
};

// nullopt and `out` filled when every round is consistent; otherwise the failure:
// "sumcheck.shape" (round count or degree differs from the statement, always on) or
// "sumcheck.round_sum" (s(0)+s(1) != running claim). The pipeline prefixes the stage
// ("stage1.sumcheck.round_sum").
std::optional<VerifyError> verify_batch(const std::vector<Fr>& input_claims,
                                        const std::vector<std::size_t>& member_rounds,
                                        std::size_t max_degree, const SumcheckProof& proof,
                                        Transcript& transcript, SumcheckVerified& out);

}  // namespace jolt::prover
