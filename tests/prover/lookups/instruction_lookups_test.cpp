// Instruction lookups (read-raf + key bits): honest proofs verify and their openings are the
// witness's; proofs are the same at 1 and 2 threads; a malicious prover — the honest prover run
// on a witness altered in one way, with the claims the R1CS side would make for it — is
// rejected at the named check; tampered proofs are rejected.
#include <doctest/doctest.h>

#include <tbb/global_control.h>

#include <jolt/prover/lookups/instruction_lookups.hpp>
#include <jolt/prover/lookups/instruction_tables.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <random>
#include <string>
#include <vector>

using namespace jolt::prover;
using namespace jolt::prover::lookups;

namespace {

Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng() >> 2);
}

std::uint8_t id(LookupTable t) {
  return static_cast<std::uint8_t>(t);
}

// One cycle of an instruction: its table, RAF flag and key from its operands, as the R1CS side
// would form them (sums and products for the one-operand tables).
void push_cycle(InstructionLookupWitness& w, LookupTable t, std::uint32_t x, std::uint32_t y) {
  const std::uint64_t mask = (std::uint64_t{1} << w.word_bits) - 1;
  x = static_cast<std::uint32_t>(x & mask);
  y = static_cast<std::uint32_t>(y & mask);
  std::uint64_t key;
  bool raf = !takes_operand_pair(t);
  switch (t) {
    case LookupTable::RangeCheck:
    case LookupTable::RangeCheckAligned:  // ADD, JALR
      key = std::uint64_t{x} + y;
      break;
    case LookupTable::UpperWord:
    case LookupTable::MulUNoOverflow:
      key = std::uint64_t{x} * y;
      break;  // MULHU, MUL checks
    case LookupTable::Pow2:
    case LookupTable::ShiftRightBitmask:
      key = y;
      break;
    default:
      key = interleave(x, y);
      break;
  }
  w.keys.push_back(key);
  w.tables.push_back(id(t));
  w.raf.push_back(raf ? 1 : 0);
}

// Every instruction table at least once, random operands, and a few no-lookup cycles.
InstructionLookupWitness make_witness(unsigned word_bits, std::size_t log_t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  InstructionLookupWitness w;
  w.word_bits = word_bits;
  const std::size_t n = std::size_t{1} << log_t;
  for (std::size_t j = 0; j < n; ++j) {
    if (j % 11 == 10) {  // a cycle with no lookup (padding): key 0, no table
      w.keys.push_back(0);
      w.tables.push_back(kNoTable);
      w.raf.push_back(0);
      continue;
    }
    const auto t = static_cast<LookupTable>(j % kNumInstructionTables);
    push_cycle(w, t, static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()));
  }
  return w;
}

std::vector<Fr> rand_point(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> r(n);
  for (auto& x : r) x = rand_fr(rng);
  return r;
}

struct Run {
  InstructionLookupProof proof;
  std::vector<Fr> r_cycle;
  InstructionLookupClaims claims;
};

Run prove(const InstructionLookupWitness& w, const InstructionLookupClaims* claims_override,
          std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  Run run;
  const std::size_t log_t = static_cast<std::size_t>(std::countr_zero(w.cycles()));
  run.r_cycle = rand_point(rng, log_t);
  run.claims = claims_override ? *claims_override : lookup_claims(w, run.r_cycle);
  Transcript tr("lookups-test");
  run.proof = prove_instruction_lookups(w, run.r_cycle, run.claims, tr, /*self_check=*/false);
  return run;
}

std::optional<VerifyError> verify(unsigned word_bits, const Run& run,
                                  InstructionLookupOpenings& o) {
  Transcript tr("lookups-test");
  return verify_instruction_lookups(word_bits, run.r_cycle.size(), run.r_cycle, run.claims,
                                    run.proof, tr, o);
}

std::string rejected_at(unsigned word_bits, const Run& run) {
  InstructionLookupOpenings o;
  auto e = verify(word_bits, run, o);
  return e ? e->check : "accepted";
}

// The table flags and the RAF flag of every cycle at `point`: flag_t(point) for each instruction
// table, then raf(point).
std::vector<Fr> flag_openings(const std::vector<std::uint8_t>& tables,
                              const std::vector<std::uint8_t>& raf, const std::vector<Fr>& point) {
  const std::vector<Fr> e = EqPolynomial::evals(point);
  std::vector<Fr> out(kNumInstructionTables + 1);
  for (std::size_t j = 0; j < tables.size(); ++j) {
    if (tables[j] != kNoTable) out[tables[j]] += e[j];
    if (raf[j]) out.back() += e[j];
  }
  return out;
}

