// Univariate round polynomials: coefficient form, evaluation, interpolation from s(0..d).
//
//   UniPoly s = UniPoly::from_evals({s0, s1, s2, s3});   // degree ≤ 3
//   Fr v = s.evaluate(r);  Fr sum = s.at_zero_plus_one();
#pragma once
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

struct UniPoly {
  std::vector<Fr> coeffs;  // coeffs[i] multiplies X^i

  static UniPoly from_evals(std::span<const Fr> evals);  // evals at X = 0, 1, ..., d
  Fr evaluate(const Fr& x) const;
  Fr at_zero_plus_one() const;  // s(0) + s(1)
  std::size_t degree_bound() const { return coeffs.empty() ? 0 : coeffs.size() - 1; }
};

// q(1) of a round s(X) = c·eq(r, X)·q(X) from its claim s(0) + s(1) and q(0):
// (claim − c·(1 − r)·q(0)) / (c·r). Requires c·r ≠ 0 (where it is 0 the caller sums q(1)).
Fr q_at_one_from_claim(const Fr& claim, const Fr& c, const Fr& r, const Fr& q0);

}  // namespace jolt::prover
