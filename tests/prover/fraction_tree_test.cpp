// The fraction-tree sumcheck of stages 4–6 (prover/src/engine/pipeline/fraction_tree.hpp): the
// layer kernel gives the NaiveKernel oracle's rounds and outputs; small integer numerators give the
// same proof as the same numerators as field elements, and the verifier's root is Σ p/q.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>

#include "pipeline/fraction_tree.hpp"
#include "pipeline/protocol.hpp"

using namespace jolt::prover;

namespace {

constexpr KernelLabels kLabels = {"TestFractionLayer::prepare", "TestFractionLayer::prove_round",
                                  "TestFractionLayer::finish_rounds"};

std::vector<Fr> flatten(const FractionTreeProof& p) {
  std::vector<Fr> out = p.root_children;
  for (const FractionLayerProof& l : p.layers) {
    for (const UniPoly& u : l.sumcheck.round_polys)
      out.insert(out.end(), u.coeffs.begin(), u.coeffs.end());
    out.insert(out.end(), l.claims.begin(), l.claims.end());
  }
  out.insert(out.end(), p.point.begin(), p.point.end());
  out.push_back(p.p_leaf_claim);
  out.push_back(p.q_leaf_claim);
  return out;
}

Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u64(rng()) * Fr::from_u64(rng()) + Fr::from_u64(rng());
}

// Runs the kernel beside the oracle for m rounds at random challenges (challenge j is one when
// j < ones): each round's evaluations and the final outputs must be the oracle's. The kernel is
// handed each round's claim, from which it takes q(1) where it can.
void check_against_oracle(SumcheckKernel& k, NaiveKernel& oracle, std::size_t m,
                          std::mt19937_64& rng, std::size_t ones = 0) {
  std::optional<Fr> bind;
  Fr claim;
  for (std::size_t round = 0; round < m; ++round) {
    const std::vector<Fr> eo = oracle.prove_round(bind, round, claim);
    if (round == 0) claim = eo[0] + eo[1];
    CHECK(k.prove_round(bind, round, claim) == eo);
    const Fr c = round < ones ? Fr::one() : rand_fr(rng);
    claim = UniPoly::from_evals(eo).evaluate(c);
    bind = c;
  }
  k.finish_rounds(*bind);
  oracle.finish_rounds(*bind);
  CHECK(k.output_claims() == oracle.output_claims());
}

}  // namespace

// Edge 1 puts r_0 = 0 and r_1 = 1 (round 0 sums q(1): the claim does not give it), edge 2 also
// binds round 0 at 1 (eq(r_0, 1) = 0: every later round sums q(1) too).
TEST_CASE("fraction layer kernel: the NaiveKernel oracle's rounds and outputs") {
  std::mt19937_64 rng(29);
  for (const int edge : {0, 1, 2})
    for (const bool unit : {false, true})
      for (const std::size_t m : {1u, 2u, 5u, 11u}) {
        CAPTURE(edge);
        CAPTURE(unit);
        CAPTURE(m);
        const std::size_t N = std::size_t{1} << m;
        std::vector<Fr> r(m);
        for (Fr& x : r) x = rand_fr(rng);
        if (edge > 0) {
          r[0] = Fr::zero();
          if (m > 1) r[1] = Fr::one();
        }
        std::vector<std::vector<Fr>> tables(unit ? 2 : 4, std::vector<Fr>(N));
        for (auto& t : tables)
          for (Fr& x : t) x = rand_fr(rng);
        // Numerator tables as stages 4 and 5 make them: mostly ±1 and 0.
        if (!unit)
          for (std::size_t i = 0; i < N; ++i)
            tables[0][i] = Fr::from_i64(std::int64_t(rng() % 3) - 1);
        const Fr lambda = rand_fr(rng);
        std::vector<std::vector<Fr>> leaves{EqPolynomial::evals(r)};
        leaves.insert(leaves.end(), tables.begin(), tables.end());
        NaiveKernel oracle(kLabels, leaves, protocol::fraction_layer_expr(lambda, unit));
        auto k = make_fraction_layer_kernel(kLabels, r, tables, lambda);
        REQUIRE(k->num_rounds() == m);
        REQUIRE(k->degree() == oracle.degree());
        check_against_oracle(*k, oracle, m, rng, edge == 2 ? 1 : 0);
      }
  CHECK_THROWS_AS(
      make_fraction_layer_kernel(kLabels, {Fr::one()}, {{Fr::one(), Fr::one()}}, Fr::one()),
      std::invalid_argument);
}

