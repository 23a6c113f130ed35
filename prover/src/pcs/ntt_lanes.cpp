#include "ntt_lanes.hpp"

// GCC 12's AVX-512 shift intrinsics start from _mm512_undefined_epi32(), which its
// -Wmaybe-uninitialized reports as a use of an uninitialised value.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <atomic>
#include <bit>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string_view>
#include <type_traits>

namespace jolt::prover::basefold::lanes {
namespace {

static_assert(sizeof(Fr) == 32 && std::is_trivially_copyable_v<Fr>,
              "the lanes read Fr as four little-endian 64-bit words");

#define JOLT_LANES_FN __attribute__((target("avx512f,avx512ifma")))
#define JOLT_LANES_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline
// A lambda's body does not take its enclosing function's target; this gives it the lanes'.
#define JOLT_LANES_LAMBDA __attribute__((target("avx512f,avx512ifma"), always_inline))

constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;
constexpr unsigned kWordsPerGroup = 40;  // 5 limbs × 8 lanes

__extension__ using u128 = unsigned __int128;

// A value < 2^260 as five 52-bit limbs.
struct Limbs5 {
  std::uint64_t v[5];
};
// Five 64-bit words (little-endian, a value < 2^320) → five 52-bit limbs of its low 260 bits.
constexpr Limbs5 limbs52(const std::uint64_t (&w)[5]) {
  Limbs5 out{};
  for (int k = 0; k < 5; ++k) {
    const unsigned bit = 52u * static_cast<unsigned>(k), word = bit / 64, off = bit % 64;
    std::uint64_t x = w[word] >> off;
    if (off > 12 && word + 1 < 5) x |= w[word + 1] << (64 - off);
    out.v[k] = x & kMask52;
  }
  return out;
}

// c·r as five 52-bit limbs, for c·r < 2^260 (c ≤ 84; the table below holds more, unused).
constexpr Limbs5 multiple_of_modulus(unsigned c) {
  std::uint64_t w[5] = {};
  u128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 s = static_cast<u128>(fr_detail::kModulus[i]) * c + carry;
    w[i] = static_cast<std::uint64_t>(s);
    carry = s >> 64;
  }
  w[4] = static_cast<std::uint64_t>(carry);
  return limbs52(w);
}
struct ModulusMultiples {
  Limbs5 m[kMaxBound * 2];
  constexpr ModulusMultiples() : m{} {
    for (unsigned c = 0; c < kMaxBound * 2; ++c) m[c] = multiple_of_modulus(c);
  }
};
constexpr ModulusMultiples kMultiples{};
// −r^-1 mod 2^52.
constexpr std::uint64_t kInv52 = fr_detail::kInv & kMask52;

// a·b mod 2^320 on five 64-bit words.
constexpr void mul_mod_2_320(const std::uint64_t (&a)[5], const std::uint64_t (&b)[5],
                             std::uint64_t (&out)[5]) {
  std::uint64_t acc[5] = {};
  for (int i = 0; i < 5; ++i) {
    u128 carry = 0;
    for (int j = 0; i + j < 5; ++j) {
      const u128 s = static_cast<u128>(a[i]) * b[j] + acc[i + j] + carry;
      acc[i + j] = static_cast<std::uint64_t>(s);
      carry = s >> 64;
    }
  }
  for (int k = 0; k < 5; ++k) out[k] = acc[k];
}

// a − b mod 2^320 on five 64-bit words.
constexpr void sub_mod_2_320(const std::uint64_t (&a)[5], const std::uint64_t (&b)[5],
                             std::uint64_t (&out)[5]) {
  u128 borrow = 0;
  for (int k = 0; k < 5; ++k) {
    const u128 d = static_cast<u128>(a[k]) - b[k] - borrow;
    out[k] = static_cast<std::uint64_t>(d);
    borrow = (d >> 64) ? 1 : 0;
  }
}

// r and 0 on five 64-bit words.
constexpr std::uint64_t kModulus320[5] = {fr_detail::kModulus[0], fr_detail::kModulus[1],
                                          fr_detail::kModulus[2], fr_detail::kModulus[3], 0};
constexpr std::uint64_t kZero320[5] = {};

// r^-1 mod 2^320, by Newton's x ← x·(2 − r·x) from r^-1 mod 2^64 (= −kInv): 64 → 128 → 256 → 512
// correct bits.
struct ModulusInverse320 {
  std::uint64_t v[5] = {};
  constexpr ModulusInverse320() {
    const std::uint64_t two[5] = {2, 0, 0, 0, 0};
    std::uint64_t x[5] = {0 - fr_detail::kInv, 0, 0, 0, 0};
    for (int it = 0; it < 3; ++it) {
      std::uint64_t rx[5] = {}, two_minus[5] = {};
      mul_mod_2_320(kModulus320, x, rx);
      sub_mod_2_320(two, rx, two_minus);
      std::uint64_t next[5] = {};
      mul_mod_2_320(x, two_minus, next);
      for (int k = 0; k < 5; ++k) x[k] = next[k];
    }
    for (int k = 0; k < 5; ++k) v[k] = x[k];
  }
};
constexpr ModulusInverse320 kModulusInverse320{};

// 2^260 − r as five 52-bit limbs: a·w − q·r ≡ a·w + q·(2^260 − r) modulo 2^260.
constexpr Limbs5 kModulusComplement260 = [] {
  std::uint64_t c[5] = {};
  sub_mod_2_320(kZero320, kModulus320, c);
  return limbs52(c);  // the low 260 bits of 2^320 − r
}();

// 1/(⌊r/2^208⌋ + 2) rounded to a double: reduce()'s quotient from a value's top limb.
constexpr double kTopLimbReciprocal = 1.0 / static_cast<double>((fr_detail::kModulus[3] >> 16) + 2);

// The multiple of r that bounds the Shoup product below (shoup_mul's output).
constexpr unsigned kShoupBound = 3;

// Eight field elements in five vectors of 52-bit limbs. Limbs 0–3 of a normalised value are
// < 2^52; limb 4 holds the rest.
struct Lanes {
  __m512i v[5];
};

JOLT_LANES_INLINE __m512i bcast(std::uint64_t x) {
  return _mm512_set1_epi64(static_cast<long long>(x));
}

// Four vectors of 64-bit words (word k of each element) → 52-bit limbs.
JOLT_LANES_INLINE Lanes split(__m512i x0, __m512i x1, __m512i x2, __m512i x3) {
  const __m512i m = bcast(kMask52);
  Lanes r;
  r.v[0] = _mm512_and_si512(x0, m);
  r.v[1] =
      _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(x0, 52), _mm512_slli_epi64(x1, 12)), m);
  r.v[2] =
      _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(x1, 40), _mm512_slli_epi64(x2, 24)), m);
  r.v[3] =
      _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(x2, 28), _mm512_slli_epi64(x3, 36)), m);
  r.v[4] = _mm512_srli_epi64(x3, 16);
  return r;
}

