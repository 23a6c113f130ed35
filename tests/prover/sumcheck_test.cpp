// Sumcheck engine: honest batched proofs verify, any single altered round coefficient is
// rejected, the optimised outer-Spartan kernel agrees with the naive oracle, transcripts are
// deterministic.
#include <doctest/doctest.h>

#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/spartan_outer.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/batch.hpp>
#include <jolt/prover/sumcheck/eq_weighted_kernel.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <random>

#include "mini_trace.hpp"

using namespace jolt::prover;

namespace {

constexpr KernelLabels kTestLabels = {"TestRelation::prepare", "TestRelation::prove_round",
                                      "TestRelation::finish_rounds"};

Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng() >> 2);
}

std::vector<Fr> rand_table(std::mt19937_64& rng, std::size_t vars) {
  std::vector<Fr> t(std::size_t{1} << vars);
  for (auto& x : t) x = rand_fr(rng);
  return t;
}

// a·b·c − 3·a + (1 − b)·c over three leaves.
Expr test_expr() {
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  e.add_product(-Fr::from_u64(3), {Linear::leaf(0)});
  e.add_product(Fr::one(), {Linear::one_minus(1), Linear::leaf(2)});
  return e;
}

Fr hypercube_sum(const Expr& e, const std::vector<std::vector<Fr>>& leaves) {
  Fr s = Fr::zero();
  std::vector<Fr> v(leaves.size());
  for (std::size_t i = 0; i < leaves[0].size(); ++i) {
    for (std::size_t l = 0; l < leaves.size(); ++l) v[l] = leaves[l][i];
    s += e.evaluate(v);
  }
  return s;
}

struct Instance {
  std::vector<std::vector<std::vector<Fr>>> leaves;  // per member
  std::vector<Fr> claims;
  std::vector<std::size_t> rounds;
};

Instance make_instance(std::mt19937_64& rng) {
  Instance in;
  for (std::size_t vars : {6u, 4u, 6u}) {
    std::vector<std::vector<Fr>> l = {rand_table(rng, vars), rand_table(rng, vars),
                                      rand_table(rng, vars)};
    in.claims.push_back(hypercube_sum(test_expr(), l));
    in.rounds.push_back(vars);
    in.leaves.push_back(std::move(l));
  }
  return in;
}

BatchProverOutput prove_instance(const Instance& in) {
  std::vector<std::unique_ptr<NaiveKernel>> ks;
  std::vector<BatchMember> ms;
  for (std::size_t i = 0; i < in.leaves.size(); ++i) {
    ks.push_back(std::make_unique<NaiveKernel>(kTestLabels, in.leaves[i], test_expr()));
    ms.push_back({ks.back().get(), in.claims[i]});
  }
  Transcript t("sumcheck-test");
  return prove_batch(ms, t);
}

// The full verifier check: rounds + final claim against the leaves' MLEs at each member point.
bool verify_instance(const Instance& in, const SumcheckProof& proof) {
  Transcript t("sumcheck-test");
  SumcheckVerified v;
  if (verify_batch(in.claims, in.rounds, 3, proof, t, v)) return false;
  Fr expected = Fr::zero();
  for (std::size_t i = 0; i < in.leaves.size(); ++i) {
    auto pt = v.point_of(in.rounds[i]);
    std::vector<Fr> vals;
    for (const auto& l : in.leaves[i]) vals.push_back(DenseMultilinear::evaluate(l, pt));
    expected += v.coefficients[i] * test_expr().evaluate(vals);
  }
  return expected == v.final_claim;
}

}  // namespace

