// NaiveKernel: proves Σ_x expr(leaf_0(x), …, leaf_k(x)) by evaluating the expression pointwise
// over the remaining hypercube each round. Any relation can be proved with it; it is the test
// oracle every optimised kernel must agree with (identical round polynomials), and it is also
// the production kernel for the small linear relations of stages 2–3.
//
//   std::vector<std::vector<Fr>> leaves = {eq_table, a_table, b_table};
//   NaiveKernel k(labels, std::move(leaves), expr);  // all leaves have 2^rounds entries
//
// Binding order: most significant variable first (see poly/multilinear.hpp). output_claims()
// returns every leaf's value at the bound point, in leaf order.
#pragma once
#include <vector>

#include <jolt/prover/sumcheck/expression.hpp>
#include <jolt/prover/sumcheck/kernel.hpp>

namespace jolt::prover {

class NaiveKernel final : public SumcheckKernel {
 public:
  NaiveKernel(const KernelLabels& labels, std::vector<std::vector<Fr>> leaves, Expr expr);

  const KernelLabels& labels() const override { return labels_; }
  std::size_t num_rounds() const override { return rounds_; }
  std::size_t degree() const override { return degree_; }
  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& previous_claim) override;
  void finish_rounds(const Fr& bind) override;
  std::vector<Fr> output_claims() const override;
  void visit_heap(jolt::HeapVisitor& v) const override;

 private:
  void bind(const Fr& r);
  KernelLabels labels_;
  std::vector<std::vector<Fr>> leaves_;
  Expr expr_;
  std::size_t rounds_ = 0;
  std::size_t degree_ = 0;
};

}  // namespace jolt::prover
