// Bytecode read-raf (address rounds + RA virtualization of the index bits): honest proofs verify
// and their openings are the committed bits'; proofs are the same at 1 and 2 threads and equal a
// reference prover's over dense tables; a malicious prover — the honest prover (or, for
// fractional bits, the reference prover) run on a witness altered in one way, with the claims
// the R1CS side would make for it — is rejected at the named check; tampered proofs are
// rejected.
#include <doctest/doctest.h>

#include <tbb/global_control.h>

#include <jolt/prover/lookups/bytecode_read_raf.hpp>
#include <jolt/prover/lookups/ra_virtualization.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace jolt::prover;
using namespace jolt::prover::lookups;

namespace {

Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng() >> 2);
}

std::vector<Fr> rand_point(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> p(n);
  for (Fr& x : p) x = rand_fr(rng);
  return p;
}

// A program-like table: K entries of F small fields (flags, PCs, immediates), entry 0 the
// padding row.
struct Fixture {
  std::size_t log_t = 8;
  std::vector<std::vector<Fr>> entries;
  std::vector<std::uint32_t> index;  // per cycle
  std::vector<BytecodeClaimGroup> groups;
};

Fixture make_fixture(std::uint64_t seed, std::size_t K = 37, std::size_t F = 6) {
  std::mt19937_64 rng(seed);
  Fixture f;
  f.entries.assign(K, std::vector<Fr>(F));
  for (std::size_t k = 1; k < K; ++k)
    for (std::size_t i = 0; i < F; ++i)
      f.entries[k][i] = Fr::from_u64(i < 2 ? rng() & 0xffffffff : rng() & 1);
  const std::size_t T = std::size_t{1} << f.log_t;
  for (std::size_t j = 0; j < T; ++j)
    f.index.push_back(j + 8 < T ? static_cast<std::uint32_t>(1 + rng() % (K - 1)) : 0);
  // Three claim groups, as the pipeline's stages would make them.
  const std::vector<std::vector<std::uint32_t>> fields{{0, 1, 2, 3, 4, 5}, {2, 4}, {0}};
  for (const auto& fs : fields) {
    BytecodeClaimGroup g;
    g.point = rand_point(rng, f.log_t);
    for (std::uint32_t i : fs)
      if (i < F) g.fields.push_back(i);
    g.claims = bytecode_claims(f.entries, f.index, g.point, g.fields);
    f.groups.push_back(std::move(g));
  }
  return f;
}

BytecodeReadRafProof prove(const Fixture& f, bool self_check = true) {
  Transcript t("bytecode-test");
  return prove_bytecode_read_raf(f.entries, f.index, f.groups, t, self_check);
}

std::string rejected_at(const Fixture& f, const BytecodeReadRafProof& p) {
  Transcript t("bytecode-test");
  BytecodeReadRafOpenings o;
  auto e = verify_bytecode_read_raf(f.entries, f.log_t, f.groups, p, t, o);
  return e ? e->check : "accepted";
}

// The index bits as dense tables (bit b = the index's bit m − 1 − b).
std::vector<std::vector<Fr>> index_bit_tables(const std::vector<std::uint32_t>& index, unsigned m) {
  std::vector<std::vector<Fr>> bits(m, std::vector<Fr>(index.size()));
  for (std::size_t j = 0; j < index.size(); ++j)
    for (unsigned b = 0; b < m; ++b) bits[b][j] = Fr::from_u64((index[j] >> (m - 1 - b)) & 1);
  return bits;
}