// What the caller checks: the key-bit openings against the committed bits, the flag openings
// against the bytecode's flags (here: the witness itself plays both).
bool openings_match(const InstructionLookupWitness& w, const InstructionLookupOpenings& o) {
  const unsigned kb = 2 * w.word_bits;
  const std::vector<Fr> e6 = EqPolynomial::evals(o.bit_point);
  for (unsigned b = 0; b < kb; ++b) {
    Fr v;
    for (std::size_t j = 0; j < w.cycles(); ++j)
      if ((w.keys[j] >> (kb - 1 - b)) & 1) v += e6[j];
    if (v != o.key_bits[b]) return false;
  }
  const std::vector<Fr> f = flag_openings(w.tables, w.raf, o.read_raf_point);
  return std::vector<Fr>(f.begin(), f.end() - 1) == o.flags && f.back() == o.raf;
}

// The claims the R1CS side makes when its column of results holds `delta` more at cycle j.
InstructionLookupClaims with_output_changed(const InstructionLookupWitness& w,
                                            const std::vector<Fr>& r_cycle, std::size_t j,
                                            const Fr& delta, int which = 0) {
  InstructionLookupClaims c = lookup_claims(w, r_cycle);
  const Fr e = EqPolynomial::evals(r_cycle)[j] * delta;
  (which == 0 ? c.output : which == 1 ? c.left : c.right) += e;
  return c;
}

std::size_t first_cycle_of(const InstructionLookupWitness& w, LookupTable t) {
  for (std::size_t j = 0; j < w.cycles(); ++j)
    if (w.tables[j] == id(t)) return j;
  FAIL("no cycle uses ", table_name(t));
  return 0;
}

}  // namespace

TEST_CASE("honest instruction lookups verify, and the openings are the witness's") {
  for (const auto& shape : {std::pair{32u, std::size_t{6}}, std::pair{8u, std::size_t{8}},
                            std::pair{4u, std::size_t{5}}}) {
    const unsigned word_bits = shape.first;
    const std::size_t log_t = shape.second;
    const InstructionLookupWitness w = make_witness(word_bits, log_t, 42 + word_bits);
    const Run run = prove(w, nullptr);
    InstructionLookupOpenings o;
    auto e = verify(word_bits, run, o);
    INFO("W = ", word_bits, (e ? " rejected at " + e->check + ": " + e->message : ""));
    REQUIRE(!e);
    CHECK(openings_match(w, o));
    CHECK(o.read_raf_point.size() == log_t);
    CHECK(o.key_bits.size() == 2 * word_bits);
  }
}

TEST_CASE("the lookup proof is the same at 1 and 2 threads") {
  const InstructionLookupWitness w = make_witness(32, 12, 9);
  auto proof_bytes = [&](int threads) {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, threads);
    const Run run = prove(w, nullptr);
    std::vector<Fr> all = run.proof.read_raf_outputs;
    all.insert(all.end(), run.proof.key_bit_claims.begin(), run.proof.key_bit_claims.end());
    for (const auto& p : run.proof.read_raf.round_polys)
      all.insert(all.end(), p.coeffs.begin(), p.coeffs.end());
    for (const auto& p : run.proof.key_bits.round_polys)
      all.insert(all.end(), p.coeffs.begin(), p.coeffs.end());
    return all;
  };
  CHECK(proof_bytes(1) == proof_bytes(2));
}

