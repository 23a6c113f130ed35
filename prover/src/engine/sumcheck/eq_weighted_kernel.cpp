// EqWeightedKernel (eq_weighted_kernel.hpp): eq factors kept apart from the leaves.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/eq_weighted_kernel.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace jolt::prover {

namespace {

// eq(r, x) for one coordinate.
Fr eq1(const Fr& r, const Fr& x) {
  return EqPolynomial::evaluate({&r, 1}, {&x, 1});
}

// Pairs per block of the terms' products over arrays.
constexpr std::size_t kBlock = 64;

}  // namespace

EqWeightedKernel::EqWeightedKernel(const KernelLabels& labels, std::vector<EqTerm> terms,
                                   std::vector<std::vector<Fr>> leaves)
    : labels_(labels), leaves_(std::move(leaves)) {
  if (terms.empty()) throw std::invalid_argument("EqWeightedKernel: no terms");
  if (leaves_.empty()) throw std::invalid_argument("EqWeightedKernel: no leaves");
  rounds_ = log2_exact(leaves_[0].size());
  if (rounds_ == 0) throw std::invalid_argument("EqWeightedKernel: leaves of one entry");
  for (const auto& l : leaves_)
    if (l.size() != leaves_[0].size())
      throw std::invalid_argument("EqWeightedKernel: leaf sizes differ");
  // Every term runs over blocks of pairs, monomial by monomial, with its products over arrays
  // (multiply_rows, multiply_arrays, dot_arrays: the IFMA lanes where the CPU has them), reading
  // only the leaves it uses.
  for (EqTerm& t : terms) {
    if (t.point.size() != rounds_)
      throw std::invalid_argument("EqWeightedKernel: a point of " + std::to_string(t.point.size()) +
                                  " coordinates for " + std::to_string(rounds_) + " rounds");
    if (t.expr.num_leaves() > leaves_.size())
      throw std::invalid_argument("EqWeightedKernel: expression uses a missing leaf");
    Term term;
    for (const Monomial& m : t.expr.monomials()) {
      std::vector<std::uint32_t> f;
      for (std::uint32_t l : m.leaves) {
        auto at = std::find(term.used.begin(), term.used.end(), l);
        if (at == term.used.end()) at = term.used.insert(at, l);
        f.push_back(static_cast<std::uint32_t>(at - term.used.begin()));
      }
      term.factors.push_back(std::move(f));
    }
    term.degree = t.expr.degree();
    term.suffix = EqPolynomial::evals(std::span<const Fr>(t.point).subspan(1));
    term.prefix = Fr::one();
    term.point = std::move(t.point);
    term.expr = std::move(t.expr);
    degree_ = std::max(degree_, term.degree + 1);
    terms_.push_back(std::move(term));
  }
}

void EqWeightedKernel::bind(const Fr& r) {
  for (auto& l : leaves_) bind_top_in_place(l, r);
  for (Term& t : terms_) {
    t.prefix *= eq1(t.point[bound_], r);
    // eq(point[bound + 2 ..], ·) from eq(point[bound + 1 ..], ·): eq(c, 0) + eq(c, 1) = 1.
    if (const std::size_t h = t.suffix.size() / 2; h > 0) {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h, 1 << 12),
                        [&](const tbb::blocked_range<std::size_t>& rg) {
                          for (std::size_t i = rg.begin(); i < rg.end(); ++i)
                            t.suffix[i] += t.suffix[i + h];
                        });
      t.suffix.resize(h);
    }
  }
  ++bound_;
}