// The protocol run over dense tables with naive kernels: ra given as an (entry × cycle) table and
// the bits as field tables, so a witness can hold fractional rows and bits. Same transcript order
// as prove_bytecode_read_raf.
BytecodeReadRafProof reference_prove(const Fixture& f, const std::vector<std::vector<Fr>>& ra,
                                     const std::vector<std::vector<Fr>>& bits) {
  Transcript t("bytecode-test");
  const unsigned m = bytecode_index_bits(f.entries.size());
  const std::size_t K = std::size_t{1} << m, T = f.index.size(), G = f.groups.size();
  std::vector<Fr> all;
  for (const auto& g : f.groups) all.insert(all.end(), g.claims.begin(), g.claims.end());
  t.absorb_frs("bytecode_claims", all);
  const Fr gamma = t.challenge("bytecode_gamma");
  std::vector<std::vector<Fr>> leaves(2 * G, std::vector<Fr>(K));
  Fr input, p = Fr::one();
  for (std::size_t g = 0; g < G; ++g) {
    const std::vector<Fr> e = EqPolynomial::evals(f.groups[g].point);
    for (std::size_t k = 0; k < K; ++k) {
      for (std::size_t j = 0; j < T; ++j) leaves[g][k] += e[j] * ra[k][j];
      const std::vector<Fr>& entry = f.entries[k < f.entries.size() ? k : 0];
      Fr q = p;
      for (std::uint32_t fi : f.groups[g].fields) leaves[G + g][k] += q * entry[fi], q = q * gamma;
    }
    for (const Fr& c : f.groups[g].claims) input += p * c, p = p * gamma;
  }
  Expr expr;
  for (std::uint32_t g = 0; g < G; ++g)
    expr.add_product(Fr::one(), {Linear::leaf(g), Linear::leaf(static_cast<std::uint32_t>(G + g))});
  static const KernelLabels labels{"Ref::prepare", "Ref::prove_round", "Ref::finish_rounds"};
  BytecodeReadRafProof proof;
  NaiveKernel ka(labels, std::move(leaves), expr);
  BatchProverOutput out = prove_batch({{&ka, input}}, t, /*self_check=*/false);
  proof.address = out.proof;
  proof.address_outputs.assign(out.member_outputs[0].begin(), out.member_outputs[0].begin() + G);
  const std::vector<Fr> r_addr = out.challenges;
  t.absorb_frs("bytecode_address_outputs", proof.address_outputs);
  const Fr mu = t.challenge("bytecode_mu");
  const Fr zeta = t.challenge("bytecode_zeta");
  const std::vector<Fr> rho = t.challenges("bytecode_rho", f.log_t);
  // Leaves: W, eq(ρ, ·), bit_0 .. bit_{m−1}.
  std::vector<std::vector<Fr>> l2{std::vector<Fr>(T), EqPolynomial::evals(rho)};
  Fr input2, mp = Fr::one();
  for (std::size_t g = 0; g < G; ++g, mp = mp * mu) {
    const std::vector<Fr> e = EqPolynomial::evals(f.groups[g].point);
    for (std::size_t j = 0; j < T; ++j) l2[0][j] += mp * e[j];
    input2 += mp * proof.address_outputs[g];
  }
  for (const auto& b : bits) l2.push_back(b);
  Expr e2;
  std::vector<Linear> factors{Linear::leaf(0)};
  for (unsigned b = 0; b < m; ++b)  // r_b·bit + (1 − r_b)(1 − bit)
    factors.push_back(Linear{Fr::one() - r_addr[b], {{2 + b, r_addr[b].dbl() - Fr::one()}}});
  e2.add_product(Fr::one(), factors);
  Fr z = zeta;  // bit b weighs ζ^(b+1)
  for (unsigned b = 0; b < m; ++b, z = z * zeta) {
    e2.add_product(z, {Linear::leaf(1), Linear::leaf(2 + b), Linear::leaf(2 + b)});
    e2.add_product(-z, {Linear::leaf(1), Linear::leaf(2 + b)});
  }
  NaiveKernel kr(labels, std::move(l2), e2);
  BatchProverOutput out2 = prove_batch({{&kr, input2}}, t, /*self_check=*/false);
  proof.ra = out2.proof;
  proof.index_bits.assign(out2.member_outputs[0].begin() + 2, out2.member_outputs[0].end());
  return proof;
}

std::vector<std::vector<Fr>> one_hot(const std::vector<std::uint32_t>& index, std::size_t K) {
  std::vector<std::vector<Fr>> ra(K, std::vector<Fr>(index.size()));
  for (std::size_t j = 0; j < index.size(); ++j) ra[index[j]][j] = Fr::one();
  return ra;
}

bool same(const SumcheckProof& a, const SumcheckProof& b) {
  if (a.round_polys.size() != b.round_polys.size()) return false;
  for (std::size_t i = 0; i < a.round_polys.size(); ++i)
    if (a.round_polys[i].coeffs != b.round_polys[i].coeffs) return false;
  return true;
}

