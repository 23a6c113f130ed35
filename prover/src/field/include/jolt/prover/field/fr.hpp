// Fr: the BN254 scalar field (r ≈ 2^254), Montgomery form on four little-endian 64-bit limbs.
//
//   using jolt::prover::Fr;
//   Fr a = Fr::from_u64(7), b = Fr::from_i64(-3);
//   Fr c = (a * b + Fr::one()).inverse();         // field ops are value types, no allocation
//   std::array<std::uint8_t, 32> bytes = c.to_bytes();   // canonical little-endian
//   std::optional<Fr> back = Fr::from_bytes(bytes);       // nullopt if >= r
//   Fr w = Fr::root_of_unity(10);                  // primitive 2^10-th root of unity
//
// Header-only (no link dependency), so the PCS can use it without libjolt_prover.
// Everything here is a pure function of its arguments (thread-safe, no global state).
// The multiplicative group has 2-adicity 28; root_of_unity(k) is defined for k <= 28 and is
// derived from the generator 5: w_28 = 5^((r-1)/2^28), w_k = w_28^(2^(28-k)).
#pragma once
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <x86intrin.h>
#define JOLT_FR_HAVE_ADX_PATH 1
#endif
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace jolt::prover {

namespace fr_detail {
__extension__ typedef unsigned __int128 u128;

// r, little-endian limbs.
inline constexpr std::uint64_t kModulus[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                              0xb85045b68181585dULL, 0x30644e72e131a029ULL};
// 2r and 3r (the redundant form's bounds: 4r < 2^256).
inline constexpr std::uint64_t kTwiceModulus[4] = {0x87c3eb27e0000002ULL, 0x5067d090f372e122ULL,
                                                   0x70a08b6d0302b0baULL, 0x60c89ce5c2634053ULL};
inline constexpr std::uint64_t kThriceModulus[4] = {0xcba5e0bbd0000003ULL, 0x789bb8d96d2c51b3ULL,
                                                    0x28f0d12384840917ULL, 0x912ceb58a394e07dULL};
// -r^{-1} mod 2^64.
inline constexpr std::uint64_t kInv = 0xc2e1f593efffffffULL;
// r's limbs, then kInv: one base address for the multiply's assembly.
inline constexpr std::uint64_t kModulusAndInv[5] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL,
                                                    0xc2e1f593efffffffULL};
// R = 2^256 mod r (Montgomery one) and R^2 mod r.
inline constexpr std::uint64_t kR[4] = {0xac96341c4ffffffbULL, 0x36fc76959f60cd29ULL,
                                        0x666ea36f7879462eULL, 0x0e0a77c19a07df2fULL};
inline constexpr std::uint64_t kR2[4] = {0x1bb8e645ae216da7ULL, 0x53fe3ab1e35c59e3ULL,
                                         0x8c49833d53bb8085ULL, 0x0216d0b17f4e44a5ULL};
// Montgomery form of the primitive 2^28-th root of unity 5^((r-1)/2^28).
inline constexpr std::uint64_t kRoot28[4] = {0x636e735580d13d9cULL, 0xa22bf3742445ffd6ULL,
                                             0x56452ac01eb203d8ULL, 0x1860ef942963f9e7ULL};
inline constexpr unsigned kTwoAdicity = 28;

#ifdef JOLT_FR_HAVE_ADX_PATH
// True when the CPU has BMI2 (mulx) and ADX (adcx/adox): the multiply then runs the two-carry-
// chain path (Fr::mul_adx). Read from CPUID once during static initialisation; until then it is
// false, which selects the portable path — the two give identical results (tests/prover/
// field_test.cpp checks both against GMP), so the order of initialisation never matters.
inline const bool kHaveAdx = [] {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return false;
  return ((b >> 8) & 1) != 0 && ((b >> 19) & 1) != 0;  // leaf 7 EBX: BMI2 bit 8, ADX bit 19
}();
#endif

// An empty asm that takes the four limbs in general registers: it keeps the compiler from
// moving a masked select into vector registers (a round trip that costs more than the select).
inline void in_register(unsigned long long& a, unsigned long long& b, unsigned long long& c,
                        unsigned long long& d) {
#if defined(__GNUC__) || defined(__clang__)
  asm("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
#else
  (void)a, (void)b, (void)c, (void)d;
#endif
}

// out = a + b + carry_in (mod 2^64); returns the carry out. One adc on x86-64.
inline unsigned char add_carry(unsigned char carry_in, unsigned long long a, unsigned long long b,
                               unsigned long long& out) {
#ifdef JOLT_FR_HAVE_ADX_PATH
  return _addcarry_u64(carry_in, a, b, &out);
#else
  const u128 t = static_cast<u128>(a) + b + carry_in;
  out = static_cast<unsigned long long>(t);
  return static_cast<unsigned char>(t >> 64);
#endif
}
// out = a − b − borrow_in (mod 2^64); returns the borrow out. One sbb on x86-64.
inline unsigned char sub_borrow(unsigned char borrow_in, unsigned long long a, unsigned long long b,
                                unsigned long long& out) {
#ifdef JOLT_FR_HAVE_ADX_PATH
  return _subborrow_u64(borrow_in, a, b, &out);
#else
  const u128 t = static_cast<u128>(a) - b - borrow_in;
  out = static_cast<unsigned long long>(t);
  return static_cast<unsigned char>((t >> 64) & 1);
#endif
}

inline bool geq_modulus(const std::uint64_t* a) {
  for (int i = 3; i >= 0; --i) {
    if (a[i] != kModulus[i]) return a[i] > kModulus[i];
  }
  return true;
}
inline void sub_modulus(std::uint64_t* a) {
  std::uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    u128 d = static_cast<u128>(a[i]) - kModulus[i] - borrow;
    a[i] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
  }
}
}  // namespace fr_detail

