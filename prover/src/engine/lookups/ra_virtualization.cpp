#include <jolt/prover/lookups/ra_virtualization.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>

namespace jolt::prover::lookups {

namespace {

constexpr std::size_t kGrain = 1024;
constexpr std::size_t kBlock = 32;  // pairs per array product
// Rounds the kernel reads its bits from the keys before it builds field tables (at
// T/2^(kLazyRounds + 1) entries per bit: built at the next bind, already bound).
constexpr std::size_t kLazyRounds = 3;
// Rounds that may take their chunk products from pattern tables: after k bound variables a bit
// is one of 2^P values (P = 2^k pattern bits), a pair's two halves one of 2^(2P), and a
// sub-chunk of 4/P bits indexes a table of 256 entries per evaluation point.
constexpr std::size_t kTabledRounds = 3;
constexpr unsigned kTableIndexBits = 8;
// Each tabled round's sub-chunks hold kTableIndexBits / 2^(k+1) ≥ 1 bits, and the bits must still
// be read from the keys (no field tables yet).
static_assert(kTabledRounds <= 3 && kTabledRounds <= kLazyRounds);
// Before the bit tables a bit's pattern spans 2^kLazyRounds keys: one byte (bit_columns).
static_assert(kLazyRounds <= 3);

// Bit s of eight words at once, for every s < 64: bit y of columns[s] is bit s of w[y] (the 8×64
// bit matrix transposed as eight 8×8 blocks, each by three masked swaps). A key bit's pattern
// over the bound variables is a column of the keys it sums; the tabled rounds' pair indices are
// columns of the keys shifted.
using BitColumns = std::array<std::uint8_t, 64>;
BitColumns bit_columns(const std::array<std::uint64_t, 8>& w) {
  BitColumns out;
  for (unsigned j = 0; j < 8; ++j) {
    // Byte y of x is byte j of w[y]; transposed, byte i holds bit 8j + i of every w[y].
    std::uint64_t x = 0;
    for (unsigned y = 0; y < 8; ++y) x |= ((w[y] >> (8 * j)) & 0xFF) << (8 * y);
    std::uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x ^= t ^ (t << 28);
    for (unsigned i = 0; i < 8; ++i) out[8 * j + i] = static_cast<std::uint8_t>(x >> (8 * i));
  }
  return out;
}

// The member of ra_virtualization.hpp. The weights W are bound like every table; the bits are
// read from the keys for the first kLazyRounds rounds.
class RaVirtualizationKernel final : public SumcheckKernel {
 public:
  // The points X = t (t ≤ last) at which a round sums its RA part: all of 0 .. d, or with W
  // split (weight_point) 0 .. d − 1 but 1, q(1) following from the claim (unless r_j = 0).
  struct Points {
    std::vector<char> at;  // at[t]: t is summed
    std::size_t last = 0;
    std::size_t count() const {
      return static_cast<std::size_t>(std::count(at.begin(), at.end(), 1));
    }
  };

  // A round's partial sums over a range of pairs (parallel_reduce's body and join).
  struct Sums {
    std::vector<Fr> ra;              // ra[t]: the RA part at X = t (split: q(t)), the chunks summed
    std::array<Fr, 4> booleanity{};  // coefficients of X^0 .. X^3
    static Sums join(Sums a, const Sums& b) {
      for (std::size_t t = 0; t < a.ra.size(); ++t) a.ra[t] += b.ra[t];
      for (std::size_t k = 0; k < 4; ++k) a.booleanity[k] += b.booleanity[k];
      return a;
    }
  };