TEST_CASE("batched sumcheck on random polynomials: honest verifies, tampering rejects") {
  std::mt19937_64 rng(11);
  Instance in = make_instance(rng);
  BatchProverOutput out = prove_instance(in);
  REQUIRE(out.proof.round_polys.size() == 6);
  CHECK(verify_instance(in, out.proof));
  // member outputs are the leaves at the member's (tail-aligned) point
  auto pt1 = std::vector<Fr>(out.challenges.begin() + 2, out.challenges.end());
  CHECK(out.member_outputs[1][0] == DenseMultilinear::evaluate(in.leaves[1][0], pt1));
  for (std::size_t j = 0; j < out.proof.round_polys.size(); ++j) {
    for (std::size_t c = 0; c < out.proof.round_polys[j].coeffs.size(); ++c) {
      SumcheckProof bad = out.proof;
      bad.round_polys[j].coeffs[c] += Fr::one();
      INFO("round " << j << " coefficient " << c);
      CHECK_FALSE(verify_instance(in, bad));
    }
  }
  // A wrong input claim is rejected too.
  Instance wrong = in;
  wrong.claims[1] += Fr::one();
  CHECK_FALSE(verify_instance(wrong, out.proof));
  // Missing/extra rounds and degree mismatches are reported, not crashed on.
  SumcheckProof shorter = out.proof;
  shorter.round_polys.pop_back();
  Transcript t("sumcheck-test");
  SumcheckVerified v;
  auto e = verify_batch(in.claims, in.rounds, 3, shorter, t, v);
  REQUIRE(e);
  CHECK(e->check == "sumcheck.shape");
  CHECK(e->message.find("rounds") != std::string::npos);
  // A changed coefficient fails the round-sum check of its round.
  SumcheckProof bad = out.proof;
  bad.round_polys[2].coeffs[0] += Fr::one();
  Transcript t2("sumcheck-test");
  e = verify_batch(in.claims, in.rounds, 3, bad, t2, v);
  REQUIRE(e);
  CHECK(e->check == "sumcheck.round_sum");
}

TEST_CASE("prove_batch refuses a false claim (prover self-check)") {
  std::mt19937_64 rng(5);
  Instance in = make_instance(rng);
  in.claims[0] += Fr::one();
  CHECK_THROWS_AS(prove_instance(in), std::logic_error);
}

namespace {

// Proves Σ eq(τ)·Az·Bz for the witness with the optimised kernel and with the naive oracle over
// the full tables: the round polynomials, the outputs and the transcripts must be identical.
void expect_outer_kernel_matches_oracle(const WitnessColumns& wc, const std::vector<Fr>& tau) {
  auto [az, bz] = r1cs::outer_tables(wc);
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  std::vector<std::vector<Fr>> leaves = {EqPolynomial::evals(tau), az, bz};
  const Fr claim = hypercube_sum(e, leaves);
  NaiveKernel naive(kTestLabels, leaves, e);
  SpartanOuterKernel opt(wc, tau);
  Transcript t1("agree"), t2("agree");
  auto a = prove_batch({{&naive, claim}}, t1);
  auto b = prove_batch({{&opt, claim}}, t2);
  REQUIRE(a.proof.round_polys.size() == b.proof.round_polys.size());
  for (std::size_t j = 0; j < a.proof.round_polys.size(); ++j)
    CHECK(a.proof.round_polys[j].coeffs == b.proof.round_polys[j].coeffs);
  CHECK(a.member_outputs[0] == b.member_outputs[0]);
  CHECK_FALSE(claim.is_zero());
  CHECK(t1.state() == t2.state());
}

}  // namespace

TEST_CASE("optimised outer Spartan kernel agrees with the naive oracle") {
  auto tr = testutil::sample_trace(5);
  auto cols = r1cs::extract_columns(tr.rows);
  std::mt19937_64 rng(17);
  std::vector<Fr> tau(r1cs::kRowBits + log2_exact(tr.rows.size()));
  for (auto& x : tau) x = rand_fr(rng);
  // Corrupt two cycles so the sum is non-zero and the polynomials are not trivial.
  cols[r1cs::kRamAddress][3] += Fr::one();
  cols[r1cs::kNextExpandedPC][17] += Fr::from_u64(5);
  const WitnessColumns wc = WitnessColumns::from_dense(cols);
  CHECK(SpartanOuterKernel(wc, tau).integer_rows());  // the prover's path on a real trace
  expect_outer_kernel_matches_oracle(wc, tau);
}