class Fr {
 public:
  static constexpr std::size_t kBytes = 32;

  constexpr Fr() : l_{0, 0, 0, 0} {}

  static Fr zero() { return Fr(); }
  static Fr one() { return from_raw_mont(fr_detail::kR); }

  static Fr from_u64(std::uint64_t x) {
    Fr t;
    t.l_[0] = x;
    return t.to_mont();
  }
  static Fr from_i64(std::int64_t x) {
    if (x >= 0) return from_u64(static_cast<std::uint64_t>(x));
    // -(x) as unsigned without overflow for INT64_MIN.
    return -from_u64(static_cast<std::uint64_t>(-(x + 1)) + 1);
  }
  static Fr from_u128(std::uint64_t lo, std::uint64_t hi) {
    Fr t;
    t.l_[0] = lo;
    t.l_[1] = hi;
    return t.to_mont();
  }
  // From four canonical little-endian limbs; nullopt if the value is >= r.
  static std::optional<Fr> from_canonical_limbs(const std::array<std::uint64_t, 4>& c) {
    Fr t;
    for (int i = 0; i < 4; ++i) t.l_[i] = c[i];
    if (fr_detail::geq_modulus(t.l_)) return std::nullopt;
    return t.to_mont();
  }
  // From 32 canonical little-endian bytes; nullopt if the value is >= r.
  static std::optional<Fr> from_bytes(std::span<const std::uint8_t> b) {
    if (b.size() != kBytes) return std::nullopt;
    std::array<std::uint64_t, 4> c{};
    for (std::size_t i = 0; i < kBytes; ++i)
      c[i / 8] |= static_cast<std::uint64_t>(b[i]) << (8 * (i % 8));
    return from_canonical_limbs(c);
  }
  // Reduces 64 little-endian bytes (e.g. a hash output) modulo r: uniform up to 2^-250.
  static Fr from_bytes_wide(std::span<const std::uint8_t, 64> b) {
    std::array<std::uint64_t, 4> lo{}, hi{};
    for (std::size_t i = 0; i < 32; ++i) {
      lo[i / 8] |= static_cast<std::uint64_t>(b[i]) << (8 * (i % 8));
      hi[i / 8] |= static_cast<std::uint64_t>(b[32 + i]) << (8 * (i % 8));
    }
    // value = lo + hi·2^256.
    Fr a, h;
    for (int i = 0; i < 4; ++i) {
      a.l_[i] = lo[i];
      h.l_[i] = hi[i];
    }
    // Reduce both halves below r first (2^256 < 6r): mul_raw requires canonical inputs.
    while (fr_detail::geq_modulus(a.l_)) fr_detail::sub_modulus(a.l_);
    while (fr_detail::geq_modulus(h.l_)) fr_detail::sub_modulus(h.l_);
    // a*R2*R^-1 = a*R: the Montgomery form of a.
    Fr am = a.mul_raw(from_raw_mont(fr_detail::kR2));
    // hi * 2^256 in Montgomery form: mont(hi)*R = hi*R2*R2*R^-1... = mul(mont(hi), mont(R)).
    Fr hm = h.mul_raw(from_raw_mont(fr_detail::kR2));
    // Montgomery form of 2^256 mod r = R is R*R mod r = R2.
    return am + hm * from_raw_mont(fr_detail::kR2);
  }