// Index vectors of the 8×4 word transposition (the same two serve both directions).
JOLT_LANES_INLINE __m512i idx_even() {
  return _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
}
JOLT_LANES_INLINE __m512i idx_odd() {
  return _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
}
JOLT_LANES_INLINE __m512i idx_low() {
  return _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
}
JOLT_LANES_INLINE __m512i idx_high() {
  return _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
}

// r0..r3 hold elements (0,1), (2,3), (4,5), (6,7), four words each.
JOLT_LANES_INLINE Lanes from_rows(__m512i r0, __m512i r1, __m512i r2, __m512i r3) {
  const __m512i a = _mm512_permutex2var_epi64(r0, idx_even(), r1);
  const __m512i b = _mm512_permutex2var_epi64(r0, idx_odd(), r1);
  const __m512i c = _mm512_permutex2var_epi64(r2, idx_even(), r3);
  const __m512i d = _mm512_permutex2var_epi64(r2, idx_odd(), r3);
  return split(
      _mm512_permutex2var_epi64(a, idx_low(), c), _mm512_permutex2var_epi64(a, idx_high(), c),
      _mm512_permutex2var_epi64(b, idx_low(), d), _mm512_permutex2var_epi64(b, idx_high(), d));
}

JOLT_LANES_INLINE Lanes load8(const Fr* p) {
  const auto* q = reinterpret_cast<const std::uint64_t*>(p);
  return from_rows(_mm512_loadu_si512(q), _mm512_loadu_si512(q + 8), _mm512_loadu_si512(q + 16),
                   _mm512_loadu_si512(q + 24));
}

// Elements a and b as one row of from_rows.
JOLT_LANES_INLINE __m512i row_of(const Fr* a, const Fr* b) {
  return _mm512_inserti64x4(
      _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a))),
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)), 1);
}

// Elements p[0], p[s], …, p[7s].
JOLT_LANES_INLINE Lanes load8_strided(const Fr* p, std::size_t s) {
  return from_rows(row_of(p, p + s), row_of(p + 2 * s, p + 3 * s), row_of(p + 4 * s, p + 5 * s),
                   row_of(p + 6 * s, p + 7 * s));
}

