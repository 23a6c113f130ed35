// EqWeightedKernel: proves Σ_x Σ_g eq(r_g, x)·E_g(leaf_0(x), …, leaf_k(x)) — a relation each of
// whose summands carries one eq factor — with every eq factor kept apart (Gruen's split). Round
// j's polynomial is
//
//   s_j(X) = Σ_g P_g · eq(r_g[j], X) · q_g(X),   P_g = Π_{i<j} eq(r_g[i], ρ_i),
//   q_g(X) = Σ_{x'} eq(r_g[j+1..], x') · E_g(ρ_0..ρ_{j−1}, X, x'),
//
// so no eq table of the full size is built (each term keeps the table of its point's unbound
// suffix, half the size, and halves it by adding its two halves after each round), the leaves
// hold no eq column to bind, and q_g is evaluated at deg E_g + 1 points only (the rest of s_j's
// points by interpolation). A term whose E_g is one monomial (a product of leaves) is summed over
// blocks of pairs with its products over arrays (the IFMA lanes where the CPU has them); the
// others by Expr::evaluate per pair. The round polynomials are NaiveKernel's over the leaves
// [eq(r_0, ·), …, eq(r_{G−1}, ·), leaf_0, …, leaf_k] with the expression Σ_g eq_g·E_g, and
// output_claims() lists the values in that order (tests/prover/sumcheck_test.cpp).
//
//   std::vector<EqTerm> terms = {{r1, product_expr}};   // E over the kernel's leaves
//   EqWeightedKernel k(labels, std::move(terms), std::move(leaves));
//
// Binding order: most significant variable first (poly/multilinear.hpp), r_g[0] the first bound.
#pragma once
#include <vector>

#include <jolt/prover/sumcheck/expression.hpp>
#include <jolt/prover/sumcheck/kernel.hpp>

namespace jolt::prover {

struct EqTerm {
  std::vector<Fr> point;  // r_g: one coordinate per round
  Expr expr;              // E_g over the kernel's leaves
};

class EqWeightedKernel final : public SumcheckKernel {
 public:
  // Every leaf has 2^rounds entries and every point `rounds` coordinates (rounds ≥ 1).
  EqWeightedKernel(const KernelLabels& labels, std::vector<EqTerm> terms,
                   std::vector<std::vector<Fr>> leaves);

  const KernelLabels& labels() const override { return labels_; }
  std::size_t num_rounds() const override { return rounds_; }
  std::size_t degree() const override { return degree_; }
  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& previous_claim) override;
  void finish_rounds(const Fr& bind) override;
  std::vector<Fr> output_claims() const override;
  void visit_heap(jolt::HeapVisitor& v) const override;

 private:
  struct Term {
    std::vector<Fr> point;
    Expr expr;
    std::size_t degree = 0;                           // of expr
    Fr prefix;                                        // Π eq(point[i], ρ_i) over the bound rounds
    std::vector<Fr> suffix;                           // eq(point[bound + 1 ..], ·)
    std::vector<std::uint32_t> used;                  // the leaves expr reads, once each
    std::vector<std::vector<std::uint32_t>> factors;  // per monomial: its leaves' places in used
  };
  void bind(const Fr& r);

  KernelLabels labels_;
  std::vector<Term> terms_;
  std::vector<std::vector<Fr>> leaves_;
  std::size_t rounds_ = 0, degree_ = 0, bound_ = 0;
};

}  // namespace jolt::prover