  std::array<std::uint64_t, 4> to_canonical_limbs() const {
    Fr one_raw;
    one_raw.l_[0] = 1;
    Fr c = mul_raw(one_raw);
    return {c.l_[0], c.l_[1], c.l_[2], c.l_[3]};
  }
  std::array<std::uint8_t, kBytes> to_bytes() const {
    auto c = to_canonical_limbs();
    std::array<std::uint8_t, kBytes> out{};
    for (std::size_t i = 0; i < kBytes; ++i)
      out[i] = static_cast<std::uint8_t>(c[i / 8] >> (8 * (i % 8)));
    return out;
  }
  std::string to_hex() const {
    static const char* d = "0123456789abcdef";
    auto c = to_canonical_limbs();
    std::string s = "0x";
    for (int i = 3; i >= 0; --i)
      for (int j = 60; j >= 0; j -= 4) s.push_back(d[(c[i] >> j) & 0xf]);
    return s;
  }

  bool is_zero() const { return (l_[0] | l_[1] | l_[2] | l_[3]) == 0; }
  friend bool operator==(const Fr& a, const Fr& b) {
    return a.l_[0] == b.l_[0] && a.l_[1] == b.l_[1] && a.l_[2] == b.l_[2] && a.l_[3] == b.l_[3];
  }
  friend bool operator!=(const Fr& a, const Fr& b) { return !(a == b); }

  // Addition and subtraction are branch-free: on random operands the reduction's condition is a
  // coin flip, and a mispredicted branch costs more than the whole addition (bench/prover/
  // field_bench.cpp measures a butterfly on random data).
  friend Fr operator+(const Fr& a, const Fr& b) {
    using W = unsigned long long;
    W s0, s1, s2, s3;
    unsigned char c = fr_detail::add_carry(0, a.l_[0], b.l_[0], s0);
    c = fr_detail::add_carry(c, a.l_[1], b.l_[1], s1);
    c = fr_detail::add_carry(c, a.l_[2], b.l_[2], s2);
    fr_detail::add_carry(c, a.l_[3], b.l_[3], s3);
    // s < 2^255 (both inputs < r < 2^254): no carry out.
    return below_modulus(s0, s1, s2, s3);
  }
  friend Fr operator-(const Fr& a, const Fr& b) {
    using fr_detail::kModulus;
    using W = unsigned long long;
    W d0, d1, d2, d3, r0, r1, r2, r3;
    unsigned char br = fr_detail::sub_borrow(0, a.l_[0], b.l_[0], d0);
    br = fr_detail::sub_borrow(br, a.l_[1], b.l_[1], d1);
    br = fr_detail::sub_borrow(br, a.l_[2], b.l_[2], d2);
    br = fr_detail::sub_borrow(br, a.l_[3], b.l_[3], d3);
    const W mask = W{0} - br;  // a < b: add r back
    unsigned char c = fr_detail::add_carry(0, d0, kModulus[0] & mask, r0);
    c = fr_detail::add_carry(c, d1, kModulus[1] & mask, r1);
    c = fr_detail::add_carry(c, d2, kModulus[2] & mask, r2);
    fr_detail::add_carry(c, d3, kModulus[3] & mask, r3);
    return from_limbs(r0, r1, r2, r3);
  }
  Fr operator-() const { return is_zero() ? *this : Fr() - *this; }
  friend Fr operator*(const Fr& a, const Fr& b) { return a.mul_raw(b); }
  Fr& operator+=(const Fr& b) { return *this = *this + b; }
  Fr& operator-=(const Fr& b) { return *this = *this - b; }
  Fr& operator*=(const Fr& b) { return *this = *this * b; }