// A value < 2^256 with normalised limbs → eight Fr at p.
JOLT_LANES_INLINE void store8(Fr* p, const Lanes& x) {
  const __m512i x0 = _mm512_or_si512(x.v[0], _mm512_slli_epi64(x.v[1], 52));
  const __m512i x1 = _mm512_or_si512(_mm512_srli_epi64(x.v[1], 12), _mm512_slli_epi64(x.v[2], 40));
  const __m512i x2 = _mm512_or_si512(_mm512_srli_epi64(x.v[2], 24), _mm512_slli_epi64(x.v[3], 28));
  const __m512i x3 = _mm512_or_si512(_mm512_srli_epi64(x.v[3], 36), _mm512_slli_epi64(x.v[4], 16));
  const __m512i a = _mm512_permutex2var_epi64(x0, idx_low(), x1);
  const __m512i c = _mm512_permutex2var_epi64(x0, idx_high(), x1);
  const __m512i b = _mm512_permutex2var_epi64(x2, idx_low(), x3);
  const __m512i d = _mm512_permutex2var_epi64(x2, idx_high(), x3);
  auto* q = reinterpret_cast<std::uint64_t*>(p);
  _mm512_storeu_si512(q, _mm512_permutex2var_epi64(a, idx_even(), b));
  _mm512_storeu_si512(q + 8, _mm512_permutex2var_epi64(a, idx_odd(), b));
  _mm512_storeu_si512(q + 16, _mm512_permutex2var_epi64(c, idx_even(), d));
  _mm512_storeu_si512(q + 24, _mm512_permutex2var_epi64(c, idx_odd(), d));
}

JOLT_LANES_INLINE Lanes load_group(const std::uint64_t* g) {
  Lanes r;
  for (int k = 0; k < 5; ++k) r.v[k] = _mm512_load_si512(g + 8 * k);
  return r;
}
JOLT_LANES_INLINE void store_group(std::uint64_t* g, const Lanes& x) {
  for (int k = 0; k < 5; ++k) _mm512_store_si512(g + 8 * k, x.v[k]);
}

// Carries limbs 0–3 into the next limb; signed, so a limb may start negative as long as the value
// is not.
JOLT_LANES_INLINE void normalize(Lanes& x) {
  const __m512i m = bcast(kMask52);
  for (int k = 0; k < 4; ++k) {
    x.v[k + 1] = _mm512_add_epi64(x.v[k + 1], _mm512_srai_epi64(x.v[k], 52));
    x.v[k] = _mm512_and_si512(x.v[k], m);
  }
}

// N independent products a[s]·b[s]·2^-256 mod r, each an integer < a·b/2^256 + r (normalised
// limbs in, normalised limbs out): five rounds of the 52-bit Montgomery reduction interleaved
// with the schoolbook product. With N = 2 the two products' instructions interleave, so one's
// multiply-adds fill the latency of the other's reduction chain (N = 4 spills registers).
template <int N>
JOLT_LANES_INLINE void mont_mul_n(const Lanes (&a)[N], const Lanes (&b)[N], Lanes (&r)[N]) {
  const __m512i zero = _mm512_setzero_si512();
  const Limbs5& p = kMultiples.m[1];
  __m512i t[N][6];
#pragma GCC unroll 8
  for (int s = 0; s < N; ++s)
#pragma GCC unroll 8
    for (int j = 0; j < 6; ++j) t[s][j] = zero;
#pragma GCC unroll 8
  for (int i = 0; i < 5; ++i) {
#pragma GCC unroll 8
    for (int j = 0; j < 5; ++j)
#pragma GCC unroll 8
      for (int s = 0; s < N; ++s) {
        t[s][j] = _mm512_madd52lo_epu64(t[s][j], a[s].v[i], b[s].v[j]);
        t[s][j + 1] = _mm512_madd52hi_epu64(t[s][j + 1], a[s].v[i], b[s].v[j]);
      }
    __m512i m[N];
#pragma GCC unroll 8
    for (int s = 0; s < N; ++s) {
      m[s] = _mm512_madd52lo_epu64(zero, t[s][0], bcast(kInv52));
      if (i == 4) m[s] = _mm512_and_si512(m[s], bcast((std::uint64_t{1} << 48) - 1));
    }
#pragma GCC unroll 8
    for (int j = 0; j < 5; ++j)
#pragma GCC unroll 8
      for (int s = 0; s < N; ++s) {
        t[s][j] = _mm512_madd52lo_epu64(t[s][j], m[s], bcast(p.v[j]));
        t[s][j + 1] = _mm512_madd52hi_epu64(t[s][j + 1], m[s], bcast(p.v[j]));
      }
    if (i < 4) {
#pragma GCC unroll 8
      for (int s = 0; s < N; ++s) {
        t[s][1] = _mm512_add_epi64(t[s][1], _mm512_srli_epi64(t[s][0], 52));
#pragma GCC unroll 8
        for (int j = 0; j < 5; ++j) t[s][j] = t[s][j + 1];
        t[s][5] = zero;
      }
    }
  }
  const __m512i m52 = bcast(kMask52);
#pragma GCC unroll 8
  for (int s = 0; s < N; ++s) {
#pragma GCC unroll 8
    for (int k = 0; k < 5; ++k) {
      t[s][k + 1] = _mm512_add_epi64(t[s][k + 1], _mm512_srli_epi64(t[s][k], 52));
      t[s][k] = _mm512_and_si512(t[s][k], m52);
    }
#pragma GCC unroll 8
    for (int k = 0; k < 5; ++k)
      r[s].v[k] = _mm512_and_si512(
          _mm512_or_si512(_mm512_srli_epi64(t[s][k], 48), _mm512_slli_epi64(t[s][k + 1], 4)), m52);
  }
}

