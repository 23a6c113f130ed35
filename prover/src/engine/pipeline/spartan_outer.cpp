// Outer Spartan: streaming row rounds, then T-sized cycle rounds with a split eq (see header).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/spartan_outer.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <optional>

namespace jolt::prover {

namespace {

using r1cs::kNumRowsPadded;
using r1cs::kRowBits;

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

// A constraint side with ±1 coefficients (almost all of them) as additions/subtractions.
struct Lin {
  Fr c;
  std::vector<std::uint32_t> plus, minus;
  // The other coefficients, in the field and as integers.
  struct Term {
    std::uint32_t col;
    Fr coeff;
    std::int64_t coeff_int;
  };
  std::vector<Term> other;
  std::int64_t c_int = 0;  // c as an integer
  // The exact integer value from integer column values get(i) (the caller checks that no sum
  // leaves the 128-bit range: int_bound).
  template <class Get>
  i128 eval_int(const Get& get) const {
    i128 v = c_int;
    for (std::uint32_t i : plus) v += get(i);
    for (std::uint32_t i : minus) v -= get(i);
    for (const Term& o : other) v += static_cast<i128>(o.coeff_int) * get(o.col);
    return v;
  }
  // A bound on |eval_int| when column i's values are at most col_max[i].
  double int_bound(const std::vector<double>& col_max) const {
    double b = std::abs(static_cast<double>(c_int));
    for (std::uint32_t i : plus) b += col_max[i];
    for (std::uint32_t i : minus) b += col_max[i];
    for (const Term& o : other) b += std::abs(static_cast<double>(o.coeff_int)) * col_max[o.col];
    return b;
  }
  // get(i) = column i's value at the cycle being evaluated.
  template <class Get>
  Fr eval(const Get& get) const {
    Fr v = c;
    for (std::uint32_t i : plus) v += get(i);
    for (std::uint32_t i : minus) v -= get(i);
    for (const Term& o : other) v += o.coeff * get(o.col);
    return v;
  }
};

Lin to_lin(const r1cs::LinearForm& f) {
  Lin l{Fr::from_i64(f.constant), {}, {}, {}, f.constant};
  for (auto [c, k] : f.terms) {
    if (k == 1) {
      l.plus.push_back(c);
    } else if (k == -1) {
      l.minus.push_back(c);
    } else {
      l.other.push_back({c, Fr::from_i64(k), k});
    }
  }
  return l;
}

// The rows' two sides, their Lin terms indexed by position in `used` (the columns some row
// reads, about half of the witness's): for_cycles gathers only those.
struct Rows {
  std::vector<Lin> a, b;
  std::vector<std::uint32_t> used;
};
const Rows& rows() {
  static const Rows r = [] {
    Rows x;
    for (const auto& row : r1cs::constraints()) {
      x.a.push_back(to_lin(row.a));
      x.b.push_back(to_lin(row.b));
    }
    auto each_term = [&x](auto&& visit) {
      for (auto* side : {&x.a, &x.b})
        for (Lin& l : *side) {
          for (std::uint32_t& i : l.plus) visit(i);
          for (std::uint32_t& i : l.minus) visit(i);
          for (auto& term : l.other) visit(term.col);
        }
    };
    each_term([&x](std::uint32_t& i) { x.used.push_back(i); });
    std::sort(x.used.begin(), x.used.end());
    x.used.erase(std::unique(x.used.begin(), x.used.end()), x.used.end());
    each_term([&x](std::uint32_t& i) {
      i = static_cast<std::uint32_t>(std::lower_bound(x.used.begin(), x.used.end(), i) -
                                     x.used.begin());
    });
    return x;
  }();
  return r;
}

// Calls f(t, get) for every cycle t in [begin, end), get(i) = the column at position i of
// rows().used at t, as read(column, t0, out) gives it (V: Fr or i128). Those columns are gathered
// kBlock cycles at a time into a small cycle-major buffer, so the rows read one cached line per
// cycle instead of one line from each of ~50 column arrays (more streams than the hardware
// prefetchers follow; docs/performance.md has the measurement).
constexpr std::size_t kGatherBlock = 16;
template <class V, class Read, class F>
void gather_cycles(const WitnessColumns& cols, std::size_t begin, std::size_t end, Read&& read,
                   F&& f) {
  constexpr std::size_t kBlock = kGatherBlock;
  const std::vector<std::uint32_t>& used = rows().used;
  const std::size_t ncols = used.size();
  std::vector<V> blk(ncols * kBlock);
  std::array<V, kBlock> one_column;
  for (std::size_t t0 = begin; t0 < end; t0 += kBlock) {
    const std::size_t n = std::min(kBlock, end - t0);
    for (std::size_t i = 0; i < ncols; ++i) {
      read(cols[used[i]], t0, std::span<V>(one_column.data(), n));
      for (std::size_t v = 0; v < n; ++v) blk[v * ncols + i] = one_column[v];
    }
    for (std::size_t v = 0; v < n; ++v) {
      const V* here = blk.data() + v * ncols;
      f(t0 + v, [here](std::uint32_t i) -> const V& { return here[i]; });
    }
  }
}

// The columns in the field.
template <class F>
void for_cycles(const WitnessColumns& cols, std::size_t begin, std::size_t end, F&& f) {
  gather_cycles<Fr>(
      cols, begin, end,
      [](const WitnessColumn& c, std::size_t t0, std::span<Fr> out) { c.read(t0, out); }, f);
}

// v as a signed integer of magnitude < 2^64 (v or −(r − v)), if it is one.
std::optional<i128> small_signed(const Fr& v) {
  const auto c = v.to_canonical_limbs();
  if ((c[1] | c[2] | c[3]) == 0) return static_cast<i128>(c[0]);
  const auto n = (-v).to_canonical_limbs();
  if ((n[1] | n[2] | n[3]) == 0) return -static_cast<i128>(n[0]);
  return std::nullopt;
}

// The columns' integer values (integer_rows_fit: every used column is stored in an integer width
// or holds small signed integers as field elements).
template <class F>
void for_cycles_int(const WitnessColumns& cols, std::size_t begin, std::size_t end, F&& f) {
  gather_cycles<i128>(
      cols, begin, end,
      [](const WitnessColumn& c, std::size_t t0, std::span<i128> out) {
        if (c.width() == ColumnWidth::kField) {
          const std::span<const Fr> v = c.field_entries();
          for (std::size_t u = 0; u < out.size(); ++u) out[u] = *small_signed(v[t0 + u]);
          return;
        }
        std::array<std::uint64_t, kGatherBlock> ints;
        c.read_u64(t0, std::span<std::uint64_t>(ints.data(), out.size()));
        std::copy_n(ints.begin(), out.size(), out.begin());
      },
      f);
}

// Whether every row side's integer value, extended over the grid's three dimensions (each at
// most doubling it), and the product of the two sides stay inside the 128-bit range for these
// columns: then the grid and the tables take the rows' exact integer values.
bool integer_rows_fit(const WitnessColumns& cols) {
  const Rows& r = rows();
  std::vector<double> col_max(r.used.size());
  for (std::size_t i = 0; i < r.used.size(); ++i) {
    const WitnessColumn& c = cols[r.used[i]];
    switch (c.width()) {
      case ColumnWidth::k8:
        col_max[i] = c.packed_bits() ? 1.0 : 255.0;
        break;
      case ColumnWidth::k32:
        col_max[i] = 4294967295.0;
        break;
      case ColumnWidth::k64:
        col_max[i] = 18446744073709551615.0;
        break;
      case ColumnWidth::kField: {
        // Field columns whose entries are all small signed integers (the immediates: a negative
        // one is r − |imm|) are read as those integers.
        const std::span<const Fr> v = c.field_entries();
        std::atomic<bool> small{true};
        const double m = tbb::parallel_reduce(
            tbb::blocked_range<std::size_t>(0, v.size(), 4096), 0.0,
            [&](const tbb::blocked_range<std::size_t>& rg, double acc) {
              for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
                const auto s = small_signed(v[t]);
                if (!s) {
                  small.store(false, std::memory_order_relaxed);
                  return acc;
                }
                acc = std::max(acc, std::abs(static_cast<double>(*s)));
              }
              return acc;
            },
            [](double a, double b) { return std::max(a, b); });
        if (!small.load()) return false;
        col_max[i] = m;
        break;
      }
    }
  }
  constexpr double kLimit = 0x1p120;  // below 2^127 with room for rounding in the bound
  for (std::size_t k = 0; k < r.a.size(); ++k) {
    const double a = 8 * r.a[k].int_bound(col_max), b = 8 * r.b[k].int_bound(col_max);
    if (a > kLimit || b > kLimit || a * b > kLimit) return false;
  }
  return true;
}

// |v| for |v| < 2^127.
u128 magnitude(i128 v) {
  return v < 0 ? static_cast<u128>(-v) : static_cast<u128>(v);
}

// v in the field, |v| < 2^127.
Fr field_of(i128 v) {
  const u128 m = magnitude(v);
  const Fr f = Fr::from_u128(static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(m >> 64));
  return v < 0 ? -f : f;
}

// 2^64 in the field: w·2^64 takes the upper 64 bits of a 128-bit value (add_scaled).
const Fr& two_to_64() {
  static const Fr v = Fr::from_u128(0, 1);
  return v;
}

bool wider_than_64_bits(i128 v) {
  return magnitude(v) >> 64 != 0;
}

// acc += w·v for an integer v, |v| < 2^127, as 64-bit pieces; w_hi = w·2^64 is read only when
// |v| ≥ 2^64.
void add_scaled(Fr::SmallProductSum& acc, const Fr& w, const Fr& w_hi, i128 v) {
  const bool neg = v < 0;
  const u128 m = magnitude(v);
  const auto lo = static_cast<std::uint64_t>(m), hi = static_cast<std::uint64_t>(m >> 64);
  if (neg)
    acc.subtract_product(w, lo);
  else
    acc.add_product(w, lo);
  if (hi == 0) return;
  if (neg)
    acc.subtract_product(w_hi, hi);
  else
    acc.add_product(w_hi, hi);
}

void sum_halves(std::vector<Fr>& v) {
  const std::size_t h = v.size() / 2;
  for (std::size_t i = 0; i < h; ++i) v[i] += v[i + h];
  v.resize(h);
}

using Acc = std::array<Fr, 3>;
// Entry-wise sum: the join of the TBB reductions over Acc and over the grid below.
template <std::size_t N>
std::array<Fr, N> add(std::array<Fr, N> x, const std::array<Fr, N>& y) {
  for (std::size_t i = 0; i < N; ++i) x[i] += y[i];
  return x;
}

// q's terms at X = 0, 1, 2 of one pair of rows (or slots, or cycles) bound on the next variable:
// a0·b0, a1·b1 and (2a1 − a0)(2b1 − b0), products with a zero factor skipped.
Acc pair_terms(const Fr& a0, const Fr& a1, const Fr& b0, const Fr& b1) {
  Acc at{};
  if (!a0.is_zero() && !b0.is_zero()) at[0] = a0 * b0;
  if (!a1.is_zero() && !b1.is_zero()) at[1] = a1 * b1;
  const Fr da = a1.dbl() - a0, db = b1.dbl() - b0;
  if (!da.is_zero() && !db.is_zero()) at[2] = da * db;
  return at;
}

// acc += w·at, skipping the zero terms.
void add_weighted(Acc& acc, const Fr& w, const Acc& at) {
  for (int x = 0; x < 3; ++x)
    if (!at[x].is_zero()) acc[x] += w * at[x];
}

}  // namespace