  RaVirtualizationKernel(RaVirtualizationInput in, const KernelLabels& labels)
      : labels_(labels),
        keys_(in.keys),
        r_addr_(std::move(in.r_addr)),
        key_bits_(in.key_bits),
        cb_(in.chunk_bits),
        rounds_(in.rho.size()),
        eq5_(std::move(in.weights)),
        eq_rho_(EqPolynomial::evals(in.rho)),
        beta_pow_(std::move(in.beta_powers)),
        gated_(!in.gate.empty()),
        pattern_tables_(in.pattern_tables),
        weight_point_(std::move(in.weight_point)) {
    if (!weight_point_.empty()) eq5_ = EqPolynomial::evals(weight_point_);
    if (gated_) {
      gate_.resize(in.gate.size());
      for (std::size_t j = 0; j < gate_.size(); ++j) gate_[j] = Fr::from_u64(in.gate[j]);
    }
    // Bit b's booleanity weight is ζ^(b+1): no bit's weight is the constant 1, which the claims
    // fixed before ζ could absorb (a bit with the same bit² − bit in every cycle gives a
    // booleanity sum that does not depend on ρ).
    Fr p = in.zeta;
    for (std::size_t b = 0; b < key_bits_; ++b, p = p * in.zeta) zeta_pow_.push_back(p);
    // Bit b's factor (1 − r_b) + (2r_b − 1)·bit, times β^v for the first bit of chunk v: each
    // chunk's product then carries its β^v and the chunks are summed before the weight.
    for (std::size_t b = 0; b < r_addr_.size(); ++b) {
      const Fr& r = r_addr_[b];
      const Fr scale = b % cb_ == 0 ? beta_pow_[b / cb_] : Fr::one();
      one_minus_r_.push_back(scale * (Fr::one() - r));
      two_r_minus_one_.push_back(scale * (r.dbl() - Fr::one()));
    }
  }

