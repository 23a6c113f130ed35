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
#include <stdexcept>
#include <string_view>

namespace jolt::prover {

namespace {

// eq(r, x) for one coordinate.
Fr eq1(const Fr& r, const Fr& x) {
  return EqPolynomial::evaluate({&r, 1}, {&x, 1});
}

// Pairs per block of the single-monomial terms' products over arrays.
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
  // Terms of one monomial (a product of leaves: the claim reductions' single leaves, the
  // read-raf's chunk product) run over blocks of pairs with their products over arrays
  // (multiply_arrays: the IFMA lanes where the CPU has them); the others by Expr::evaluate per
  // pair, reading only the leaves they use (general_used_).
  std::vector<bool> used(leaves_.size(), false);
  for (EqTerm& t : terms) {
    if (t.point.size() != rounds_)
      throw std::invalid_argument("EqWeightedKernel: a point of " + std::to_string(t.point.size()) +
                                  " coordinates for " + std::to_string(rounds_) + " rounds");
    if (t.expr.num_leaves() > leaves_.size())
      throw std::invalid_argument("EqWeightedKernel: expression uses a missing leaf");
    const auto& ms = t.expr.monomials();
    if (ms.size() == 1 && !ms[0].leaves.empty()) {
      single_.push_back(terms_.size());
    } else {
      general_.push_back(terms_.size());
      for (const Monomial& m : ms)
        for (std::uint32_t l : m.leaves) used[l] = true;
    }
    Term term;
    term.degree = t.expr.degree();
    term.suffix = EqPolynomial::evals(std::span<const Fr>(t.point).subspan(1));
    term.prefix = Fr::one();
    term.point = std::move(t.point);
    term.expr = std::move(t.expr);
    degree_ = std::max(degree_, term.degree + 1);
    terms_.push_back(std::move(term));
  }
  for (std::uint32_t l = 0; l < leaves_.size(); ++l)
    if (used[l]) general_used_.push_back(l);
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
                                              const Fr&) {
  if (bind_r) bind(*bind_r);
  if (bound_ >= rounds_)
    throw std::logic_error("EqWeightedKernel::prove_round after the last round");
  const std::size_t half = leaves_[0].size() / 2, nl = leaves_.size();
  // acc[offset[g] + t] = q_g(t), t = 0 .. deg E_g.
  std::vector<std::size_t> offset;
  std::size_t width = 0, max_pts = 0;
  for (const Term& t : terms_) {
    offset.push_back(width);
    width += t.degree + 1;
    max_pts = std::max(max_pts, t.degree + 1);
  }
  using Acc = std::vector<Fr>;
  auto body = [&](const tbb::blocked_range<std::size_t>& rg, Acc acc) {
    if (!general_.empty()) {
      std::vector<Fr> vals(nl), diff(nl);
      for (std::size_t i = rg.begin(); i < rg.end(); ++i) {
        for (std::uint32_t l : general_used_) {
          vals[l] = leaves_[l][i];
          diff[l] = leaves_[l][i + half] - vals[l];
        }
        for (std::size_t x = 0; x < max_pts; ++x) {
          if (x > 0)
            for (std::uint32_t l : general_used_) vals[l] += diff[l];
          for (std::size_t g : general_) {
            const Term& t = terms_[g];
            if (x > t.degree) continue;
            const Fr e = t.expr.evaluate(vals);
            if (!e.is_zero()) acc[offset[g] + x] += t.suffix[i] * e;
          }
        }
      }
    }
    if (single_.empty()) return acc;
    // Per leaf of the monomial: its value at X = x (lo + x·(hi − lo)) and the step.
    std::vector<std::array<Fr, kBlock>> val, step;
    std::array<Fr, kBlock> prod;
    for (std::size_t i0 = rg.begin(); i0 < rg.end(); i0 += kBlock) {
      const std::size_t n = std::min(kBlock, rg.end() - i0);
      for (std::size_t g : single_) {
        const Term& t = terms_[g];
        const std::vector<std::uint32_t>& ls = t.expr.monomials()[0].leaves;
        val.resize(ls.size());
        step.resize(ls.size());
        for (std::size_t k = 0; k < ls.size(); ++k) {
          const Fr* lo = leaves_[ls[k]].data() + i0;
          const Fr* hi = lo + half;
          for (std::size_t u = 0; u < n; ++u) {
            val[k][u] = lo[u];
            step[k][u] = hi[u] - lo[u];
          }
        }
        for (std::size_t x = 0; x <= t.degree; ++x) {
          if (x > 0)
            for (std::size_t k = 0; k < ls.size(); ++k)
              for (std::size_t u = 0; u < n; ++u) val[k][u] += step[k][u];
          multiply_rows(val[0].data(), kBlock, ls.size(), prod.data(), n);
          acc[offset[g] + x] += dot_arrays(prod.data(), t.suffix.data() + i0, n);
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
  // The single-monomial terms' sums times their coefficient.
  for (std::size_t g : single_) {
    const Fr& c = terms_[g].expr.monomials()[0].coeff;
    if (c != Fr::one())
      for (std::size_t x = 0; x <= terms_[g].degree; ++x) q[offset[g] + x] *= c;
  }
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
