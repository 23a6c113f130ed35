// Private: the fraction-tree sumcheck of stage 6a (protocol.hpp), shared by prover and verifier.
//
// Layer n holds the leaves P_n ≡ 1, Q_n (2^n values); layer j < n halves it on the most
// significant index bit: P_j[x] = P_{j+1}[x]·Q_{j+1}[x + h] + P_{j+1}[x + h]·Q_{j+1}[x],
// Q_j[x] = Q_{j+1}[x]·Q_{j+1}[x + h] (h = 2^j), so P_0/Q_0 = Σ_t 1/Q_n[t]. The proof sends
// layer 1's four values, then for j = 1 .. n−1 one sumcheck reducing a claim on layer j at r to
// claims on layer j+1's halves at ρ, and those values; the verifier then draws τ and continues at
// (τ, ρ). It ends with a claim on Q_n at an n-variable point.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

struct FractionTreeProof {
  std::vector<Fr> root_children;  // P_1[0], P_1[1], Q_1[0], Q_1[1]
  std::vector<FractionLayerProof> layers;
  std::vector<Fr> point;  // the leaf point (n variables)
  Fr leaf_claim;          // Q_n at point
};

// Consumes q_leaves (2^n values, n ≥ 2).
FractionTreeProof prove_fraction_tree(std::vector<Fr> q_leaves, Transcript& t, bool self_check);

struct FractionTreeVerified {
  Fr p_root, q_root;
  std::vector<Fr> point;  // n variables
  Fr leaf_claim;          // what Q_n(point) must be
};

// Checks every layer ("<stage>.fraction_layer"); the caller checks the root and the leaf claim.
std::optional<VerifyError> verify_fraction_tree(std::size_t n, const std::vector<Fr>& root_children,
                                                const std::vector<FractionLayerProof>& layers,
                                                Transcript& t, FractionTreeVerified& out);

}  // namespace jolt::prover
