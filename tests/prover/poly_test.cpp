// Polynomials: eq tables (serial and parallel paths) vs direct evaluation, eq+1, top binding.
#include <doctest/doctest.h>

#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>
#include <random>

using namespace jolt::prover;

namespace {
Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng() >> 2);
}
std::vector<Fr> bits_of(std::size_t x, std::size_t n) {
  std::vector<Fr> b(n);
  for (std::size_t k = 0; k < n; ++k) b[k] = ((x >> (n - 1 - k)) & 1) ? Fr::one() : Fr::zero();
  return b;
}
}  // namespace

TEST_CASE("EqPolynomial::evals matches evaluate (big-endian), serial and parallel") {
  std::mt19937_64 rng(1);
  for (std::size_t n : {1u, 3u, 6u, 15u}) {
    std::vector<Fr> r(n);
    for (auto& x : r) x = rand_fr(rng);
    auto e = EqPolynomial::evals(r);
    REQUIRE(e.size() == (std::size_t{1} << n));
    for (std::size_t x : {std::size_t{0}, std::size_t{1}, e.size() / 3, e.size() - 1})
      CHECK(e[x] == EqPolynomial::evaluate(r, bits_of(x, n)));
    Fr sum = Fr::zero();
    for (const Fr& v : e) sum += v;
    CHECK(sum == Fr::one());
    // A scale multiplies every entry (the parallel path puts it in the high half's table).
    const Fr s = rand_fr(rng);
    const auto scaled = EqPolynomial::evals(r, s);
    REQUIRE(scaled.size() == e.size());
    bool all = true;
    for (std::size_t x = 0; x < e.size(); ++x) all = all && scaled[x] == s * e[x];
    CHECK(all);
  }
}

TEST_CASE("eq+1 is the shift by one") {
  std::mt19937_64 rng(2);
  const std::size_t n = 5;
  std::vector<Fr> r(n), y(n);
  for (auto& x : r) x = rand_fr(rng);
  for (auto& x : y) x = rand_fr(rng);
  auto tab = EqPlusOnePolynomial::evals(r);
  CHECK(DenseMultilinear::evaluate(tab, y) == EqPlusOnePolynomial::evaluate(r, y));
  for (std::size_t a = 0; a < 32; ++a)
    for (std::size_t b = 0; b < 32; ++b)
      CHECK(EqPlusOnePolynomial::evaluate(bits_of(a, n), bits_of(b, n)) ==
            (b == a + 1 ? Fr::one() : Fr::zero()));
}

TEST_CASE("bind_top fixes the most significant variable") {
  std::mt19937_64 rng(3);
  std::vector<Fr> t(1 << 13);
  for (auto& x : t) x = rand_fr(rng);
  std::vector<Fr> pt(13);
  for (auto& x : pt) x = rand_fr(rng);
  DenseMultilinear p(t);
  for (std::size_t i = 0; i < 13; ++i) p.bind_top(pt[i]);
  CHECK(p[0] == DenseMultilinear::evaluate(t, pt));
  CHECK(p[0] == [&] {
    auto e = EqPolynomial::evals(pt);
    Fr s = Fr::zero();
    for (std::size_t i = 0; i < t.size(); ++i) s += e[i] * t[i];
    return s;
  }());
}

TEST_CASE("UniPoly interpolation") {
  std::vector<Fr> ev = {Fr::from_u64(3), Fr::from_u64(10), Fr::from_i64(-7), Fr::from_u64(99)};
  UniPoly p = UniPoly::from_evals(ev);
  for (std::size_t i = 0; i < ev.size(); ++i) CHECK(p.evaluate(Fr::from_u64(i)) == ev[i]);
  CHECK(p.at_zero_plus_one() == ev[0] + ev[1]);
  // Node counts with a cached interpolation matrix (≤ 16) and beyond it, zero values included:
  // the polynomial of degree < n through every node, and the same one either way (a node count
  // just past the cache against the same values through the cached path's answer).
  std::mt19937_64 rng(41);
  for (std::size_t n : {1u, 2u, 3u, 5u, 9u, 16u, 17u, 20u}) {
    CAPTURE(n);
    std::vector<Fr> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = i % 3 == 1 ? Fr::zero() : Fr::from_u64(rng()) * Fr::from_u64(rng());
    const UniPoly q = UniPoly::from_evals(v);
    REQUIRE(q.coeffs.size() == n);
    for (std::size_t i = 0; i < n; ++i) CHECK(q.evaluate(Fr::from_u64(i)) == v[i]);
    // A point off the nodes, against the Lagrange form computed directly.
    const Fr x = Fr::from_u64(rng());
    Fr want = Fr::zero();
    for (std::size_t i = 0; i < n; ++i) {
      Fr num = Fr::one(), den = Fr::one();
      for (std::size_t j = 0; j < n; ++j)
        if (j != i) {
          num *= x - Fr::from_u64(j);
          den *= Fr::from_i64(static_cast<std::int64_t>(i) - static_cast<std::int64_t>(j));
        }
      want += v[i] * num * den.inverse();
    }
    CHECK(q.evaluate(x) == want);
  }
}
