// Fr against GMP on random values: every operation, byte round trips, roots of unity.
#include <doctest/doctest.h>
#include <gmp.h>

#include <jolt/prover/field/fr.hpp>
#include <random>
#include <string>
#include <vector>

using jolt::prover::Fr;

namespace {

struct Mpz {
  mpz_t v;
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

const char* kModulusDec =
    "21888242871839275222246405745257275088548364400416034343698204186575808495617";

void to_mpz(const Fr& a, mpz_t out) {
  auto b = a.to_bytes();
  mpz_import(out, b.size(), -1, 1, 0, 0, b.data());
}

Fr random_fr(std::mt19937_64& rng) {
  for (;;) {
    std::array<std::uint64_t, 4> c = {rng(), rng(), rng(), rng() >> 2};
    if (auto f = Fr::from_canonical_limbs(c)) return *f;
  }
}

bool same(const Fr& a, const mpz_t b) {
  Mpz x;
  to_mpz(a, x.v);
  return mpz_cmp(x.v, b) == 0;
}

}  // namespace

TEST_CASE("Fr matches GMP on random values") {
  Mpz p;
  mpz_set_str(p.v, kModulusDec, 10);
  std::mt19937_64 rng(42);
  for (int it = 0; it < 2000; ++it) {
    Fr a = random_fr(rng), b = random_fr(rng);
    if (it == 0) a = Fr::zero();
    if (it == 1) b = -Fr::one();
    Mpz ma, mb, r;
    to_mpz(a, ma.v);
    to_mpz(b, mb.v);
    mpz_add(r.v, ma.v, mb.v);
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(a + b, r.v));
    mpz_sub(r.v, ma.v, mb.v);
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(a - b, r.v));
    mpz_mul(r.v, ma.v, mb.v);
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(a * b, r.v));
    mpz_mul(r.v, ma.v, ma.v);
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(a.square(), r.v));
    mpz_neg(r.v, ma.v);
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(-a, r.v));
    if (!a.is_zero()) {
      mpz_invert(r.v, ma.v, p.v);
      CHECK(same(a.inverse(), r.v));
      CHECK(a * a.inverse() == Fr::one());
    }
  }
}

