// The fraction-tree sumcheck (fraction_tree.hpp).
#include "pipeline/fraction_tree.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <bit>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>

#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/batch.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>
#include <jolt/prover/verify_check.hpp>
#include <stdexcept>
#include <string_view>

#include "pipeline/protocol.hpp"

namespace jolt::prover {

namespace {

// A layer as its two halves on the most significant index bit: the layer sumcheck reads them as
// two tables, so they are stored apart and handed to its kernel without a copy.
template <class T>
struct HalvesOf {
  std::vector<T> lo, hi;
};
using Halves = HalvesOf<Fr>;

// Splits a leaf table into halves: the upper half is copied out, then the table shrinks to its
// lower half (at most 2× the table in memory for a moment, and before any other layer exists).
template <class T>
HalvesOf<T> split(std::vector<T> v) {
  const std::size_t h = v.size() / 2;
  HalvesOf<T> out;
  out.hi.assign(v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  v.resize(h);
  v.shrink_to_fit();
  out.lo = std::move(v);
  return out;
}

// v·q for a numerator v: ±1 and 0 without a multiplication.
Fr times(const Fr& v, const Fr& q) {
  return v * q;
}
Fr times(std::int32_t v, const Fr& q) {
  if (v == 1) return q;
  if (v == -1) return -q;
  if (v == 0) return Fr::zero();
  return Fr::from_i64(v) * q;
}

// A small integer as a field element: 0 and ±1 without a conversion.
Fr small_field(std::int64_t v) {
  if (v == 0) return Fr::zero();
  if (v == 1) return Fr::one();
  if (v == -1) return -Fr::one();
  return Fr::from_i64(v);
}

Fr lerp(const Fr& a, const Fr& b, const Fr& t) {
  return a + t * (b - a);
}

// The layer sumcheck Σ_x eq(r, x)·(P0·Q1 + P1·Q0 + λ·Q0·Q1)(x) (unit: Q0 + Q1 + λ·Q0·Q1) with
// the eq factor kept apart (fraction_tree.hpp): in round k, after c_0 .. c_{k−1},
// s(X) = eq(r_<k, c_<k)·eq(r_k, X)·q(X) with q(X) = Σ_x' E_k(x')·F(X, x') and E_k the table of
// eq(r_>k, ·). q has degree 2: it is summed at X = 0, 1 and its leading coefficient, no eq
// factor per entry is bound, and E_{k+1} is E_k's two halves added (Σ_b eq(r, b) = 1).
class FractionLayerKernel final : public SumcheckKernel {
 public:
  FractionLayerKernel(const KernelLabels& labels, std::vector<Fr> r,
                      std::vector<std::vector<Fr>> tables, const Fr& lambda)
      : FractionLayerKernel(labels, std::move(r), std::move(tables), {}, lambda) {}

  // With small_p = (P0, P1) as small integers and tables = (Q0, Q1): the numerators stay 4 bytes
  // each until the first bind makes them field elements of half the length.
  FractionLayerKernel(const KernelLabels& labels, std::vector<Fr> r,
                      std::vector<std::vector<Fr>> tables,
                      std::array<std::vector<std::int32_t>, 2> small_p, const Fr& lambda)
      : labels_(labels),
        r_(std::move(r)),
        tables_(std::move(tables)),
        lambda_(lambda),
        small_p_(std::move(small_p)) {
    small_ = !small_p_[0].empty();
    if (small_) {
      if (tables_.size() != 2 || small_p_[1].size() != small_p_[0].size())
        throw std::invalid_argument("fraction layer: 2 small numerator and 2 denominator tables");
      tables_.insert(tables_.begin(), 2, std::vector<Fr>{});
    }
    unit_ = tables_.size() == 2;
    if (tables_.size() != 2 && tables_.size() != 4)
      throw std::invalid_argument("fraction layer: 2 or 4 tables");
    for (std::size_t i = 0; i < tables_.size(); ++i)
      if ((small_ && i < 2 ? small_p_[i].size() : tables_[i].size()) !=
          (std::size_t{1} << r_.size()))
        throw std::invalid_argument("fraction layer: a table's size is not 2^(point's variables)");
    if (r_.empty()) throw std::invalid_argument("fraction layer: no variables");
    rest_ = EqPolynomial::evals(std::span<const Fr>(r_).subspan(1));
  }

  const KernelLabels& labels() const override { return labels_; }
  std::size_t num_rounds() const override { return r_.size(); }
  std::size_t degree() const override { return 3; }

  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& claim) override {
    if (bind) bind_all(*bind);
    const std::size_t half = (small_ ? small_p_[0].size() : tables_[0].size()) / 2;
    // The round is (e0 + X·de)·q(X) with e0 + de = scale·r_k, so the claim e0·q(0) + scale·r_k·q(1)
    // gives q(1) from q(0) unless scale·r_k is 0: then q(1) is summed as q(0) is.
    const Fr& rk = r_[round];
    const Fr at_one = scale_ * rk;
    const bool sum_at_one = at_one.is_zero();
    // q at 0, at 1 (when summed), and its X² coefficient
    using Sums = std::array<Fr, 3>;
    // The products kChunk entries at a time over arrays (multiply_arrays: the IFMA lanes where
    // the CPU has them), the same field elements as one operator* each.
    const Sums q = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, half, 2048), Sums{},
        [&](const tbb::blocked_range<std::size_t>& rg, Sums acc) {
          constexpr std::size_t kChunk = 64;
          using Chunk = std::array<Fr, kChunk>;
          Chunk lam, t, u, d0, d1, d2, d3, s00, s01, s10, s11;
          lam.fill(lambda_);
          for (std::size_t x0 = rg.begin(); x0 < rg.end(); x0 += kChunk) {
            const std::size_t n = std::min(kChunk, rg.end() - x0);
            const Fr* e = rest_.data() + x0;
            // acc += Σ_k e[k]·t[k]
            auto add_weighted = [&](Fr& into) { into += dot_arrays(e, t.data(), n); };
            if (unit_) {
              const Fr *a0 = tables_[0].data() + x0, *a1 = a0 + half;
              const Fr *b0 = tables_[1].data() + x0, *b1 = b0 + half;
              // Q0 + Q1 + λ·Q0·Q1 at X = 0 (and 1)
              for (const auto& [a, b, into] :
                   {std::tuple{a0, b0, &acc[0]}, std::tuple{a1, b1, &acc[1]}}) {
                if (into == &acc[1] && !sum_at_one) continue;
                multiply_arrays(a, b, t.data(), n);
                multiply_arrays(lam.data(), t.data(), t.data(), n);
                for (std::size_t k = 0; k < n; ++k) t[k] += a[k] + b[k];
                add_weighted(*into);
              }
              // ΔQ0·ΔQ1 (λ applied to the sum below)
              for (std::size_t k = 0; k < n; ++k) {
                d0[k] = a1[k] - a0[k];
                d1[k] = b1[k] - b0[k];
              }
              multiply_arrays(d0.data(), d1.data(), t.data(), n);
              add_weighted(acc[2]);
            } else {
              const Fr *p00, *p01, *p10, *p11;
              if (small_) {
                for (std::size_t k = 0; k < n; ++k) {
                  s00[k] = small_field(small_p_[0][x0 + k]);
                  s01[k] = small_field(small_p_[0][x0 + half + k]);
                  s10[k] = small_field(small_p_[1][x0 + k]);
                  s11[k] = small_field(small_p_[1][x0 + half + k]);
                }
                p00 = s00.data(), p01 = s01.data(), p10 = s10.data(), p11 = s11.data();
              } else {
                p00 = tables_[0].data() + x0, p01 = p00 + half;
                p10 = tables_[1].data() + x0, p11 = p10 + half;
              }
              const Fr *q00 = tables_[2].data() + x0, *q01 = q00 + half;
              const Fr *q10 = tables_[3].data() + x0, *q11 = q10 + half;
              // P0·Q1 + Q0·(P1 + λ·Q1) from (P0, Q1, Q0, P1) at X = 0, 1 and in its X²
              // coefficient (the differences).
              auto term = [&](const Fr* p0, const Fr* q1, const Fr* q0, const Fr* p1, Fr& into) {
                multiply_arrays(lam.data(), q1, t.data(), n);
                for (std::size_t k = 0; k < n; ++k) t[k] += p1[k];
                multiply_arrays(q0, t.data(), t.data(), n);
                multiply_arrays(p0, q1, u.data(), n);
                for (std::size_t k = 0; k < n; ++k) t[k] += u[k];
                add_weighted(into);
              };
              term(p00, q10, q00, p10, acc[0]);
              if (sum_at_one) term(p01, q11, q01, p11, acc[1]);
              for (std::size_t k = 0; k < n; ++k) {
                d0[k] = p01[k] - p00[k];
                d1[k] = q11[k] - q10[k];
                d2[k] = q01[k] - q00[k];
                d3[k] = p11[k] - p10[k];
              }
              term(d0.data(), d1.data(), d2.data(), d3.data(), acc[2]);
            }
          }
          return acc;
        },
        [](Sums a, const Sums& b) {
          for (std::size_t i = 0; i < 3; ++i) a[i] += b[i];
          return a;
        });
    // The X² coefficient of the unit F is λ·ΔQ0·ΔQ1.
    const Fr c2 = unit_ ? lambda_ * q[2] : q[2];
    const Fr e0 = scale_ * (Fr::one() - rk), de = scale_ * (rk.dbl() - Fr::one());
    const Fr q1 = sum_at_one ? q[1] : q_at_one_from_claim(claim, scale_, rk, q[0]);
    const Fr c1 = q1 - q[0] - c2;
    std::vector<Fr> evals(4);
    for (std::uint64_t t = 0; t < 4; ++t) {
      const Fr x = Fr::from_u64(t);
      evals[t] = (e0 + x * de) * (q[0] + x * (c1 + x * c2));
    }
    next_round_ = round + 1;
    return evals;
  }