// a·b·2^-256 mod r as an integer < a·b/2^256 + r (normalised limbs in, normalised limbs out).
JOLT_LANES_INLINE Lanes mont_mul(const Lanes& a, const Lanes& b) {
  const Lanes x[1] = {a}, y[1] = {b};
  Lanes z[1];
  mont_mul_n<1>(x, y, z);
  return z[0];
}

// a·w mod r up to a multiple of r, an integer < 3r (kShoupBound), for a < 2^260 (normalised
// limbs) and a fixed twiddle w < r given as its plain value with wq = ⌊w·2^260/r⌋ (Shoup's
// method; lane_twiddles holds both): q = ⌊a·wq/2^260⌋, at most 1 below ⌊a·w/r⌋, is taken from
// limbs 4–9 of a·wq with the partial products below limb 4 left out (their sum is < 2^213, so
// q drops by at most 1 more), and a·w − q·r ∈ [0, 3r) is computed modulo 2^260 as
// a·w + q·(2^260 − r): 34 + 25 + 25 multiply-adds where mont_mul takes 105.
JOLT_LANES_INLINE Lanes shoup_mul(const Lanes& a, const Lanes& w, const Lanes& wq) {
  const __m512i zero = _mm512_setzero_si512(), m52 = bcast(kMask52);
  __m512i h[6];  // limb 4 + k of a·wq
#pragma GCC unroll 8
  for (int k = 0; k < 6; ++k) h[k] = zero;
#pragma GCC unroll 8
  for (int i = 0; i < 5; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < 5; ++j) {
      if (i + j >= 4) h[i + j - 4] = _mm512_madd52lo_epu64(h[i + j - 4], a.v[i], wq.v[j]);
      if (i + j >= 3) h[i + j - 3] = _mm512_madd52hi_epu64(h[i + j - 3], a.v[i], wq.v[j]);
    }
  __m512i t[5];
#pragma GCC unroll 8
  for (int k = 0; k < 5; ++k) t[k] = zero;
#pragma GCC unroll 8
  for (int i = 0; i < 5; ++i)
#pragma GCC unroll 8
    for (int j = 0; i + j < 5; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.v[i], w.v[j]);
      if (i + j < 4) t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.v[i], w.v[j]);
    }
  Lanes q;
#pragma GCC unroll 8
  for (int k = 0; k < 5; ++k) {
    h[k + 1] = _mm512_add_epi64(h[k + 1], _mm512_srli_epi64(h[k], 52));
    q.v[k] = _mm512_and_si512(h[k + 1], m52);
  }
  const Limbs5& rc = kModulusComplement260;
#pragma GCC unroll 8
  for (int i = 0; i < 5; ++i)
#pragma GCC unroll 8
    for (int j = 0; i + j < 5; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], q.v[i], bcast(rc.v[j]));
      if (i + j < 4) t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], q.v[i], bcast(rc.v[j]));
    }
  Lanes out;
#pragma GCC unroll 8
  for (int k = 0; k < 4; ++k) {
    t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64(t[k], 52));
    out.v[k] = _mm512_and_si512(t[k], m52);
  }
  out.v[4] = _mm512_and_si512(t[4], m52);  // modulo 2^260
  return out;
}

// lo, hi ← lo + hi·w, lo − hi·w + c·r, where hi·w < c·r by the caller's bound. Only hi's limbs
// are carried (the multiply reads 52 bits of each); the sums keep uncarried signed limbs, which
// grow by less than 2^53 a layer and are carried when they next enter a multiply or reduce().
JOLT_LANES_INLINE void butterfly(Lanes& lo, Lanes& hi, const Lanes& w, unsigned c) {
  normalize(hi);
  const Lanes t = mont_mul(hi, w);
  const Limbs5& cr = kMultiples.m[c];
  for (int k = 0; k < 5; ++k) {
    hi.v[k] = _mm512_sub_epi64(_mm512_add_epi64(lo.v[k], bcast(cr.v[k])), t.v[k]);
    lo.v[k] = _mm512_add_epi64(lo.v[k], t.v[k]);
  }
}

// The same with the Shoup product: c = kShoupBound.
JOLT_LANES_INLINE void shoup_butterfly(Lanes& lo, Lanes& hi, const Lanes& w, const Lanes& wq) {
  normalize(hi);
  const Lanes t = shoup_mul(hi, w, wq);
  const Limbs5& cr = kMultiples.m[kShoupBound];
  for (int k = 0; k < 5; ++k) {
    hi.v[k] = _mm512_sub_epi64(_mm512_add_epi64(lo.v[k], bcast(cr.v[k])), t.v[k]);
    lo.v[k] = _mm512_add_epi64(lo.v[k], t.v[k]);
  }
}

