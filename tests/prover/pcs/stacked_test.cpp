// Stacking (pcs/stacked.hpp): the stacked tables are the inner tables one after another, honest
// openings verify over the reveal scheme and Basefold for every stacking and table count, a
// wrong claim for any one table is rejected by the inner scheme's evaluation checks, a verifier
// with another stacking rejects, and shapes that do not match the commitment are rejected at
// pcs.stacked.shape.
#include <doctest/doctest.h>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/stacked.hpp>
#include <string>

#include "test_util.hpp"

using namespace jolt::prover;
using pcs::StackedBatch;
using pcs::StackedCommitment;

using pcs_test::check_of;
using pcs_test::Instance;
using pcs_test::make_instance;

namespace {

std::unique_ptr<CommitmentScheme> stacked(PcsKind inner, unsigned log_stack) {
  return std::make_unique<StackedCommitment>(make_commitment_scheme(inner), log_stack);
}

// Opens `in` with `prover` and verifies with `verifier`: the failing check, "" when accepted.
std::string round_trip(const CommitmentScheme& prover, const CommitmentScheme& verifier,
                       const Instance& in, const std::vector<Fr>& claims) {
  const auto spans = in.spans();
  CommitOutput c = prover.commit(spans);
  CHECK(c.commitment.num_polys == in.tables.size());
  CHECK(c.commitment.num_vars == in.point.size());
  Transcript tp("stacked-test");
  const auto proof = prover.open(*c.data, spans, in.point, in.evals, tp);
  Transcript tv("stacked-test");
  const auto e = verifier.verify(c.commitment, in.point, claims, proof, tv);
  if (!e) CHECK(tv.state() == tp.state());
  return check_of(e);
}

}  // namespace

TEST_CASE("stacked tables are the inner tables one after another, zero-padded") {
  std::mt19937_64 rng(1);
  const Instance in = make_instance(3, 5, 1);  // 5 tables of 8
  const auto spans = in.spans();
  const SpanBatch inner(spans);
  const StackedBatch s(inner, 2);  // 4 per stacked table: 2 tables of 32
  REQUIRE(s.num_polys() == 2);
  REQUIRE(s.table_size() == 32);
  std::vector<std::vector<Fr>> want(2, std::vector<Fr>(32, Fr::zero()));
  for (std::size_t c = 0; c < 5; ++c)
    for (std::size_t x = 0; x < 8; ++x) want[c / 4][(c % 4) * 8 + x] = in.tables[c][x];
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t begin : {0u, 3u, 7u, 8u, 13u, 20u})
      for (std::size_t len : {1u, 5u, 12u}) {
        if (begin + len > 32) continue;
        std::vector<Fr> got(len);
        s.read(i, begin, got);
        std::vector<Fr> acc(len, Fr::one()), want_acc(len);
        const Fr coeff = pcs_test::random_fr(rng);
        s.accumulate(i, begin, coeff, acc);
        for (std::size_t j = 0; j < len; ++j) {
          CHECK(got[j] == want[i][begin + j]);
          CHECK(acc[j] == Fr::one() + coeff * want[i][begin + j]);
        }
      }
}

// read_bits gives a stacked range's bits when every inner table it covers is stored as bits
// (a missing table's zeros are), and refuses a range that touches any other table.
TEST_CASE("stacked tables give their bits where every inner table they cover stores bits") {
  std::mt19937_64 rng(5);
  std::vector<std::vector<std::uint8_t>> t(5, std::vector<std::uint8_t>(8));
  for (auto& table : t)
    for (auto& b : table) b = static_cast<std::uint8_t>(rng() & 1);
  const pcs_test::BitsBatch inner(t, {true, true, false, true, true});
  const StackedBatch s(inner, 2);  // stacked 0: tables 0–3, stacked 1: table 4 and zeros
  std::vector<std::uint8_t> got(16);
  REQUIRE(s.read_bits(0, 0, got));
  for (std::size_t j = 0; j < 16; ++j) CHECK(got[j] == t[j / 8][j % 8]);
  CHECK_FALSE(s.read_bits(0, 12, got));  // entries 12 .. 27: table 2
  CHECK_FALSE(s.read_bits(0, 16, std::span(got).first(1)));
  REQUIRE(s.read_bits(0, 24, std::span(got).first(8)));
  for (std::size_t j = 0; j < 8; ++j) CHECK(got[j] == t[3][j]);
  std::fill(got.begin(), got.end(), std::uint8_t{7});
  REQUIRE(s.read_bits(1, 4, got));  // table 4's last half, then table 5 (missing): zeros
  for (std::size_t j = 0; j < 16; ++j) CHECK(got[j] == (j < 4 ? t[4][4 + j] : 0));
}

