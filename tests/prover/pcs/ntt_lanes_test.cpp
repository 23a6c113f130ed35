// The encoder's AVX-512 IFMA butterfly layers (prover/src/pcs/ntt_lanes.hpp) against plain Fr
// arithmetic: block and strip layers on random and on all-(r−1) inputs, with the reduction between
// layers forced by a small bound, and whole encodings with the lanes on and off.
#include <doctest/doctest.h>

#include <algorithm>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <random>
#include <vector>

#include "ntt_lanes.hpp"
#include "test_util.hpp"

using jolt::prover::Fr;
namespace bf = jolt::prover::basefold;
namespace lanes = jolt::prover::basefold::lanes;

namespace {

// Restores the lanes' switch at scope exit.
struct LanesSwitch {
  bool was = lanes::enabled();
  ~LanesSwitch() { lanes::set_enabled(was); }
};

// small[len/2 + j] = ω_len^j for len ≤ B.
std::vector<Fr> small_twiddles(std::size_t B) {
  std::vector<Fr> small(B);
  for (std::size_t len = 2; len <= B; len <<= 1) {
    const Fr w = Fr::root_of_unity(static_cast<unsigned>(std::countr_zero(len)));
    Fr x = Fr::one();
    for (std::size_t j = 0; j < len / 2; ++j, x *= w) small[len / 2 + j] = x;
  }
  return small;
}

void scalar_block_layers(std::vector<Fr>& blk, std::size_t first_len, std::size_t last_len,
                         const std::vector<Fr>& small) {
  const std::size_t B = blk.size();
  for (std::size_t len = first_len; len <= last_len; len <<= 1)
    for (std::size_t base = 0; base < B; base += len)
      for (std::size_t j = 0; j < len / 2; ++j) {
        const Fr t = blk[base + len / 2 + j] * small[len / 2 + j];
        blk[base + len / 2 + j] = blk[base + j] - t;
        blk[base + j] = blk[base + j] + t;
      }
}

std::vector<Fr> inputs(std::mt19937_64& rng, std::size_t n, bool worst) {
  if (worst) return std::vector<Fr>(n, -Fr::one());
  return pcs_test::random_frs(rng, n);
}

}  // namespace