bool same(const BytecodeReadRafProof& a, const BytecodeReadRafProof& b) {
  return same(a.address, b.address) && a.address_outputs == b.address_outputs && same(a.ra, b.ra) &&
         a.index_bits == b.index_bits;
}

}  // namespace

TEST_CASE("honest bytecode read-raf proofs verify, and the openings are the index bits'") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Fixture f = make_fixture(seed);
    const BytecodeReadRafProof p = prove(f);
    Transcript t("bytecode-test");
    BytecodeReadRafOpenings o;
    const auto e = verify_bytecode_read_raf(f.entries, f.log_t, f.groups, p, t, o);
    REQUIRE_FALSE(e.has_value());
    const unsigned m = bytecode_index_bits(f.entries.size());
    CHECK(m == 6);
    REQUIRE(o.index_bits.size() == m);
    const auto bits = index_bit_tables(f.index, m);
    for (unsigned b = 0; b < m; ++b)
      CHECK(o.index_bits[b] == DenseMultilinear::evaluate(bits[b], o.bit_point));
  }
  // Widths at the edges: a two-entry table (one bit) and a table of exactly 2^m entries.
  for (std::size_t K : {2, 64}) {
    INFO("K = " << K);
    const Fixture f = make_fixture(7, K, 3);
    CHECK(rejected_at(f, prove(f)) == "accepted");
  }
}

TEST_CASE("an index past the table reads entry 0's fields (the padding row)") {
  Fixture f = make_fixture(4);
  f.index[5] = 60;  // 37 entries, padded to 64
  for (auto& g : f.groups) g.claims = bytecode_claims(f.entries, f.index, g.point, g.fields);
  CHECK(rejected_at(f, prove(f)) == "accepted");
  Fixture g = f;
  g.index[5] = 0;
  CHECK(g.groups[0].claims ==
        bytecode_claims(f.entries, g.index, g.groups[0].point, g.groups[0].fields));
}

TEST_CASE("the bytecode read-raf proof is the same at 1 and 2 threads, and the reference's") {
  const Fixture f = make_fixture(5);
  BytecodeReadRafProof one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = prove(f);
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = prove(f);
  }
  CHECK(same(one, two));
  const unsigned m = bytecode_index_bits(f.entries.size());
  CHECK(same(one, reference_prove(f, one_hot(f.index, std::size_t{1} << m),
                                  index_bit_tables(f.index, m))));
}

TEST_CASE("a malicious prover's static column that is not its entry's is rejected") {
  // The R1CS side's column differs from the entry in one cycle: its claims are the altered
  // column's, the honest prover runs on the true index.
  Fixture f = make_fixture(6);
  std::vector<std::vector<Fr>> altered = f.entries;
  const std::uint32_t k = f.index[17];
  std::vector<std::uint32_t> index = f.index;
  altered.push_back(f.entries[k]);
  altered.back()[2] += Fr::one();  // a flag of 2 in cycle 17
  index[17] = static_cast<std::uint32_t>(altered.size() - 1);
  for (auto& g : f.groups) g.claims = bytecode_claims(altered, index, g.point, g.fields);
  CHECK(rejected_at(f, prove(f, /*self_check=*/false)) == "bytecode.address.sumcheck.round_sum");
  // The same alteration is caught in every group that opens that field, alone too.
  Fixture only_third = f;
  only_third.groups[0].claims =
      bytecode_claims(f.entries, f.index, f.groups[0].point, f.groups[0].fields);
  CHECK(rejected_at(only_third, prove(only_third, false)) == "bytecode.address.sumcheck.round_sum");
}

TEST_CASE("a malicious prover whose index bits name another entry is rejected") {
  // The claims are the executed entry's; the committed index of one cycle names another entry.
  Fixture f = make_fixture(8);
  Fixture bad = f;
  bad.index[3] = bad.index[3] == 1 ? 2 : 1;
  REQUIRE(f.entries[f.index[3]] != f.entries[bad.index[3]]);
  CHECK(rejected_at(f, prove(bad, false)) == "bytecode.address.sumcheck.round_sum");
}

