// Private: the fraction-tree sumcheck of stages 4, 5 and 6a (protocol.hpp), shared by prover and
// verifier.
//
// Layer n holds the leaves P_n (given, or ≡ 1), Q_n (2^n values); layer j < n halves it on the most
// significant index bit: P_j[x] = P_{j+1}[x]·Q_{j+1}[x + h] + P_{j+1}[x + h]·Q_{j+1}[x],
// Q_j[x] = Q_{j+1}[x]·Q_{j+1}[x + h] (h = 2^j), so P_0/Q_0 = Σ_t 1/Q_n[t]. The proof sends
// layer 1's four values, then for j = 1 .. n−1 one sumcheck reducing a claim on layer j at r to
// claims on layer j+1's halves at ρ, and those values; the verifier then draws τ and continues at
// (τ, ρ). It ends with claims on P_n (unless ≡ 1) and Q_n at an n-variable point.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/sumcheck/kernel.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

struct FractionTreeProof {
  std::vector<Fr> root_children;  // P_1[0], P_1[1], Q_1[0], Q_1[1]
  std::vector<FractionLayerProof> layers;
  std::vector<Fr> point;  // the leaf point (n variables)
  Fr p_leaf_claim;        // P_n at point (1 when the numerators are all 1)
  Fr q_leaf_claim;        // Q_n at point
};

// Consumes the leaves (2^n values each, n ≥ 2); p_leaves empty means every numerator is 1.
// `labels` name the layer kernel's spans.
FractionTreeProof prove_fraction_tree(std::vector<Fr> p_leaves, std::vector<Fr> q_leaves,
                                      const KernelLabels& labels, Transcript& t, bool self_check);
// The same proof for numerators that are small integers (±1, 0, multiplicities): they stay 4 bytes
// each while the layers above are built, when the tree's memory peaks, and become field elements
// only for the leaf layer's sumcheck, after the layers above have been consumed.
FractionTreeProof prove_fraction_tree(std::vector<std::int32_t> p_leaves, std::vector<Fr> q_leaves,
                                      const KernelLabels& labels, Transcript& t, bool self_check);
// The denominators as a function instead of a table: q(begin, out) writes those of the leaves
// [begin, begin + |out|) — called from several threads at once, three times per leaf (the layers'
// build, layer n − 1's rebuild, the leaf layer's tables) — so no table of 2^n denominators exists
// while the layers above the leaves are built and proved.
using LeafDenominators = std::function<void(std::size_t begin, std::span<Fr> out)>;
FractionTreeProof prove_fraction_tree(std::vector<Fr> p_leaves, unsigned n,
                                      const LeafDenominators& q, const KernelLabels& labels,
                                      Transcript& t, bool self_check);
FractionTreeProof prove_fraction_tree(std::vector<std::int32_t> p_leaves, unsigned n,
                                      const LeafDenominators& q, const KernelLabels& labels,
                                      Transcript& t, bool self_check);

// One layer's sumcheck member: Σ_x eq(r, x)·(P0·Q1 + P1·Q0 + λ·Q0·Q1)(x) over the tables
// {P0, P1, Q0, Q1}, or Σ_x eq(r, x)·(Q0 + Q1 + λ·Q0·Q1)(x) over {Q0, Q1} (unit numerators), each
// of 2^|r| entries: the NaiveKernel of protocol::fraction_layer_expr over (eq(r, ·), tables...)
// gives the same rounds and outputs (eq(r, point) first, then the tables' values), at a third of
// its products.
std::unique_ptr<SumcheckKernel> make_fraction_layer_kernel(const KernelLabels& labels,
                                                           std::vector<Fr> r,
                                                           std::vector<std::vector<Fr>> tables,
                                                           const Fr& lambda);
// The same over {P0, P1, Q0, Q1} with P0 and P1 given as small integers (`numerators`, the leaf
// layer of a tree with 4-byte numerators): they stay 4 bytes each until the first bind, which
// makes them field elements of half the length.
std::unique_ptr<SumcheckKernel> make_fraction_layer_kernel(
    const KernelLabels& labels, std::vector<Fr> r,
    std::array<std::vector<std::int32_t>, 2> numerators, std::vector<std::vector<Fr>> denominators,
    const Fr& lambda);

struct FractionTreeVerified {
  Fr p_root, q_root;
  std::vector<Fr> point;  // n variables
  Fr p_leaf_claim;        // what P_n(point) must be (1 with unit numerators)
  Fr q_leaf_claim;        // what Q_n(point) must be
};

// Checks every layer (checks "fraction_layer", "sumcheck.*", "proof.shape"; the caller prefixes
// its stage); the caller checks the root and the leaf claims.
std::optional<VerifyError> verify_fraction_tree(std::size_t n, bool unit_numerators,
                                                const std::vector<Fr>& root_children,
                                                const std::vector<FractionLayerProof>& layers,
                                                Transcript& t, FractionTreeVerified& out);

}  // namespace jolt::prover
