// The optimised outer-Spartan kernel (stage 1): proves Σ_{(k,t)} eq(τ,(k,t))·Az(k,t)·Bz(k,t) = 0
// over kNumRowsPadded constraint rows × T cycles, index = k·T + t (row bits are the MOST
// significant, so they are bound first and the last log T challenges are the cycle point).
//
//   SpartanOuterKernel k(columns, tau);   // columns must outlive the kernel
//   auto [az, bz] = r1cs::outer_tables(columns);   // the kNumRowsPadded·T tables (naive oracle)
//
// Optimisations over NaiveKernel (its test oracle; round polynomials are identical):
//  * the kNumRowsPadded·T tables Az, Bz are never built: the first kStreamedRowRounds row
//    rounds come from one pass over the cycles that evaluates each constraint row from the
//    columns and sums eq-weighted Az·Bz on the grid {0, 1, ∞}^kStreamedRowRounds of those rounds'
//    row bits (slots with all guards zero skipped); each of those rounds interpolates the grid at
//    its challenges so far (the small-value method); then the tables Az(r_row, s, t),
//    Bz(r_row, s, t) over the kTabledRowSlots row slots left are built in one more pass and the
//    last row rounds and the cycle rounds bind them in place (each streamed pass reads the columns
//    the rows name, a tabled round only the tables: 2·kTabledRowSlots field elements per cycle);
//  * both passes evaluate the rows as exact 128-bit integers when every column they read is
//    stored narrow or holds small signed field elements and the rows' values fit (integer_rows();
//    the prover's witnesses), each weighted value added as 64-bit pieces into a wide sum reduced
//    once per grid point or slot (Fr::SmallProductSum); other witnesses take the field path;
//  * eq(τ,·) is split: a kNumRowsPadded/2-entry row table ⊗ a T-entry cycle table; the bound
//    prefix is one scalar and the unbound suffix shrinks by summing halves (Dao–Thaler/Gruen),
//    so no 2^(kRowBits − 1 + log T) eq table exists and eq is never bound;
//  * s(X) = eq_bound·eq(τ_j,X)·q(X), q of degree 2 from three points;
//  * TBB reductions over fixed cycle blocks (exact field sums: deterministic at any thread count).
#pragma once
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/witness_columns.hpp>
#include <jolt/prover/sumcheck/kernel.hpp>

namespace jolt::prover {

namespace r1cs {
// Az and Bz tables (kNumRowsPadded·T entries each) of the uniform constraints.
std::pair<std::vector<Fr>, std::vector<Fr>> outer_tables(const WitnessColumns& cols);
}  // namespace r1cs

class SpartanOuterKernel final : public SumcheckKernel {
 public:
  static constexpr std::size_t kStreamedRowRounds = 3;
  static constexpr std::size_t kTabledRowSlots = std::size_t{1}
                                                 << (r1cs::kRowBits - kStreamedRowRounds);
  static constexpr KernelLabels kLabels = {"SpartanOuter::prepare", "SpartanOuter::prove_round",
                                           "SpartanOuter::finish_rounds"};
  SpartanOuterKernel(const WitnessColumns& columns, std::vector<Fr> tau);

  const KernelLabels& labels() const override { return kLabels; }
  std::size_t num_rounds() const override { return tau_.size(); }
  std::size_t degree() const override { return 3; }
  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& previous_claim) override;
  void finish_rounds(const Fr& bind) override;
  // {eq(τ, r), Az(r), Bz(r)} — the same leaf order as the naive oracle.
  std::vector<Fr> output_claims() const override;
  void visit_heap(jolt::HeapVisitor& v) const override;
  // Whether the rows are evaluated as exact 128-bit integers (every column the rows read is
  // stored in an integer width and the rows' values fit) rather than in the field.
  bool integer_rows() const { return int_rows_; }

  // The reference kernel for the same relation: NaiveKernel over the full tables eq(τ, ·), Az
  // and Bz (3·kNumRowsPadded·T entries), with the same labels and identical round polynomials
  // and outputs. The prover's reference backend proves stage 1 with it.
  static std::unique_ptr<SumcheckKernel> reference(const WitnessColumns& columns,
                                                   std::vector<Fr> tau);

 private:
  void bind(const Fr& r);
  void materialise();
  void accumulate_grid();
  std::array<Fr, 3> streamed_round_q() const;
  std::vector<Fr> evals_from_q(const Fr& q0, const Fr& q1, const Fr& q2) const;
  const WitnessColumns& cols_;
  std::vector<Fr> tau_;
  std::vector<Fr> row_challenges_;  // r_0.. while in the row rounds
  std::vector<Fr> grid_;            // 3^kStreamedRowRounds products, for the streamed rounds
  std::vector<Fr> az_, bz_;         // slots·T, index slot·T + t, once the rows are tabled
  std::vector<Fr> eq_row_;          // eq(τ[j+1..kRowBits), ·) during row rounds
  std::vector<Fr> eq_cyc_;          // eq(τ[max(j+1,kRowBits)..], ·)
  Fr eq_bound_ = Fr::one();         // Π_{i<j} eq(τ_i, r_i)
  std::size_t round_ = 0;
  bool int_rows_ = false;  // the rows evaluate in 128-bit integers (every used column narrow)
};

}  // namespace jolt::prover