  const KernelLabels& labels() const override { return labels_; }
  std::size_t num_rounds() const override { return rounds_; }
  std::size_t degree() const override {
    return ra_virtualization_degree(static_cast<unsigned>(cb_), gated_);
  }

  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t,
                              const Fr& claim) override {
    if (bind) bind_all(*bind);
    const std::size_t d = degree();
    const std::size_t half = eq5_.size() / 2;
    const Points pts = ra_points(d);
    // A table round pays for itself once the pairs outnumber the tables' entries per bit.
    if (pattern_tables_ && bits_.empty() && bound_ < kTabledRounds &&
        half * (std::size_t{4} >> bound_) >= 512)
      return prove_round_tabled(d, half, pts, claim);
    // Per pair (x, x + half) each bit, each factor r_b·bit + (1 − r_b)(1 − bit) and each eq is
    // affine in X. Pairs are taken kBlock at a time so that the products run over arrays
    // (multiply_arrays: the IFMA lanes where the CPU has them). The RA part is evaluated at
    // X = 0 .. d: the chunks' products (β^v in their first factor; chunk_product_sums' tree over
    // each factor's values at X = 0 and 1) summed, then times
    // the weight (and the gate) — or, split, times W's other factors only and at pts.at only; the
    // booleanity part is accumulated as the coefficients of eq(ρ)·Σ ζ^b (bit² − bit), a cubic,
    // and evaluated at the end.
    // While the bits are read from the keys (no bit tables yet) a bit is one of the pattern
    // values v = pattern_values_[p]: its factor (1 − r_b) + (2r_b − 1)·v, ζ^b·v(v − 1) and ζ^b·v
    // come from tables by bit and pattern built once per round, so a bit costs a pair one
    // product (its booleanity's X² coefficient) instead of seven.
    const std::size_t patterns = bits_.empty() ? pattern_values_.size() : 0;
    std::vector<Fr> pat_f(key_bits_ * patterns), pat_z(pat_f.size()), pat_y(pat_f.size());
    if (patterns > 0)
      tbb::parallel_for(std::size_t{0}, key_bits_, [&](std::size_t b) {
        for (std::size_t p = 0, e = b * patterns; p < patterns; ++p, ++e) {
          const Fr& v = pattern_values_[p];
          pat_f[e] = one_minus_r_[b] + two_r_minus_one_[b] * v;
          pat_y[e] = zeta_pow_[b] * v;
          pat_z[e] = pat_y[e] * (v - Fr::one());
        }
      });
    Sums zero{std::vector<Fr>(d + 1), {}};
    Sums s = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, half, kGrain), zero,
        [&](const tbb::blocked_range<std::size_t>& range, Sums acc) {
          // Bit b's factor at X = 0 and X = 1: leaf[(2b + t)·kBlock + i].
          std::vector<Fr> leaf(2 * key_bits_ * kBlock);
          std::vector<Fr> lo(kBlock), diff(kBlock), tmp(kBlock), tmp2(kBlock);
          std::vector<Fr> e5(kBlock), de5(kBlock), q(3 * kBlock), sums(pts.count() * kBlock);
          std::vector<Fr> g(gated_ ? kBlock : 0), dg(gated_ ? kBlock : 0);
          // Before the bit tables exist: every bit's pattern at the pair's two halves.
          std::vector<BitColumns> pat_lo(bits_.empty() ? kBlock : 0), pat_hi(pat_lo.size());
          for (std::size_t x0 = range.begin(); x0 < range.end(); x0 += kBlock) {
            const std::size_t n = std::min(kBlock, range.end() - x0);
            std::fill(q.begin(), q.end(), Fr::zero());
            for (std::size_t i = 0; i < pat_lo.size() && i < n; ++i) {
              pat_lo[i] = patterns_at(x0 + i);
              pat_hi[i] = patterns_at(x0 + i + half);
            }
            for (std::size_t b = 0; b < key_bits_; ++b) {
              Fr* fb = leaf.data() + 2 * b * kBlock;
              Fr* f1b = fb + kBlock;
              if (patterns > 0) {
                // ζ^b(v(X)² − v(X)) at X = 0 into q0, at X = 1 into q1 (made the X coefficient
                // after the last bit), ζ^b·diff² into q2.
                const std::size_t sh = key_bits_ - 1 - b;
                const Fr* pf = pat_f.data() + b * patterns;
                const Fr* pz = pat_z.data() + b * patterns;
                const Fr* py = pat_y.data() + b * patterns;
                for (std::size_t i = 0; i < n; ++i) {
                  const std::uint8_t pl = pat_lo[i][sh], ph = pat_hi[i][sh];
                  fb[i] = pf[pl];
                  f1b[i] = pf[ph];
                  q[i] += pz[pl];
                  q[kBlock + i] += pz[ph];
                  tmp[i] = py[ph] - py[pl];
                  diff[i] = pattern_values_[ph] - pattern_values_[pl];
                }
                multiply_arrays(tmp.data(), diff.data(), tmp2.data(), n);
                for (std::size_t i = 0; i < n; ++i) q[2 * kBlock + i] += tmp2[i];
                continue;
              }
              const Fr* t = bits_[b].data();
              for (std::size_t i = 0; i < n; ++i) {
                lo[i] = t[x0 + i];
                diff[i] = t[x0 + i + half] - lo[i];
              }
              // f(0) = (1 − r_b) + (2r_b − 1)·lo, f(1) = f(0) + (2r_b − 1)·diff
              std::fill(tmp.begin(), tmp.begin() + n, two_r_minus_one_[b]);
              multiply_arrays(tmp.data(), lo.data(), fb, n);
              multiply_arrays(tmp.data(), diff.data(), f1b, n);
              for (std::size_t i = 0; i < n; ++i) {
                fb[i] += one_minus_r_[b];
                f1b[i] += fb[i];
              }
              // ζ^b(bit² − bit) = ζ^b·lo(lo − 1) + X·ζ^b·diff(2lo − 1) + X²·ζ^b·diff²
              std::fill(tmp.begin(), tmp.begin() + n, zeta_pow_[b]);
              multiply_arrays(tmp.data(), lo.data(), tmp2.data(), n);   // ζ^b·lo
              multiply_arrays(tmp.data(), diff.data(), tmp.data(), n);  // ζ^b·diff
              for (std::size_t i = 0; i < n; ++i) {
                lo[i] = lo[i] - Fr::one();  // lo − 1
              }
              multiply_arrays(tmp2.data(), lo.data(), tmp2.data(), n);  // ζ^b·lo(lo − 1)
              for (std::size_t i = 0; i < n; ++i) q[i] += tmp2[i];
              for (std::size_t i = 0; i < n; ++i) lo[i] = lo[i].dbl() + Fr::one();  // 2lo − 1
              multiply_arrays(tmp.data(), lo.data(), tmp2.data(), n);
              for (std::size_t i = 0; i < n; ++i) q[kBlock + i] += tmp2[i];
              multiply_arrays(tmp.data(), diff.data(), tmp2.data(), n);
              for (std::size_t i = 0; i < n; ++i) q[2 * kBlock + i] += tmp2[i];
            }
            if (patterns > 0)  // q1 held the value at X = 1: c1 = B(1) − c0 − c2
              for (std::size_t i = 0; i < n; ++i)
                q[kBlock + i] = q[kBlock + i] - q[i] - q[2 * kBlock + i];
            accumulate_booleanity(x0, half, n, q.data(), q.data() + kBlock, q.data() + 2 * kBlock,
                                  acc.booleanity);
            for (std::size_t i = 0; i < n; ++i) {
              weight_line(x0 + i, half, e5[i], de5[i]);
              if (gated_) {
                g[i] = gate_[x0 + i];
                dg[i] = gate_[x0 + i + half] - g[i];
              }
            }
            // The chunks' products summed at every point (chunk_product_sums' tree over the
            // factors' values at X = 0 and 1), then times the weight (and the gate) point by
            // point.
            chunk_product_sums(leaf.data(), 2, kBlock, key_bits_, cb_,
                               std::span<const char>(pts.at.data(), pts.last + 1), sums.data(),
                               kBlock, n);
            for (std::size_t t = 0, k = 0; t <= pts.last; ++t) {
              if (t > 0) step_weights(e5.data(), de5.data(), g.data(), dg.data(), n);
              if (!pts.at[t]) continue;
              acc.ra[t] += weighted_sum(sums.data() + k * kBlock, e5.data(), g.data(), n);
              ++k;
            }
          }
          return acc;
        },
        Sums::join);
    return combine(s, d, pts, claim);
  }

  void finish_rounds(const Fr& r) override { bind_all(r); }

  // One round while no bit table exists and few variables are bound (bound_ < 3): a bit at index
  // x is pattern_values_[p] for its pattern p of P = 2^bound_ key bits, so within a pair
  // (x, x + half) it is v(X) = pv[p_lo] + X·(pv[p_hi] − pv[p_lo]), fixed by the 2P-bit pair
  // (p_lo, p_hi). Each chunk's bits are cut into sub-chunks of 8 / 2P bits (the last may be
  // shorter); a sub-chunk's pairs form an index of ≤ 8 bits. Per evaluation point t = 0 .. d a
  // table holds the product of the sub-chunk's factors r_b·v(t) + (1 − r_b)(1 − v(t)) at every
  // index, and three more its booleanity coefficients Σ ζ^(b+1)·(v² − v) at X^0, X^1, X^2. A pair
  // then costs one product per sub-chunk and point instead of one per bit and point, and its
  // booleanity part only additions. The evaluations equal the direct path's.
  std::vector<Fr> prove_round_tabled(std::size_t d, std::size_t half, const Points& at,
                                     const Fr& claim) {
    const unsigned P = 1u << bound_;
    const unsigned s = kTableIndexBits / (2 * P);  // bits per sub-chunk: 4, 2, 1
    const std::size_t n_chunks = beta_pow_.size(), pts = at.count();
    constexpr std::size_t kSpan = std::size_t{1} << kTableIndexBits;
    struct Sub {
      std::size_t first_bit;
      unsigned count;
    };
    std::vector<Sub> subs;  // chunk-major; chunk v's are [chunk_sub[v], chunk_sub[v + 1])
    std::vector<std::size_t> chunk_sub;
    for (std::size_t v = 0; v < n_chunks; ++v) {
      chunk_sub.push_back(subs.size());
      for (std::size_t q = 0; q < cb_; q += s)
        subs.push_back({v * cb_ + q, static_cast<unsigned>(std::min<std::size_t>(s, cb_ - q))});
    }
    chunk_sub.push_back(subs.size());
    const std::size_t n_pairs = std::size_t{1} << (2 * P), p_mask = (std::size_t{1} << P) - 1;
    const std::size_t per_chunk = chunk_sub[1] - chunk_sub[0];  // the same for every chunk
    // The tables hold each sub-chunk's product at t = 0 .. m − 1 and the product tree of
    // chunk_product_sums takes it to the marked points. With 8 or more sub-chunks per chunk the
    // tables hold only the s + 1 points of a sub-chunk's degree and the tree extends its nodes by
    // additions (16 one-bit sub-chunks: 78 products per pair and chunk instead of 240); with
    // fewer, the extensions would cost more than the products they save (4 four-bit
    // sub-chunks: 34 products and about 300 additions against 48 products), so the tables hold
    // every point and the tree only multiplies.
    const std::size_t m = per_chunk >= 8 ? s + 1 : at.last + 1;
    // tables[(g·kSpan + idx)·m + t], booleanity[(g·kSpan + idx)·3 + c]: an entry's points (and
    // its three coefficients) side by side, so a pair reads each sub-chunk's from one place.
    std::vector<Fr> tables(subs.size() * m * kSpan), booleanity(subs.size() * 3 * kSpan);
    tbb::parallel_for(std::size_t{0}, subs.size(), [&](std::size_t g) {
      const Sub sub = subs[g];
      // Per bit of the sub-chunk and pair (p_lo | p_hi << P): its factor at t = 0 .. m − 1 and
      // its three booleanity coefficients.
      std::vector<Fr> factor(sub.count * n_pairs * m), coef(sub.count * n_pairs * 3);
      for (unsigned i = 0; i < sub.count; ++i) {
        const std::size_t b = sub.first_bit + i;
        for (std::size_t pr = 0; pr < n_pairs; ++pr) {
          const Fr v0 = pattern_values_[pr & p_mask];
          const Fr dv = pattern_values_[pr >> P] - v0;
          Fr* c = coef.data() + (i * n_pairs + pr) * 3;
          c[0] = zeta_pow_[b] * v0 * (v0 - Fr::one());
          c[1] = zeta_pow_[b] * dv * (v0.dbl() - Fr::one());
          c[2] = zeta_pow_[b] * dv * dv;
          Fr f = one_minus_r_[b] + two_r_minus_one_[b] * v0;
          const Fr df = two_r_minus_one_[b] * dv;
          for (std::size_t t = 0; t < m; ++t, f += df) factor[(i * n_pairs + pr) * m + t] = f;
        }
      }
      const std::size_t entries = std::size_t{1} << (2 * P * sub.count);
      Fr* tab = tables.data() + g * kSpan * m;
      Fr* bq = booleanity.data() + g * kSpan * 3;
      for (std::size_t idx = 0; idx < entries; ++idx) {
        for (unsigned i = 0; i < sub.count; ++i) {
          const std::size_t pr = (idx >> (2 * P * i)) & (n_pairs - 1);
          const Fr* f = factor.data() + (i * n_pairs + pr) * m;
          const Fr* c = coef.data() + (i * n_pairs + pr) * 3;
          for (std::size_t t = 0; t < m; ++t)
            tab[idx * m + t] = i == 0 ? f[t] : tab[idx * m + t] * f[t];
          for (std::size_t k = 0; k < 3; ++k) bq[idx * 3 + k] += c[k];
        }
      }
    });

    const std::size_t stride = eq5_.size(), patterns = std::size_t{1} << bound_;
    Sums zero{std::vector<Fr>(d + 1), {}};
    Sums sums = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, half, kGrain), zero,
        [&](const tbb::blocked_range<std::size_t>& range, Sums acc) {
          std::vector<std::uint32_t> idx(subs.size() * kBlock);
          // Sub-chunk g's product at t for pair i: leaf[(g·m + t)·kBlock + i].
          std::vector<Fr> leaf(subs.size() * m * kBlock), sums(pts * kBlock);
          std::vector<Fr> e5(kBlock), de5(kBlock);
          std::vector<Fr> g(gated_ ? kBlock : 0), dg(gated_ ? kBlock : 0);
          // Row 2P·j + y holds key y of the pair's lower half shifted left by j, row 2P·j + P + y
          // the upper half's: column s is then the index of the sub-chunk whose first bit is s.
          std::array<std::uint64_t, 8> rows{};
          static_assert(kTableIndexBits == 8);
          std::array<Fr, 3 * kBlock> qs;  // the block's booleanity coefficients, X^0, X^1, X^2
          for (std::size_t x0 = range.begin(); x0 < range.end(); x0 += kBlock) {
            const std::size_t n = std::min(kBlock, range.end() - x0);
            for (std::size_t i = 0; i < n; ++i) {
              const std::size_t x = x0 + i;
              for (std::size_t y = 0; y < patterns; ++y) {
                const std::uint64_t lo_key = keys_[y * stride + x];
                const std::uint64_t hi_key = keys_[y * stride + x + half];
                for (unsigned j = 0; j < s; ++j) {
                  rows[2 * P * j + y] = lo_key << j;
                  rows[2 * P * j + P + y] = hi_key << j;
                }
              }
              const BitColumns cols = bit_columns(rows);
              Fr q[3];
              for (std::size_t gi = 0; gi < subs.size(); ++gi) {
                const unsigned sh = static_cast<unsigned>(key_bits_ - 1 - subs[gi].first_bit);
                // A short last sub-chunk's index keeps only its own bits.
                const std::uint32_t ix =
                    cols[sh] & ((std::uint32_t{1} << (2 * P * subs[gi].count)) - 1);
                idx[gi * kBlock + i] = ix;
                const Fr* bq = booleanity.data() + (gi * kSpan + ix) * 3;
                q[0] += bq[0];
                q[1] += bq[1];
                q[2] += bq[2];
              }
              for (std::size_t k = 0; k < 3; ++k) qs[k * kBlock + i] = q[k];
              weight_line(x, half, e5[i], de5[i]);
              if (gated_) {
                g[i] = gate_[x];
                dg[i] = gate_[x + half] - g[i];
              }
            }
            accumulate_booleanity(x0, half, n, qs.data(), qs.data() + kBlock,
                                  qs.data() + 2 * kBlock, acc.booleanity);
            // Each chunk's product (β^v in its first sub-chunk's table) by the product tree,
            // the chunks summed, then times the weight and the gate point by point.
            for (std::size_t gi = 0; gi < subs.size(); ++gi) {
              const Fr* tab = tables.data() + gi * kSpan * m;
              Fr* to = leaf.data() + gi * m * kBlock;
              for (std::size_t i = 0; i < n; ++i) {
                const Fr* e = tab + std::size_t{idx[gi * kBlock + i]} * m;
                for (std::size_t t = 0; t < m; ++t) to[t * kBlock + i] = e[t];
              }
            }
            chunk_product_sums(leaf.data(), m, kBlock, subs.size(), per_chunk,
                               std::span<const char>(at.at.data(), at.last + 1), sums.data(),
                               kBlock, n);
            for (std::size_t t = 0, k = 0; t <= at.last; ++t) {
              if (t > 0) step_weights(e5.data(), de5.data(), g.data(), dg.data(), n);
              if (!at.at[t]) continue;
              acc.ra[t] += weighted_sum(sums.data() + k * kBlock, e5.data(), g.data(), n);
              ++k;
            }
          }
          return acc;
        },
        Sums::join);
    return combine(sums, d, at, claim);
  }

  std::vector<Fr> output_claims() const override {
    std::vector<Fr> out(key_bits_);
    for (std::size_t b = 0; b < key_bits_; ++b) out[b] = bit(b, 0);
    if (gated_) out.push_back(gate_[0]);
    return out;
  }

  void visit_heap(jolt::HeapVisitor& v) const override {
    // The root frame names the relation (docs/heap-profiling.md): "<Relation>" of its labels.
    const std::string_view prepare = labels_.prepare;
    jolt::HeapScope s(v, prepare.substr(0, prepare.find("::")));
    std::uint64_t bytes = (eq5_.capacity() + eq_rho_.capacity() + gate_.capacity()) * sizeof(Fr);
    for (const auto& t : bits_) bytes += t.capacity() * sizeof(Fr);
    v.bytes("tables", bytes);
  }

 private:
  // Bit b (key bit key_bits − 1 − b, i.e. r_addr's order) at index x of the current tables. For the
  // first kLazyRounds rounds no table exists: after `bound_` bound variables (challenges ρ_0..),
  // the bit is Σ_y eq(ρ, y)·bit_b(key[y·stride + x]), read from the keys as the pattern of the
  // 2^bound_ bits (patterns_at) and looked up in pattern_values_.
  Fr bit(std::size_t b, std::size_t x) const {
    if (!bits_.empty()) return bits_[b][x];
    return pattern_values_[patterns_at(x)[key_bits_ - 1 - b]];
  }

  // Every key bit's pattern at index x while no table exists (see bit): column s is the pattern
  // of key bit s.
  BitColumns patterns_at(std::size_t x) const {
    std::array<std::uint64_t, 8> w{};
    const std::size_t stride = keys_.size() >> bound_;
    for (std::size_t y = 0; y < (std::size_t{1} << bound_); ++y) w[y] = keys_[y * stride + x];
    return bit_columns(w);
  }

  Points ra_points(std::size_t d) const {
    Points p;
    if (weight_point_.empty()) {
      p.at.assign(d + 1, 1);
      p.last = d;
    } else {
      p.at.assign(d, 1);
      p.last = d - 1;
      if (!weight_point_[round_].is_zero()) p.at[1] = 0;
    }
    return p;
  }

  // The weight's line e + X·de over the pair (x, x + half): W's, or split, W's other factors
  // (the sum of the two halves; de = 0).
  void weight_line(std::size_t x, std::size_t half, Fr& e, Fr& de) const {
    e = eq5_[x];
    if (weight_point_.empty()) {
      de = eq5_[x + half] - e;
    } else {
      e += eq5_[x + half];
      de = Fr::zero();
    }
  }

  // The weights (and the gate) of a block from X = t to X = t + 1.
  void step_weights(Fr* e5, const Fr* de5, Fr* g, const Fr* dg, std::size_t n) const {
    if (weight_point_.empty())
      for (std::size_t i = 0; i < n; ++i) e5[i] += de5[i];
    if (gated_)
      for (std::size_t i = 0; i < n; ++i) g[i] += dg[i];
  }

  // Σ_i ra[i]·e5[i]·g[i] over a block of n pairs (g read only with a gate); overwrites ra.
  Fr weighted_sum(Fr* ra, const Fr* e5, const Fr* g, std::size_t n) const {
    if (gated_) multiply_arrays(ra, g, ra, n);
    return dot_arrays(ra, e5, n);
  }

  // Pairs x0 .. x0 + n − 1 (n ≤ kBlock) of the booleanity part: with the pair's quadratic
  // q0 + q1·X + q2·X² and eq(ρ)'s line er + der·X, adds the cubic's coefficients er·q0,
  // er·q1 + der·q0, er·q2 + der·q1, der·q2 — six products over arrays per block.
  void accumulate_booleanity(std::size_t x0, std::size_t half, std::size_t n, const Fr* q0,
                             const Fr* q1, const Fr* q2, std::array<Fr, 4>& out) const {
    std::array<Fr, kBlock> er, der;
    for (std::size_t i = 0; i < n; ++i) {
      er[i] = eq_rho_[x0 + i];
      der[i] = eq_rho_[x0 + i + half] - er[i];
    }
    auto add = [&](const Fr* a, const Fr* b, Fr& to) { to += dot_arrays(a, b, n); };
    add(er.data(), q0, out[0]);
    add(er.data(), q1, out[1]);
    add(der.data(), q0, out[1]);
    add(er.data(), q2, out[2]);
    add(der.data(), q1, out[2]);
    add(der.data(), q2, out[3]);
  }

  // The round's evaluations at X = 0 .. d from its sums. Split, the sums are q's at the points
  // `at` marks: q(1) is what the claim leaves after q(0) and the booleanity part, q(d) is
  // extrapolated (q has degree ≤ d − 1), and s_ra(t) = eq(r_j, t)·q(t).
  std::vector<Fr> combine(const Sums& sums, std::size_t d, const Points& at,
                          const Fr& claim) const {
    const std::array<Fr, 4>& b = sums.booleanity;
    auto booleanity = [&](const Fr& x) { return b[0] + x * (b[1] + x * (b[2] + x * b[3])); };
    std::vector<Fr> ra = sums.ra;
    if (!weight_point_.empty()) {
      const Fr& r = weight_point_[round_];
      const Fr one_minus_r = Fr::one() - r, slope = r.dbl() - Fr::one();
      if (!at.at[1]) {
        const Fr ra_claim = claim - booleanity(Fr::zero()) - booleanity(Fr::one());
        ra[1] = q_at_one_from_claim(ra_claim, Fr::one(), r, ra[0]);
      }
      ra[d] = UniPoly::from_evals(std::span<const Fr>(ra.data(), d)).evaluate(Fr::from_u64(d));
      for (std::size_t t = 0; t <= d; ++t) ra[t] *= one_minus_r + Fr::from_u64(t) * slope;
    }
    std::vector<Fr> evals(d + 1);
    for (std::size_t t = 0; t <= d; ++t) evals[t] = ra[t] + booleanity(Fr::from_u64(t));
    return evals;
  }

  void bind_all(const Fr& r) {
    ++round_;
    const std::size_t half = eq5_.size() / 2;
    if (bits_.empty() && bound_ < kLazyRounds) {
      bound_challenges_.push_back(r);
      ++bound_;
      const std::vector<Fr> e = EqPolynomial::evals(bound_challenges_);
      pattern_values_.assign(std::size_t{1} << e.size(), Fr::zero());
      for (std::size_t p = 0; p < pattern_values_.size(); ++p)
        for (std::size_t y = 0; y < e.size(); ++y)
          if ((p >> y) & 1) pattern_values_[p] += e[y];
    } else {
      if (bits_.empty()) {
        // The bit tables, materialized already bound: entry x = lo + r·(hi − lo) of the pattern
        // values at x and x + half, over arrays (bind_arrays).
        std::vector<std::vector<Fr>> t = zero_tables(key_bits_, half);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, half, kGrain),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                            std::array<Fr, kBlock> hi;
                            std::array<BitColumns, kBlock> plo, phi;
                            for (std::size_t x0 = range.begin(); x0 < range.end(); x0 += kBlock) {
                              const std::size_t n = std::min(kBlock, range.end() - x0);
                              for (std::size_t i = 0; i < n; ++i) {
                                plo[i] = patterns_at(x0 + i);
                                phi[i] = patterns_at(x0 + i + half);
                              }
                              for (std::size_t bb = 0; bb < key_bits_; ++bb) {
                                Fr* out = t[bb].data() + x0;
                                const std::size_t sh = key_bits_ - 1 - bb;
                                for (std::size_t i = 0; i < n; ++i) {
                                  out[i] = pattern_values_[plo[i][sh]];
                                  hi[i] = pattern_values_[phi[i][sh]];
                                }
                                bind_arrays(out, hi.data(), r, out, n);
                              }
                            }
                          });
        bits_ = std::move(t);
      } else {
        tbb::parallel_for(std::size_t{0}, key_bits_, [&](std::size_t bb) {
          bind_top_in_place(bits_[bb], r);
          bits_[bb].shrink_to_fit();
        });
      }
    }
    for (auto* t : {&eq5_, &eq_rho_, &gate_})
      if (!t->empty()) bind_top_in_place(*t, r);
  }

  KernelLabels labels_;
  std::span<const std::uint64_t> keys_;
  std::vector<Fr> r_addr_;
  std::size_t key_bits_, cb_, rounds_;
  std::vector<Fr> eq5_, eq_rho_;
  std::vector<Fr> beta_pow_, zeta_pow_, one_minus_r_, two_r_minus_one_;
  bool gated_, pattern_tables_;
  std::vector<Fr> weight_point_;  // W's eq point (empty: W is only the table eq5_)
  std::size_t round_ = 0;         // variables bound
  std::vector<Fr> gate_;          // the gate as a bound table (empty: no gate)
  std::vector<std::vector<Fr>> bits_;
  std::size_t bound_ = 0;                                  // variables bound before bits_ exists
  std::vector<Fr> bound_challenges_;                       // their challenges
  std::vector<Fr> pattern_values_{Fr::zero(), Fr::one()};  // by pattern (see bit)
};

}  // namespace