  Fr square() const { return mul_raw(*this); }
  Fr dbl() const { return *this + *this; }

  // this^e for a 256-bit exponent given as little-endian limbs: square-and-multiply from e's
  // highest set bit (a 20-bit exponent costs 20 squarings, not 256).
  Fr pow(const std::array<std::uint64_t, 4>& e) const {
    int i = 3;
    while (i >= 0 && e[static_cast<std::size_t>(i)] == 0) --i;
    if (i < 0) return one();
    const std::uint64_t top = e[static_cast<std::size_t>(i)];
    Fr acc = *this;  // the highest set bit
    for (int j = 62 - std::countl_zero(top); j >= 0; --j) {
      acc = acc.square();
      if ((top >> j) & 1) acc = acc * *this;
    }
    for (--i; i >= 0; --i)
      for (int j = 63; j >= 0; --j) {
        acc = acc.square();
        if ((e[static_cast<std::size_t>(i)] >> j) & 1) acc = acc * *this;
      }
    return acc;
  }
  Fr pow(std::uint64_t e) const { return pow({e, 0, 0, 0}); }

  // Multiplicative inverse by Fermat (a^(r-2)); the inverse of zero is zero.
  Fr inverse() const {
    std::array<std::uint64_t, 4> e = {fr_detail::kModulus[0] - 2, fr_detail::kModulus[1],
                                      fr_detail::kModulus[2], fr_detail::kModulus[3]};
    return pow(e);
  }

  // Inverts every nonzero entry in place with one inversion (Montgomery's trick); zeros stay 0.
  static void batch_inverse(std::span<Fr> v) {
    std::vector<Fr> prefix(v.size());
    Fr acc = one();
    for (std::size_t i = 0; i < v.size(); ++i) {
      prefix[i] = acc;
      if (!v[i].is_zero()) acc = acc * v[i];
    }
    Fr inv = acc.inverse();
    for (std::size_t i = v.size(); i-- > 0;) {
      if (v[i].is_zero()) continue;
      Fr vi = v[i];
      v[i] = inv * prefix[i];
      inv = inv * vi;
    }
  }
  // A primitive 2^log_n-th root of unity (log_n <= 28).
  static Fr root_of_unity(unsigned log_n) {
    if (log_n > fr_detail::kTwoAdicity)
      throw std::invalid_argument("Fr::root_of_unity: log_n exceeds the 2-adicity 28");
    Fr w = from_raw_mont(fr_detail::kRoot28);
    for (unsigned i = log_n; i < fr_detail::kTwoAdicity; ++i) w = w.square();
    return w;
  }
  static constexpr unsigned two_adicity() { return fr_detail::kTwoAdicity; }

  // Raw Montgomery limbs (for hashing/serialization fast paths; not canonical).
  const std::uint64_t* mont_limbs() const { return l_; }