// pow starts at the exponent's highest set bit: exponents of every length from 0 to 256 bits,
// against GMP's powm, and the edge cases 0, 1 and a zero base.
TEST_CASE("Fr pow matches GMP for exponents of every length") {
  Mpz p;
  mpz_set_str(p.v, kModulusDec, 10);
  std::mt19937_64 rng(43);
  for (int bits = 0; bits <= 256; ++bits) {
    CAPTURE(bits);
    std::array<std::uint64_t, 4> e{};
    for (int i = 0; i < bits; ++i) {
      const bool top = i == bits - 1;  // the highest bit set, the others random
      if (top || (rng() & 1) != 0) e[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    const Fr a = random_fr(rng);
    Mpz ma, me, r;
    to_mpz(a, ma.v);
    mpz_set_ui(me.v, 0);
    for (int i = 3; i >= 0; --i) {
      mpz_mul_2exp(me.v, me.v, 64);
      Mpz limb;
      mpz_import(limb.v, 1, 1, sizeof(std::uint64_t), 0, 0, &e[static_cast<std::size_t>(i)]);
      mpz_add(me.v, me.v, limb.v);
    }
    mpz_powm(r.v, ma.v, me.v, p.v);
    CHECK(same(a.pow(e), r.v));
    if (bits <= 64) CHECK(a.pow(e[0]) == a.pow(e));
  }
  const Fr a = random_fr(rng);
  CHECK(a.pow(0) == Fr::one());
  CHECK(Fr::zero().pow(0) == Fr::one());
  CHECK(a.pow(1) == a);
  CHECK(Fr::zero().pow(5) == Fr::zero());
  CHECK(a.pow(5) == a * a * a * a * a);
}

TEST_CASE("Fr conversions from integers and bytes") {
  Mpz p, r;
  mpz_set_str(p.v, kModulusDec, 10);
  std::mt19937_64 rng(7);
  for (int it = 0; it < 500; ++it) {
    std::uint64_t u = rng();
    std::int64_t s = static_cast<std::int64_t>(rng());
    mpz_set_ui(r.v, u);
    CHECK(same(Fr::from_u64(u), r.v));
    mpz_set_si(r.v, s);
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(Fr::from_i64(s), r.v));
    std::uint64_t lo = rng(), hi = rng();
    mpz_set_ui(r.v, hi);
    mpz_mul_2exp(r.v, r.v, 64);
    mpz_add_ui(r.v, r.v, lo);
    CHECK(same(Fr::from_u128(lo, hi), r.v));
    Fr a = random_fr(rng);
    auto bytes = a.to_bytes();
    auto back = Fr::from_bytes(bytes);
    REQUIRE(back.has_value());
    CHECK(*back == a);
    std::array<std::uint8_t, 64> wide{};
    for (auto& x : wide) x = static_cast<std::uint8_t>(rng());
    mpz_import(r.v, 64, -1, 1, 0, 0, wide.data());
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(Fr::from_bytes_wide(wide), r.v));
  }
  CHECK(Fr::from_i64(INT64_MIN) == -Fr::from_u128(0x8000000000000000ULL, 0));
  {
    std::array<std::uint8_t, 64> wide;
    wide.fill(0xff);  // 2^512 − 1: both halves exceed r
    mpz_import(r.v, 64, -1, 1, 0, 0, wide.data());
    mpz_mod(r.v, r.v, p.v);
    CHECK(same(Fr::from_bytes_wide(wide), r.v));
  }
  // r itself and all-ones are not canonical encodings.
  std::array<std::uint8_t, 32> ones;
  ones.fill(0xff);
  CHECK_FALSE(Fr::from_bytes(ones).has_value());
  auto pbytes = (Fr::zero() - Fr::one()).to_bytes();
  pbytes[0] += 1;  // r - 1 + 1 = r (low byte of r-1 is 0x00)
  CHECK_FALSE(Fr::from_bytes(pbytes).has_value());
  CHECK_FALSE(Fr::from_bytes(std::span<const std::uint8_t>(ones.data(), 31)).has_value());
}

TEST_CASE("Fr batch inverse and roots of unity") {
  std::mt19937_64 rng(9);
  std::vector<Fr> v(37);
  for (auto& x : v) x = random_fr(rng);
  v[5] = Fr::zero();
  auto w = v;
  Fr::batch_inverse(w);
  for (std::size_t i = 0; i < v.size(); ++i) CHECK(w[i] == v[i].inverse());
  for (unsigned k = 0; k <= 28; ++k) {
    Fr g = Fr::root_of_unity(k);
    Fr x = g;
    for (unsigned i = 0; i < k; ++i) x = x.square();
    CHECK(x == Fr::one());
    if (k > 0) {
      Fr h = g;
      for (unsigned i = 0; i + 1 < k; ++i) h = h.square();
      CHECK(h == -Fr::one());  // primitive: g^(2^(k-1)) = -1
    }
  }
  CHECK_THROWS(Fr::root_of_unity(29));
}

namespace {
// The raw Montgomery limbs of a as an integer.
void raw_to_mpz(const Fr& a, mpz_t out) {
  mpz_import(out, 4, -1, 8, 0, 0, a.mont_limbs());
}
// Whether this CPU runs Fr's mulx/adcx/adox multiply (Fr::mul_adx may be called).
bool have_adx() {
#ifdef JOLT_FR_HAVE_ADX_PATH
  return jolt::prover::fr_detail::kHaveAdx;
#else
  return false;
#endif
}
}  // namespace