TEST_CASE("ntt lanes: block layers equal the portable butterflies") {
  if (!lanes::available()) {
    MESSAGE("this CPU has no AVX-512 IFMA: the portable layers run, nothing to compare");
    return;
  }
  std::mt19937_64 rng(31);
  for (std::size_t B : {std::size_t{16}, std::size_t{256}, std::size_t{8192}})
    for (std::size_t first_len : {std::size_t{16}, std::size_t{64}})
      for (std::size_t last_len : {first_len, B})
        for (std::size_t copies : {std::size_t{1}, std::size_t{3}})
          for (unsigned max_bound : {4u, 10u, lanes::kMaxBound})
            for (bool worst : {false, true}) {
              if (first_len > last_len || last_len > B) continue;
              // `copies` sub-blocks of last_len side by side, each transformed alone.
              const std::size_t n = copies * last_len;
              CAPTURE(B);
              CAPTURE(first_len);
              CAPTURE(last_len);
              CAPTURE(copies);
              CAPTURE(max_bound);
              CAPTURE(worst);
              const auto small = small_twiddles(B);
              const auto small_lanes = lanes::lane_twiddles(small.data(), B);
              std::vector<Fr> expect = inputs(rng, n, worst), got = expect;
              for (std::size_t c = 0; c < copies; ++c) {
                std::vector<Fr> sub(
                    expect.begin() + static_cast<std::ptrdiff_t>(c * last_len),
                    expect.begin() + static_cast<std::ptrdiff_t>((c + 1) * last_len));
                scalar_block_layers(sub, first_len, last_len, small);
                std::copy(sub.begin(), sub.end(),
                          expect.begin() + static_cast<std::ptrdiff_t>(c * last_len));
              }
              lanes::block_layers(got.data(), n, first_len, last_len, small_lanes.data(),
                                  max_bound);
              CHECK(got == expect);
            }
  const auto small = small_twiddles(16);
  const auto small_lanes = lanes::lane_twiddles(small.data(), 16);
  std::vector<Fr> blk(48);
  CHECK_THROWS_AS(lanes::block_layers(blk.data(), 16, 8, 16, small_lanes.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(lanes::block_layers(blk.data(), 16, 16, 16, small_lanes.data(), 3),
                  std::invalid_argument);
  CHECK_THROWS_AS(lanes::block_layers(blk.data(), 48, 16, 32, small_lanes.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(lanes::block_layers(blk.data(), 16, 32, 16, small_lanes.data()),
                  std::invalid_argument);
}

TEST_CASE("ntt lanes: strip layers equal the portable butterflies") {
  if (!lanes::available()) {
    MESSAGE("this CPU has no AVX-512 IFMA: the portable layers run, nothing to compare");
    return;
  }
  std::mt19937_64 rng(32);
  // The long layers of an M-entry transform viewed as an (M/B) × B array: rows c and c + half/B
  // pair up, column j's twiddle at row offset c is ω_len^(c·B + j).
  const std::size_t B = 64;
  for (std::size_t M : {std::size_t{128}, std::size_t{4096}})
    for (std::size_t W : {std::size_t{8}, std::size_t{32}})
      for (unsigned max_bound : {3u, lanes::kMaxBound})
        for (bool worst : {false, true}) {
          CAPTURE(M);
          CAPTURE(W);
          CAPTURE(max_bound);
          CAPTURE(worst);
          const auto tw = bf::twiddles(static_cast<unsigned>(std::countr_zero(M)));
          std::vector<Fr> expect = inputs(rng, M, worst), got = expect;
          for (std::size_t len = 2 * B; len <= M; len <<= 1)
            for (std::size_t base = 0; base < M; base += len)
              for (std::size_t j = 0; j < len / 2; ++j) {
                const Fr t = expect[base + len / 2 + j] * tw.at(j * (M / len));
                expect[base + len / 2 + j] = expect[base + j] - t;
                expect[base + j] = expect[base + j] + t;
              }
          for (std::size_t j0 = 0; j0 < B; j0 += W)
            lanes::strip_layers(got.data(), M, B, j0, W, tw.even(), tw.low(), 1, max_bound);
          CHECK(got == expect);
        }
  std::vector<Fr> v(128);
  const auto tw = bf::twiddles(7);
  CHECK_THROWS_AS(lanes::strip_layers(v.data(), 128, 64, 0, 4, tw.even(), tw.low(), 1),
                  std::invalid_argument);
}

TEST_CASE("ntt lanes: encodings are the same with the lanes on and off") {
  LanesSwitch restore;
  std::mt19937_64 rng(33);
  for (unsigned R : {1u, 2u})
    for (unsigned L : {3u, 10u, 15u}) {
      CAPTURE(R);
      CAPTURE(L);
      const auto msg = pcs_test::random_frs(rng, std::size_t{1} << L);
      const auto tw = bf::twiddles(L + R);
      std::vector<Fr> on(msg.size() << R), off(on.size());
      lanes::set_enabled(true);
      bf::rs_encode(msg, R, on, tw, 1);
      lanes::set_enabled(false);
      CHECK_FALSE(lanes::enabled());
      bf::rs_encode(msg, R, off, tw, 1);
      CHECK(on == off);
      std::vector<std::uint64_t> at = {0, on.size() - 1, on.size() / 3, 17 % on.size()};
      std::vector<Fr> at_on(at.size()), at_off(at.size());
      bf::rs_encode_at(msg, R, at, tw, at_off);
      lanes::set_enabled(true);
      bf::rs_encode_at(msg, R, at, tw, at_on);
      CHECK(at_on == at_off);
      for (std::size_t i = 0; i < at.size(); ++i) CHECK(at_on[i] == on[at[i]]);
    }
}

TEST_CASE("ntt lanes: products over arrays equal Fr's multiply") {
  if (!lanes::available()) {
    MESSAGE("this CPU has no AVX-512 IFMA: nothing to compare");
    return;
  }
  std::mt19937_64 rng(34);
  std::vector<Fr> a = pcs_test::random_frs(rng, 64), b = pcs_test::random_frs(rng, 64);
  const Fr edge[] = {Fr::zero(), Fr::one(), -Fr::one(), -Fr::one() - Fr::one()};
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      a[4 * i + j] = edge[i];
      b[4 * i + j] = edge[j];
    }
  std::vector<Fr> got(64);
  lanes::mul_arrays(a.data(), b.data(), got.data(), 64);
  for (std::size_t i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(got[i] == a[i] * b[i]);
  }
  lanes::mul_arrays(a.data(), b.data(), a.data(), 64);  // in place
  CHECK(a == got);
  CHECK_THROWS_AS(lanes::mul_arrays(a.data(), b.data(), got.data(), 7), std::invalid_argument);
}

TEST_CASE("multiply_arrays equals Fr's multiply for every length, lanes on and off") {
  std::mt19937_64 rng(35);
  const std::vector<Fr> a = pcs_test::random_frs(rng, 37), b = pcs_test::random_frs(rng, 37);
  const bool was = lanes::enabled();
  for (bool on : {true, false}) {
    lanes::set_enabled(on);
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{9},
                          std::size_t{16}, std::size_t{37}}) {
      CAPTURE(on);
      CAPTURE(n);
      std::vector<Fr> got(n, Fr::from_u64(99));
      jolt::prover::multiply_arrays(a.data(), b.data(), got.data(), n);
      for (std::size_t i = 0; i < n; ++i) CHECK(got[i] == a[i] * b[i]);
      std::vector<Fr> in_place(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n));
      jolt::prover::multiply_arrays(in_place.data(), b.data(), in_place.data(), n);
      CHECK(in_place == got);
    }
  }
  lanes::set_enabled(was);
}

