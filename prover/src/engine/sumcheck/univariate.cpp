// Round polynomials: Lagrange interpolation on the integer nodes 0..d, Horner evaluation.
#include <array>
#include <jolt/prover/sumcheck/univariate.hpp>
#include <mutex>

namespace jolt::prover {

namespace {

// out.coeffs = Σ_i evals[i]·basis_i / denom_i with basis_i = Π_{j≠i} (X − j) and denom_i =
// Π_{j≠i} (i − j): one inverse per node.
UniPoly interpolate(std::span<const Fr> evals) {
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

// The interpolation matrix for n nodes, row i = the coefficients of the Lagrange basis
// polynomial of node i (interpolate of the i-th unit vector), built once per n ≤ kCachedNodes:
// round polynomials have a handful of nodes and every sumcheck round of every member, in the
// prover and the verifier, interpolates one, so the inverses are taken once per process.
constexpr std::size_t kCachedNodes = 16;
const std::vector<Fr>& lagrange_matrix(std::size_t n) {
  static std::array<std::once_flag, kCachedNodes + 1> once;
  static std::array<std::vector<Fr>, kCachedNodes + 1> matrix;
  std::call_once(once[n], [n] {
    std::vector<Fr> m(n * n);
    std::vector<Fr> unit(n, Fr::zero());
    for (std::size_t i = 0; i < n; ++i) {
      unit[i] = Fr::one();
      const UniPoly b = interpolate(unit);
      std::copy(b.coeffs.begin(), b.coeffs.end(), m.begin() + static_cast<std::ptrdiff_t>(i * n));
      unit[i] = Fr::zero();
    }
    matrix[n] = std::move(m);
  });
  return matrix[n];
}

}  // namespace

UniPoly UniPoly::from_evals(std::span<const Fr> evals) {
  const std::size_t n = evals.size();
  if (n > kCachedNodes) return interpolate(evals);
  const std::vector<Fr>& m = lagrange_matrix(n);
  UniPoly out;
  out.coeffs.assign(n, Fr::zero());
  for (std::size_t i = 0; i < n; ++i) {
    if (evals[i].is_zero()) continue;
    const Fr* row = m.data() + i * n;
    for (std::size_t k = 0; k < n; ++k) out.coeffs[k] += evals[i] * row[k];
  }
  return out;
}

Fr UniPoly::evaluate(const Fr& x) const {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

Fr q_at_one_from_claim(const Fr& claim, const Fr& c, const Fr& r, const Fr& q0) {
  return (claim - c * (Fr::one() - r) * q0) * (c * r).inverse();
}

Fr UniPoly::at_zero_plus_one() const {
  if (coeffs.empty()) return Fr::zero();
  Fr s = coeffs[0];
  for (const Fr& c : coeffs) s += c;
  return s;
}

}  // namespace jolt::prover