// x ← x − c·r in the lanes where that is not negative.
JOLT_LANES_INLINE void subtract_where_at_least(Lanes& x, unsigned c) {
  const Limbs5& cr = kMultiples.m[c];
  Lanes d;
  for (int k = 0; k < 5; ++k) d.v[k] = _mm512_sub_epi64(x.v[k], bcast(cr.v[k]));
  normalize(d);
  const __mmask8 keep = _mm512_cmpge_epi64_mask(d.v[4], _mm512_setzero_si512());
  for (int k = 0; k < 5; ++k) x.v[k] = _mm512_mask_blend_epi64(keep, x.v[k], d.v[k]);
}

// x < bound·r (bound ≤ kMaxBound) → x mod r. Up to bound 8, by conditional subtractions from the
// largest c = 2^k below bound (bound ≤ 2c), each halving the bound. Above, by a quotient from the
// top limb in double precision: with x4 = ⌊x/2^208⌋ < 2^52 (exact as a double) and r4 = ⌊r/2^208⌋,
// q = ⌊x4·fl(1/(r4 + 2))⌋ is at most ⌊x/r⌋ — x4/(r4 + 2) ≤ (x/r)·(1 − 1/(r4 + 2)), a margin of
// 2^-45.6 relative against the two roundings' 2^-52 — and at least ⌊x/r⌋ − 1, since
// x/r − x4/(r4 + 2) < (2·x4/(r4 + 2) + 1)/r4 < 2^-37; so x − q·r < 2r, and one conditional
// subtraction is left.
JOLT_LANES_INLINE void reduce(Lanes& x, unsigned bound) {
  normalize(x);
  if (bound < 2) return;
  if (bound > 8) {
    // 2^52 + x4 from the bits of the double 2^52 with x4 in its mantissa; minus 2^52.
    const __m512i two52_bits = bcast(0x4330000000000000ULL);
    const __m512d two52 = _mm512_castsi512_pd(two52_bits);
    const __m512d x4 =
        _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(x.v[4], two52_bits)), two52);
    const __m512d y = _mm512_roundscale_pd(_mm512_mul_pd(x4, _mm512_set1_pd(kTopLimbReciprocal)),
                                           _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __m512i q = _mm512_sub_epi64(_mm512_castpd_si512(_mm512_add_pd(y, two52)), two52_bits);
    const Limbs5& p = kMultiples.m[1];
    const __m512i zero = _mm512_setzero_si512();
    for (int k = 0; k < 5; ++k) {
      x.v[k] = _mm512_sub_epi64(x.v[k], _mm512_madd52lo_epu64(zero, q, bcast(p.v[k])));
      if (k < 4)
        x.v[k + 1] = _mm512_sub_epi64(x.v[k + 1], _mm512_madd52hi_epu64(zero, q, bcast(p.v[k])));
    }
    normalize(x);
    subtract_where_at_least(x, 1);
    return;
  }
  for (unsigned c = std::bit_floor(bound - 1); c >= 1; c /= 2) subtract_where_at_least(x, c);
}

// The multiple of r that bounds hi·w when hi < b·r and w < r: hi·w/2^256 + r < (0.1892·b + 1)·r.
unsigned product_bound(unsigned b) {
  return (19 * b + 99) / 100 + 1;
}

// A thread's scratch of 64-byte aligned words, grown as needed.
struct Scratch {
  std::uint64_t* p = nullptr;
  std::size_t words = 0;
  ~Scratch() { std::free(p); }
  std::uint64_t* get(std::size_t n) {
    if (n > words) {
      std::free(p);
      p = static_cast<std::uint64_t*>(std::aligned_alloc(64, ((n * 8 + 63) / 64) * 64));
      if (!p) throw std::bad_alloc();
      words = n;
    }
    return p;
  }
};
thread_local Scratch scratch;

// Groups whose values are < bound·r reduced below r.
JOLT_LANES_FN void reduce_groups(std::uint64_t* g, std::size_t count, unsigned bound) {
  for (std::size_t i = 0; i < count; ++i) {
    Lanes x = load_group(g + i * kWordsPerGroup);
    reduce(x, bound);
    store_group(g + i * kWordsPerGroup, x);
  }
}

// The multiple of r the next layer adds to the differences (product_bound of the current bound);
// first reduces the groups below r when the layer would take the bound past max_bound.
JOLT_LANES_FN unsigned next_layer_bound(unsigned& bound, std::uint64_t* g, std::size_t groups,
                                        unsigned max_bound) {
  if (bound + product_bound(bound) > max_bound) {
    reduce_groups(g, groups, bound);
    bound = 1;
  }
  const unsigned c = product_bound(bound);
  bound += c;
  return c;
}