  void finish_rounds(const Fr& r) override { bind_all(r); }

  std::vector<Fr> output_claims() const override {
    std::vector<Fr> out{scale_};
    for (const auto& t : tables_) out.push_back(t[0]);
    return out;
  }

  void visit_heap(jolt::HeapVisitor& v) const override {
    const std::string_view prepare = labels_.prepare;
    jolt::HeapScope s(v, prepare.substr(0, prepare.find("::")));
    std::uint64_t bytes = rest_.capacity() * sizeof(Fr);
    for (const auto& t : tables_) bytes += t.capacity() * sizeof(Fr);
    for (const auto& t : small_p_) bytes += t.capacity() * sizeof(std::int32_t);
    v.bytes("tables", bytes);
  }

 private:
  void bind_all(const Fr& c) {
    const Fr& rk = r_[next_round_ - 1];
    scale_ = scale_ * (rk * c + (Fr::one() - rk) * (Fr::one() - c));
    for (auto& t : tables_) {
      if (t.empty()) continue;  // small numerators, bound below
      bind_top_in_place(t, c);  // products over arrays
      // Only before the numerators' field tables are allocated below does the freed half lower
      // the peak; otherwise the kernel's first round is its largest and a shrink would only
      // copy the table (serially) each round.
      if (small_) t.shrink_to_fit();
    }
    if (small_) {
      // P_b(c, x) = P_b(0, x) + c·(P_b(1, x) − P_b(0, x)), the differences as field elements.
      for (std::size_t b = 0; b < 2; ++b) {
        const std::vector<std::int32_t>& s = small_p_[b];
        const std::size_t h = s.size() / 2;
        std::vector<Fr>& out = tables_[b];
        out = zero_table(h);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h, 4096),
                          [&](const tbb::blocked_range<std::size_t>& rg) {
                            constexpr std::size_t kChunk = 64;
                            std::array<Fr, kChunk> cs, d;
                            cs.fill(c);
                            for (std::size_t x0 = rg.begin(); x0 < rg.end(); x0 += kChunk) {
                              const std::size_t n = std::min(kChunk, rg.end() - x0);
                              for (std::size_t k = 0; k < n; ++k)
                                d[k] = small_field(std::int64_t{s[x0 + h + k]} - s[x0 + k]);
                              multiply_arrays(d.data(), cs.data(), d.data(), n);
                              for (std::size_t k = 0; k < n; ++k)
                                out[x0 + k] = small_field(s[x0 + k]) + d[k];
                            }
                          });
        small_p_[b] = {};
      }
      small_ = false;
    }
    const std::size_t rh = rest_.size() / 2;
    for (std::size_t x = 0; x < rh; ++x) rest_[x] += rest_[x + rh];
    rest_.resize(rh == 0 ? 1 : rh);
  }

  KernelLabels labels_;
  std::vector<Fr> r_;
  std::vector<std::vector<Fr>> tables_;  // P0, P1, Q0, Q1, or Q0, Q1 (unit numerators)
  Fr lambda_;
  std::array<std::vector<std::int32_t>, 2> small_p_;  // P0, P1 before the first bind, or empty
  bool small_ = false;
  bool unit_ = false;
  std::vector<Fr> rest_;  // E_k: eq(r_>k, ·)
  Fr scale_ = Fr::one();  // eq(r_<k, c_<k)
  std::size_t next_round_ = 0;
};