// The kernel skips terms whose guard or left − right is zero and adds a guard of one without a
// product; a witness of random field elements (guards neither 0 nor 1, no row satisfied) and one
// with a third of its entries zeroed reach every other branch. Both must give the oracle's
// round polynomials exactly.
TEST_CASE("optimised outer Spartan kernel agrees with the naive oracle on dense random witnesses") {
  for (const unsigned zero_every : {0u, 3u}) {
    CAPTURE(zero_every);
    std::mt19937_64 rng(23 + zero_every);
    const std::size_t log_t = 4, T = std::size_t{1} << log_t;
    std::vector<std::vector<Fr>> cols(r1cs::kNumColumns, std::vector<Fr>(T));
    for (auto& c : cols)
      for (auto& x : c)
        x = (zero_every != 0 && rng() % zero_every == 0) ? Fr::zero() : rand_fr(rng);
    std::vector<Fr> tau(r1cs::kRowBits + log_t);
    for (auto& x : tau) x = rand_fr(rng);
    const WitnessColumns wc = WitnessColumns::from_dense(cols);
    CHECK_FALSE(SpartanOuterKernel(wc, tau).integer_rows());
    expect_outer_kernel_matches_oracle(wc, tau);
  }
}

// With every column the rows read stored as integers (or as small signed field elements) the
// kernel evaluates the rows as exact 128-bit integers and adds the grid's and the tables'
// weighted values as 64-bit pieces; values near 2^64 (the upper piece) and negative entries must
// give the oracle's round polynomials exactly, and a column of large field elements must send
// the kernel back to the field.
TEST_CASE("optimised outer Spartan kernel agrees with the naive oracle on integer witnesses") {
  std::mt19937_64 rng(31);
  const std::size_t log_t = 5, T = std::size_t{1} << log_t;
  // The guards (the rows' left sides) read flags; the right sides read words of every kind.
  std::vector<bool> guard(r1cs::kNumColumns, false);
  for (const auto& row : r1cs::constraints())
    for (const auto& term : row.a.terms) guard[term.first] = true;
  std::vector<std::vector<Fr>> cols(r1cs::kNumColumns, std::vector<Fr>(T));
  for (std::size_t c = 0; c < cols.size(); ++c)
    for (auto& x : cols[c]) {
      switch (guard[c] ? 0 : 1 + c % 3) {
        case 0:
          x = Fr::from_u64(rng() % 2);  // flags
          break;
        case 1:
          x = Fr::from_u64(rng() % 256);
          break;
        case 2:
          x = Fr::from_u64(~std::uint64_t{0} - rng() % 16);  // near 2^64
          break;
        default:
          x = Fr::from_i64(static_cast<std::int64_t>(rng() % 2001) - 1000);  // signed
      }
    }
  std::vector<Fr> tau(r1cs::kRowBits + log_t);
  for (auto& x : tau) x = rand_fr(rng);
  const WitnessColumns wc = WitnessColumns::from_dense(cols);
  CHECK(SpartanOuterKernel(wc, tau).integer_rows());
  expect_outer_kernel_matches_oracle(wc, tau);

  // One large field element in a column the rows read: the field path, the same polynomials.
  cols[r1cs::kImm][7] = rand_fr(rng);
  const WitnessColumns wide = WitnessColumns::from_dense(cols);
  CHECK_FALSE(SpartanOuterKernel(wide, tau).integer_rows());
  expect_outer_kernel_matches_oracle(wide, tau);
}