namespace r1cs {
std::pair<std::vector<Fr>, std::vector<Fr>> outer_tables(const WitnessColumns& cols) {
  const std::size_t T = cols.length();
  std::vector<Fr> az(kNumRowsPadded * T), bz(kNumRowsPadded * T);
  const Rows& r = rows();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 512),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for_cycles(cols, rg.begin(), rg.end(), [&](std::size_t t, const auto& get) {
                        for (std::size_t k = 0; k < r.a.size(); ++k) {
                          az[k * T + t] = r.a[k].eval(get);
                          bz[k * T + t] = r.b[k].eval(get);
                        }
                      });
                    });
  return {std::move(az), std::move(bz)};
}
}  // namespace r1cs

SpartanOuterKernel::SpartanOuterKernel(const WitnessColumns& columns, std::vector<Fr> tau)
    : cols_(columns), tau_(std::move(tau)) {
  static_assert(kStreamedRowRounds <= kRowBits &&
                (kNumRowsPadded >> kStreamedRowRounds) == kTabledRowSlots);
  if (cols_.size() == 0 || tau_.size() != kRowBits + log2_exact(cols_.length()))
    throw std::invalid_argument("SpartanOuterKernel: |tau| != row bits + log T");
  const std::span<const Fr> t(tau_);
  eq_row_ = EqPolynomial::evals(t.subspan(1, kRowBits - 1));
  eq_cyc_ = EqPolynomial::evals(t.subspan(kRowBits));
  int_rows_ = integer_rows_fit(cols_);
}

