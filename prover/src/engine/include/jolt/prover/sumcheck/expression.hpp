// Expressions a relation's summand is made of: sums of monomials over leaf tables.
//
//   Expr e;                                     // eq·(a·b − c) with leaves 0=eq, 1=a, 2=b, 3=c
//   e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
//   e.add_product(-Fr::one(), {Linear::leaf(0), Linear::leaf(3)});
//   Fr v = e.evaluate(leaf_values);             // the verifier's view at the final point
//
// A leaf is any multilinear table (a committed column, eq, eq+1, ...). Products of affine forms
// are expanded into monomials once, so evaluation is a flat loop. Value type, immutable use is
// thread-safe.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

// c + Σ coeff_i·leaf_i
struct Linear {
  Fr constant;
  std::vector<std::pair<std::uint32_t, Fr>> terms;

  static Linear leaf(std::uint32_t i) { return Linear{Fr::zero(), {{i, Fr::one()}}}; }
  static Linear one_minus(std::uint32_t i) { return Linear{Fr::one(), {{i, -Fr::one()}}}; }
  static Linear constant_of(const Fr& c) { return Linear{c, {}}; }
};

struct Monomial {
  Fr coeff;
  std::vector<std::uint32_t> leaves;  // may repeat; empty = constant term
};

class Expr {
 public:
  void add_monomial(Monomial m);
  // Adds coeff·Π factors, expanded.
  void add_product(const Fr& coeff, const std::vector<Linear>& factors);

  Fr evaluate(std::span<const Fr> leaf_values) const;
  // The expression divided by leaf `leaf`, which every monomial must hold exactly once
  // (std::invalid_argument otherwise): it is removed from each, and the leaves above it
  // renumbered one down — the E of eq·E for EqWeightedKernel when `leaf` is the eq table.
  Expr divided_by_leaf(std::uint32_t leaf) const;
  std::size_t degree() const;
  std::uint32_t num_leaves() const;  // 1 + largest leaf index used
  const std::vector<Monomial>& monomials() const { return monomials_; }

 private:
  std::vector<Monomial> monomials_;
};

}  // namespace jolt::prover
