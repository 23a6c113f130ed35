// Dense multilinear polynomials over Fr: evaluation tables on the Boolean hypercube.
//
//   DenseMultilinear p(std::vector<Fr>(16, Fr::one()));   // 4 variables
//   p.bind_top(r0);                                        // now 3 variables
//   Fr v = DenseMultilinear::evaluate(table, point);       // point[0] = MSB variable
//
// Variable order (used everywhere in the engine): BIG-ENDIAN. For an n-variable table, index
// i = Σ_k x_k·2^(n-1-k), so point[0] is the most significant index bit. Sumchecks bind the
// MOST significant remaining variable first (bind_top: new[i] = lo[i] + r·(hi[i] − lo[i]) with
// lo = first half, hi = second half), so the round challenges, in order, are exactly the
// evaluation point in this same big-endian order. Not thread-safe for concurrent mutation.
#pragma once
#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

class DenseMultilinear {
 public:
  DenseMultilinear() = default;
  explicit DenseMultilinear(std::vector<Fr> evals);

  std::size_t num_vars() const { return num_vars_; }
  std::size_t size() const { return evals_.size(); }
  const std::vector<Fr>& evals() const { return evals_; }
  std::vector<Fr>& mutable_evals() { return evals_; }
  const Fr& operator[](std::size_t i) const { return evals_[i]; }

  // Fixes the most significant variable to r (halves the table; parallel for large tables).
  void bind_top(const Fr& r);

  // Evaluates the multilinear extension of `table` (size 2^point.size()) at `point`.
  static Fr evaluate(std::span<const Fr> table, std::span<const Fr> point);

 private:
  std::vector<Fr> evals_;
  std::size_t num_vars_ = 0;
};

// In-place top-variable bind of a raw table of even size: t[i] = t[i] + r·(t[i+h] − t[i]),
// then truncates to h = size/2.
void bind_top_in_place(std::vector<Fr>& table, const Fr& r);

inline bool is_power_of_two(std::size_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}
inline std::size_t log2_exact(std::size_t n) {
  if (!is_power_of_two(n)) throw std::invalid_argument("size is not a power of two");
  std::size_t k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

}  // namespace jolt::prover