void SpartanOuterKernel::bind(const Fr& r) {
  const Fr& tj = tau_[round_];
  eq_bound_ *= (tj * r).dbl() + Fr::one() - tj - r;
  if (round_ < kRowBits) {
    if (eq_row_.size() > 1) sum_halves(eq_row_);
  }
  if (round_ < kStreamedRowRounds) {
    row_challenges_.push_back(r);
    if (round_ + 1 == kStreamedRowRounds) materialise();
  } else {
    // The slot bits are the top bits of slot·T + t, the row bit bound next the topmost.
    bind_top_in_place(az_, r);
    bind_top_in_place(bz_, r);
  }
  ++round_;
  if (round_ >= kRowBits && round_ < tau_.size()) sum_halves(eq_cyc_);
}

// Az(r_row, s, t) = Σ_{k ≡ s} eq(r_row, k / S)·A_k(z(t)) over the S = kTabledRowSlots slots
// s = k mod S, likewise Bz: S·T entries each, index s·T + t.
void SpartanOuterKernel::materialise() {
  const std::vector<Fr> w = EqPolynomial::evals(row_challenges_);
  const std::size_t T = cols_.length();
  constexpr std::size_t S = kTabledRowSlots;
  const Rows& r = rows();
  az_ = zero_table(S * T);
  bz_ = zero_table(S * T);
  if (int_rows_) {
    // The rows' exact integer values: Az's guards are almost all 0 or ±1 (an addition of the
    // weight), Bz's slot sums w·value are added as 64-bit pieces and reduced once per slot.
    std::vector<Fr> w_hi(w.size());
    for (std::size_t x = 0; x < w.size(); ++x) w_hi[x] = w[x] * two_to_64();
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, T, 512), [&](const tbb::blocked_range<std::size_t>& rg) {
          for_cycles_int(cols_, rg.begin(), rg.end(), [&](std::size_t t, const auto& get) {
            std::array<Fr, S> a{};
            std::array<Fr::SmallProductSum, S> b{};
            for (std::size_t k = 0; k < r.a.size(); ++k) {
              const std::size_t x = k / S, s = k % S;
              const i128 va = r.a[k].eval_int(get), vb = r.b[k].eval_int(get);
              if (va == 1)
                a[s] += w[x];
              else if (va == -1)
                a[s] -= w[x];
              else if (va != 0)
                a[s] += w[x] * field_of(va);
              if (vb != 0) add_scaled(b[s], w[x], w_hi[x], vb);
            }
            for (std::size_t s = 0; s < S; ++s) {
              az_[s * T + t] = a[s];
              bz_[s * T + t] = b[s].value();
            }
          });
        });
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 512),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for_cycles(cols_, rg.begin(), rg.end(), [&](std::size_t t, const auto& get) {
                        std::array<Fr, S> a{}, b{};
                        for (std::size_t k = 0; k < r.a.size(); ++k) {
                          const Fr va = r.a[k].eval(get), vb = r.b[k].eval(get);
                          const Fr& wk = w[k / S];
                          if (!va.is_zero()) a[k % S] += va == Fr::one() ? wk : wk * va;
                          if (!vb.is_zero()) b[k % S] += wk * vb;
                        }
                        for (std::size_t s = 0; s < S; ++s) {
                          az_[s * T + t] = a[s];
                          bz_[s * T + t] = b[s];
                        }
                      });
                    });
}

