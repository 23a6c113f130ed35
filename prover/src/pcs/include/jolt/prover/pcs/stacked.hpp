// Stacking: a commitment-scheme decorator that commits k tables of 2^n entries as ⌈k/s⌉ tables
// of s·2^n entries (s = 2^m), table j = tables j·s, …, j·s + s − 1 one after another (missing
// tables of the last group are zero). Schemes whose proof carries one pair of values per committed
// table and query (Basefold's first oracle) open s-fold fewer values per query, for m more
// sumcheck/fold rounds and an s-fold larger first Merkle tree.
//
//   auto pcs = std::make_unique<StackedCommitment>(std::make_unique<SomeScheme>(), 2);  // s = 4
//   CommitOutput c = pcs->commit(batch);        // the caller's shape: k tables of 2^n
//   pcs->open(*c.data, batch, point, evals, transcript);   // evals[i] = f_i(point)
//   pcs->verify(c.commitment, point, evals, proof, transcript2);
//
// Variable order: entry b·2^n + x of stacked table j is table j·s + b at x, b the MOST significant
// bits (scheme.hpp's big-endian order), so g_j(ρ ‖ point) = Σ_b eq(ρ, b)·f_{j·s+b}(point).
//
// Open / verify: absorb "stacked/point" and "stacked/evals", draw ρ ∈ Fr^m ("stacked/rho"), then
// run the inner scheme on the stacked tables at ρ ‖ point with the claims
// e_j = Σ_b eq(ρ, b)·evals[j·s + b] (a missing table's claim is 0). As for every scheme
// (scheme.hpp), the caller absorbs the commitment before the point is drawn, so ρ depends on
// the commitment; the pipeline does (stage 0). Soundness: if some claim
// v_i ≠ f_i(point), then e_j − g_j(ρ ‖ point) = Σ_b eq(ρ, b)·(claim − value) is a non-zero
// multilinear polynomial in ρ, zero with probability ≤ m/|Fr| (Schwartz–Zippel); otherwise the
// inner scheme's soundness applies. Total: ε_inner + m/|Fr|.
//
// Checks: pcs.stacked.shape (point and claims match the commitment's shape), then the inner
// scheme's. The commitment reports the caller's shape (n, k); the inner one sees (n + m, ⌈k/s⌉),
// so the largest table is the inner scheme's largest divided by s (max_num_vars()).
#pragma once
#include <memory>

#include <jolt/prover/pcs/scheme.hpp>

namespace jolt::prover::pcs {

// ⌈k/s⌉ stacked tables of s·N entries over a batch of k tables of N entries (no copy).
class StackedBatch final : public PolynomialBatch {
 public:
  StackedBatch(const PolynomialBatch& inner, unsigned log_stack);
  std::size_t num_polys() const override;
  std::size_t table_size() const override;
  void read(std::size_t i, std::size_t begin, std::span<Fr> out) const override;
  void accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                  std::span<Fr> acc) const override;
  // Bits when every inner table the range covers gives bits (a missing table's zeros do).
  bool read_bits(std::size_t i, std::size_t begin, std::span<std::uint8_t> out) const override;

 private:
  // Calls f(table, offset, first, count) for each inner table's part of stacked entries
  // [begin, begin + n) of stacked table i (table ≥ k: zeros).
  template <class F>
  void for_parts(std::size_t i, std::size_t begin, std::size_t n, F&& f) const;
  const PolynomialBatch& inner_;
  unsigned log_stack_;
};

class StackedCommitment final : public CommitmentScheme {
 public:
  StackedCommitment(std::unique_ptr<CommitmentScheme> inner, unsigned log_stack);
  PcsKind kind() const override { return inner_->kind(); }
  std::string_view name() const override { return inner_->name(); }
  std::string parameters() const override;
  unsigned max_num_vars() const override {
    const unsigned inner = inner_->max_num_vars();
    return inner > log_stack_ ? inner - log_stack_ : 0;
  }
  unsigned log_stack() const { return log_stack_; }

  using CommitmentScheme::commit;
  using CommitmentScheme::open;
  CommitOutput commit(const PolynomialBatch& polys) const override;
  std::vector<std::uint8_t> open(const ProverData& data, const PolynomialBatch& polys,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript) const override;
  std::optional<VerifyError> verify(const Commitment& commitment, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript& transcript) const override;

 private:
  // ρ ‖ point and the stacked claims, after absorbing point and claims (open and verify alike).
  void stacked_claims(std::span<const Fr> point, std::span<const Fr> evals, Transcript& t,
                      std::vector<Fr>& stacked_point, std::vector<Fr>& stacked_evals) const;
  std::unique_ptr<CommitmentScheme> inner_;
  unsigned log_stack_;
};

}  // namespace jolt::prover::pcs