// A table's variable bound over arrays: values at the edges (0, 1, r − 1, r − 2, hi below lo and
// above it) at both ends and for r, lengths with two groups at a time, one alone and the scalar
// tail, out aliasing lo and hi, lanes on and off. With lo and r the element whose Montgomery form
// is r − 1 (the largest the lanes read), some lanes' sums reach 2r before their reduction.
TEST_CASE("bind_arrays equals lo + r·(hi − lo), lanes on and off") {
  std::mt19937_64 rng(43);
  constexpr std::size_t kN = 45;
  std::vector<Fr> lo = pcs_test::random_frs(rng, kN), hi = pcs_test::random_frs(rng, kN);
  const Fr edge[] = {Fr::zero(), Fr::one(), -Fr::one(), -Fr::one() - Fr::one()};
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      lo[4 * i + j] = edge[i];
      hi[4 * i + j] = edge[j];
    }
  // 2^256 mod r is one's Montgomery form; −(2^256)^-1 has the form −1, that is r − 1.
  const Fr largest =
      -Fr::from_canonical_limbs({jolt::prover::fr_detail::kR[0], jolt::prover::fr_detail::kR[1],
                                 jolt::prover::fr_detail::kR[2], jolt::prover::fr_detail::kR[3]})
           .value()
           .inverse();
  const std::vector<Fr> top(kN, largest);
  const std::vector<Fr> random_lo = lo;
  const bool was = lanes::enabled();
  for (bool on : {true, false}) {
    lanes::set_enabled(on);
    for (const std::vector<Fr>* low : {&random_lo, &top})
      for (const Fr& r :
           {Fr::zero(), Fr::one(), -Fr::one(), largest, pcs_test::random_frs(rng, 1)[0]})
        for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{8}, std::size_t{16},
                              std::size_t{24}, kN}) {
          lo = *low;
          CAPTURE(on);
          CAPTURE(n);
          std::vector<Fr> want(n), got(n, Fr::from_u64(99));
          for (std::size_t i = 0; i < n; ++i) want[i] = lo[i] + r * (hi[i] - lo[i]);
          jolt::prover::bind_arrays(lo.data(), hi.data(), r, got.data(), n);
          CHECK(got == want);
          std::vector<Fr> a = lo, b = hi;
          jolt::prover::bind_arrays(a.data(), hi.data(), r, a.data(), n);  // out = lo
          jolt::prover::bind_arrays(lo.data(), b.data(), r, b.data(), n);  // out = hi
          CHECK(std::equal(want.begin(), want.end(), a.begin()));
          CHECK(std::equal(want.begin(), want.end(), b.begin()));
        }
  }
  lanes::set_enabled(was);
}