TEST_CASE("both multiply paths give a·b·2^-256 mod r on the raw limbs (GMP)") {
  Mpz p, rinv, ma, mb, want, got;
  mpz_set_str(p.v, kModulusDec, 10);
  mpz_set_ui(rinv.v, 1);
  mpz_mul_2exp(rinv.v, rinv.v, 256);
  REQUIRE(mpz_invert(rinv.v, rinv.v, p.v) != 0);
  std::mt19937_64 rng(7);
  std::vector<Fr> edge = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2)};
  // Raw limbs 1 and r − 1: the values R^-1 and −R^-1 (R = 2^256).
  const Fr r_inv = Fr::from_u64(2).pow(256).inverse();
  edge.push_back(r_inv);
  edge.push_back(-r_inv);
  CHECK(r_inv.mont_limbs()[0] == 1);
  const bool adx = have_adx();
  const std::string path = adx ? "ADX path tested" : "ADX path not available on this CPU";
  MESSAGE(path);
  for (int it = 0; it < 20000; ++it) {
    const Fr a = it < 25 ? edge[static_cast<std::size_t>(it) % edge.size()] : random_fr(rng);
    const Fr b =
        it < 25 ? edge[static_cast<std::size_t>(it) / edge.size() % edge.size()] : random_fr(rng);
    raw_to_mpz(a, ma.v);
    raw_to_mpz(b, mb.v);
    mpz_mul(want.v, ma.v, mb.v);
    mpz_mul(want.v, want.v, rinv.v);
    mpz_mod(want.v, want.v, p.v);
    raw_to_mpz(Fr::mul_portable(a, b), got.v);
    const bool portable_ok = mpz_cmp(got.v, want.v) == 0;
    REQUIRE(portable_ok);
#ifdef JOLT_FR_HAVE_ADX_PATH
    if (adx) {
      raw_to_mpz(Fr::mul_adx(a, b), got.v);
      const bool adx_ok = mpz_cmp(got.v, want.v) == 0;
      REQUIRE(adx_ok);
    }
#endif
  }
}

TEST_CASE("products with small integers equal products with their field elements") {
  std::mt19937_64 rng(77);
  const std::vector<std::uint64_t> edge = {
      0, 1, 255, 256, 0xffffffffu, 0x100000000u, ~std::uint64_t{0}};
  std::vector<Fr> a(64);
  std::vector<std::uint64_t> v(64);
  for (int it = 0; it < 200; ++it) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = i == 0 ? -Fr::one() : random_fr(rng);
      v[i] = i < edge.size() ? edge[(i + static_cast<std::size_t>(it)) % edge.size()] : rng();
    }
    Fr want = Fr::zero();
    for (std::size_t i = 0; i < a.size(); ++i) {
      want += a[i] * Fr::from_u64(v[i]);
      CHECK(Fr::mul_small(a[i].scaled_for_small(), v[i]) == a[i] * Fr::from_u64(v[i]));
    }
    CHECK(Fr::sum_small(a.data(), v.data(), a.size()) == want);
    std::vector<std::uint8_t> bytes(v.size());
    Fr want8 = Fr::zero();
    for (std::size_t i = 0; i < v.size(); ++i) {
      bytes[i] = static_cast<std::uint8_t>(v[i]);
      want8 += a[i] * Fr::from_u64(bytes[i]);
    }
    CHECK(Fr::sum_small(a.data(), bytes.data(), a.size()) == want8);
  }
}