  // ---- The redundant form of the scalar NTT layers (pcs/basefold.cpp) ----
  // An Fr returned by butterfly_redundant or redundant() may hold limbs in [r, 4r) (4r < 2^256):
  // it stands for its limbs mod r, and only the functions of this block accept it — every other
  // operation, == included, needs reduced() first. Harvey's butterflies keep their values there,
  // so a run of layers adds and subtracts without reducing and multiplies without the product's
  // final subtraction, and reduces once in its last layer (butterfly_reducing).
  //
  // (lo, hi) ← (lo + hi·w, lo − hi·w): lo, hi below 4r, w below r; the results below 4r.
  // lo is brought below 2r (one conditional subtraction of 2r); the Montgomery product of
  // hi < 4r and w < r is below hi·w/2^256 + r < 4r·r/2^256 + r < 2r (r/2^256 < 0.19) without
  // its final subtraction; so lo + t < 4r and lo + 2r − t lies in (0, 4r).
  static void butterfly_redundant(Fr& lo, Fr& hi, const Fr& w) {
    const Fr t = hi.mul_raw_unreduced(w);
    const Fr x = lo.below(fr_detail::kTwiceModulus);
    lo = add_raw(x, t);
    hi = add_raw(x, from_raw_mont(fr_detail::kTwiceModulus)).sub_raw(t);
  }
  // The butterfly with w = 1: both inputs brought below 2r.
  static void butterfly_redundant(Fr& lo, Fr& hi) {
    const Fr t = hi.below(fr_detail::kTwiceModulus);
    const Fr x = lo.below(fr_detail::kTwiceModulus);
    lo = add_raw(x, t);
    hi = add_raw(x, from_raw_mont(fr_detail::kTwiceModulus)).sub_raw(t);
  }
  // The same butterflies from redundant inputs to results below r (the last layer of a run).
  // The product of hi < 4r and w < r is below 2r before its final subtraction (above), which
  // brings it below r.
  static void butterfly_reducing(Fr& lo, Fr& hi, const Fr& w) {
    const Fr t = hi.mul_raw(w);
    const Fr x = lo.reduced();
    lo = x + t;
    hi = x - t;
  }
  static void butterfly_reducing(Fr& lo, Fr& hi) {
    const Fr t = hi.reduced();
    const Fr x = lo.reduced();
    lo = x + t;
    hi = x - t;
  }
  // The element below r that a redundant value stands for.
  Fr reduced() const { return below(fr_detail::kTwiceModulus).below(fr_detail::kModulus); }
  // The redundant representative of x with limbs x + k·r (k ≤ 3), for tests of the functions
  // above at the edges of their range.
  static Fr redundant(const Fr& x, unsigned k) {
    if (k > 3) throw std::invalid_argument("Fr::redundant: k = " + std::to_string(k) + " > 3");
    static constexpr const std::uint64_t* kMultiple[4] = {
        nullptr, fr_detail::kModulus, fr_detail::kTwiceModulus, fr_detail::kThriceModulus};
    return k == 0 ? x : add_raw(x, from_raw_mont(kMultiple[k]));
  }

  // Products with small integers (witness columns stored as u8/u32/u64) at one Montgomery
  // product each, where a * from_u64(v) costs two. The Montgomery product of a (limbs a·R) and
  // the raw integer v (limbs v) is the plain value a·v:
  //  - sum_small(a, v, n) = Σ a[i]·v[i]: the plain products are added and converted once;
  //  - scaled_for_small() = this·R in Montgomery form, so mul_small(a.scaled_for_small(), v)
  //    = a·v (the pre-scaled weight of a coefficient used many times).
  template <class Int>
  static Fr sum_small(const Fr* a, const Int* v, std::size_t n) {
    SmallProductSum acc;
    for (std::size_t i = 0; i < n; ++i) acc.add_product(a[i], static_cast<std::uint64_t>(v[i]));
    return acc.value();
  }

  // Σ ±a_i·v_i for field elements a_i and 64-bit integers v_i with one reduction, in value():
  // each term is four plain 64×64 products added into a 384-bit sum (the Montgomery limbs a·R
  // times v; subtracted terms in a second sum), where a·from_u64(v) is two Montgomery products
  // and mul_small one. Exact for up to 2^64 terms of each sign; add() joins two sums.
  class SmallProductSum {
   public:
    void add_product(const Fr& a, std::uint64_t v) { accumulate(plus_, a, v); }
    void subtract_product(const Fr& a, std::uint64_t v) { accumulate(minus_, a, v); }
    void add(const SmallProductSum& o) {
      join(plus_, o.plus_);
      join(minus_, o.minus_);
    }
    Fr value() const { return reduce(plus_) - reduce(minus_); }