std::vector<Fr> EqWeightedKernel::prove_round(const std::optional<Fr>& bind_r, std::size_t,
                                              const Fr& claim) {
  if (bind_r) bind(*bind_r);
  if (bound_ >= rounds_)
    throw std::logic_error("EqWeightedKernel::prove_round after the last round");
  const std::size_t half = leaves_[0].size() / 2;
  // acc[offset[g] + t] = q_g(t), t = 0 .. deg E_g.
  std::vector<std::size_t> offset;
  std::size_t width = 0;
  for (const Term& t : terms_) {
    offset.push_back(width);
    width += t.degree + 1;
  }
  // With one term the claim is prefix·((1 − r)·q(0) + r·q(1)) (r the term's coordinate of this
  // round), which gives q(1) from q(0) unless prefix·r is 0: q(1) is then summed like the rest.
  const Fr at_one = terms_.size() == 1 && terms_[0].degree > 0
                        ? terms_[0].prefix * terms_[0].point[bound_]
                        : Fr::zero();
  const bool one_from_claim = !at_one.is_zero();
  using Acc = std::vector<Fr>;
  auto body = [&](const tbb::blocked_range<std::size_t>& rg, Acc acc) {
    // Per leaf of the term: its value at X = x (lo + x·(hi − lo)) and the step.
    std::vector<std::array<Fr, kBlock>> val, step;
    std::array<Fr, kBlock> prod;
    for (std::size_t i0 = rg.begin(); i0 < rg.end(); i0 += kBlock) {
      const std::size_t n = std::min(kBlock, rg.end() - i0);
      for (std::size_t g = 0; g < terms_.size(); ++g) {
        const Term& t = terms_[g];
        const Fr* suffix = t.suffix.data() + i0;
        val.resize(t.used.size());
        step.resize(t.used.size());
        for (std::size_t k = 0; k < t.used.size(); ++k) {
          const Fr* lo = leaves_[t.used[k]].data() + i0;
          const Fr* hi = lo + half;
          for (std::size_t u = 0; u < n; ++u) {
            val[k][u] = lo[u];
            step[k][u] = hi[u] - lo[u];
          }
        }
        std::optional<Fr> suffix_sum;  // for a monomial without leaves
        for (std::size_t x = 0; x <= t.degree; ++x) {
          if (x > 0)
            for (std::size_t k = 0; k < t.used.size(); ++k)
              for (std::size_t u = 0; u < n; ++u) val[k][u] += step[k][u];
          if (x == 1 && one_from_claim) continue;
          const std::vector<Monomial>& ms = t.expr.monomials();
          for (std::size_t m = 0; m < ms.size(); ++m) {
            const std::vector<std::uint32_t>& f = t.factors[m];
            Fr s;
            if (f.empty()) {
              if (!suffix_sum) suffix_sum = std::accumulate(suffix, suffix + n, Fr::zero());
              s = *suffix_sum;
            } else if (f.size() == 1) {
              s = dot_arrays(val[f[0]].data(), suffix, n);
            } else {
              // Factors in consecutive rows take one running product; others a product apiece.
              bool rows = true;
              for (std::size_t k = 1; k < f.size(); ++k) rows = rows && f[k] == f[0] + k;
              if (rows) {
                multiply_rows(val[f[0]].data(), kBlock, f.size(), prod.data(), n);
              } else {
                multiply_arrays(val[f[0]].data(), val[f[1]].data(), prod.data(), n);
                for (std::size_t k = 2; k < f.size(); ++k)
                  multiply_arrays(prod.data(), val[f[k]].data(), prod.data(), n);
              }
              s = dot_arrays(prod.data(), suffix, n);
            }
            acc[offset[g] + x] += ms[m].coeff == Fr::one() ? s : ms[m].coeff * s;
          }
        }
      }
    }
    return acc;
  };
  auto join = [](Acc a, const Acc& b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    return a;
  };
  Acc q = tbb::parallel_reduce(tbb::blocked_range<std::size_t>(0, half, 1024),
                               Acc(width, Fr::zero()), body, join);
  if (one_from_claim)
    q[1] = q_at_one_from_claim(claim, terms_[0].prefix, terms_[0].point[bound_], q[0]);
  std::vector<Fr> evals(degree_ + 1, Fr::zero());
  for (std::size_t g = 0; g < terms_.size(); ++g) {
    const Term& t = terms_[g];
    const std::span<const Fr> qg(q.data() + offset[g], t.degree + 1);
    const UniPoly qp = UniPoly::from_evals(qg);
    const Fr& r = t.point[bound_];
    for (std::size_t x = 0; x <= degree_; ++x) {
      const Fr X = Fr::from_u64(x);
      const Fr qx = x <= t.degree ? qg[x] : qp.evaluate(X);
      evals[x] += t.prefix * eq1(r, X) * qx;
    }
  }
  return evals;
}

void EqWeightedKernel::finish_rounds(const Fr& r) {
  bind(r);
}

std::vector<Fr> EqWeightedKernel::output_claims() const {
  if (bound_ != rounds_)
    throw std::logic_error("EqWeightedKernel::output_claims before all rounds bound");
  std::vector<Fr> out;
  for (const Term& t : terms_) out.push_back(t.prefix);
  for (const auto& l : leaves_) out.push_back(l[0]);
  return out;
}

void EqWeightedKernel::visit_heap(jolt::HeapVisitor& v) const {
  // The root frame names the relation (docs/heap-profiling.md): "<Relation>" of its labels.
  const std::string_view prepare = labels_.prepare;
  jolt::HeapScope s(v, prepare.substr(0, prepare.find("::")));
  std::uint64_t leaves = 0, suffixes = 0;
  for (const auto& l : leaves_) leaves += l.capacity() * sizeof(Fr);
  for (const Term& t : terms_) suffixes += t.suffix.capacity() * sizeof(Fr);
  v.bytes("leaves", leaves);
  v.bytes("eq_suffixes", suffixes);
}

}  // namespace jolt::prover
