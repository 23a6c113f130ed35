// eq and eq+1: tables (pcs/fr_arrays.hpp's eq_table, parallel above kEqSerialVars variables)
// and O(n) evaluations.
#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>

namespace jolt::prover {

std::vector<Fr> EqPolynomial::evals(std::span<const Fr> r, const Fr& scale) {
  JOLT_SPAN("EqPolynomial::evals", jolt::arg("num_vars", r.size()));
  return eq_table(r, scale);
}

Fr EqPolynomial::evaluate(std::span<const Fr> r, std::span<const Fr> x) {
  if (r.size() != x.size()) throw std::invalid_argument("EqPolynomial::evaluate: size mismatch");
  Fr acc = Fr::one();
  const Fr one = Fr::one();
  for (std::size_t k = 0; k < r.size(); ++k) {
    Fr rx = r[k] * x[k];
    acc = acc * (rx + rx + one - r[k] - x[k]);
  }
  return acc;
}

Fr EqPlusOnePolynomial::evaluate(std::span<const Fr> x, std::span<const Fr> y) {
  // y = x + 1: for some bit position k (counted from the LSB), x has k trailing ones → y has
  // k trailing zeros, x_k = 0, y_k = 1, and all higher bits agree. Sum over k.
  if (x.size() != y.size()) throw std::invalid_argument("EqPlusOne::evaluate: size mismatch");
  const std::size_t n = x.size();
  const Fr one = Fr::one();
  Fr total = Fr::zero();
  // lower[k] = Π over the k least-significant bits of x_i(1−y_i); computed incrementally.
  Fr lower = one;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t pos = n - 1 - k;  // big-endian index of bit k
    Fr term = lower * (one - x[pos]) * y[pos];
    // Higher bits (positions 0..pos-1) must agree.
    Fr high = EqPolynomial::evaluate(x.subspan(0, pos), y.subspan(0, pos));
    total = total + term * high;
    lower = lower * x[pos] * (one - y[pos]);
  }
  return total;
}

std::vector<Fr> EqPlusOnePolynomial::evals(std::span<const Fr> r) {
  std::vector<Fr> e = EqPolynomial::evals(r);
  std::vector<Fr> out(e.size());
  for (std::size_t y = 1; y < e.size(); ++y) out[y] = e[y - 1];
  return out;
}

}  // namespace jolt::prover