// After a layer (or the root): absorb the child layer's values at ρ, draw τ, and move the claims
// to the child layer at (τ, ρ). `children` is (P0, P1, Q0, Q1), or (Q0, Q1) at a unit-numerator
// leaf layer.
void descend(Transcript& t, const char* label, const std::vector<Fr>& children,
             std::span<const Fr> rho, std::vector<Fr>& r, Fr& pc, Fr& qc) {
  t.absorb_frs(label, children);
  const Fr tau = t.challenge("fraction_tau");
  r.assign(1, tau);
  r.insert(r.end(), rho.begin(), rho.end());
  if (children.size() == 2) {
    qc = lerp(children[0], children[1], tau);
  } else {
    pc = lerp(children[0], children[1], tau);
    qc = lerp(children[2], children[3], tau);
  }
}

template <class Num>
FractionTreeProof prove_tree(std::vector<Num> p_leaves, unsigned n, const LeafDenominators& q_of,
                             const KernelLabels& labels, Transcript& t, bool self_check) {
  if (n < 2) throw std::invalid_argument("fraction tree: fewer than 4 leaves");
  const bool unit = p_leaves.empty();
  const std::size_t H = std::size_t{1} << (n - 1);  // leaves y and y + H are layer n − 1's y
  if (!unit && p_leaves.size() != 2 * H)
    throw std::invalid_argument("fraction tree: numerator and denominator counts differ");
  // P[j], Q[j] for j = 1 .. n − 1 as halves, and the numerators P_n (absent with unit
  // numerators); the denominators Q_n are read from q_of, and held only for the leaf layer's
  // sumcheck. Layer n − 1, as large as the layers above it together, is not stored while they
  // are: layer n − 2 is built from the leaves directly, and layer n − 1 is built again from the
  // leaves when its sumcheck comes (after the layers above are consumed). Peak: the layers above
  // layer n − 1 (the leaves' size in field elements), or layer n − 1, beside 4-byte numerators.
  std::vector<Halves> P(n), Q(n + 1);
  HalvesOf<Num> p_leaf;
  if (!unit) p_leaf = split(std::move(p_leaves));
  // Layer n − 1's entries [y0, y0 + cnt) (within one half of it) into p, q: from the leaves y
  // and y + H.
  auto leaf_parents = [&](std::size_t y0, std::size_t cnt, Fr* p, Fr* q) {
    std::vector<Fr> q0(cnt), q1(cnt);
    q_of(y0, q0);
    q_of(y0 + H, q1);
    multiply_arrays(q0.data(), q1.data(), q, cnt);
    for (std::size_t k = 0; k < cnt; ++k)
      p[k] =
          unit ? q0[k] + q1[k] : times(p_leaf.lo[y0 + k], q1[k]) + times(p_leaf.hi[y0 + k], q0[k]);
  };
  // Sizes the halves of layer j.
  auto size_layer = [&](std::size_t j) {
    const std::size_t hh = std::size_t{1} << (j - 1);
    for (std::vector<Fr>* v : {&P[j].lo, &P[j].hi, &Q[j].lo, &Q[j].hi}) *v = zero_table(hh);
  };
  constexpr std::size_t kLeafBlock = 1024;
  auto fill_from_leaves = [&] {
    const std::size_t j = n - 1, hh = H / 2, blk = std::min(kLeafBlock, hh);
    size_layer(j);
    tbb::parallel_for(std::size_t{0}, H / blk, [&](std::size_t b) {
      const std::size_t y0 = b * blk;
      const bool lo = y0 < hh;
      const std::size_t at = lo ? y0 : y0 - hh;
      leaf_parents(y0, blk, (lo ? P[j].lo : P[j].hi).data() + at,
                   (lo ? Q[j].lo : Q[j].hi).data() + at);
    });
  };
  // Writes layer j as halves, its entry x (x < 2^j) as entry(x, p, q) gives it.
  auto write_layer = [&](std::size_t j, const auto& entry) {
    const std::size_t h = std::size_t{1} << j, hh = h / 2;
    size_layer(j);
    Halves &pj = P[j], &qj = Q[j];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h, 4096),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        for (std::size_t x = rg.begin(); x < rg.end(); ++x)
                          entry(x, x < hh ? pj.lo[x] : pj.hi[x - hh],
                                x < hh ? qj.lo[x] : qj.hi[x - hh]);
                      });
  };
  // Layer j's entry x from layer j + 1's entries x and x + 2^j as child(x, p, q) gives them.
  auto parent_of = [](std::size_t j, auto child) {
    return [h = std::size_t{1} << j, child](std::size_t x, Fr& p, Fr& q) {
      Fr p0, q0, p1, q1;
      child(x, p0, q0);
      child(x + h, p1, q1);
      p = p0 * q1 + p1 * q0;
      q = q0 * q1;
    };
  };
  // Layer n − 2 (n > 2) from the leaves: its entry x from layer n − 1's x and x + H/2.
  auto grandparents_from_leaves = [&] {
    const std::size_t j = n - 2, h = H / 2, hh = h / 2, blk = std::min(kLeafBlock, hh);
    size_layer(j);
    tbb::parallel_for(std::size_t{0}, h / blk, [&](std::size_t b) {
      const std::size_t x0 = b * blk;
      std::vector<Fr> pa(blk), qa(blk), pb(blk), qb(blk), u(blk);
      leaf_parents(x0, blk, pa.data(), qa.data());
      leaf_parents(x0 + h, blk, pb.data(), qb.data());
      const bool lo = x0 < hh;
      const std::size_t at = lo ? x0 : x0 - hh;
      Fr* p = (lo ? P[j].lo : P[j].hi).data() + at;
      Fr* q = (lo ? Q[j].lo : Q[j].hi).data() + at;
      multiply_arrays(qa.data(), qb.data(), q, blk);
      multiply_arrays(pa.data(), qb.data(), p, blk);
      multiply_arrays(pb.data(), qa.data(), u.data(), blk);
      for (std::size_t k = 0; k < blk; ++k) p[k] += u[k];
    });
  };
  {
    JOLT_SPAN("FractionTree::build", jolt::arg("leaves", std::size_t{1} << n));
    if (n == 2) {
      fill_from_leaves();
    } else {
      grandparents_from_leaves();
      for (std::size_t j = n - 2; j-- > 1;) {
        const Halves &pc = P[j + 1], &qc = Q[j + 1];
        const std::size_t ch = std::size_t{1} << j;  // the child layer's half
        write_layer(j, parent_of(j, [&pc, &qc, ch](std::size_t x, Fr& p, Fr& q) {
                      p = x < ch ? pc.lo[x] : pc.hi[x - ch];
                      q = x < ch ? qc.lo[x] : qc.hi[x - ch];
                    }));
      }
    }
  }
  FractionTreeProof out;
  out.root_children = {P[1].lo[0], P[1].hi[0], Q[1].lo[0], Q[1].hi[0]};
  std::vector<Fr> r;
  Fr pc, qc;
  descend(t, "fraction_root_children", out.root_children, {}, r, pc, qc);
  for (std::size_t j = 1; j < n; ++j) {
    const bool leaf = unit && j + 1 == n;
    const Fr lambda = t.challenge("fraction_lambda");
    const Expr expr = protocol::fraction_layer_expr(lambda, leaf);
    std::unique_ptr<SumcheckKernel> k;
    {
      JOLT_SPAN(labels.prepare, jolt::arg("layer", j));
      // Layer n − 1 again, from the leaves (built for layer n − 2 and not kept).
      if (n > 2 && j + 2 == n) fill_from_leaves();
      std::vector<std::vector<Fr>> leaves;
      // Each layer is read by one sumcheck only: its halves move into the kernel.
      if (j + 1 == n) {
        // The leaf layer: its denominators as two tables, read once more.
        JOLT_SPAN("FractionTree::leaf_denominators", jolt::arg("leaves", 2 * H));
        Q[n].lo = zero_table(H);
        Q[n].hi = zero_table(H);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, H, 4096),
                          [&](const tbb::blocked_range<std::size_t>& rg) {
                            q_of(rg.begin(), std::span<Fr>(Q[n].lo).subspan(rg.begin(), rg.size()));
                            q_of(H + rg.begin(),
                                 std::span<Fr>(Q[n].hi).subspan(rg.begin(), rg.size()));
                          });
      }
      std::array<std::vector<std::int32_t>, 2> small;  // 4-byte leaf numerators, kept so
      if (j + 1 == n && !unit) {
        if constexpr (std::is_same_v<Num, std::int32_t>) {
          small = {std::move(p_leaf.lo), std::move(p_leaf.hi)};
        } else {
          leaves.push_back(std::move(p_leaf.lo));
          leaves.push_back(std::move(p_leaf.hi));
        }
        p_leaf = {};
      } else if (j + 1 < n) {
        leaves.push_back(std::move(P[j + 1].lo));
        leaves.push_back(std::move(P[j + 1].hi));
        P[j + 1] = {};
      }
      leaves.push_back(std::move(Q[j + 1].lo));
      leaves.push_back(std::move(Q[j + 1].hi));
      Q[j + 1] = {};
      k = small[0].empty()
              ? make_fraction_layer_kernel(labels, r, std::move(leaves), lambda)
              : make_fraction_layer_kernel(labels, r, std::move(small), std::move(leaves), lambda);
    }
    const Fr claim = pc + lambda * qc;  // the leaf layer's pc is P_{n-1}(r)
    BatchProverOutput o = prove_batch({{k.get(), claim}}, t, self_check);
    const std::vector<Fr>& vals = o.member_outputs[0];
    if (self_check && o.final_claim != o.coefficients[0] * expr.evaluate(vals))
      throw std::logic_error(std::string("prover self-check failed: ") + labels.prepare +
                             " layer " + std::to_string(j));
    FractionLayerProof lp;
    lp.sumcheck = std::move(o.proof);
    lp.claims.assign(vals.begin() + 1, vals.end());
    descend(t, "fraction_layer_claims", lp.claims, o.challenges, r, pc, qc);
    out.layers.push_back(std::move(lp));
  }
  out.point = std::move(r);
  out.p_leaf_claim = unit ? Fr::one() : pc;
  out.q_leaf_claim = qc;
  return out;
}

}  // namespace