// The streamed row rounds' products on the grid {0, 1, ∞}^m, m = kStreamedRowRounds (the
// small-value method for a sumcheck's first rounds, here over the field). Row k = x·S + y, x the m
// row bits bound in the streamed rounds (x_0 the most significant), y the slot. For fixed (y, t),
// Az(x, y, t) is multilinear in x, so Az·Bz is of degree ≤ 2 in each x_i and is fixed by its values
// on the grid, where "∞" is a variable's leading coefficient (A(…1…) − A(…0…)). grid_[u] = Σ_{y,t}
// eq(τ_y, y)·eq(τ_cyc, t)·A(u, y, t)·B(u, y, t), one pass over the cycles for all m rounds; round j
// then interpolates it at r_<j (streamed_round_q).
namespace {
constexpr std::size_t kGridDims = SpartanOuterKernel::kStreamedRowRounds;
constexpr std::size_t kCorners = std::size_t{1} << kGridDims;
constexpr std::size_t pow3(std::size_t n) {
  return n == 0 ? 1 : 3 * pow3(n - 1);
}
constexpr std::size_t kGridPoints = pow3(kGridDims);

// e[u] (u in base 3, u_0 the most significant digit; digit 2 = ∞) from the corner values v[x]
// (x in base 2, x_0 the most significant bit), the last dimension first.
template <class V>
void extend_to_grid(const std::array<V, kCorners>& v, std::array<V, kGridPoints>& e) {
  std::array<V, kGridPoints> tmp;
  V* cur = e.data();
  V* next = tmp.data();
  for (std::size_t x = 0; x < kCorners; ++x) cur[x] = v[x];
  std::size_t lo = 1;  // 3^s: the extended trailing dimensions' size
  for (std::size_t s = 0; s < kGridDims; ++s) {
    const std::size_t hi = kCorners >> (s + 1);
    for (std::size_t h = 0; h < hi; ++h)
      for (std::size_t l = 0; l < lo; ++l) {
        const V a0 = cur[(2 * h) * lo + l];
        const V a1 = cur[(2 * h + 1) * lo + l];
        V* out = next + h * 3 * lo + l;
        out[0] = a0;
        out[lo] = a1;
        out[2 * lo] = a1 - a0;
      }
    std::swap(cur, next);
    lo *= 3;
  }
  if (cur != e.data()) std::copy(cur, cur + kGridPoints, e.data());
}

using Grid = std::array<Fr, kGridPoints>;
}  // namespace