   private:
    using Wide = std::array<std::uint64_t, 6>;
    static void accumulate(Wide& acc, const Fr& a, std::uint64_t v) {
      fr_detail::u128 carry = 0;
      for (int i = 0; i < 4; ++i) {
        const fr_detail::u128 t = static_cast<fr_detail::u128>(a.l_[i]) * v + acc[i] + carry;
        acc[i] = static_cast<std::uint64_t>(t);
        carry = t >> 64;
      }
      const fr_detail::u128 t = static_cast<fr_detail::u128>(acc[4]) + carry;
      acc[4] = static_cast<std::uint64_t>(t);
      acc[5] += static_cast<std::uint64_t>(t >> 64);
    }
    static void join(Wide& acc, const Wide& o) {
      fr_detail::u128 carry = 0;
      for (int i = 0; i < 6; ++i) {
        const fr_detail::u128 t = static_cast<fr_detail::u128>(acc[i]) + o[i] + carry;
        acc[i] = static_cast<std::uint64_t>(t);
        carry = t >> 64;
      }
    }
    // The element whose Montgomery limbs are w mod r: w = w0 + 2^256·w1 (w0 < 2^256, w1 <
    // 2^128), and 2^256 = R, so it is raw(w0 mod r) + w1.
    static Fr reduce(const Wide& w) {
      Fr lo;
      for (int i = 0; i < 4; ++i) lo.l_[i] = w[i];
      while (fr_detail::geq_modulus(lo.l_)) fr_detail::sub_modulus(lo.l_);
      if ((w[4] | w[5]) == 0) return lo;
      return lo + from_u128(w[4], w[5]);
    }
    Wide plus_{}, minus_{};
  };
  Fr scaled_for_small() const { return to_mont(); }
  static Fr mul_small(const Fr& scaled, std::uint64_t v) {
    Fr x;
    x.l_[0] = v;
    return scaled.mul_raw(x);
  }

 private:
  // The element s mod r for s = s0 + 2^64·s1 + … < 2r: d = s − r by one sbb chain, s kept when
  // that borrows, selected by masks (branch-free). The limbs stay in general registers: GCC
  // compiles the same chain written with 128-bit differences through stack slots, which cost
  // the adx multiply a third of its time (bench/prover/field_bench.cpp).
  static Fr below_modulus(unsigned long long s0, unsigned long long s1, unsigned long long s2,
                          unsigned long long s3) {
    return below_multiple(s0, s1, s2, s3, fr_detail::kModulus);
  }
  // s − m when s ≥ m, else s (m: the limbs of r or 2r), by the chain above.
  static Fr below_multiple(unsigned long long s0, unsigned long long s1, unsigned long long s2,
                           unsigned long long s3, const std::uint64_t* m) {
    using W = unsigned long long;
    W d0, d1, d2, d3;
    unsigned char br = fr_detail::sub_borrow(0, s0, m[0], d0);
    br = fr_detail::sub_borrow(br, s1, m[1], d1);
    br = fr_detail::sub_borrow(br, s2, m[2], d2);
    br = fr_detail::sub_borrow(br, s3, m[3], d3);
    const W keep = W{0} - br;
    W r0 = (s0 & keep) | (d0 & ~keep), r1 = (s1 & keep) | (d1 & ~keep),
      r2 = (s2 & keep) | (d2 & ~keep), r3 = (s3 & keep) | (d3 & ~keep);
    fr_detail::in_register(r0, r1, r2, r3);
    return from_limbs(r0, r1, r2, r3);
  }
  Fr below(const std::uint64_t* m) const { return below_multiple(l_[0], l_[1], l_[2], l_[3], m); }
  // a + b and this − b on the limbs, modulo 2^256 (the redundant form's sums stay below 2^256
  // and its differences non-negative).
  static Fr add_raw(const Fr& a, const Fr& b) {
    unsigned long long s0, s1, s2, s3;
    unsigned char c = fr_detail::add_carry(0, a.l_[0], b.l_[0], s0);
    c = fr_detail::add_carry(c, a.l_[1], b.l_[1], s1);
    c = fr_detail::add_carry(c, a.l_[2], b.l_[2], s2);
    fr_detail::add_carry(c, a.l_[3], b.l_[3], s3);
    return from_limbs(s0, s1, s2, s3);
  }
  Fr sub_raw(const Fr& b) const {
    unsigned long long d0, d1, d2, d3;
    unsigned char br = fr_detail::sub_borrow(0, l_[0], b.l_[0], d0);
    br = fr_detail::sub_borrow(br, l_[1], b.l_[1], d1);
    br = fr_detail::sub_borrow(br, l_[2], b.l_[2], d2);
    fr_detail::sub_borrow(br, l_[3], b.l_[3], d3);
    return from_limbs(d0, d1, d2, d3);
  }
  // The element whose Montgomery limbs are r0..r3 (little-endian; below r).
  static Fr from_limbs(unsigned long long r0, unsigned long long r1, unsigned long long r2,
                       unsigned long long r3) {
    Fr r;
    r.l_[0] = r0;
    r.l_[1] = r1;
    r.l_[2] = r2;
    r.l_[3] = r3;
    return r;
  }
  static Fr from_raw_mont(const std::uint64_t* m) {
    Fr t;
    for (int i = 0; i < 4; ++i) t.l_[i] = m[i];
    return t;
  }
  Fr to_mont() const { return mul_raw(from_raw_mont(fr_detail::kR2)); }