// Expr::evaluate skips monomials with a zero leaf and takes coefficients ±1 without a product;
// the value must be Σ coeff·Π leaves for every coefficient kind, with and without zero leaves.
TEST_CASE("an expression evaluates to the sum of its monomials, whatever its coefficients") {
  std::mt19937_64 rng(41);
  const Fr one = Fr::one();
  const std::vector<Fr> coeffs = {one, -one, Fr::from_u64(2), rand_fr(rng)};
  Expr e;
  std::vector<Monomial> plain;
  for (std::size_t c = 0; c < coeffs.size(); ++c)
    for (std::size_t len = 0; len <= 3; ++len) {
      Monomial m{coeffs[c], {}};
      for (std::size_t i = 0; i < len; ++i) m.leaves.push_back((c + 2 * i + len) % 5);
      e.add_monomial(m);
      plain.push_back(m);
    }
  for (int trial = 0; trial < 32; ++trial) {
    std::vector<Fr> v(5);
    for (auto& x : v) x = rng() % 3 == 0 ? Fr::zero() : (rng() % 2 ? one : rand_fr(rng));
    Fr want = Fr::zero();
    for (const Monomial& m : plain) {
      Fr p = m.coeff;
      for (std::uint32_t l : m.leaves) p = p * v[l];
      want = want + p;
    }
    CHECK(e.evaluate(v) == want);
  }
}

// EqWeightedKernel keeps each term's eq factor apart; its round polynomials and final values
// must be NaiveKernel's over the leaves [eq(r_0, ·), …, leaf_0, …] with Σ_g eq_g·E_g, for terms
// of degree 0 to 3, constants, shared leaves, monomials whose leaves are not in first-use order,
// zero and 0/1 entries, a boolean point (an indicator, as the exit cycle's) and a single round.
TEST_CASE("eq-weighted kernel: the naive kernel's round polynomials with eq kept apart") {
  std::mt19937_64 rng(61);
  const Fr one = Fr::one();
  // Up to 2^8 entries: the terms' blocks of pairs, whole and partial. Shapes: one term, one
  // whose point starts 0, 1 (round 0 cannot take q(1) from the claim), six terms.
  for (std::size_t n : {1u, 3u, 7u, 8u}) {
    for (int shape : {0, 1, 2}) {
      const std::size_t num_terms = shape == 2 ? 6 : 1;
      const bool edge = shape == 1;
      CAPTURE(n);
      CAPTURE(num_terms);
      CAPTURE(edge);
      std::vector<std::vector<Fr>> leaves(3, std::vector<Fr>(std::size_t{1} << n));
      for (auto& l : leaves)
        for (auto& x : l) x = rng() % 3 == 0 ? Fr::zero() : (rng() % 2 ? one : rand_fr(rng));
      std::vector<EqTerm> terms;
      {
        Expr e;  // 2·L0·L1 + L2 − 5
        e.add_product(Fr::from_u64(2), {Linear::leaf(0), Linear::leaf(1)});
        e.add_product(one, {Linear::leaf(2)});
        e.add_monomial(Monomial{-Fr::from_u64(5), {}});
        terms.push_back({{}, e});
      }
      if (num_terms > 1) {
        Expr e1, e2, e3;
        e1.add_product(one, {Linear::leaf(1)});
        e2.add_monomial(Monomial{Fr::from_u64(7), {}});
        e3.add_product(rand_fr(rng), {Linear::leaf(0), Linear::leaf(1), Linear::one_minus(2)});
        terms.push_back({{}, e1});
        terms.push_back({{}, e2});
        terms.push_back({{}, e3});
        Expr e4;  // one monomial with a coefficient and a repeated leaf: 3·L0·L1²
        e4.add_monomial(Monomial{Fr::from_u64(3), {0, 1, 1}});
        terms.push_back({{}, e4});
        Expr e5;  // monomials whose leaves are not in first-use order: L0·L2 + 4·L1·L0·L2
        e5.add_monomial(Monomial{one, {0, 2}});
        e5.add_monomial(Monomial{Fr::from_u64(4), {1, 0, 2}});
        terms.push_back({{}, e5});
      }
      for (std::size_t g = 0; g < terms.size(); ++g) {
        for (std::size_t i = 0; i < n; ++i)
          terms[g].point.push_back(g == 3 ? ((rng() & 1) ? one : Fr::zero()) : rand_fr(rng));
      }
      if (edge) {
        terms[0].point[0] = Fr::zero();
        if (n > 1) terms[0].point[1] = one;
      }
      // The naive kernel's leaves and expression.
      const auto G = static_cast<std::uint32_t>(terms.size());
      std::vector<std::vector<Fr>> naive_leaves;
      Expr naive_expr;
      for (std::uint32_t g = 0; g < G; ++g) {
        naive_leaves.push_back(EqPolynomial::evals(terms[g].point));
        for (const Monomial& m : terms[g].expr.monomials()) {
          Monomial s{m.coeff, {g}};
          for (std::uint32_t l : m.leaves) s.leaves.push_back(G + l);
          naive_expr.add_monomial(s);
        }
      }
      for (const auto& l : leaves) naive_leaves.push_back(l);
      NaiveKernel naive(kTestLabels, std::move(naive_leaves), naive_expr);
      EqWeightedKernel split(kTestLabels, terms, leaves);
      REQUIRE(split.num_rounds() == naive.num_rounds());
      REQUIRE(split.degree() == naive.degree());
      // The split kernel is handed each round's claim (with one term it takes q(1) from it).
      std::optional<Fr> bind;
      Fr claim;
      for (std::size_t j = 0; j < n; ++j) {
        CAPTURE(j);
        const std::vector<Fr> want = naive.prove_round(bind, j, claim);
        if (j == 0) claim = want[0] + want[1];
        CHECK(split.prove_round(bind, j, claim) == want);
        bind = rand_fr(rng);
        claim = UniPoly::from_evals(want).evaluate(*bind);
      }
      split.finish_rounds(*bind);
      naive.finish_rounds(*bind);
      CHECK(split.output_claims() == naive.output_claims());
    }
  }
  std::vector<std::vector<Fr>> leaves(1, std::vector<Fr>(8, one));
  Expr e;
  e.add_product(one, {Linear::leaf(0)});
  CHECK_THROWS_AS(EqWeightedKernel(kTestLabels, {{{one, one}, e}}, leaves), std::invalid_argument);
  Expr wide;
  wide.add_product(one, {Linear::leaf(1)});
  CHECK_THROWS_AS(EqWeightedKernel(kTestLabels, {{{one, one, one}, wide}}, leaves),
                  std::invalid_argument);
}

