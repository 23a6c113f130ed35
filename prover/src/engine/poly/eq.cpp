// eq and eq+1: tables by doubling (parallel above a threshold) and O(n) evaluations.
#include <tbb/parallel_for.h>

#include <algorithm>

#include <jolt/instrument.hpp>
#include <jolt/prover/poly/eq.hpp>

namespace jolt::prover {

std::vector<Fr> EqPolynomial::evals(std::span<const Fr> r, const Fr& scale) {
  JOLT_SPAN("EqPolynomial::evals", jolt::arg("num_vars", r.size()));
  const std::size_t n = r.size();
  std::vector<Fr> out(std::size_t{1} << n);
  out[0] = scale;
  // After processing r[0..k), out[0..2^k) holds eq(r[0..k), x) with x big-endian; each new
  // variable becomes the new least significant bit: out[2i+1] = out[i]·r_k, out[2i] = out[i] −
  // out[2i+1]. Walk i downwards so entries are read before they are overwritten.
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t len = std::size_t{1} << k;
    const Fr rk = r[k];
    if (k >= kParallelThreshold) {
      // Parallel variant: write into a fresh buffer (in-place order matters serially).
      std::vector<Fr> next(2 * len);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, len, 1 << 12),
                        [&](const tbb::blocked_range<std::size_t>& rg) {
                          for (std::size_t i = rg.begin(); i < rg.end(); ++i) {
                            Fr hi = out[i] * rk;
                            next[2 * i + 1] = hi;
                            next[2 * i] = out[i] - hi;
                          }
                        });
      std::copy(next.begin(), next.end(), out.begin());
    } else {
      for (std::size_t i = len; i-- > 0;) {
        Fr hi = out[i] * rk;
        out[2 * i + 1] = hi;
        out[2 * i] = out[i] - hi;
      }
    }
  }
  return out;
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