  // The Montgomery product a·b·R^-1 mod r by the path this CPU runs fastest (mul_adx when
  // fr_detail::kHaveAdx, else mul_portable). Both paths also take a left operand a < 4r (the
  // redundant form) with b < r: their running value stays below a + r < 5r < 2^256, and the
  // product before the final subtraction below a·b/R + r < 2r.
  Fr mul_raw(const Fr& b) const {
#ifdef JOLT_FR_HAVE_ADX_PATH
    if (fr_detail::kHaveAdx) return mul_adx(b);
#endif
    return mul_portable(b);
  }
  // The same product before its final subtraction: below a·b/R + r.
  Fr mul_raw_unreduced(const Fr& b) const {
#ifdef JOLT_FR_HAVE_ADX_PATH
    if (fr_detail::kHaveAdx) return mul_adx_unreduced(b);
#endif
    return mul_portable_unreduced(b);
  }

 public:
  // Both multiply paths, for tests and benchmarks (operator* picks one; the results are equal).
  static Fr mul_portable(const Fr& a, const Fr& b) {
    return a.mul_portable(b);
  }
#ifdef JOLT_FR_HAVE_ADX_PATH
  // Requires BMI2 and ADX (fr_detail::kHaveAdx); otherwise the CPU raises an illegal instruction.
  static Fr mul_adx(const Fr& a, const Fr& b) {
    return a.mul_adx(b);
  }
#endif