// Sums of products kept in the lanes: long enough to pass the reduction between the sums (n up
// to 2048: 256 lane products, past what the limbs hold unreduced), with r − 1 everywhere in one
// case (the largest products), every length with its scalar tail, lanes on and off.
TEST_CASE("dot_arrays equals the sum of Fr's products, lanes on and off") {
  std::mt19937_64 rng(37);
  const std::vector<Fr> a = pcs_test::random_frs(rng, 2048), b = pcs_test::random_frs(rng, 2048);
  const std::vector<Fr> top(2048, -Fr::one());
  const bool was = lanes::enabled();
  for (bool on : {true, false}) {
    lanes::set_enabled(on);
    for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{8}, std::size_t{29},
                          std::size_t{336}, std::size_t{2048}}) {
      CAPTURE(on);
      CAPTURE(n);
      Fr want, want_top;
      for (std::size_t i = 0; i < n; ++i) {
        want += a[i] * b[i];
        want_top += top[i] * top[i];
      }
      CHECK(jolt::prover::dot_arrays(a.data(), b.data(), n) == want);
      CHECK(jolt::prover::dot_arrays(top.data(), top.data(), n) == want_top);
    }
  }
  lanes::set_enabled(was);
}

// Running products kept in the lanes: up to 17 factors (the bound between products must hold),
// values at the edges (r − 1, r − 2) included, every length with its scalar tail, lanes on and
// off (24: the lanes take two groups together, then one alone), out aliasing the first row.
TEST_CASE("multiply_rows equals Fr's products, lanes on and off") {
  std::mt19937_64 rng(36);
  constexpr std::size_t kMaxN = 37, kMaxK = 17;
  std::vector<Fr> rows = pcs_test::random_frs(rng, kMaxK * kMaxN);
  for (std::size_t i = 0; i < kMaxN; i += 3) rows[i] = -Fr::one();
  for (std::size_t i = kMaxN; i < 2 * kMaxN; i += 4) rows[i] = -Fr::one() - Fr::one();
  const bool was = lanes::enabled();
  for (bool on : {true, false}) {
    lanes::set_enabled(on);
    for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{5}, kMaxK})
      for (std::size_t n :
           {std::size_t{1}, std::size_t{8}, std::size_t{13}, std::size_t{24}, kMaxN}) {
        CAPTURE(on);
        CAPTURE(k);
        CAPTURE(n);
        std::vector<Fr> want(n);
        for (std::size_t i = 0; i < n; ++i) {
          want[i] = rows[i];
          for (std::size_t g = 1; g < k; ++g) want[i] = want[i] * rows[g * kMaxN + i];
        }
        std::vector<Fr> got(n, Fr::from_u64(99));
        jolt::prover::multiply_rows(rows.data(), kMaxN, k, got.data(), n);
        CHECK(got == want);
        std::vector<Fr> in_place = rows;
        jolt::prover::multiply_rows(in_place.data(), kMaxN, k, in_place.data(), n);
        CHECK(std::equal(want.begin(), want.end(), in_place.begin()));
      }
  }
  lanes::set_enabled(was);
  CHECK_THROWS_AS(jolt::prover::multiply_rows(rows.data(), kMaxN, 0, rows.data(), 8),
                  std::invalid_argument);
}