TEST_CASE("a malicious prover with a fractional index bit is rejected by booleanity") {
  // One cycle's ra row is half each of two entries differing in one index bit, that bit is 1/2
  // and the claims are the half-and-half row's: consistent for the address rounds and the RA
  // virtualization, so only booleanity rejects it.
  Fixture f = make_fixture(9);
  const unsigned m = bytecode_index_bits(f.entries.size());
  const std::size_t K = std::size_t{1} << m, j = 11;
  const std::uint32_t k1 = f.index[j] & ~1u, k2 = k1 | 1u;  // differ in the last bit
  auto ra = one_hot(f.index, K);
  auto bits = index_bit_tables(f.index, m);
  const Fr half = Fr::from_u64(2).inverse();
  ra[f.index[j]][j] = Fr::zero();
  ra[k1][j] = half;
  ra[k2][j] = half;
  bits[m - 1][j] = half;
  for (auto& g : f.groups) {
    const std::vector<Fr> e = EqPolynomial::evals(g.point);
    for (std::size_t i = 0; i < g.fields.size(); ++i) {
      Fr c;
      for (std::size_t k = 0; k < K; ++k)
        for (std::size_t t = 0; t < f.index.size(); ++t)
          c += e[t] * ra[k][t] * f.entries[k < f.entries.size() ? k : 0][g.fields[i]];
      g.claims[i] = c;
    }
  }
  REQUIRE(f.entries[k1 < f.entries.size() ? k1 : 0] != f.entries[k2 < f.entries.size() ? k2 : 0]);
  CHECK(rejected_at(f, reference_prove(f, ra, bits)) == "bytecode.ra.sumcheck.round_sum");
  // The same half-and-half row with a Boolean committed bit breaks the RA virtualization instead.
  bits[m - 1][j] = Fr::one();
  CHECK(rejected_at(f, reference_prove(f, ra, bits)) == "bytecode.ra.sumcheck.round_sum");
}

TEST_CASE("tampered bytecode read-raf proofs are rejected at the named check") {
  const Fixture f = make_fixture(10);
  const BytecodeReadRafProof honest = prove(f);
  {
    BytecodeReadRafProof p = honest;
    p.address_outputs[1] += Fr::one();
    CHECK(rejected_at(f, p) == "bytecode.address.final");
  }
  {
    BytecodeReadRafProof p = honest;
    p.index_bits[2] += Fr::one();
    CHECK(rejected_at(f, p) == "bytecode.ra.final");
  }
  {
    BytecodeReadRafProof p = honest;
    p.index_bits.pop_back();
    CHECK(rejected_at(f, p) == "bytecode.shape");
  }
  {
    BytecodeReadRafProof p = honest;
    p.address_outputs.push_back(Fr::one());
    CHECK(rejected_at(f, p) == "bytecode.shape");
  }
  {
    BytecodeReadRafProof p = honest;
    p.address.round_polys[0].coeffs[0] += Fr::one();
    CHECK(rejected_at(f, p) == "bytecode.address.sumcheck.round_sum");
  }
  {
    BytecodeReadRafProof p = honest;
    p.ra.round_polys[3].coeffs[1] += Fr::one();
    CHECK(rejected_at(f, p) == "bytecode.ra.sumcheck.round_sum");
  }
  {
    Fixture g = f;
    g.groups[1].point.pop_back();
    CHECK(rejected_at(g, honest) == "bytecode.shape");
  }
}

TEST_CASE("malformed bytecode read-raf inputs are refused, naming the problem") {
  Fixture f = make_fixture(11);
  f.index[9] = 64;
  CHECK_THROWS_WITH_AS(prove(f), doctest::Contains("cycle 9 names entry 64 of 64"),
                       std::invalid_argument);
  Fixture g = make_fixture(11);
  g.groups[0].fields.push_back(6);
  g.groups[0].claims.push_back(Fr::zero());
  CHECK_THROWS_AS(prove(g), std::invalid_argument);
  Fixture h = make_fixture(11);
  h.entries[3].pop_back();
  CHECK_THROWS_WITH_AS(prove(h), doctest::Contains("entry 3 has 5 fields"), std::invalid_argument);
}