std::unique_ptr<SumcheckKernel> make_ra_virtualization_kernel(RaVirtualizationInput in,
                                                              const KernelLabels& labels) {
  const std::size_t n = in.keys.size();
  if (in.key_bits == 0 || in.key_bits > 64 || in.chunk_bits == 0 ||
      in.key_bits % in.chunk_bits != 0)
    throw std::invalid_argument("RA virtualization: " + std::to_string(in.key_bits) +
                                " key bits do not split into chunks of " +
                                std::to_string(in.chunk_bits));
  if (!in.weight_point.empty() && (!in.weights.empty() || in.weight_point.size() != in.rho.size()))
    throw std::invalid_argument(
        "RA virtualization: a weight point of " + std::to_string(in.weight_point.size()) +
        " coordinates with " + std::to_string(in.weights.size()) + " weights (give the point of " +
        std::to_string(in.rho.size()) + " coordinates or the table, not both)");
  const std::size_t weights = in.weight_point.empty() ? in.weights.size() : n;
  if (n < 2 || (std::size_t{1} << in.rho.size()) != n || weights != n ||
      in.r_addr.size() != in.key_bits || in.beta_powers.size() != in.key_bits / in.chunk_bits ||
      (!in.gate.empty() && in.gate.size() != n))
    throw std::invalid_argument("RA virtualization: " + std::to_string(n) + " keys, " +
                                std::to_string(weights) + " weights, " +
                                std::to_string(in.rho.size()) + " cycle variables and " +
                                std::to_string(in.r_addr.size()) + " address coordinates disagree");
  return std::make_unique<RaVirtualizationKernel>(std::move(in), labels);
}

Fr ra_virtualization_final(std::span<const Fr> r_addr, unsigned chunk_bits,
                           std::span<const Fr> beta_powers, const Fr& weight_at_point,
                           std::span<const Fr> rho, const Fr& zeta, std::span<const Fr> point,
                           std::span<const Fr> bits) {
  Fr ra_sum;
  for (std::size_t c = 0; c < beta_powers.size(); ++c) {
    Fr prod = Fr::one();
    for (std::size_t q = 0; q < chunk_bits; ++q) {
      const std::size_t b = c * chunk_bits + q;
      prod = prod * (r_addr[b] * bits[b] + (Fr::one() - r_addr[b]) * (Fr::one() - bits[b]));
    }
    ra_sum += beta_powers[c] * prod;
  }
  Fr bool_sum, z = zeta;
  for (std::size_t b = 0; b < bits.size(); ++b, z = z * zeta)
    bool_sum += z * bits[b] * (bits[b] - Fr::one());
  return weight_at_point * ra_sum + EqPolynomial::evaluate(rho, point) * bool_sum;
}

}  // namespace jolt::prover::lookups