TEST_CASE("a malicious prover's wrong result is rejected at the read-raf sumcheck") {
  // The honest prover on a trace whose result column differs from the table at one cycle: the
  // keys (operands) are honest, the R1CS side's output claim carries the wrong result.
  const InstructionLookupWitness w = make_witness(32, 8, 5);
  std::mt19937_64 rng(2);
  const std::vector<Fr> r_cycle = rand_point(rng, 8);
  struct Case {
    const char* name;
    LookupTable table;
    Fr delta;
  };
  const Case cases[] = {
      {"ADD result + 1", LookupTable::RangeCheck, Fr::one()},
      {"SLTU says 1 when 0 (or 0 when 1)", LookupTable::LessThanUnsigned, Fr::one()},
      {"XOR result with bit 0 flipped", LookupTable::Xor, Fr::one()},
      {"MULHU result − 1", LookupTable::UpperWord, -Fr::one()},
      {"BEQ taken against its condition", LookupTable::Equal, Fr::one()},
      {"SRA result + 2^31", LookupTable::VirtualSRA, Fr::from_u64(1u << 31)},
      {"REMU remainder check passed when it fails", LookupTable::ValidUnsignedRemainder, Fr::one()},
      {"a register value 2^32 written by ADD", LookupTable::RangeCheck,
       Fr::from_u64(0x100000000ull)},
  };
  for (const Case& c : cases) {
    const std::size_t j = first_cycle_of(w, c.table);
    std::mt19937_64 seed_rng(1);
    Run run;
    run.r_cycle = r_cycle;
    run.claims = with_output_changed(w, r_cycle, j, c.delta);
    Transcript tr("lookups-test");
    run.proof = prove_instruction_lookups(w, run.r_cycle, run.claims, tr, false);
    INFO(c.name);
    CHECK(rejected_at(32, run) == "lookups.read_raf.sumcheck.round_sum");
  }
}

TEST_CASE("a malicious prover whose key disagrees with the operands is rejected") {
  // The prover picks the key that makes the table give the claimed (wrong) XOR result; the
  // operands the R1CS side claims are the instruction's, so the RAF part catches it.
  InstructionLookupWitness w = make_witness(32, 8, 5);
  std::mt19937_64 rng(4);
  const std::vector<Fr> r_cycle = rand_point(rng, 8);
  const std::size_t j = first_cycle_of(w, LookupTable::Xor);
  const InstructionLookupClaims honest = lookup_claims(w, r_cycle);
  const std::uint32_t x = left_of(w.keys[j]), y = right_of(w.keys[j]);
  w.keys[j] = interleave(x, y ^ 1u);  // Xor now yields (x ^ y) ^ 1
  InstructionLookupClaims claims = honest;
  claims.output = lookup_claims(w, r_cycle).output;  // the wrong result, consistent with the key
  Run run;
  run.r_cycle = r_cycle;
  run.claims = claims;
  Transcript tr("lookups-test");
  run.proof = prove_instruction_lookups(w, run.r_cycle, run.claims, tr, false);
  CHECK(rejected_at(32, run) == "lookups.read_raf.sumcheck.round_sum");
  // With the right operand claim also following the forged key the lookups accept: the operand
  // claims are what ties the key to the instruction's registers.
  run.claims = lookup_claims(w, r_cycle);
  Transcript tr2("lookups-test");
  run.proof = prove_instruction_lookups(w, run.r_cycle, run.claims, tr2, false);
  CHECK(rejected_at(32, run) == "accepted");
}

TEST_CASE("a cycle looked up in another table than the bytecode's shows in the flag openings") {
  // The prover runs a BLTU cycle through LessThan (signed) with the matching result: the lookups
  // accept, and the flag openings differ from the bytecode's — the check the caller makes.
  const InstructionLookupWitness honest = make_witness(32, 8, 5);
  InstructionLookupWitness w = honest;
  const std::size_t j = first_cycle_of(w, LookupTable::LessThanUnsigned);
  w.tables[j] = id(LookupTable::LessThan);
  const Run run = prove(w, nullptr);
  InstructionLookupOpenings o;
  REQUIRE(!verify(32, run, o));
  CHECK(openings_match(w, o));
  CHECK_FALSE(openings_match(honest, o));
}

TEST_CASE("tampered lookup proofs are rejected at the named check") {
  const InstructionLookupWitness w = make_witness(32, 6, 8);
  const Run honest = prove(w, nullptr);
  {
    Run r = honest;
    r.proof.read_raf_outputs[0] += Fr::one();  // an ra chunk opening
    CHECK(rejected_at(32, r) == "lookups.read_raf.final");
  }
  {
    Run r = honest;
    r.proof.read_raf_outputs[virtual_chunks(32) + 2] += Fr::one();  // a table flag opening
    CHECK(rejected_at(32, r) == "lookups.read_raf.final");
  }
  {
    Run r = honest;
    r.proof.key_bit_claims[5] += Fr::one();
    CHECK(rejected_at(32, r) == "lookups.key_bits.final");
  }
  {
    Run r = honest;
    r.proof.key_bits.round_polys[1].coeffs[0] += Fr::one();
    CHECK(rejected_at(32, r) == "lookups.key_bits.sumcheck.round_sum");
  }
  {
    Run r = honest;
    r.proof.key_bit_claims.pop_back();
    CHECK(rejected_at(32, r) == "lookups.shape");
  }
  {
    Run r = honest;
    r.proof.read_raf.round_polys.pop_back();
    CHECK(rejected_at(32, r).rfind("lookups.read_raf.sumcheck", 0) == 0);
  }
}