void SpartanOuterKernel::accumulate_grid() {
  constexpr std::size_t S = kTabledRowSlots;
  const Rows& r = rows();
  const std::size_t nrows = r.a.size();
  const std::span<const Fr> t(tau_);
  const std::vector<Fr> eq_y = EqPolynomial::evals(t.subspan(kGridDims, kRowBits - kGridDims));
  if (int_rows_) {
    // The rows' exact integer values (integer_rows_fit): the grid's products are 128-bit
    // integers, each added as w·product into a wide sum reduced once per range — four 64-bit
    // products a term instead of a Montgomery product (and the corners' extension in integer
    // additions).
    using Sums = std::array<Fr::SmallProductSum, kGridPoints>;
    const Sums sums = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, cols_.length(), 256), Sums{},
        [&](const tbb::blocked_range<std::size_t>& rg, Sums acc) {
          std::array<i128, kCorners> ca, cb;
          std::array<i128, kGridPoints> ga, gb, prod;
          for_cycles_int(cols_, rg.begin(), rg.end(), [&](std::size_t cyc, const auto& get) {
            for (std::size_t y = 0; y < S; ++y) {
              bool any = false;
              for (std::size_t x = 0; x < kCorners; ++x) {
                const std::size_t k = x * S + y;
                ca[x] = k < nrows ? r.a[k].eval_int(get) : 0;
                any = any || ca[x] != 0;
              }
              if (!any) continue;
              for (std::size_t x = 0; x < kCorners; ++x) {
                const std::size_t k = x * S + y;
                cb[x] = k < nrows ? r.b[k].eval_int(get) : 0;
              }
              extend_to_grid(ca, ga);
              extend_to_grid(cb, gb);
              bool wide = false;
              for (std::size_t u = 0; u < kGridPoints; ++u) {
                prod[u] = ga[u] * gb[u];
                wide = wide || wider_than_64_bits(prod[u]);
              }
              const Fr w = eq_y[y] * eq_cyc_[cyc];
              const Fr w_hi = wide ? w * two_to_64() : Fr::zero();
              for (std::size_t u = 0; u < kGridPoints; ++u)
                if (prod[u] != 0) add_scaled(acc[u], w, w_hi, prod[u]);
            }
          });
          return acc;
        },
        [](Sums a, const Sums& b) {
          for (std::size_t u = 0; u < kGridPoints; ++u) a[u].add(b[u]);
          return a;
        });
    grid_.resize(kGridPoints);
    for (std::size_t u = 0; u < kGridPoints; ++u) grid_[u] = sums[u].value();
    return;
  }
  const Grid g = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, cols_.length(), 256), Grid{},
      [&](const tbb::blocked_range<std::size_t>& rg, Grid acc) {
        std::array<Fr, kCorners> ca, cb;
        Grid ga, gb;
        for_cycles(cols_, rg.begin(), rg.end(), [&](std::size_t cyc, const auto& get) {
          for (std::size_t y = 0; y < S; ++y) {
            // The slot's guards weighted by eq(τ_y, y)·eq(τ_cyc, t): the weight is one scalar
            // per (y, t) and the grid values are linear in the corners. A slot whose guards are
            // all zero adds nothing.
            const Fr w = eq_y[y] * eq_cyc_[cyc];
            bool any = false;
            for (std::size_t x = 0; x < kCorners; ++x) {
              const std::size_t k = x * S + y;
              const Fr va = k < nrows ? r.a[k].eval(get) : Fr::zero();
              ca[x] = va.is_zero() ? va : (va == Fr::one() ? w : w * va);
              any = any || !va.is_zero();
            }
            if (!any) continue;
            for (std::size_t x = 0; x < kCorners; ++x) {
              const std::size_t k = x * S + y;
              cb[x] = k < nrows ? r.b[k].eval(get) : Fr::zero();
            }
            extend_to_grid(ca, ga);
            extend_to_grid(cb, gb);
            for (std::size_t u = 0; u < kGridPoints; ++u)
              if (!ga[u].is_zero() && !gb[u].is_zero()) acc[u] += ga[u] * gb[u];
          }
        });
        return acc;
      },
      add<kGridPoints>);
  grid_.assign(g.begin(), g.end());
}