TEST_CASE("stacked openings verify for every stacking and table count") {
  std::uint64_t seed = 2;
  for (PcsKind inner : {PcsKind::kReveal, PcsKind::kBasefold})
    for (unsigned m : {0u, 1u, 2u, 3u})
      for (std::size_t k : {1u, 3u, 4u, 5u, 9u})
        for (unsigned n : {1u, 4u, 7u}) {
          const Instance in = make_instance(n, static_cast<unsigned>(k), ++seed);
          const auto pcs = stacked(inner, m);
          INFO(pcs_name(inner) << " m " << m << " k " << k << " n " << n);
          CHECK(round_trip(*pcs, *pcs, in, in.evals) == "");
        }
}

TEST_CASE("a wrong claim for any one table is rejected by the inner scheme") {
  const Instance in = make_instance(5, 6, 3);
  for (PcsKind inner : {PcsKind::kReveal, PcsKind::kBasefold}) {
    const auto pcs = stacked(inner, 2);
    for (std::size_t c = 0; c < in.evals.size(); ++c) {
      auto wrong = in.evals;
      wrong[c] += Fr::one();
      const std::string got = round_trip(*pcs, *pcs, in, wrong);
      INFO(pcs_name(inner) << " table " << c << ": " << got);
      if (inner == PcsKind::kReveal)
        CHECK(got == "pcs.reveal.evaluation");
      else
        CHECK(got.rfind("pcs.basefold.", 0) == 0);
    }
  }
}

TEST_CASE("a verifier with another stacking rejects the proof") {
  const Instance in = make_instance(5, 6, 4);
  for (PcsKind inner : {PcsKind::kReveal, PcsKind::kBasefold}) {
    const auto p2 = stacked(inner, 2), p1 = stacked(inner, 1);
    CHECK(p1->parameters() != p2->parameters());
    CHECK_FALSE(round_trip(*p2, *p1, in, in.evals).empty());
    CHECK_FALSE(round_trip(*p1, *p2, in, in.evals).empty());
  }
}

TEST_CASE("claims and points that do not match the commitment are rejected at pcs.stacked.shape") {
  const Instance in = make_instance(4, 5, 5);
  const auto spans = in.spans();
  const auto pcs = stacked(PcsKind::kReveal, 2);
  CommitOutput c = pcs->commit(spans);
  Transcript tp("stacked-test");
  const auto proof = pcs->open(*c.data, spans, in.point, in.evals, tp);
  auto verify = [&](const Commitment& com, std::span<const Fr> point, std::span<const Fr> ev) {
    Transcript tv("stacked-test");
    return check_of(pcs->verify(com, point, ev, proof, tv));
  };
  CHECK(verify(c.commitment, in.point, in.evals) == "");
  CHECK(verify(c.commitment, in.point, std::span(in.evals).first(4)) == "pcs.stacked.shape");
  std::vector<Fr> longer = in.point;
  longer.push_back(Fr::one());
  CHECK(verify(c.commitment, longer, in.evals) == "pcs.stacked.shape");
  Commitment none = c.commitment;
  none.num_polys = 0;
  CHECK(verify(none, in.point, {}) == "pcs.stacked.shape");
  // The prover refuses mismatched shapes too.
  Transcript t2("stacked-test");
  CHECK_THROWS_AS(pcs->open(*c.data, spans, in.point, std::span(in.evals).first(4), t2),
                  std::invalid_argument);
}

TEST_CASE("the default Basefold stacks four tables per committed polynomial") {
  const auto pcs = make_commitment_scheme(PcsKind::kBasefold);
  // Stacked tables of 2^(n+2) entries at rate 1/2 need an NTT domain of 2^(n+3) ≤ 2^28.
  CHECK(pcs->max_num_vars() == 25);
  CHECK(stacked(PcsKind::kReveal, 3)->max_num_vars() ==
        make_commitment_scheme(PcsKind::kReveal)->max_num_vars() - 3);
  CHECK(pcs->parameters().find("stacked 4 tables per committed polynomial") != std::string::npos);
  const Instance in = make_instance(6, 7, 6);
  CommitOutput c = pcs->commit(in.spans());
  CHECK(c.commitment.num_polys == 7);
  CHECK(c.commitment.num_vars == 6);
  CHECK(round_trip(*pcs, *pcs, in, in.evals) == "");
}