TEST_CASE("malformed lookup witnesses are refused with the cycle named") {
  InstructionLookupWitness w = make_witness(8, 4, 1);
  w.keys[3] = 1u << 16;
  CHECK_THROWS_WITH_AS(w.validate(), doctest::Contains("cycle 3 has a key wider than 16 bits"),
                       std::invalid_argument);
  w = make_witness(8, 4, 1);
  w.tables[2] = 40;
  CHECK_THROWS_WITH_AS(w.validate(), doctest::Contains("cycle 2 names table 40"),
                       std::invalid_argument);
  w = make_witness(8, 4, 1);
  w.raf.pop_back();
  CHECK_THROWS_AS(w.validate(), std::invalid_argument);
}

namespace {

// A reference prover over dense tables (NaiveKernel) at small widths: ra(k, j) is any table over
// (address, cycle), and the key bits any field values, so it also runs witnesses no integer key
// describes. Same transcript order as prove_instruction_lookups.
struct DenseLookupWitness {
  unsigned word_bits;
  std::size_t log_t;
  std::vector<Fr> ra;                 // ra[k·T + j]
  std::vector<std::vector<Fr>> bits;  // bits[b][j], key MSB first
  std::vector<std::uint8_t> tables, raf;
};

DenseLookupWitness dense_of(const InstructionLookupWitness& w) {
  DenseLookupWitness d{
      w.word_bits, static_cast<std::size_t>(std::countr_zero(w.cycles())), {}, {}, w.tables, w.raf};
  const unsigned kb = 2 * w.word_bits;
  d.ra.assign((std::size_t{1} << kb) * w.cycles(), Fr::zero());
  d.bits.assign(kb, std::vector<Fr>(w.cycles()));
  for (std::size_t j = 0; j < w.cycles(); ++j) {
    d.ra[w.keys[j] * w.cycles() + j] = Fr::one();
    for (unsigned b = 0; b < kb; ++b)
      d.bits[b][j] = ((w.keys[j] >> (kb - 1 - b)) & 1) ? Fr::one() : Fr::zero();
  }
  return d;
}

// The claims Σ_{k,j} eq(r, j)·ra(k, j)·(Val_t(k) | Left(k) | Right-or-Identity(k)).
InstructionLookupClaims dense_claims(const DenseLookupWitness& d, const std::vector<Fr>& r) {
  const std::vector<Fr> e = EqPolynomial::evals(r);
  const std::size_t n = e.size();
  InstructionLookupClaims c;
  for (std::size_t k = 0; k < d.ra.size() / n; ++k)
    for (std::size_t j = 0; j < n; ++j) {
      const Fr wgt = e[j] * d.ra[k * n + j];
      if (wgt.is_zero()) continue;
      if (d.tables[j] != kNoTable)
        c.output +=
            wgt * Fr::from_u64(table_value(static_cast<LookupTable>(d.tables[j]), d.word_bits, k));
      if (d.raf[j]) {
        c.right += wgt * Fr::from_u64(k);
      } else {
        c.left += wgt * Fr::from_u64(left_of(k));
        c.right += wgt * Fr::from_u64(right_of(k));
      }
    }
  return c;
}

InstructionLookupProof prove_dense(const DenseLookupWitness& d, const std::vector<Fr>& r_cycle,
                                   const InstructionLookupClaims& claims, Transcript& tr) {
  static constexpr KernelLabels kLabels = {"ReferenceLookups::prepare",
                                           "ReferenceLookups::prove_round",
                                           "ReferenceLookups::finish_rounds"};
  REQUIRE(virtual_chunks(d.word_bits) == 1);  // one 2W-bit chunk: ra itself
  const unsigned kb = 2 * d.word_bits;
  const std::size_t n = std::size_t{1} << d.log_t, keys = std::size_t{1} << kb;
  tr.absorb_frs("lookups_claims", std::vector<Fr>{claims.output, claims.left, claims.right});
  const Fr gamma = tr.challenge("lookups_gamma");
  std::vector<Fr> val(kNumTables * keys);
  for (std::size_t t = 0; t < kNumTables; ++t)
    for (std::size_t k = 0; k < keys; ++k)
      val[t * keys + k] = Fr::from_u64(table_value(static_cast<LookupTable>(t), d.word_bits, k));
  auto at = [&](LookupTable t, std::size_t k) {
    return val[static_cast<std::size_t>(t) * keys + k];
  };
  const std::vector<Fr> eq = EqPolynomial::evals(r_cycle);
  std::vector<Fr> leaf_eq(keys * n), leaf_c(keys * n);
  for (std::size_t k = 0; k < keys; ++k)
    for (std::size_t j = 0; j < n; ++j) {
      leaf_eq[k * n + j] = eq[j];
      Fr c = d.tables[j] == kNoTable ? Fr::zero() : val[d.tables[j] * keys + k];
      c += d.raf[j] ? gamma * gamma * at(LookupTable::Identity, k)
                    : gamma * at(LookupTable::LeftOperand, k) +
                          gamma * gamma * at(LookupTable::RightOperand, k);
      leaf_c[k * n + j] = c;
    }
  Expr read;
  read.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  NaiveKernel rk(kLabels, {leaf_eq, d.ra, leaf_c}, read);
  const Fr input = claims.output + gamma * claims.left + gamma * gamma * claims.right;
  BatchProverOutput out = prove_batch({{&rk, input}}, tr, false);
  InstructionLookupProof proof;
  proof.read_raf = out.proof;
  const std::vector<Fr> r_addr(out.challenges.begin(), out.challenges.begin() + kb);
  const std::vector<Fr> r5(out.challenges.begin() + kb, out.challenges.end());
  proof.read_raf_outputs = {out.member_outputs[0][1]};
  const std::vector<Fr> flags = flag_openings(d.tables, d.raf, r5);
  proof.read_raf_outputs.insert(proof.read_raf_outputs.end(), flags.begin(), flags.end());
  tr.absorb_frs("lookups_read_raf_outputs", proof.read_raf_outputs);
  const Fr beta = tr.challenge("lookups_beta");
  const Fr zeta = tr.challenge("lookups_zeta");
  const std::vector<Fr> rho = tr.challenges("lookups_rho", d.log_t);
  // Leaves: 0 = eq(r5), 1 = eq(ρ), 2 + b = bit b.
  Expr bits_expr;
  std::vector<Linear> factors = {Linear::leaf(0)};
  for (unsigned b = 0; b < kb; ++b)
    factors.push_back(Linear{Fr::one() - r_addr[b], {{2 + b, r_addr[b].dbl() - Fr::one()}}});
  bits_expr.add_product(Fr::one(), factors);
  Fr z = zeta;  // bit b weighs ζ^(b+1)
  for (unsigned b = 0; b < kb; ++b, z = z * zeta) {
    bits_expr.add_product(z, {Linear::leaf(1), Linear::leaf(2 + b), Linear::leaf(2 + b)});
    bits_expr.add_product(-z, {Linear::leaf(1), Linear::leaf(2 + b)});
  }
  std::vector<std::vector<Fr>> leaves = {EqPolynomial::evals(r5), EqPolynomial::evals(rho)};
  for (unsigned b = 0; b < kb; ++b) leaves.push_back(d.bits[b]);
  NaiveKernel bk(kLabels, leaves, bits_expr);
  (void)beta;  // one virtual chunk: the RA virtualization's input is ra_0 itself (β^0)
  BatchProverOutput out2 = prove_batch({{&bk, proof.read_raf_outputs[0]}}, tr, false);
  proof.key_bits = out2.proof;
  proof.key_bit_claims.assign(out2.member_outputs[0].begin() + 2, out2.member_outputs[0].end());
  tr.absorb_frs("lookups_key_bit_claims", proof.key_bit_claims);
  return proof;
}

std::vector<Fr> flatten(const InstructionLookupProof& p) {
  std::vector<Fr> all = p.read_raf_outputs;
  all.insert(all.end(), p.key_bit_claims.begin(), p.key_bit_claims.end());
  for (const auto* sc : {&p.read_raf, &p.key_bits})
    for (const auto& u : sc->round_polys) all.insert(all.end(), u.coeffs.begin(), u.coeffs.end());
  return all;
}

}  // namespace