// The leaf layer of a tree with 4-byte numerators keeps P0 and P1 as integers until its first
// bind: the same rounds and outputs as the oracle over their field values.
TEST_CASE("fraction layer kernel: small-integer numerators give the oracle's rounds") {
  std::mt19937_64 rng(31);
  const std::int32_t pool[] = {1, -1, 0, 3, -5, 1 << 29, -(1 << 29)};
  for (const std::size_t m : {1u, 2u, 7u, 12u}) {
    CAPTURE(m);
    const std::size_t N = std::size_t{1} << m;
    std::vector<Fr> r(m);
    for (Fr& x : r) x = rand_fr(rng);
    std::array<std::vector<std::int32_t>, 2> small;
    std::vector<std::vector<Fr>> tables(4, std::vector<Fr>(N));
    for (std::size_t b = 0; b < 2; ++b) {
      small[b].resize(N);
      for (std::size_t i = 0; i < N; ++i) {
        small[b][i] = pool[rng() % std::size(pool)];
        tables[b][i] = Fr::from_i64(small[b][i]);
      }
    }
    for (std::size_t b = 2; b < 4; ++b)
      for (Fr& x : tables[b]) x = rand_fr(rng);
    const Fr lambda = rand_fr(rng);
    std::vector<std::vector<Fr>> leaves{EqPolynomial::evals(r)};
    leaves.insert(leaves.end(), tables.begin(), tables.end());
    NaiveKernel oracle(kLabels, leaves, protocol::fraction_layer_expr(lambda, false));
    auto k = make_fraction_layer_kernel(kLabels, r, small, {tables[2], tables[3]}, lambda);
    REQUIRE(k->num_rounds() == m);
    check_against_oracle(*k, oracle, m, rng);
  }
  CHECK_THROWS_AS(
      make_fraction_layer_kernel(kLabels, {Fr::one()},
                                 {std::vector<std::int32_t>{1}, std::vector<std::int32_t>{1}},
                                 {{Fr::one(), Fr::one()}, {Fr::one(), Fr::one()}}, Fr::one()),
      std::invalid_argument);
}

TEST_CASE("fraction tree: 4-byte numerators prove exactly what field numerators prove") {
  std::mt19937_64 rng(11);
  for (const std::size_t n : {2u, 3u, 6u, 9u}) {
    CAPTURE(n);
    const std::size_t N = std::size_t{1} << n;
    std::vector<std::int32_t> small(N);
    std::vector<Fr> field(N), q(N);
    // ±1, 0 and multiplicities, as stages 4 and 5 produce them, and two extremes.
    const std::int32_t pool[] = {1, -1, 0, 2, -7, 1 << 29, -(1 << 29)};
    for (std::size_t i = 0; i < N; ++i) {
      small[i] = pool[rng() % std::size(pool)];
      field[i] = Fr::from_i64(small[i]);
      q[i] = Fr::from_u64(rng()) + Fr::from_u64(1000 + i);
    }
    Fr expected = Fr::zero();
    for (std::size_t i = 0; i < N; ++i) expected += field[i] * q[i].inverse();

    Transcript ts("fraction-tree-test"), tf("fraction-tree-test"), tv("fraction-tree-test");
    const FractionTreeProof ps = prove_fraction_tree(small, q, kLabels, ts, true);
    const FractionTreeProof pf = prove_fraction_tree(field, q, kLabels, tf, true);
    CHECK(flatten(ps) == flatten(pf));

    FractionTreeVerified v;
    REQUIRE_FALSE(verify_fraction_tree(n, false, ps.root_children, ps.layers, tv, v));
    CHECK(v.p_root == expected * v.q_root);
    CHECK(v.point == ps.point);
    CHECK(v.p_leaf_claim == ps.p_leaf_claim);
  }
}