// divided_by_leaf gives the E of leaf·E: leaf's value times E at the other leaves (renumbered
// one down above it) is the expression's value; a monomial without the leaf, or with it twice
// (whose quotient would still read the removed leaf), is refused.
TEST_CASE("an expression divided by a leaf every monomial holds once") {
  std::mt19937_64 rng(67);
  Expr e;  // L1 · (3·L0·L2 − L3 + 5)
  e.add_product(Fr::from_u64(3), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  e.add_product(-Fr::one(), {Linear::leaf(3), Linear::leaf(1)});
  e.add_product(Fr::from_u64(5), {Linear::leaf(1)});
  const Expr q = e.divided_by_leaf(1);
  CHECK(q.degree() + 1 == e.degree());
  CHECK(q.num_leaves() == 3);
  for (int trial = 0; trial < 16; ++trial) {
    std::vector<Fr> v(4);
    for (auto& x : v) x = rand_fr(rng);
    CHECK(e.evaluate(v) == v[1] * q.evaluate(std::vector<Fr>{v[0], v[2], v[3]}));
  }
  Expr without;
  without.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1)});
  without.add_product(Fr::one(), {Linear::leaf(2)});
  CHECK_THROWS_AS(without.divided_by_leaf(0), std::invalid_argument);
  Expr twice;
  twice.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(0), Linear::leaf(1)});
  CHECK_THROWS_AS(twice.divided_by_leaf(0), std::invalid_argument);
}

TEST_CASE("transcript is deterministic and label-separated") {
  Transcript a("x"), b("x"), c("x");
  a.absorb_u64("n", 5);
  b.absorb_u64("n", 5);
  c.absorb_u64("m", 5);
  CHECK(a.challenge("r") == b.challenge("r"));
  CHECK(a.challenge("r") != c.challenge("r"));
  Transcript d("y");
  d.absorb_u64("n", 5);
  Transcript e("x");
  e.absorb_u64("n", 5);
  CHECK(d.challenge("r") != e.challenge("r"));
}