TEST_CASE("the phased read-raf and key-bit kernels give the reference prover's proof") {
  const InstructionLookupWitness w = make_witness(4, 4, 77);
  std::mt19937_64 rng(6);
  const std::vector<Fr> r = rand_point(rng, 4);
  const InstructionLookupClaims claims = lookup_claims(w, r);
  CHECK(dense_claims(dense_of(w), r).output == claims.output);
  Transcript a("lookups-test"), b("lookups-test");
  const InstructionLookupProof fast = prove_instruction_lookups(w, r, claims, a, false);
  const InstructionLookupProof ref = prove_dense(dense_of(w), r, claims, b);
  CHECK(flatten(fast) == flatten(ref));
  CHECK(a.state() == b.state());
}

TEST_CASE("a malicious prover with a key bit of 1/2 is rejected by the booleanity check") {
  // One cycle's committed key bit is 1/2 and its ra row is half each of the two keys that bit
  // chooses between: every read-raf sum and the RA virtualization stay consistent (the claims are
  // the R1CS side's for that half-and-half row), so only booleanity can reject it — at the first
  // round of the key-bit sumcheck, whose input claim takes the booleanity sum to be 0.
  const InstructionLookupWitness w = make_witness(4, 4, 77);
  DenseLookupWitness d = dense_of(w);
  const std::size_t j = first_cycle_of(w, LookupTable::LessThanUnsigned);
  const unsigned b = 0, kb = 8;
  const std::uint64_t k1 = w.keys[j], k2 = k1 ^ (std::uint64_t{1} << (kb - 1 - b));
  const Fr half = Fr::from_u64(2).inverse();
  d.ra[k1 * w.cycles() + j] = half;
  d.ra[k2 * w.cycles() + j] = half;
  d.bits[b][j] = half;
  std::mt19937_64 rng(6);
  Run run;
  run.r_cycle = rand_point(rng, 4);
  run.claims = dense_claims(d, run.r_cycle);
  Transcript tr("lookups-test");
  run.proof = prove_dense(d, run.r_cycle, run.claims, tr);
  CHECK(rejected_at(4, run) == "lookups.key_bits.sumcheck.round_sum");
  // The same half-and-half row with a Boolean committed bit breaks the RA virtualization instead.
  d.bits[b][j] = Fr::from_u64((k1 >> (kb - 1 - b)) & 1);
  Transcript tr2("lookups-test");
  run.proof = prove_dense(d, run.r_cycle, run.claims, tr2);
  CHECK(rejected_at(4, run) == "lookups.key_bits.sumcheck.round_sum");
}