TEST_CASE("fraction tree: unit numerators prove Σ 1/q, at every depth the layers are rebuilt") {
  std::mt19937_64 rng(12);
  // n = 2 builds layer 1 from the leaves at once; n ≥ 3 builds layer n − 1 again for its sumcheck.
  for (const std::size_t n : {2u, 3u, 4u, 7u}) {
    CAPTURE(n);
    const std::size_t N = std::size_t{1} << n;
    std::vector<Fr> q(N), ones(N, Fr::one());
    for (std::size_t i = 0; i < N; ++i) q[i] = rand_fr(rng) + Fr::from_u64(1 + i);
    Fr expected = Fr::zero();
    for (std::size_t i = 0; i < N; ++i) expected += q[i].inverse();

    Transcript tu("fraction-tree-test"), tv("fraction-tree-test");
    const FractionTreeProof pu = prove_fraction_tree(std::vector<Fr>{}, q, kLabels, tu, true);
    FractionTreeVerified v;
    REQUIRE_FALSE(verify_fraction_tree(n, true, pu.root_children, pu.layers, tv, v));
    CHECK(v.p_root == expected * v.q_root);
    CHECK(v.point == pu.point);
    CHECK(pu.p_leaf_claim == Fr::one());
    CHECK(v.q_leaf_claim == pu.q_leaf_claim);
    // Q_n at the leaf point is the leaves' multilinear extension there.
    CHECK(pu.q_leaf_claim == DenseMultilinear::evaluate(q, pu.point));
    // Explicit unit numerators give the same root (another proof shape: 4 claims per layer).
    Transcript tf("fraction-tree-test");
    const FractionTreeProof pf = prove_fraction_tree(ones, q, kLabels, tf, true);
    CHECK(pf.root_children[0] * pf.root_children[3] + pf.root_children[1] * pf.root_children[2] ==
          expected * pf.root_children[2] * pf.root_children[3]);
  }
}

// Stages 4 and 5 give the denominators as a function: the same proof as the table, and the
// tree asks only for leaves that exist.
TEST_CASE("fraction tree: denominators from a function prove what the table proves") {
  std::mt19937_64 rng(41);
  for (const unsigned n : {2u, 3u, 5u, 12u}) {
    CAPTURE(n);
    const std::size_t N = std::size_t{1} << n;
    std::vector<std::int32_t> small(N);
    std::vector<Fr> field(N), q(N);
    for (std::size_t i = 0; i < N; ++i) {
      small[i] = static_cast<std::int32_t>(rng() % 5) - 2;
      field[i] = Fr::from_i64(small[i]);
      q[i] = rand_fr(rng);
    }
    std::atomic<bool> in_range{true};
    const LeafDenominators q_of = [&](std::size_t begin, std::span<Fr> out) {
      if (begin + out.size() > N) in_range = false;
      for (std::size_t k = 0; k < out.size() && begin + k < N; ++k) out[k] = q[begin + k];
    };
    Transcript ta("fraction-fn"), tb("fraction-fn"), tc("fraction-fn"), td("fraction-fn");
    const FractionTreeProof table = prove_fraction_tree(small, q, kLabels, ta, true);
    const FractionTreeProof fn = prove_fraction_tree(small, n, q_of, kLabels, tb, true);
    const FractionTreeProof ffn = prove_fraction_tree(field, n, q_of, kLabels, tc, true);
    const FractionTreeProof unit =
        prove_fraction_tree(std::vector<Fr>{}, n, q_of, kLabels, td, true);
    CHECK(in_range.load());
    CHECK(fn.root_children == table.root_children);
    CHECK(fn.point == table.point);
    CHECK(fn.q_leaf_claim == table.q_leaf_claim);
    CHECK(fn.p_leaf_claim == table.p_leaf_claim);
    CHECK(ffn.root_children == table.root_children);
    CHECK(ffn.q_leaf_claim == table.q_leaf_claim);
    CHECK(ta.state() == tb.state());
    CHECK(ta.state() == tc.state());
    Transcript te("fraction-fn");
    const FractionTreeProof unit_table =
        prove_fraction_tree(std::vector<Fr>{}, q, kLabels, te, true);
    CHECK(unit.root_children == unit_table.root_children);
    CHECK(unit.q_leaf_claim == unit_table.q_leaf_claim);
    CHECK(td.state() == te.state());
  }
}