std::unique_ptr<SumcheckKernel> make_fraction_layer_kernel(const KernelLabels& labels,
                                                           std::vector<Fr> r,
                                                           std::vector<std::vector<Fr>> tables,
                                                           const Fr& lambda) {
  return std::make_unique<FractionLayerKernel>(labels, std::move(r), std::move(tables), lambda);
}

std::unique_ptr<SumcheckKernel> make_fraction_layer_kernel(
    const KernelLabels& labels, std::vector<Fr> r,
    std::array<std::vector<std::int32_t>, 2> numerators, std::vector<std::vector<Fr>> denominators,
    const Fr& lambda) {
  if (numerators[0].empty())
    throw std::invalid_argument("fraction layer: empty small numerator tables");
  return std::make_unique<FractionLayerKernel>(labels, std::move(r), std::move(denominators),
                                               std::move(numerators), lambda);
}

namespace {

LeafDenominators from_table(const std::vector<Fr>& q) {
  return [&q](std::size_t begin, std::span<Fr> out) {
    std::copy_n(q.begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
  };
}

unsigned leaf_vars(std::size_t leaves) {
  if (leaves < 4 || !std::has_single_bit(leaves))
    throw std::invalid_argument("fraction tree: " + std::to_string(leaves) +
                                " leaves (a power of two ≥ 4 expected)");
  return static_cast<unsigned>(std::countr_zero(leaves));
}

}  // namespace

FractionTreeProof prove_fraction_tree(std::vector<Fr> p_leaves, std::vector<Fr> q_leaves,
                                      const KernelLabels& labels, Transcript& t, bool self_check) {
  return prove_tree(std::move(p_leaves), leaf_vars(q_leaves.size()), from_table(q_leaves), labels,
                    t, self_check);
}

FractionTreeProof prove_fraction_tree(std::vector<std::int32_t> p_leaves, std::vector<Fr> q_leaves,
                                      const KernelLabels& labels, Transcript& t, bool self_check) {
  return prove_tree(std::move(p_leaves), leaf_vars(q_leaves.size()), from_table(q_leaves), labels,
                    t, self_check);
}

FractionTreeProof prove_fraction_tree(std::vector<Fr> p_leaves, unsigned n,
                                      const LeafDenominators& q, const KernelLabels& labels,
                                      Transcript& t, bool self_check) {
  return prove_tree(std::move(p_leaves), n, q, labels, t, self_check);
}

FractionTreeProof prove_fraction_tree(std::vector<std::int32_t> p_leaves, unsigned n,
                                      const LeafDenominators& q, const KernelLabels& labels,
                                      Transcript& t, bool self_check) {
  return prove_tree(std::move(p_leaves), n, q, labels, t, self_check);
}

std::optional<VerifyError> verify_fraction_tree(std::size_t n, bool unit,
                                                const std::vector<Fr>& root_children,
                                                const std::vector<FractionLayerProof>& layers,
                                                Transcript& t, FractionTreeVerified& out) {
  if (n < 2 || root_children.size() != 4 || layers.size() != n - 1)
    return VerifyError{"proof.shape", "fraction tree: wrong number of layers or root values"};
  const auto& c = root_children;
  out.p_root = c[0] * c[3] + c[1] * c[2];
  out.q_root = c[2] * c[3];
  std::vector<Fr> r;
  Fr pc, qc;
  descend(t, "fraction_root_children", c, {}, r, pc, qc);
  for (std::size_t j = 1; j < n; ++j) {
    const bool leaf = unit && j + 1 == n;
    const FractionLayerProof& lp = layers[j - 1];
    if (lp.claims.size() != (leaf ? 2u : 4u))
      return VerifyError{"proof.shape", "fraction layer " + std::to_string(j) + ": " +
                                            std::to_string(lp.claims.size()) + " claims"};
    const Fr lambda = t.challenge("fraction_lambda");
    const Expr expr = protocol::fraction_layer_expr(lambda, leaf);
    const Fr claim = pc + lambda * qc;  // the leaf layer's pc is P_{n-1}(r)
    SumcheckVerified v;
    if (auto e = verify_batch({claim}, {j}, expr.degree(), lp.sumcheck, t, v)) {
      e->message = "fraction layer " + std::to_string(j) + ": " + e->message;
      return e;
    }
    std::vector<Fr> vals = {EqPolynomial::evaluate(r, v.challenges)};
    vals.insert(vals.end(), lp.claims.begin(), lp.claims.end());
    JOLT_VERIFY("fraction_layer", v.final_claim == v.coefficients[0] * expr.evaluate(vals),
                "fraction layer " + std::to_string(j) +
                    ": the child-layer values do not give the sumcheck's final claim");
    descend(t, "fraction_layer_claims", lp.claims, v.challenges, r, pc, qc);
  }
  out.point = std::move(r);
  out.p_leaf_claim = unit ? Fr::one() : pc;
  out.q_leaf_claim = qc;
  return std::nullopt;
}

}  // namespace jolt::prover