// q_j(c) for c = 0, 1, ∞ of streamed round j: Σ_{u ∈ {0,1,∞}^j} L_u(r_<j)·Σ_{x ∈ {0,1}^(m−1−j)}
// eq(τ_(j+1..m), x)·grid_[u, c, x], L_0(r) = 1 − r, L_1(r) = r, L_∞(r) = r(r − 1) per variable
// (a degree-2 polynomial from its values at 0 and 1 and its leading coefficient); returned as the
// values at X = 0, 1, 2 (q(2) = 2q(1) − q(0) + 2q(∞)).
std::array<Fr, 3> SpartanOuterKernel::streamed_round_q() const {
  const std::size_t j = round_;
  const std::size_t rest = kGridDims - 1 - j;
  std::array<Fr, 3> at_c{};  // at X = 0, 1, ∞
  // eq(τ_(j+1..m), x) over the streamed row bits after this round's, x big-endian.
  const std::vector<Fr> eq_rest =
      EqPolynomial::evals(std::span<const Fr>(tau_).subspan(j + 1, rest));
  for (std::size_t u = 0; u < pow3(j); ++u) {
    // L_u(r_<j), u's digits most significant first.
    Fr l = Fr::one();
    std::size_t digits = u;
    for (std::size_t i = j; i-- > 0;) {
      const Fr& ri = row_challenges_[i];
      const std::size_t d = digits % 3;
      digits /= 3;
      l *= d == 0 ? Fr::one() - ri : (d == 1 ? ri : ri * (ri - Fr::one()));
    }
    for (std::size_t c = 0; c < 3; ++c) {
      Fr s = Fr::zero();
      for (std::size_t x = 0; x < eq_rest.size(); ++x) {
        std::size_t idx = u * 3 + c;  // then x's bits as base-3 digits
        for (std::size_t b = rest; b-- > 0;) idx = idx * 3 + ((x >> b) & 1);
        s += eq_rest[x] * grid_[idx];
      }
      at_c[c] += l * s;
    }
  }
  return {at_c[0], at_c[1], at_c[1].dbl() - at_c[0] + at_c[2].dbl()};
}

