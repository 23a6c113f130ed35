// Expr: expansion of products of affine forms into monomials, and pointwise evaluation.
#include <algorithm>
#include <jolt/prover/sumcheck/expression.hpp>
#include <stdexcept>
#include <string>

namespace jolt::prover {

void Expr::add_monomial(Monomial m) {
  if (m.coeff.is_zero()) return;
  monomials_.push_back(std::move(m));
}

void Expr::add_product(const Fr& coeff, const std::vector<Linear>& factors) {
  std::vector<Monomial> acc = {Monomial{coeff, {}}};
  for (const Linear& f : factors) {
    std::vector<Monomial> next;
    for (const Monomial& m : acc) {
      if (!f.constant.is_zero()) next.push_back(Monomial{m.coeff * f.constant, m.leaves});
      for (const auto& [leaf, c] : f.terms) {
        Monomial n{m.coeff * c, m.leaves};
        n.leaves.push_back(leaf);
        next.push_back(std::move(n));
      }
    }
    acc = std::move(next);
  }
  for (auto& m : acc) add_monomial(std::move(m));
}

// A monomial with a zero leaf is skipped (tables of flags and one-hot rows are mostly zero), and a
// coefficient of one or minus one costs no product; the sum is the same field element.
Fr Expr::evaluate(std::span<const Fr> v) const {
  const Fr one = Fr::one(), minus_one = -one;
  Fr total = Fr::zero();
  for (const Monomial& m : monomials_) {
    if (m.leaves.empty()) {
      total += m.coeff;
      continue;
    }
    Fr p = v[m.leaves[0]];
    bool zero = p.is_zero();
    for (std::size_t i = 1; i < m.leaves.size() && !zero; ++i) {
      const Fr& x = v[m.leaves[i]];
      zero = x.is_zero();
      p *= x;
    }
    if (zero) continue;
    if (m.coeff == one)
      total += p;
    else if (m.coeff == minus_one)
      total -= p;
    else
      total += m.coeff * p;
  }
  return total;
}

Expr Expr::divided_by_leaf(std::uint32_t leaf) const {
  Expr out;
  for (const Monomial& m : monomials_) {
    const auto it = std::find(m.leaves.begin(), m.leaves.end(), leaf);
    if (it == m.leaves.end() || std::count(m.leaves.begin(), m.leaves.end(), leaf) != 1)
      throw std::invalid_argument("Expr::divided_by_leaf: a monomial holds leaf " +
                                  std::to_string(leaf) + " " +
                                  (it == m.leaves.end() ? "not at all" : "more than once"));
    Monomial q{m.coeff, {}};
    for (auto l = m.leaves.begin(); l != m.leaves.end(); ++l)
      if (l != it) q.leaves.push_back(*l > leaf ? *l - 1 : *l);
    out.add_monomial(std::move(q));
  }
  return out;
}

std::size_t Expr::degree() const {
  std::size_t d = 0;
  for (const Monomial& m : monomials_) d = std::max(d, m.leaves.size());
  return d;
}

std::uint32_t Expr::num_leaves() const {
  std::uint32_t n = 0;
  for (const Monomial& m : monomials_)
    for (std::uint32_t l : m.leaves) n = std::max(n, l + 1);
  return n;
}

}  // namespace jolt::prover