// SmallProductSum adds and subtracts a·v without reducing each term: its value must equal the
// field sum however the terms are split between sums and joined, with the largest limbs (a = −1,
// v = 2^64 − 1) many times over, so the 384-bit sums carry into their top limbs.
TEST_CASE("SmallProductSum equals the field sum of ±a·v, split and joined") {
  std::mt19937_64 rng(78);
  for (const bool extreme : {false, true}) {
    CAPTURE(extreme);
    const std::size_t n = extreme ? 70000 : 3000;
    Fr want = Fr::zero();
    Fr::SmallProductSum whole, left, right;
    for (std::size_t i = 0; i < n; ++i) {
      const Fr a = extreme ? -Fr::one() : random_fr(rng);
      const std::uint64_t v = extreme ? ~std::uint64_t{0} - (i % 3) : rng() >> (i % 64);
      const bool minus = extreme ? i % 5 == 0 : (rng() & 1) != 0;
      const Fr term = a * Fr::from_u64(v);
      want = minus ? want - term : want + term;
      Fr::SmallProductSum& part = i % 2 == 0 ? left : right;
      if (minus) {
        whole.subtract_product(a, v);
        part.subtract_product(a, v);
      } else {
        whole.add_product(a, v);
        part.add_product(a, v);
      }
    }
    CHECK(whole.value() == want);
    left.add(right);
    CHECK(left.value() == want);
  }
  CHECK(Fr::SmallProductSum{}.value() == Fr::zero());
}

// The redundant form (limbs below 4r standing for their value mod r) at the edges of its range:
// x + k·r for x in {0, 1, r − 1, random} and k ≤ 3, so limbs up to 4r − 1. Each butterfly's
// results must stand for lo ± hi·w and stay below 4r (redundant) or equal the field results
// (reducing); both multiply paths must take a redundant left operand.
TEST_CASE("redundant butterflies stay below 4r and stand for lo ± hi·w (GMP)") {
  Mpz p, four_p, got, want;
  mpz_set_str(p.v, kModulusDec, 10);
  mpz_mul_ui(four_p.v, p.v, 4);
  std::mt19937_64 rng(79);
  // Limbs below 4r that stand for the Montgomery limbs of `value`.
  auto stands_for = [&](const Fr& x, const Fr& value) {
    raw_to_mpz(x, got.v);
    raw_to_mpz(value, want.v);
    const bool below = mpz_cmp(got.v, four_p.v) < 0;
    mpz_sub(got.v, got.v, want.v);
    return below && mpz_divisible_p(got.v, p.v) != 0;
  };
  [[maybe_unused]] const bool adx = have_adx();
  const std::vector<Fr> edge = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2).pow(255)};
  for (int it = 0; it < 4000; ++it) {
    const Fr x = it < 64 ? edge[static_cast<std::size_t>(it) % 4] : random_fr(rng);
    const Fr y = it < 64 ? edge[static_cast<std::size_t>(it) / 4 % 4] : random_fr(rng);
    const Fr w = it < 16 ? -Fr::one() : random_fr(rng);
    const unsigned kx = it < 64 ? static_cast<unsigned>(it / 16) : static_cast<unsigned>(rng() % 4);
    const unsigned ky =
        it < 64 ? 3 - static_cast<unsigned>(it / 16) : static_cast<unsigned>(rng() % 4);
    const Fr lo = Fr::redundant(x, kx), hi = Fr::redundant(y, ky);
    CAPTURE(it);
    REQUIRE(stands_for(lo, x));
    REQUIRE(stands_for(hi, y));
    CHECK(lo.reduced() == x);
    CHECK(Fr::mul_portable(hi, w) == y * w);
#ifdef JOLT_FR_HAVE_ADX_PATH
    if (adx) CHECK(Fr::mul_adx(hi, w) == y * w);
#endif
    Fr a = lo, b = hi;
    Fr::butterfly_redundant(a, b, w);
    CHECK(stands_for(a, x + y * w));
    CHECK(stands_for(b, x - y * w));
    a = lo, b = hi;
    Fr::butterfly_redundant(a, b);
    CHECK(stands_for(a, x + y));
    CHECK(stands_for(b, x - y));
    a = lo, b = hi;
    Fr::butterfly_reducing(a, b, w);
    CHECK(a == x + y * w);
    CHECK(b == x - y * w);
    a = lo, b = hi;
    Fr::butterfly_reducing(a, b);
    CHECK(a == x + y);
    CHECK(b == x - y);
  }
  CHECK_THROWS(Fr::redundant(Fr::one(), 4));
}
