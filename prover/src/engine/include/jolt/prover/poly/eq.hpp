// The multilinear equality polynomial eq(r, x) = Π_k (r_k·x_k + (1−r_k)(1−x_k)) and its
// shifted cousin eq+1(r, x) = [x + 1 = r as big-endian integers].
//
//   std::vector<Fr> e = EqPolynomial::evals(r);        // e[x] = eq(r, x), big-endian x
//   Fr v = EqPolynomial::evaluate(r, x_point);         // O(n)
//   Fr s = EqPlusOnePolynomial::evaluate(r, x_point);  // eq+1(r, x) in O(n)
//
// evals is eq_table (pcs/fr_arrays.hpp): with TBB above kEqSerialVars variables and
// deterministic (exact field arithmetic, same values whatever the thread count). It opens span
// `EqPolynomial::evals`.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

struct EqPolynomial {
  // Table of eq(r, x)·scale over x ∈ {0,1}^n, x big-endian (r[0] ↔ the MSB).
  static std::vector<Fr> evals(std::span<const Fr> r, const Fr& scale = Fr::one());
  static Fr evaluate(std::span<const Fr> r, std::span<const Fr> x);
};

struct EqPlusOnePolynomial {
  // eq+1(x, y) = 1 iff int(y) = int(x) + 1 (both big-endian, no wrap-around), as the
  // multilinear extension in both arguments, evaluated at (x, y) in O(n).
  static Fr evaluate(std::span<const Fr> x, std::span<const Fr> y);
  // Table over y ∈ {0,1}^n of eq+1(r, y) — i.e. entry y holds eq(r, y − 1), 0 for y = 0.
  static std::vector<Fr> evals(std::span<const Fr> r);
};

}  // namespace jolt::prover
