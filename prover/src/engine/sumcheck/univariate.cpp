// Round polynomials: Lagrange interpolation on the integer nodes 0..d, Horner evaluation.
#include <jolt/prover/sumcheck/univariate.hpp>

namespace jolt::prover {

UniPoly UniPoly::from_evals(std::span<const Fr> evals) {
  const std::size_t n = evals.size();
  UniPoly out;
  out.coeffs.assign(n, Fr::zero());
  for (std::size_t i = 0; i < n; ++i) {
    // basis = Π_{j≠i} (X − j), denom = Π_{j≠i} (i − j)
    std::vector<Fr> basis = {Fr::one()};
    Fr denom = Fr::one();
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      std::vector<Fr> next(basis.size() + 1, Fr::zero());
      const Fr neg_j = -Fr::from_u64(j);
      for (std::size_t k = 0; k < basis.size(); ++k) {
        next[k + 1] += basis[k];
        next[k] += basis[k] * neg_j;
      }
      basis = std::move(next);
      denom *= Fr::from_i64(static_cast<std::int64_t>(i) - static_cast<std::int64_t>(j));
    }
    const Fr scale = evals[i] * denom.inverse();
    for (std::size_t k = 0; k < n; ++k) out.coeffs[k] += basis[k] * scale;
  }
  return out;
}

Fr UniPoly::evaluate(const Fr& x) const {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

Fr UniPoly::at_zero_plus_one() const {
  if (coeffs.empty()) return Fr::zero();
  Fr s = coeffs[0];
  for (const Fr& c : coeffs) s += c;
  return s;
}

}  // namespace jolt::prover
