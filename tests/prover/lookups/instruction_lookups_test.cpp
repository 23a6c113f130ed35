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
      key = std::uint64_t{x} + y;
      break;  // ADD
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
  const std::vector<Fr> e5 = EqPolynomial::evals(o.read_raf_point);
  std::vector<Fr> flags(kNumInstructionTables);
  Fr raf;
  for (std::size_t j = 0; j < w.cycles(); ++j) {
    if (w.tables[j] != kNoTable) flags[w.tables[j]] += e5[j];
    if (w.raf[j]) raf += e5[j];
  }
  return flags == o.flags && raf == o.raf;
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
  for (auto [word_bits, log_t] : {std::pair{32u, std::size_t{6}}, std::pair{8u, std::size_t{8}},
                                  std::pair{4u, std::size_t{5}}}) {
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
