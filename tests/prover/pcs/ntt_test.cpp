// NTT round trips and agreement with naive evaluation; Reed–Solomon codewords evaluate the row
// polynomial on the roots of unity.
#include <doctest/doctest.h>

#include <jolt/prover/pcs/reed_solomon.hpp>

#include "test_util.hpp"

using jolt::prover::Fr;
using namespace jolt::prover::pcs;

namespace {
Fr horner(const std::vector<Fr>& coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}
}  // namespace

TEST_CASE("NTT forward matches naive evaluation at powers of the generator") {
  std::mt19937_64 rng(1);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 6u, 9u}) {
    NttDomain d(log_n);
    const auto coeffs = pcs_test::random_frs(rng, d.size());
    auto v = coeffs;
    d.forward(v);
    CHECK(d.generator().pow(d.size()) == Fr::one());
    if (log_n > 0) CHECK(d.generator().pow(d.size() / 2) != Fr::one());
    Fr x = Fr::one();
    for (std::size_t j = 0; j < d.size(); ++j) {
      CHECK(v[j] == horner(coeffs, x));
      x *= d.generator();
    }
  }
}

TEST_CASE("NTT inverse undoes forward") {
  std::mt19937_64 rng(2);
  for (unsigned log_n : {1u, 4u, 10u, 12u}) {
    NttDomain d(log_n);
    const auto orig = pcs_test::random_frs(rng, d.size());
    auto v = orig;
    d.forward(v);
    CHECK(v != orig);
    d.inverse(v);
    CHECK(v == orig);
  }
}

TEST_CASE("NTT rejects a buffer of the wrong size and a domain beyond the 2-adicity") {
  NttDomain d(4);
  std::vector<Fr> v(8);
  CHECK_THROWS_AS(d.forward(v), std::invalid_argument);
  CHECK_THROWS_AS(NttDomain(29), std::invalid_argument);
}

TEST_CASE("Reed-Solomon encoding of a row evaluates the row polynomial at rate 1/4") {
  std::mt19937_64 rng(3);
  for (unsigned log_m : {0u, 3u, 7u}) {
    ReedSolomonCode rs(log_m, 2);
    REQUIRE(rs.codeword_len() == 4 * rs.message_len());
    const auto row = pcs_test::random_frs(rng, rs.message_len());
    const auto cw = rs.encode(row);
    const Fr w = Fr::root_of_unity(log_m + 2);
    Fr x = Fr::one();
    for (std::size_t j = 0; j < cw.size(); ++j) {
      CHECK(cw[j] == horner(row, x));
      x *= w;
    }
    // Linearity: Enc(a + 3b) = Enc(a) + 3 Enc(b).
    const auto other = pcs_test::random_frs(rng, rs.message_len());
    std::vector<Fr> mix(row.size());
    for (std::size_t i = 0; i < row.size(); ++i) mix[i] = row[i] + Fr::from_u64(3) * other[i];
    const auto cm = rs.encode(mix), co = rs.encode(other);
    for (std::size_t j = 0; j < cw.size(); ++j) CHECK(cm[j] == cw[j] + Fr::from_u64(3) * co[j]);
  }
}
