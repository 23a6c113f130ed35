// The optimised outer-Spartan kernel (stage 1): proves Σ_{(k,t)} eq(τ,(k,t))·Az(k,t)·Bz(k,t) = 0
// over kNumRowsPadded constraint rows × T cycles, index = k·T + t (row bits are the MOST
// significant, so they are bound first and the last log T challenges are the cycle point).
//
//   auto [az, bz] = m1::outer_tables(columns);            // 32·T each
//   SpartanOuterKernel k(std::move(az), std::move(bz), tau);  // span SpartanOuter::prepare
//
// Optimisations over NaiveKernel (which is its test oracle): eq(τ,·) is never materialised at
// full size or bound — the bound prefix is one scalar and the unbound suffix table shrinks by
// summing halves (Dao–Thaler/Gruen); the round polynomial is scalar·eq(τ_j,X)·q(X) with q of
// degree 2; evaluation and binding are TBB-parallel over fixed blocks (deterministic).
#pragma once
#include <utility>
#include <vector>

#include <jolt/prover/sumcheck/kernel.hpp>

namespace jolt::prover {

namespace m1 {
// Az and Bz tables (kNumRowsPadded·T entries each) of the uniform constraints.
std::pair<std::vector<Fr>, std::vector<Fr>> outer_tables(const std::vector<std::vector<Fr>>& cols);
}  // namespace m1

class SpartanOuterKernel final : public SumcheckKernel {
 public:
  static constexpr KernelLabels kLabels = {"SpartanOuter::prepare", "SpartanOuter::prove_round",
                                           "SpartanOuter::finish_rounds"};
  SpartanOuterKernel(std::vector<Fr> az, std::vector<Fr> bz, std::vector<Fr> tau);

  const KernelLabels& labels() const override { return kLabels; }
  std::size_t num_rounds() const override { return tau_.size(); }
  std::size_t degree() const override { return 3; }
  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& previous_claim) override;
  void finish_rounds(const Fr& bind) override;
  // {eq(τ, r), Az(r), Bz(r)} — the same leaf order as the naive oracle.
  std::vector<Fr> output_claims() const override;
  void visit_heap(jolt::HeapVisitor& v) const override;

 private:
  void bind(const Fr& r);
  std::vector<Fr> az_, bz_, tau_;
  std::vector<Fr> eq_rest_;  // eq(τ[j+1..], ·) for the current round j
  Fr eq_bound_ = Fr::one();  // Π_{i<j} eq(τ_i, r_i)
  std::size_t round_ = 0;
};

}  // namespace jolt::prover