bool cpu_has_lanes() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}
// JOLT_IFMA=0 in the environment starts with the portable layers (to profile or compare both).
bool switched_off_by_environment() {
  const char* v = std::getenv("JOLT_IFMA");
  return v && std::string_view(v) == "0";
}
std::atomic<bool> g_enabled{cpu_has_lanes() && !switched_off_by_environment()};

}  // namespace

bool available() {
  static const bool has = cpu_has_lanes();
  return has;
}
bool enabled() {
  return g_enabled.load(std::memory_order_relaxed);
}
void set_enabled(bool on) {
  g_enabled.store(on && cpu_has_lanes(), std::memory_order_relaxed);
}

// Per group of eight twiddles, kTwiddleWords words: the plain values w (five limb vectors), then
// wq = ⌊w·2^260/r⌋ (five more). wq is exact by construction: w·2^260 − ρ with ρ = w·2^260 mod r
// is a multiple of r, and its quotient < 2^260 is its residue times r^-1 modulo 2^260, so
// wq = −ρ·r^-1 mod 2^260; ρ is the Montgomery limbs of 16·w (2^260 = 16·R).
constexpr std::size_t kTwiddleWords = 2 * kWordsPerGroup;

std::vector<std::uint64_t> lane_twiddles(const Fr* small, std::size_t B) {
  std::vector<std::uint64_t> out(B / 8 * kTwiddleWords);
  const Fr sixteen = Fr::from_u64(16);
  for (std::size_t i = 0; i < B; ++i) {
    const auto plain = small[i].to_canonical_limbs();
    const Fr scaled = small[i] * sixteen;
    const std::uint64_t* rho = scaled.mont_limbs();
    const std::uint64_t rho5[5] = {rho[0], rho[1], rho[2], rho[3], 0};
    std::uint64_t prod[5] = {}, wq[5] = {};
    mul_mod_2_320(rho5, kModulusInverse320.v, prod);
    sub_mod_2_320(kZero320, prod, wq);  // −ρ·r^-1 mod 2^320; limbs52 keeps the low 260 bits
    const std::uint64_t w5[5] = {plain[0], plain[1], plain[2], plain[3], 0};
    const Limbs5 wl = limbs52(w5), ql = limbs52(wq);
    std::uint64_t* grp = out.data() + (i / 8) * kTwiddleWords + i % 8;
    for (int k = 0; k < 5; ++k) {
      grp[8 * k] = wl.v[k];
      grp[kWordsPerGroup + 8 * k] = ql.v[k];
    }
  }
  return out;
}

JOLT_LANES_FN void block_layers(Fr* blk, std::size_t B, std::size_t first_len, std::size_t last_len,
                                const std::uint64_t* small_lanes, unsigned max_bound) {
  if (first_len < 16 || last_len < first_len || !std::has_single_bit(first_len) ||
      !std::has_single_bit(last_len) || B % last_len != 0)
    throw std::invalid_argument(
        "basefold lanes: block layers need 16 ≤ first_len ≤ last_len, powers of two, and a "
        "block of whole last_len sub-blocks");
  if (max_bound < 1 + kShoupBound || max_bound > kMaxBound)
    throw std::invalid_argument("basefold lanes: max_bound outside [4, kMaxBound]");
  const std::size_t groups = B / 8;
  std::uint64_t* g = scratch.get(groups * kWordsPerGroup);
  for (std::size_t i = 0; i < groups; ++i) store_group(g + i * kWordsPerGroup, load8(blk + 8 * i));
  unsigned bound = 1;
  for (std::size_t len = first_len; len <= last_len; len <<= 1) {
    // Each layer adds kShoupBound·r to the bound; reduced first when that would pass max_bound.
    if (bound + kShoupBound > max_bound) {
      reduce_groups(g, groups, bound);
      bound = 1;
    }
    bound += kShoupBound;
    const std::size_t hv = len / 16;  // groups per half
    for (std::size_t base = 0; base < groups; base += 2 * hv)
      for (std::size_t j = 0; j < hv; ++j) {
        std::uint64_t* lo_p = g + (base + j) * kWordsPerGroup;
        std::uint64_t* hi_p = g + (base + hv + j) * kWordsPerGroup;
        Lanes lo = load_group(lo_p), hi = load_group(hi_p);
        Lanes w, wq;
        const std::uint64_t* tw = small_lanes + (hv + j) * kTwiddleWords;
        for (int k = 0; k < 5; ++k) {
          w.v[k] = _mm512_loadu_si512(tw + 8 * k);
          wq.v[k] = _mm512_loadu_si512(tw + kWordsPerGroup + 8 * k);
        }
        shoup_butterfly(lo, hi, w, wq);
        store_group(lo_p, lo);
        store_group(hi_p, hi);
      }
  }
  for (std::size_t i = 0; i < groups; ++i) {
    Lanes x = load_group(g + i * kWordsPerGroup);
    reduce(x, bound);
    store8(blk + 8 * i, x);
  }
}

