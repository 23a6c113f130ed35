// The commitment-scheme seam: the factory's names and kinds, and the reveal-all scheme through
// the same interface as Ligero (honest openings verify; each check rejects what it guards).
#include <doctest/doctest.h>

#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/scheme.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "test_util.hpp"

using namespace jolt::prover;

using pcs_test::check_of;
using pcs_test::evaluate;

TEST_CASE("the factory knows every scheme by name and kind") {
  CHECK(parse_pcs_kind("reveal") == PcsKind::kReveal);
  CHECK(parse_pcs_kind("ligero") == PcsKind::kLigero);
  CHECK(parse_pcs_kind("basefold") == PcsKind::kBasefold);
  CHECK_FALSE(parse_pcs_kind("clear"));
  CHECK_FALSE(parse_pcs_kind(""));
  for (PcsKind k : {PcsKind::kReveal, PcsKind::kLigero}) {
    auto s = make_commitment_scheme(k);
    CHECK(s->kind() == k);
    CHECK(s->name() == pcs_name(k));
    CHECK_FALSE(s->parameters().empty());
  }
  CHECK_NOTHROW(make_commitment_scheme(default_pcs_kind()));
  CHECK_THROWS_AS(make_commitment_scheme(static_cast<PcsKind>(77)), std::invalid_argument);
}

TEST_CASE("reveal: honest openings verify; tampering is rejected at the named check") {
  const auto pcs = make_commitment_scheme(PcsKind::kReveal);
  std::mt19937_64 rng(3);
  std::vector<std::vector<Fr>> tables = {pcs_test::random_frs(rng, 16),
                                         pcs_test::random_frs(rng, 16)};
  std::vector<std::span<const Fr>> spans(tables.begin(), tables.end());
  const std::vector<Fr> point = pcs_test::random_frs(rng, 4);
  std::vector<Fr> evals = {evaluate(tables[0], point), evaluate(tables[1], point)};
  CommitOutput c = pcs->commit(spans);
  CHECK(c.commitment.num_vars == 4);
  CHECK(c.commitment.num_polys == 2);
  Transcript tp("t");
  const auto proof = pcs->open(*c.data, spans, point, evals, tp);
  CHECK(proof.size() == 2 * 16 * Fr::kBytes);
  auto verify = [&](const Commitment& com, std::span<const Fr> ev,
                    std::span<const std::uint8_t> pi) {
    Transcript tv("t");
    auto e = pcs->verify(com, point, ev, pi, tv);
    if (!e) CHECK(tv.state() == tp.state());
    return check_of(e);
  };
  CHECK(verify(c.commitment, evals, proof) == "");

  auto wrong = evals;
  wrong[1] += Fr::one();
  CHECK(verify(c.commitment, wrong, proof) == "pcs.reveal.evaluation");
  auto flipped = proof;
  flipped[40] ^= 1;
  CHECK(verify(c.commitment, evals, flipped) == "pcs.reveal.commitment");
  CHECK(verify(c.commitment, evals, std::span(proof).first(proof.size() - 1)) ==
        "pcs.reveal.shape");
  Commitment other = c.commitment;
  other.num_polys = 1;
  CHECK(verify(other, std::span(evals).first(1), proof) == "pcs.reveal.shape");
  // A table with a non-canonical entry, committed as such, is a decode failure.
  auto bad = proof;
  for (std::size_t i = 0; i < 32; ++i) bad[i] = 0xff;
  Commitment bad_com = c.commitment;
  const auto d = pcs::blake2b_256(bad);
  bad_com.bytes.assign(d.begin(), d.end());
  CHECK(verify(bad_com, evals, bad) == "decode.non_canonical");
  // The prover refuses a wrong claim.
  Transcript t2("t");
  CHECK_THROWS_AS(pcs->open(*c.data, spans, point, wrong, t2), std::invalid_argument);
}

// accumulate_many takes the tables stored as bits eight at a time through a table of subset sums
// and the others one by one: every mix (no bit table, fewer than eight, several groups of eight
// and a remainder, interleaved with other tables), ranges below and above the size where it
// groups, and repeated tables, must add what accumulate adds table by table.
TEST_CASE("accumulate_many adds what accumulate adds per table, bits grouped or not") {
  std::mt19937_64 rng(41);
  constexpr std::size_t kLen = 1024, kTables = 21;
  std::vector<std::vector<std::uint8_t>> t(kTables, std::vector<std::uint8_t>(kLen));
  std::vector<bool> as_bits(kTables);
  for (std::size_t i = 0; i < kTables; ++i) {
    as_bits[i] = i % 5 != 2;
    for (auto& b : t[i]) b = static_cast<std::uint8_t>(as_bits[i] ? rng() & 1 : rng() % 250);
  }
  const pcs_test::BitsBatch batch(t, as_bits);
  for (const std::size_t count :
       {std::size_t{0}, std::size_t{3}, std::size_t{8}, std::size_t{17}, std::size_t{24}})
    for (const auto& range :
         {std::pair<std::size_t, std::size_t>{0, 1024}, {100, 300}, {7, 255}, {1000, 24}}) {
      const std::size_t begin = range.first, n = range.second;
      CAPTURE(count);
      CAPTURE(begin);
      CAPTURE(n);
      std::vector<std::uint32_t> tables;
      std::vector<jolt::prover::Fr> coeffs;
      for (std::size_t q = 0; q < count; ++q) {
        tables.push_back(static_cast<std::uint32_t>(rng() % kTables));
        coeffs.push_back(pcs_test::random_fr(rng));
      }
      std::vector<jolt::prover::Fr> want = pcs_test::random_frs(rng, n), got = want;
      for (std::size_t q = 0; q < count; ++q) batch.accumulate(tables[q], begin, coeffs[q], want);
      batch.accumulate_many(tables, coeffs, begin, got);
      CHECK(got == want);
    }
  std::vector<jolt::prover::Fr> acc(8);
  const std::vector<std::uint32_t> two = {0, 1};
  const std::vector<jolt::prover::Fr> one = {jolt::prover::Fr::one()};
  CHECK_THROWS_AS(batch.accumulate_many(two, one, 0, acc), std::invalid_argument);
}