std::vector<Fr> SpartanOuterKernel::evals_from_q(const Fr& q0, const Fr& q1, const Fr& q2) const {
  const Fr q3 = q0 - (q1 + q1 + q1) + (q2 + q2 + q2);
  const Fr& tj = tau_[round_];
  // eq(τ_j, X) = (1 − τ_j) + X·(2τ_j − 1)
  const Fr slope = tj.dbl() - Fr::one();
  Fr l = Fr::one() - tj;
  const Fr qs[4] = {q0, q1, q2, q3};
  std::vector<Fr> evals(4);
  for (int x = 0; x < 4; ++x) {
    evals[x] = eq_bound_ * l * qs[x];
    l += slope;
  }
  return evals;
}

std::vector<Fr> SpartanOuterKernel::prove_round(const std::optional<Fr>& bind_r, std::size_t,
                                                const Fr&) {
  if (bind_r) bind(*bind_r);
  const std::size_t T = cols_.length();
  Acc q{};
  if (round_ < kStreamedRowRounds) {
    if (round_ == 0) accumulate_grid();
    q = streamed_round_q();
  } else if (round_ < kRowBits) {
    // Tabled row round: pair slot k with slot k + half, weighted by eq_row[k]·eq_cyc[t].
    const std::size_t half = az_.size() / (2 * T);
    for (std::size_t k = 0; k < half; ++k) {
      const Fr* a0s = az_.data() + k * T;
      const Fr* a1s = az_.data() + (k + half) * T;
      const Fr* b0s = bz_.data() + k * T;
      const Fr* b1s = bz_.data() + (k + half) * T;
      const Acc qk = tbb::parallel_reduce(
          tbb::blocked_range<std::size_t>(0, T, 2048), Acc{},
          [&](const tbb::blocked_range<std::size_t>& rg, Acc acc) {
            for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
              if (a0s[t].is_zero() && a1s[t].is_zero()) continue;
              add_weighted(acc, eq_cyc_[t], pair_terms(a0s[t], a1s[t], b0s[t], b1s[t]));
            }
            return acc;
          },
          add<3>);
      for (int x = 0; x < 3; ++x) q[x] += eq_row_[k] * qk[x];
    }
  } else {
    const std::size_t half = az_.size() / 2;
    q = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, half, 2048), Acc{},
        [&](const tbb::blocked_range<std::size_t>& rg, Acc acc) {
          for (std::size_t i = rg.begin(); i < rg.end(); ++i) {
            add_weighted(acc, eq_cyc_[i], pair_terms(az_[i], az_[i + half], bz_[i], bz_[i + half]));
          }
          return acc;
        },
        add<3>);
  }
  return evals_from_q(q[0], q[1], q[2]);
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
  v.bytes("eq_cycle", eq_cyc_.capacity() * sizeof(Fr));
  v.bytes("eq_row", eq_row_.capacity() * sizeof(Fr));
}

std::unique_ptr<SumcheckKernel> SpartanOuterKernel::reference(const WitnessColumns& columns,
                                                              std::vector<Fr> tau) {
  auto [az, bz] = r1cs::outer_tables(columns);
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  std::vector<std::vector<Fr>> leaves;
  leaves.push_back(EqPolynomial::evals(tau));
  leaves.push_back(std::move(az));
  leaves.push_back(std::move(bz));
  return std::make_unique<NaiveKernel>(kLabels, std::move(leaves), std::move(e));
}

}  // namespace jolt::prover