// The product tree: leaves as polynomials of degree < m (random coefficients, some of lower
// degree, r − 1 among them) given at t = 0 .. m − 1; the chunks' products summed at marked
// points up to 19 (beyond each chunk's degree + 1, and with gaps), against Horner's values
// multiplied by Fr. Chunks of 1 to 16 leaves (odd ones: children of unequal degree), leaves at
// 1, 2, 3 and 5 points, every length with its scalar tail, lanes on and off.
TEST_CASE("chunk_product_sums equals the chunks' products at each marked point") {
  std::mt19937_64 rng(43);
  constexpr std::size_t kStride = 21, kMaxLeaves = 48;
  const std::vector<std::vector<char>> marks = {{1},
                                                {1, 0, 1, 1},
                                                std::vector<char>(17, 1),
                                                {1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                                                std::vector<char>(20, 1),
                                                {0, 1, 0, 0, 1}};
  const bool was = lanes::enabled();
  for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}}) {
    // coef[(ℓ·m + c)·kStride + i]: leaf ℓ's coefficient of t^c for pair i.
    std::vector<Fr> coef = pcs_test::random_frs(rng, kMaxLeaves * m * kStride);
    for (std::size_t i = 0; i < coef.size(); i += 11) coef[i] = -Fr::one();
    for (std::size_t l = 0; l < kMaxLeaves; l += 3)  // some leaves of degree < m − 1
      for (std::size_t i = 0; i < kStride; ++i) coef[((l + 1) * m - 1) * kStride + i] = Fr::zero();
    auto leaf_at = [&](std::size_t l, std::size_t t, std::size_t i) {
      Fr y;
      for (std::size_t c = m; c-- > 0;) y = y * Fr::from_u64(t) + coef[(l * m + c) * kStride + i];
      return y;
    };
    std::vector<Fr> vals(kMaxLeaves * m * kStride);
    for (std::size_t l = 0; l < kMaxLeaves; ++l)
      for (std::size_t t = 0; t < m; ++t)
        for (std::size_t i = 0; i < kStride; ++i)
          vals[(l * m + t) * kStride + i] = leaf_at(l, t, i);
    for (bool on : {true, false}) {
      lanes::set_enabled(on);
      for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{
               {1, 1}, {4, 2}, {6, 3}, {12, 4}, {10, 5}, {48, 16}})
        for (const auto& at : marks)
          for (std::size_t n : {std::size_t{1}, std::size_t{8}, std::size_t{13}, kStride}) {
            const std::size_t leaves = shape.first, chunk = shape.second;
            CAPTURE(m);
            CAPTURE(on);
            CAPTURE(leaves);
            CAPTURE(chunk);
            CAPTURE(at.size());
            CAPTURE(n);
            const std::size_t count = static_cast<std::size_t>(std::count(at.begin(), at.end(), 1));
            std::vector<Fr> want(count * n), got(count * n, Fr::from_u64(99));
            for (std::size_t i = 0; i < n; ++i)
              for (std::size_t t = 0, k = 0; t < at.size(); ++t) {
                if (!at[t]) continue;
                Fr sum;
                for (std::size_t v = 0; v < leaves / chunk; ++v) {
                  Fr p = Fr::one();
                  for (std::size_t e = 0; e < chunk; ++e) p = p * leaf_at(v * chunk + e, t, i);
                  sum += p;
                }
                want[k++ * n + i] = sum;
              }
            jolt::prover::chunk_product_sums(vals.data(), m, kStride, leaves, chunk, at, got.data(),
                                             n, n);
            CHECK(got == want);
          }
    }
  }
  lanes::set_enabled(was);
  const std::vector<char> one = {1};
  std::vector<Fr> vals(16), out(8);
  CHECK_THROWS_AS(jolt::prover::chunk_product_sums(vals.data(), 2, 8, 6, 4, one, out.data(), 8, 8),
                  std::invalid_argument);
}

TEST_CASE(
    "zero_table and zero_tables hold zeros of the asked sizes, below and above the shared "
    "first touch") {
  // Sizes around the 1 MiB threshold, with byte counts that are no multiple of the workers'
  // chunks; each size first allocated and freed filled with ones, so reused storage must be
  // cleared too.
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{1} << 15,
                        (std::size_t{1} << 15) + 3, (std::size_t{1} << 17) + 1}) {
    CAPTURE(n);
    { std::vector<Fr> dirty(n, Fr::one()); }
    const std::vector<Fr> z = jolt::prover::zero_table(n);
    REQUIRE(z.size() == n);
    CHECK(std::all_of(z.begin(), z.end(), [](const Fr& x) { return x.is_zero(); }));
    for (std::size_t count : {std::size_t{1}, std::size_t{3}, std::size_t{40}}) {
      CAPTURE(count);
      const auto zs = jolt::prover::zero_tables(count, n);
      REQUIRE(zs.size() == count);
      for (const auto& t : zs) {
        REQUIRE(t.size() == n);
        CHECK(std::all_of(t.begin(), t.end(), [](const Fr& x) { return x.is_zero(); }));
      }
    }
  }
}
