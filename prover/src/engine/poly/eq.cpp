// eq and eq+1: tables by doubling (parallel above a threshold) and O(n) evaluations.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>

namespace jolt::prover {

namespace {
// Serial doubling: after r[0..k), out[0..2^k) = eq(r[0..k), x) · scale, x big-endian; each new
// variable becomes the least significant bit (walk i downwards so reads precede overwrites).
void evals_serial(std::span<const Fr> r, const Fr& scale, Fr* out) {
  out[0] = scale;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const std::size_t len = std::size_t{1} << k;
    const Fr rk = r[k];
    for (std::size_t i = len; i-- > 0;) {
      const Fr hi = out[i] * rk;
      out[2 * i + 1] = hi;
      out[2 * i] = out[i] - hi;
    }
  }
}
}  // namespace

std::vector<Fr> EqPolynomial::evals(std::span<const Fr> r, const Fr& scale) {
  JOLT_SPAN("EqPolynomial::evals", jolt::arg("num_vars", r.size()));
  const std::size_t n = r.size();
  std::vector<Fr> out = zero_table(std::size_t{1} << n);
  if (n <= kParallelThreshold) {
    evals_serial(r, scale, out.data());
    return out;
  }
  // Tensor split eq(r) = eq(r_hi) ⊗ eq(r_lo): two small serial tables, then every output entry
  // is written exactly once (one multiplication, over arrays: the IFMA lanes where the CPU has
  // them), in parallel over the high index. Touching the output once matters: first-touch page
  // faults dominate large tables.
  const std::size_t n_hi = n / 2, n_lo = n - n_hi;
  std::vector<Fr> hi(std::size_t{1} << n_hi), lo(std::size_t{1} << n_lo);
  evals_serial(r.subspan(0, n_hi), scale, hi.data());
  evals_serial(r.subspan(n_hi), Fr::one(), lo.data());
  const std::size_t L = lo.size();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hi.size()),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      std::vector<Fr> row(L);
                      for (std::size_t h = rg.begin(); h < rg.end(); ++h) {
                        std::fill(row.begin(), row.end(), hi[h]);
                        multiply_arrays(row.data(), lo.data(), out.data() + h * L, L);
                      }
                    });
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
