// Outer Spartan: Az/Bz materialisation and the split-eq degree-3 round kernel.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <array>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/spartan_outer.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>

namespace jolt::prover {

namespace m1 {
std::pair<std::vector<Fr>, std::vector<Fr>> outer_tables(const std::vector<std::vector<Fr>>& cols) {
  const std::size_t T = cols.at(0).size();
  std::vector<Fr> az(kNumRowsPadded * T), bz(kNumRowsPadded * T);
  const auto& rows = constraints();
  // Small integer coefficients as field elements, once.
  // Coefficients ±1 (almost all of them) become additions/subtractions, others multiplications.
  struct Lin {
    Fr c;
    std::vector<std::uint32_t> plus, minus;
    std::vector<std::pair<std::uint32_t, Fr>> other;
    Fr eval(const std::vector<std::vector<Fr>>& cols, std::size_t t) const {
      Fr v = c;
      for (std::uint32_t i : plus) v += cols[i][t];
      for (std::uint32_t i : minus) v -= cols[i][t];
      for (const auto& [i, w] : other) v += w * cols[i][t];
      return v;
    }
  };
  auto conv = [](const LinearForm& f) {
    Lin l{Fr::from_i64(f.constant), {}, {}, {}};
    for (auto [c, k] : f.terms) {
      if (k == 1)
        l.plus.push_back(c);
      else if (k == -1)
        l.minus.push_back(c);
      else
        l.other.push_back({c, Fr::from_i64(k)});
    }
    return l;
  };
  std::vector<Lin> a, b;
  for (const auto& r : rows) {
    a.push_back(conv(r.a));
    b.push_back(conv(r.b));
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 512),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
                        for (std::size_t k = 0; k < rows.size(); ++k) {
                          az[k * T + t] = a[k].eval(cols, t);
                          bz[k * T + t] = b[k].eval(cols, t);
                        }
                      }
                    });
  return {std::move(az), std::move(bz)};
}
}  // namespace m1

SpartanOuterKernel::SpartanOuterKernel(std::vector<Fr> az, std::vector<Fr> bz, std::vector<Fr> tau)
    : az_(std::move(az)), bz_(std::move(bz)), tau_(std::move(tau)) {
  if (az_.size() != (std::size_t{1} << tau_.size()) || bz_.size() != az_.size())
    throw std::invalid_argument("SpartanOuterKernel: table size != 2^|tau|");
  eq_rest_ = EqPolynomial::evals(std::span<const Fr>(tau_).subspan(1));
}

void SpartanOuterKernel::bind(const Fr& r) {
  const Fr& tj = tau_[round_];
  eq_bound_ *= (tj * r).dbl() + Fr::one() - tj - r;
  bind_top_in_place(az_, r);
  bind_top_in_place(bz_, r);
  ++round_;
  if (round_ < tau_.size()) {
    const std::size_t h = eq_rest_.size() / 2;
    for (std::size_t i = 0; i < h; ++i) eq_rest_[i] += eq_rest_[i + h];
    eq_rest_.resize(h);
  }
}

std::vector<Fr> SpartanOuterKernel::prove_round(const std::optional<Fr>& bind_r, std::size_t,
                                                const Fr&) {
  if (bind_r) bind(*bind_r);
  const std::size_t half = az_.size() / 2;
  using Acc = std::array<Fr, 3>;  // q(0), q(1), q(2)
  Acc q = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, half, 2048), Acc{},
      [&](const tbb::blocked_range<std::size_t>& rg, Acc acc) {
        for (std::size_t i = rg.begin(); i < rg.end(); ++i) {
          const Fr a0 = az_[i], a1 = az_[i + half], b0 = bz_[i], b1 = bz_[i + half];
          const Fr& e = eq_rest_[i];
          acc[0] += e * (a0 * b0);
          acc[1] += e * (a1 * b1);
          acc[2] += e * ((a1.dbl() - a0) * (b1.dbl() - b0));
        }
        return acc;
      },
      [](Acc x, const Acc& y) {
        for (int i = 0; i < 3; ++i) x[i] += y[i];
        return x;
      });
  const Fr q3 = q[0] - (q[1] + q[1] + q[1]) + (q[2] + q[2] + q[2]);
  const Fr& tj = tau_[round_];
  // eq(τ_j, X) = (1 − τ_j) + X·(2τ_j − 1)
  const Fr l0 = Fr::one() - tj, slope = tj.dbl() - Fr::one();
  std::vector<Fr> evals(4);
  const Fr qs[4] = {q[0], q[1], q[2], q3};
  Fr l = l0;
  for (int x = 0; x < 4; ++x) {
    evals[x] = eq_bound_ * l * qs[x];
    l += slope;
  }
  return evals;
}

void SpartanOuterKernel::finish_rounds(const Fr& r) {
  bind(r);
}

std::vector<Fr> SpartanOuterKernel::output_claims() const {
  if (az_.size() != 1) throw std::logic_error("SpartanOuterKernel::output_claims before binding");
  return {eq_bound_, az_[0], bz_[0]};
}

void SpartanOuterKernel::visit_heap(jolt::HeapVisitor& v) const {
  jolt::HeapScope s(v, "SpartanOuter");
  v.bytes("Az", az_.capacity() * sizeof(Fr));
  v.bytes("Bz", bz_.capacity() * sizeof(Fr));
  v.bytes("eq_rest", eq_rest_.capacity() * sizeof(Fr));
}

}  // namespace jolt::prover