TEST_CASE("a key bit of 1/2 in every cycle, compensated in ra, is rejected by booleanity") {
  // Bit 0 of every cycle's key is 1/2 and every ra row is half each of the two keys it chooses
  // between, so ra from the bits is the dense ra; then bit² − bit = −1/4 in every cycle, a
  // constant, so Σ_j eq(ρ, j)·(bit² − bit) = −1/4 whatever ρ is, and adding −1/4 to every ra
  // entry moves the read-raf's ra claim by exactly that. Booleanity's terms carry ζ^(b+1), drawn
  // after that claim, so the shift cannot match them (with ζ^b, bit 0's weight was 1 and this
  // prover was accepted).
  const InstructionLookupWitness w = make_witness(4, 4, 77);
  DenseLookupWitness d = dense_of(w);
  const unsigned b = 0, kb = 8;
  const Fr half = Fr::from_u64(2).inverse(), quarter = Fr::from_u64(4).inverse();
  for (std::size_t j = 0; j < w.cycles(); ++j) {
    const std::uint64_t k1 = w.keys[j], k2 = k1 ^ (std::uint64_t{1} << (kb - 1 - b));
    d.ra[k1 * w.cycles() + j] = half;
    d.ra[k2 * w.cycles() + j] = half;
    d.bits[b][j] = half;
  }
  for (Fr& e : d.ra) e -= quarter;
  std::mt19937_64 rng(6);
  Run run;
  run.r_cycle = rand_point(rng, 4);
  run.claims = dense_claims(d, run.r_cycle);
  Transcript tr("lookups-test");
  run.proof = prove_dense(d, run.r_cycle, run.claims, tr);
  CHECK(rejected_at(4, run) == "lookups.key_bits.sumcheck.round_sum");
}