JOLT_LANES_FN void strip_layers(Fr* v, std::size_t M, std::size_t B, std::size_t j0, std::size_t W,
                                const Fr* even, const Fr* low, std::size_t tw_stride,
                                unsigned max_bound) {
  if (W % 8 != 0 || B % W != 0 || j0 % W != 0)
    throw std::invalid_argument("basefold lanes: strips are whole groups of 8 columns");
  if (max_bound < 3 || max_bound > kMaxBound)
    throw std::invalid_argument("basefold lanes: max_bound outside [3, kMaxBound]");
  const std::size_t rows = M / B, gw = W / 8, groups = rows * gw;
  std::uint64_t* g = scratch.get(groups * kWordsPerGroup);
  for (std::size_t c = 0; c < rows; ++c)
    for (std::size_t u = 0; u < gw; ++u)
      store_group(g + (c * gw + u) * kWordsPerGroup, load8(v + c * B + j0 + 8 * u));
  unsigned bound = 1;
  for (std::size_t len = 2 * B; len <= M; len <<= 1) {
    const unsigned c = next_layer_bound(bound, g, groups, max_bound);
    // Twiddle of row r, column j: ω^((r·B + j)·step), an even power unless step is 1. Each is
    // gathered (or formed) once and applied to the rows/len·B butterflies that share it.
    const std::size_t hrows = len / 2 / B, step = (M / len) * tw_stride;
    for (std::size_t r = 0; r < hrows; ++r) {
      Lanes row{};
      if (step == 1) row = load8_strided(even + r * B / 2, 0);  // broadcast
      for (std::size_t u = 0; u < gw; ++u) {
        Lanes w;
        if (step == 1) {
          // row, low < r: the product < 2r, one conditional subtraction.
          w = mont_mul(row, load8(low + j0 + 8 * u));
          subtract_where_at_least(w, 1);
        } else {
          w = load8_strided(even + (r * B + j0 + 8 * u) * (step / 2), step / 2);
        }
        for (std::size_t c0 = 0; c0 < rows; c0 += 2 * hrows) {
          std::uint64_t* lo_p = g + ((c0 + r) * gw + u) * kWordsPerGroup;
          std::uint64_t* hi_p = g + ((c0 + r + hrows) * gw + u) * kWordsPerGroup;
          Lanes lo = load_group(lo_p), hi = load_group(hi_p);
          butterfly(lo, hi, w, c);
          store_group(lo_p, lo);
          store_group(hi_p, hi);
        }
      }
    }
  }
  for (std::size_t c = 0; c < rows; ++c)
    for (std::size_t u = 0; u < gw; ++u) {
      Lanes x = load_group(g + (c * gw + u) * kWordsPerGroup);
      reduce(x, bound);
      store8(v + c * B + j0 + 8 * u, x);
    }
}

// For each chain c < count: x = factor(c, 0)·factor(c, 1)·…·factor(c, k − 1) (Montgomery
// products, each factor < r), then done(c, x) — two chains' products interleaved (mont_mul_n<2>),
// then the odd one alone. A running product x < 2r times a factor < r stays below
// x·r/2^256 + r < 1.38·r: no reduction between the products; x < 2r when done sees it.
template <class Factor, class Done>
JOLT_LANES_INLINE void chained_products(std::size_t count, std::size_t k, const Factor& factor,
                                        const Done& done) {
  std::size_t c = 0;
  for (; c + 2 <= count; c += 2) {
    Lanes x[2] = {factor(c, 0), factor(c + 1, 0)};
    for (std::size_t g = 1; g < k; ++g) {
      const Lanes y[2] = {factor(c, g), factor(c + 1, g)};
      Lanes z[2];
      mont_mul_n<2>(x, y, z);
      x[0] = z[0];
      x[1] = z[1];
    }
    done(c, x[0]);
    done(c + 1, x[1]);
  }
  for (; c < count; ++c) {
    Lanes x = factor(c, 0);
    for (std::size_t g = 1; g < k; ++g) x = mont_mul(x, factor(c, g));
    done(c, x);
  }
}

// out[i] = ∏_{g<k} factor(g, i) for the groups of eight i < n (factor(g, i): the eight factors
// g of entries i…i+7, each < r): one chain per group, reduced below r by one conditional
// subtraction.
template <class Factor>
JOLT_LANES_INLINE void running_products(std::size_t k, Fr* out, std::size_t n,
                                        const Factor& factor) {
  chained_products(
      n / 8, k, [&](std::size_t c, std::size_t g) JOLT_LANES_LAMBDA { return factor(g, 8 * c); },
      [&](std::size_t c, Lanes x) JOLT_LANES_LAMBDA {
        subtract_where_at_least(x, 1);
        store8(out + 8 * c, x);
      });
}