 private:
#ifdef JOLT_FR_HAVE_ADX_PATH
  // CIOS as mul_portable, each of the four outer steps one asm block: t += a·b_i with mulx and
  // two independent carry chains (adcx: low words, adox: high words), then t += m·r with
  // m = t_0·(−r^-1) mod 2^64, and the limbs shift down by one; the result, below 2r, is brought
  // below r by below_modulus.
  Fr mul_adx(const Fr& b) const {
    const Fr t = mul_adx_unreduced(b);
    return below_modulus(t.l_[0], t.l_[1], t.l_[2], t.l_[3]);
  }
  Fr mul_adx_unreduced(const Fr& b) const {
    std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4, lo, hi;
    for (int i = 0; i < 4; ++i) {
      // Memory operands go through two base registers (a's limbs, then r's limbs and −r^-1):
      // one "m" operand each would cost clang an address register apiece, more than x86-64 has.
      asm("xorl %k[t4], %k[t4]\n\t"
          "movq %[bi], %%rdx\n\t"
          "mulxq 0(%[a]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t0]\n\t"
          "adoxq %[hi], %[t1]\n\t"
          "mulxq 8(%[a]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t1]\n\t"
          "adoxq %[hi], %[t2]\n\t"
          "mulxq 16(%[a]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t2]\n\t"
          "adoxq %[hi], %[t3]\n\t"
          "mulxq 24(%[a]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t3]\n\t"
          "adoxq %[hi], %[t4]\n\t"
          "movl $0, %k[lo]\n\t"
          "adcxq %[lo], %[t4]\n\t"
          "movq %[t0], %%rdx\n\t"
          "imulq 32(%[p]), %%rdx\n\t"
          "xorl %k[hi], %k[hi]\n\t"
          "mulxq 0(%[p]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t0]\n\t"
          "adoxq %[hi], %[t1]\n\t"
          "mulxq 8(%[p]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t1]\n\t"
          "adoxq %[hi], %[t2]\n\t"
          "mulxq 16(%[p]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t2]\n\t"
          "adoxq %[hi], %[t3]\n\t"
          "mulxq 24(%[p]), %[lo], %[hi]\n\t"
          "adcxq %[lo], %[t3]\n\t"
          "adoxq %[hi], %[t4]\n\t"
          "movl $0, %k[lo]\n\t"
          "adcxq %[lo], %[t4]\n\t"
          : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "=&r"(t4),
            [lo] "=&r"(lo), [hi] "=&r"(hi)
          : [bi] "r"(b.l_[i]), [a] "r"(l_), [p] "r"(fr_detail::kModulusAndInv)
          : "rdx", "cc", "memory");
      t0 = t1;
      t1 = t2;
      t2 = t3;
      t3 = t4;
    }
    return from_limbs(t0, t1, t2, t3);
  }
#endif

  // Montgomery product a*b*R^-1 mod r: CIOS with the "no-carry" shortcut — the running value
  // stays below a + r < 2^256 (a < 4r), so it never needs a fifth limb.
  Fr mul_portable(const Fr& b) const {
    Fr r = mul_portable_unreduced(b);
    if (fr_detail::geq_modulus(r.l_)) fr_detail::sub_modulus(r.l_);
    return r;
  }
  Fr mul_portable_unreduced(const Fr& b) const {
    using fr_detail::kInv;
    using fr_detail::kModulus;
    using fr_detail::u128;
    std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    const std::uint64_t a0 = l_[0], a1 = l_[1], a2 = l_[2], a3 = l_[3];
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t bi = b.l_[i];
      u128 x = static_cast<u128>(a0) * bi + t0;
      std::uint64_t A = static_cast<std::uint64_t>(x >> 64);
      t0 = static_cast<std::uint64_t>(x);
      const std::uint64_t m = t0 * kInv;
      u128 y = static_cast<u128>(m) * kModulus[0] + t0;
      std::uint64_t C = static_cast<std::uint64_t>(y >> 64);
      x = static_cast<u128>(a1) * bi + t1 + A;
      A = static_cast<std::uint64_t>(x >> 64);
      y = static_cast<u128>(m) * kModulus[1] + static_cast<std::uint64_t>(x) + C;
      C = static_cast<std::uint64_t>(y >> 64);
      t0 = static_cast<std::uint64_t>(y);
      x = static_cast<u128>(a2) * bi + t2 + A;
      A = static_cast<std::uint64_t>(x >> 64);
      y = static_cast<u128>(m) * kModulus[2] + static_cast<std::uint64_t>(x) + C;
      C = static_cast<std::uint64_t>(y >> 64);
      t1 = static_cast<std::uint64_t>(y);
      x = static_cast<u128>(a3) * bi + t3 + A;
      A = static_cast<std::uint64_t>(x >> 64);
      y = static_cast<u128>(m) * kModulus[3] + static_cast<std::uint64_t>(x) + C;
      C = static_cast<std::uint64_t>(y >> 64);
      t2 = static_cast<std::uint64_t>(y);
      t3 = C + A;
    }
    Fr r;
    r.l_[0] = t0;
    r.l_[1] = t1;
    r.l_[2] = t2;
    r.l_[3] = t3;
    return r;
  }

  std::uint64_t l_[4];
};

}  // namespace jolt::prover