JOLT_LANES_FN void multiply_rows(const Fr* rows, std::size_t row_stride, std::size_t k, Fr* out,
                                 std::size_t n) {
  if (n % 8 != 0 || k == 0)
    throw std::invalid_argument("basefold lanes: multiply_rows needs k ≥ 1 and a multiple of 8");
  running_products(k, out, n, [&](std::size_t g, std::size_t i) JOLT_LANES_LAMBDA {
    return load8(rows + g * row_stride + i);
  });
}

JOLT_LANES_FN Fr dot_arrays(const Fr* a, const Fr* b, std::size_t n) {
  if (n % 8 != 0) throw std::invalid_argument("basefold lanes: dot_arrays needs a multiple of 8");
  Lanes acc{};
  for (int k = 0; k < 5; ++k) acc.v[k] = _mm512_setzero_si512();
  unsigned bound = 0;  // acc < bound·r
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {  // two groups' products interleaved
    const Lanes x[2] = {load8(a + i), load8(a + i + 8)};
    const Lanes y[2] = {load8(b + i), load8(b + i + 8)};
    Lanes z[2];
    mont_mul_n<2>(x, y, z);
    // a, b < r give each product < r·r/2^256 + r < 2r with normalised limbs.
    if (bound + 4 > kMaxBound) {
      reduce(acc, bound);
      bound = 1;
    }
    for (int k = 0; k < 5; ++k)
      acc.v[k] = _mm512_add_epi64(acc.v[k], _mm512_add_epi64(z[0].v[k], z[1].v[k]));
    bound += 4;
  }
  for (; i < n; i += 8) {
    const Lanes x = mont_mul(load8(a + i), load8(b + i));
    if (bound + 2 > kMaxBound) {
      reduce(acc, bound);
      bound = 1;
    }
    for (int k = 0; k < 5; ++k) acc.v[k] = _mm512_add_epi64(acc.v[k], x.v[k]);
    bound += 2;
  }
  reduce(acc, bound);
  alignas(64) Fr lanes8[8];
  store8(lanes8, acc);
  Fr sum;
  for (const Fr& x : lanes8) sum += x;
  return sum;
}

JOLT_LANES_FN void bind_arrays(const Fr* lo, const Fr* hi, const Fr& r, Fr* out, std::size_t n) {
  if (n % 8 != 0) throw std::invalid_argument("basefold lanes: bind_arrays needs a multiple of 8");
  const Lanes rr = load8_strided(&r, 0);  // r in every lane
  const Limbs5& one_r = kMultiples.m[1];
  // hi − lo + r ∈ (0, 2r), normalised; its product with r < 2r·r/2^256 + r < 1.38·r, plus lo
  // < 2.38·r: two conditional subtractions (2r, then r) leave it below r.
  const auto difference = [&](const Lanes& x, const Lanes& y) JOLT_LANES_LAMBDA {
    Lanes d;
    for (int k = 0; k < 5; ++k)
      d.v[k] = _mm512_sub_epi64(_mm512_add_epi64(y.v[k], bcast(one_r.v[k])), x.v[k]);
    normalize(d);
    return d;
  };
  const auto finish = [&](Lanes z, const Lanes& x, Fr* at) JOLT_LANES_LAMBDA {
    for (int k = 0; k < 5; ++k) z.v[k] = _mm512_add_epi64(z.v[k], x.v[k]);
    normalize(z);
    subtract_where_at_least(z, 2);
    subtract_where_at_least(z, 1);
    store8(at, z);
  };
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {  // two groups' products interleaved
    const Lanes x[2] = {load8(lo + i), load8(lo + i + 8)};
    const Lanes d[2] = {difference(x[0], load8(hi + i)), difference(x[1], load8(hi + i + 8))};
    const Lanes w[2] = {rr, rr};
    Lanes z[2];
    mont_mul_n<2>(d, w, z);
    finish(z[0], x[0], out + i);
    finish(z[1], x[1], out + i + 8);
  }
  for (; i < n; i += 8) {
    const Lanes x = load8(lo + i);
    finish(mont_mul(difference(x, load8(hi + i)), rr), x, out + i);
  }
}

JOLT_LANES_FN void mul_arrays(const Fr* a, const Fr* b, Fr* out, std::size_t n) {
  if (n % 8 != 0) throw std::invalid_argument("basefold lanes: mul_arrays needs a multiple of 8");
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const Lanes x[2] = {load8(a + i), load8(a + i + 8)};
    const Lanes y[2] = {load8(b + i), load8(b + i + 8)};
    Lanes z[2];
    mont_mul_n<2>(x, y, z);
    // a, b < r give z < r·r/2^256 + r < 2r: one conditional subtraction.
    for (int s = 0; s < 2; ++s) {
      subtract_where_at_least(z[s], 1);
      store8(out + i + 8 * s, z[s]);
    }
  }
  for (; i < n; i += 8) {
    Lanes x = mont_mul(load8(a + i), load8(b + i));
    subtract_where_at_least(x, 1);
    store8(out + i, x);
  }
}

}  // namespace jolt::prover::basefold::lanes
