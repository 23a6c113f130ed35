// The pipeline: honest proofs verify (every scheme), the witness satisfies every constraint,
// corrupted proofs and witnesses that break one constraint family are rejected at the named
// check, the verifier's configuration fixes the scheme and log T, and proofs are identical with
// 1 and 2 threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <random>

#include "mini_trace.hpp"
#include "pipeline/protocol.hpp"

using testutil::check_of;
using testutil::forging;

using namespace jolt::prover;
using testutil::sample_trace;

namespace {

// Where a trace column sits among the committed columns (protocol::committed_trace_columns).
std::size_t committed_position(std::uint32_t c) {
  const auto& cols = protocol::committed_trace_columns();
  const auto it = std::find(cols.begin(), cols.end(), c);
  REQUIRE(it != cols.end());
  return static_cast<std::size_t>(it - cols.begin());
}

std::size_t find_row(const std::vector<TraceRow>& rows, Opcode op, std::size_t skip = 0) {
  for (std::size_t t = 0; t < rows.size(); ++t)
    if (rows[t].opcode == op && skip-- == 0) return t;
  FAIL("opcode not in trace");
  return 0;
}

}  // namespace

TEST_CASE("the sample witness satisfies every uniform constraint") {
  auto tr = sample_trace(5);
  auto cols = r1cs::extract_columns(tr.rows);
  for (std::size_t t = 0; t < tr.rows.size(); ++t) {
    auto bad = r1cs::failing_constraints(cols, t);
    INFO("cycle " << t << " first failing: " << (bad.empty() ? "" : bad[0]));
    CHECK(bad.empty());
  }
}

TEST_CASE("honest proofs verify") {
  for (PcsKind pcs : {PcsKind::kBasefold, PcsKind::kLigero, PcsKind::kReveal}) {
    for (int n : {1, 5, 50}) {
      auto tr = sample_trace(n);
      ProverOptions o;
      o.pcs = pcs;
      auto proof = prove(tr.statement, tr.rows, o);
      auto e = verify(tr.statement, proof, VerifierConfig{pcs});
      INFO("pcs " << pcs_name(pcs) << " n " << n << ": " << (e ? e->check + " " + e->message : ""));
      CHECK_FALSE(e);
      Proof d;
      REQUIRE_FALSE(decode_proof(proof, d));
      CHECK(encode_proof(d) == proof);  // stable encoding round-trips
      CHECK(d.pcs_parameters == make_commitment_scheme(pcs)->parameters());
    }
  }
}

TEST_CASE("the statement is bound: any change to it rejects") {
  auto tr = sample_trace(5);
  auto proof = prove(tr.statement, tr.rows);
  auto st = tr.statement;
  st.outputs.push_back(1);  // absorbed (and the program writes no output)
  CHECK(verify(st, proof));
  st = tr.statement;
  st.inputs[0] ^= 1;  // absorbed, and RAM's initial input region
  CHECK(verify(st, proof));
  st = tr.statement;
  st.program.digest.push_back(0);
  CHECK(verify(st, proof));
  st = tr.statement;
  st.program.entry = 4;
  CHECK(verify(st, proof));
  st = tr.statement;
  st.program.instructions[5].imm += 1;  // another program with the same digest
  CHECK(verify(st, proof));
  st = tr.statement;
  st.trace_length -= 1;
  CHECK(verify(st, proof));
  st = tr.statement;
  st.trace_length = 300;  // pads to 2^9, the proof is for 2^8
  CHECK(check_of(verify(st, proof)) == "proof.header.log_t");
}

TEST_CASE("the proof format version is pinned") {
  CHECK(kProofVersion == 14);
  auto tr = sample_trace(1);
  const auto proof = prove(tr.statement, tr.rows);
  REQUIRE(proof.size() > 8);
  CHECK(std::string(proof.begin(), proof.begin() + 4) == "JRPF");
  CHECK(proof[4] == 14);
  CHECK(r1cs::kNumColumns == 74);
  CHECK(r1cs::kNumBytecodeColumns == 45);
  // Committed: the 26 trace columns no bytecode entry fixes and the instruction read-raf does
  // not prove (RamInc among them), the 64 key bits, the entry index's bits, then the RAM
  // address bits.
  CHECK(protocol::committed_trace_columns().size() == 26);
  CHECK(std::find(protocol::committed_trace_columns().begin(),
                  protocol::committed_trace_columns().end(),
                  r1cs::kRamInc) != protocol::committed_trace_columns().end());
  CHECK(protocol::num_committed_columns(5, 3) == 26 + 64 + 5 + 3);
  CHECK(proof[5] == 0);
  auto bad = proof;
  bad[4] = 1;
  CHECK(check_of(verify(tr.statement, bad)) == "proof.version");
  bad = proof;
  bad[0] = 'X';
  CHECK(check_of(verify(tr.statement, bad)) == "proof.magic");
  bad = proof;
  bad[7] = 1;
  CHECK(check_of(verify(tr.statement, bad)) == "proof.reserved");
}

TEST_CASE("the verifier's configuration, not the proof, fixes the scheme and log T") {
  auto tr = sample_trace(5);
  ProverOptions reveal;
  reveal.pcs = PcsKind::kReveal;
  const auto revealed = prove(tr.statement, tr.rows, reveal);
  // A prover cannot pick the reveal-all scheme against a Ligero verifier, nor the reverse.
  CHECK(check_of(verify(tr.statement, revealed, VerifierConfig{PcsKind::kLigero})) ==
        "proof.header.pcs");
  CHECK(check_of(verify(tr.statement, revealed, VerifierConfig{PcsKind::kReveal})) == "");
  const auto dflt = prove(tr.statement, tr.rows);  // default_pcs_kind(): Basefold
  CHECK(check_of(verify(tr.statement, dflt, VerifierConfig{PcsKind::kReveal})) ==
        "proof.header.pcs");
  CHECK(check_of(verify(tr.statement, dflt, VerifierConfig{PcsKind::kLigero})) ==
        "proof.header.pcs");
  ProverOptions ligero_options;
  ligero_options.pcs = PcsKind::kLigero;
  const auto ligero = prove(tr.statement, tr.rows, ligero_options);
  CHECK(check_of(verify(tr.statement, ligero, VerifierConfig{PcsKind::kBasefold})) ==
        "proof.header.pcs");
  CHECK(check_of(verify(tr.statement, ligero, VerifierConfig{PcsKind::kLigero})) == "");

  Proof p;
  REQUIRE_FALSE(decode_proof(dflt, p));
  Proof q = p;
  q.log_t += 1;  // another scale
  CHECK(check_of(verify(tr.statement, encode_proof(q))) == "proof.header.log_t");
  q = p;
  q.pcs_parameters = "rate=1/2 queries=10";
  CHECK(check_of(verify(tr.statement, encode_proof(q))) == "proof.header.parameters");
  q = p;
  q.num_columns -= 1;
  CHECK(check_of(verify(tr.statement, encode_proof(q))) == "proof.header.columns");
  q = p;
  q.stage2_openings.pop_back();
  CHECK(check_of(verify(tr.statement, encode_proof(q))) == "proof.shape");
}

TEST_CASE("flipped bytes at sampled offsets fail verification, never crash") {
  auto tr = sample_trace(5);
  auto proof = prove(tr.statement, tr.rows);
  std::mt19937_64 rng(3);
  std::vector<std::size_t> offsets = {0, 4, 6, 7, 8, 12, 16, proof.size() / 2, proof.size() - 1};
  for (int i = 0; i < 40; ++i) offsets.push_back(rng() % proof.size());
  for (std::size_t off : offsets) {
    auto bad = proof;
    bad[off] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    auto e = verify(tr.statement, bad);
    INFO("offset " << off << " accepted");
    REQUIRE(e);
    CHECK_FALSE(e->check.empty());
  }
  // Truncations and garbage: a clear decode error.
  for (std::size_t len : {std::size_t{0}, std::size_t{3}, std::size_t{17}, proof.size() - 1}) {
    auto e = verify(tr.statement, std::span<const std::uint8_t>(proof.data(), len));
    CHECK(check_of(e) == "decode.truncated");
  }
  auto longer = proof;
  longer.push_back(0);
  CHECK(check_of(verify(tr.statement, longer)) == "decode.trailing");
}

TEST_CASE("a witness breaking one constraint family is rejected") {
  auto tr = sample_trace(5);
  SUBCASE("pc update") {
    auto rows = tr.rows;
    rows[find_row(rows, Opcode::kMul)].pc += 4;
    CHECK_THROWS_AS(prove(tr.statement, rows), std::logic_error);
    CHECK(check_of(verify(tr.statement, prove(tr.statement, rows, forging()))) ==
          "stage1.sumcheck.round_sum");
  }
  SUBCASE("ram address") {
    auto rows = tr.rows;
    rows[find_row(rows, Opcode::kSw, 2)].mem_addr += 4;
    CHECK(check_of(verify(tr.statement, prove(tr.statement, rows, forging()))) ==
          "stage1.sumcheck.round_sum");
  }
  SUBCASE("rd write") {
    auto rows = tr.rows;
    rows[find_row(rows, Opcode::kAdd, 1)].rd_post += 1;
    CHECK(verify(tr.statement, prove(tr.statement, rows, forging())));
  }
  SUBCASE("lookup operands") {
    auto cols = r1cs::extract_columns(tr.rows);
    cols[r1cs::kRightLookupOperand][find_row(tr.rows, Opcode::kAdd)] += Fr::one();
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage1.sumcheck.round_sum");
  }
  SUBCASE("product constraint") {
    // Product ≠ Left·Right on an ADD, where no uniform row reads Product.
    auto cols = r1cs::extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kAdd);
    cols[r1cs::kProduct][t] += Fr::one();
    CHECK(r1cs::failing_constraints(cols, t) == std::vector<std::string_view>{"Product"});
    // The stage-2 kernel takes each round's q(1) from the claim, so its rounds add up; the
    // products of the claimed openings do not give the final claim.
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage2.final_claim");
  }
  SUBCASE("shift (Next* is not the next row)") {
    // Claim the program stops after an ALU row: every R1CS/product row still holds.
    auto cols = r1cs::extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kXor);
    cols[r1cs::kNextIsNoop][t] = Fr::one();
    cols[r1cs::kStepToNext][t] = Fr::zero();
    CHECK(r1cs::failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(tr.statement, cols), std::logic_error);
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage3.sumcheck.round_sum");
  }
  SUBCASE("next pc column") {
    auto cols = r1cs::extract_columns(tr.rows);
    cols[r1cs::kNextExpandedPC][3] += Fr::from_u64(4 * 64);
    cols[r1cs::kUnexpandedPC][4] += Fr::from_u64(4);  // shift stays consistent, R1CS breaks
    CHECK(verify(tr.statement, prove_columns(tr.statement, cols, forging())));
  }
  SUBCASE("padding (IsNoop) does not match the public trace_length") {
    // Honest columns of a run of L cycles, proved as a statement of L + 1 cycles, with IsEcall set
    // on padding row L so the exit claim holds (EcallContinues stays 0 there: the next row is
    // padding too): every stage-1..3 relation holds and every round is consistent; only the
    // public padding check can object.
    auto st = tr.statement;
    const std::size_t L = st.trace_length;
    st.trace_length += 1;
    REQUIRE(padded_trace_length(st.trace_length) == tr.rows.size());
    auto cols = r1cs::extract_columns(tr.rows);
    cols[r1cs::kIsEcall][L] = Fr::one();
    CHECK(r1cs::failing_constraints(cols, L).empty());
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == "stage3.padding");
  }
}

// A malicious prover: the honest prover (self-checks off) run on a witness altered in exactly one
// way, so every round polynomial is consistent with the altered witness; the verifier must
// reject at the named check.
TEST_CASE("a fetched instruction that is not the program's is rejected") {
  auto tr = sample_trace(5);
  SUBCASE("an immediate") {
    // An honest run of the program with `addi x5, x5, 4` changed to `addi x5, x5, 8`, proved
    // against the original program: registers, operands and lookup outputs are consistent, so
    // only the bytecode lookup can object.
    auto prog = testutil::sample_program(5);
    REQUIRE(prog[9].op == Opcode::kAddi);
    REQUIRE(prog[9].imm == 4);
    prog[9].imm = 8;
    auto rows = testutil::run(prog);
    REQUIRE(rows.size() == tr.statement.trace_length);
    rows.resize(tr.rows.size());
    CHECK_THROWS_AS(prove(tr.statement, rows), std::logic_error);
    CHECK(check_of(verify(tr.statement, prove(tr.statement, rows, forging()))) ==
          "bytecode.address.sumcheck.round_sum");
  }
  SUBCASE("a flag") {
    // WriteRamReadToRD set on a padding row: RdWriteValue = RamReadValue = 0 there, so R1CS
    // holds.
    auto cols = r1cs::extract_columns(tr.rows);
    const std::size_t t = tr.rows.size() - 1;
    cols[r1cs::kWriteRamReadToRD][t] = Fr::one();
    CHECK(r1cs::failing_constraints(cols, t).empty());
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "bytecode.address.sumcheck.round_sum");
  }
  SUBCASE("a non-boolean flag") {
    auto cols = r1cs::extract_columns(tr.rows);
    const std::size_t t = tr.rows.size() - 1;
    cols[r1cs::kWriteRamReadToRD][t] = Fr::from_u64(2);  // 2·(RdWrite − RamRead) = 2·0
    CHECK(r1cs::failing_constraints(cols, t).empty());
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "bytecode.address.sumcheck.round_sum");
  }
  SUBCASE("another program's instruction") {
    // The statement's program differs from the executed one in one immediate; the rows are an
    // honest run of the original program.
    auto st = tr.statement;
    st.program.instructions[13].imm = -32;  // bne x3, x0, -36 becomes bne x3, x0, -32
    CHECK(check_of(verify(st, prove(st, tr.rows, forging()))) ==
          "bytecode.address.sumcheck.round_sum");
  }
  SUBCASE("the entry PC") {
    // An honest run that starts at pc 4 (the skipped `addi x1, x0, 0` changes nothing).
    auto rows = testutil::run(testutil::sample_program(5), 100000, 4);
    auto st = tr.statement;
    st.trace_length = rows.size();
    rows.resize(padded_trace_length(rows.size()));
    REQUIRE(rows.size() == tr.rows.size());
    CHECK_THROWS_AS(prove(st, rows), std::logic_error);
    // The entry member's claim is the public entry, so the round-0 sum cannot match.
    CHECK(check_of(verify(st, prove(st, rows, forging()))) == "stage3.sumcheck.round_sum");
  }
}

// Register memory checking against a malicious prover (see the bytecode test case above).
TEST_CASE("register values that are not the last value written are rejected") {
  auto tr = sample_trace(5);
  // Changes cycle t's (an ADD or ADDI) left input to `v` and recomputes its result and the
  // instruction-result witness, keeping every uniform and product constraint.
  auto set_left = [](std::vector<std::vector<Fr>>& cols, std::size_t t, const Fr& v) {
    using namespace r1cs;
    cols[kRs1Value][t] = v;
    cols[kRs1Squared][t] = v * v;
    cols[kLeftInstructionInput][t] = v;
    cols[kLookupOutput][t] = v + cols[kRightInstructionInput][t];  // no wrap in these tests
    cols[kRdWriteValue][t] = cols[kLookupOutput][t];
    fill_alu_columns(cols, t);
  };
  SUBCASE("an rs1 value") {
    auto cols = r1cs::extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kAdd, 2);
    set_left(cols, t, cols[r1cs::kRs1Value][t] + Fr::one());
    REQUIRE(r1cs::failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(tr.statement, cols), std::logic_error);  // prover self-check
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage4.memory_sum");
  }
  SUBCASE("an rs2 value") {
    using namespace r1cs;
    auto cols = extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kAdd, 2);
    const Fr v = cols[kRs2Value][t] + Fr::one();
    cols[kRs2Value][t] = v;
    cols[kRightInstructionInput][t] = v;
    cols[kLookupOutput][t] = cols[kLeftInstructionInput][t] + v;
    cols[kRdWriteValue][t] = cols[kLookupOutput][t];
    fill_alu_columns(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage4.memory_sum");
  }
  SUBCASE("an rd write value") {
    // Every rd write is fixed by the instruction's result now (a wrong result is rejected by the
    // uniform rows, see the instruction-result tests); rd's access also reads the value rd
    // holds before the write, which only register checking ties to the last write.
    using namespace r1cs;
    auto cols = extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kAdd, 1);
    set_left(cols, t, cols[kRs1Value][t]);  // no change: the helper reproduces the honest row
    REQUIRE(failing_constraints(cols, t).empty());
    cols[kRdReadValue][t] += Fr::one();
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage4.memory_sum");
  }
  SUBCASE("a read of the value before the last write") {
    // `addi x1, x2, 0` reads x2 just after `add x4, x1, x2` ... `addi x2, x4, 0` wrote it; the
    // witness reads x2's previous value instead, with that write's timestamp.
    using namespace r1cs;
    auto cols = extract_columns(tr.rows);
    std::size_t t = 0, passes = 0;  // the third pass of `addi x1, x2, 0`
    for (std::size_t i = 0; i < tr.rows.size() && passes < 3; ++i)
      if (tr.rows[i].opcode == Opcode::kAddi && tr.rows[i].rd == 1 && tr.rows[i].rs1 == 2)
        t = i, ++passes;
    REQUIRE(passes == 3);
    std::size_t w = t;  // the last write of x2 before it (`addi x2, x4, 0`)
    while (tr.rows[--w].rd != 2) {
    }
    const Fr stale = Fr::from_u64(tr.rows[w].rd_pre);
    REQUIRE(stale != cols[kRs1Value][t]);
    set_left(cols, t, stale);  // ADDI x1, x2, 0: x1 = the stale value
    cols[kRs1ReadTs][t] = cols[kRdReadTs][w];
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage4.memory_sum");
  }
  SUBCASE("a write to x0") {
    // A branch (rd = x0) writes 7: only RdKeepsValue (x0 and non-writing instructions keep rd)
    // objects, so the outer sumcheck cannot start from claim 0.
    using namespace r1cs;
    auto cols = extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kBne);
    REQUIRE(tr.rows[t].rd == 0);
    cols[kRdWriteValue][t] = Fr::from_u64(7);
    CHECK(failing_constraints(cols, t) == std::vector<std::string_view>{"RdKeepsValue"});
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage1.sumcheck.round_sum");
  }
  SUBCASE("a read of a later write") {
    // The first three accesses of x0 read each other in a cycle (the first reads the second's
    // write-back, the second the initial state, the third the first's): the stage-4 multiset is
    // unchanged, the range counts are recomputed from the forged timestamps, so only the range
    // check (a read timestamp must be earlier than its access) can object.
    using namespace r1cs;
    auto cols = extract_columns(tr.rows);
    const std::size_t T = tr.rows.size();
    const std::uint32_t idx[3] = {kRs1Index, kRs2Index, kRdIndex};
    const std::uint32_t ts[3] = {kRs1ReadTs, kRs2ReadTs, kRdReadTs};
    std::vector<std::pair<std::size_t, std::uint32_t>> acc;  // (cycle, access)
    for (std::size_t t = 0; t < T && acc.size() < 3; ++t)
      for (std::uint32_t j = 0; j < 3 && acc.size() < 3; ++j)
        if (cols[idx[j]][t].is_zero()) acc.push_back({t, j});
    REQUIRE(acc.size() == 3);
    auto now = [](std::pair<std::size_t, std::uint32_t> a) {
      return Fr::from_u64(4 * a.first + a.second + 1);
    };
    cols[ts[acc[0].second]][acc[0].first] = now(acc[1]);
    cols[ts[acc[1].second]][acc[1].first] = Fr::zero();
    cols[ts[acc[2].second]][acc[2].first] = now(acc[0]);
    std::vector<std::uint64_t> counts(4 * T, 0);
    for (std::size_t t = 0; t < T; ++t)
      for (std::uint32_t j = 0; j < 3; ++j) {
        const auto d = (Fr::from_u64(4 * t + j) - cols[ts[j]][t]).to_canonical_limbs();
        if (d[1] == 0 && d[2] == 0 && d[3] == 0 && d[0] < 4 * T) ++counts[d[0]];
      }
    for (std::uint32_t c = 0; c < 4; ++c)
      for (std::size_t t = 0; t < T; ++t)
        cols[kRangeCount0 + c][t] = Fr::from_u64(counts[c * T + t]);
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage5.range_sum");
  }
  SUBCASE("timestamp range multiplicities") {
    auto cols = r1cs::extract_columns(tr.rows);
    cols[r1cs::kRangeCount0][0] += Fr::one();  // no row reads at distance 0 one more time
    CHECK_THROWS_AS(prove_columns(tr.statement, cols), std::logic_error);
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage5.range_sum");
  }
  SUBCASE("a timestamp range multiplicity that is not a small integer") {
    // The prover's numerators leave their 4-byte form for field elements; still caught.
    auto cols = r1cs::extract_columns(tr.rows);
    cols[r1cs::kRangeCount0][1] -= Fr::from_u64(1u << 31);
    CHECK_THROWS_AS(prove_columns(tr.statement, cols), std::logic_error);
    CHECK(check_of(verify(tr.statement, prove_columns(tr.statement, cols, forging()))) ==
          "stage5.range_sum");
  }
  SUBCASE("an exit before the last cycle") {
    // ECALL with a7 = 0 exits; a witness that keeps running after it breaks only the rule that
    // a non-final ECALL is a cycle marker.
    using O = Opcode;
    const std::vector<testutil::Instr> prog = {
        {O::kEcall, 0, 17, 10, 0}, {O::kAddi, 5, 0, 0, 3}, {O::kEcall, 0, 17, 10, 0}};
    auto rows = testutil::run(prog, 100, 0, 1);
    REQUIRE(rows.size() == 3);
    jolt::prover::Statement st{testutil::program_of(prog), {}, {}, rows.size()};
    rows.resize(padded_trace_length(rows.size()));
    const auto cols = r1cs::extract_columns(rows);
    CHECK(r1cs::failing_constraints(cols, 0) ==
          std::vector<std::string_view>{"EcallBeforeExitIsMarker"});
    CHECK_THROWS_AS(prove(st, rows), std::logic_error);
    CHECK(check_of(verify(st, prove(st, rows, forging()))) == "stage1.sumcheck.round_sum");
  }
  SUBCASE("an exit with a non-zero status") {
    // An honest run whose a0 is 1 at the exit ECALL.
    auto prog = testutil::sample_program(5);
    REQUIRE(prog[prog.size() - 2].rd == 10);
    prog[prog.size() - 2].imm = 1;  // addi a0, x0, 1
    auto rows = testutil::run(prog);
    auto st = tr.statement;
    st.program = testutil::program_of(prog);
    rows.resize(padded_trace_length(rows.size()));
    const auto proof = prove(st, rows);
    CHECK(check_of(verify(st, proof)) == "stage4.exit");
  }
}

TEST_CASE("a jump to another target than JAL's is rejected") {
  // `jal x9, 8` at pc 56 jumps to 64; the witness runs `addi x0, x0, 0` at 60 first, with the
  // JAL's lookup output (its target) set to 60 so JumpTarget holds: registers, bytecode, shift
  // and every uniform row stay consistent; only the instruction read-raf (the output is
  // RangeCheck(PC + Imm)) objects.
  auto tr = sample_trace(5);
  std::vector<TraceRow> rows(tr.rows.begin(), tr.rows.begin() + tr.statement.trace_length);
  const std::size_t t = find_row(rows, Opcode::kJal);
  REQUIRE(rows[t].pc == 56);
  TraceRow skipped;
  skipped.pc = 60;
  skipped.next_pc = 64;
  skipped.opcode = Opcode::kAddi;
  rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(t) + 1, skipped);
  auto st = tr.statement;
  st.trace_length = rows.size();
  rows.resize(padded_trace_length(rows.size()));
  auto cols = r1cs::extract_columns(rows);
  cols[r1cs::kLookupOutput][t] = Fr::from_u64(60);
  r1cs::fill_alu_columns(cols, t);
  CHECK(r1cs::failing_constraints(cols, t).empty());
  CHECK_THROWS_AS(prove_columns(st, cols), std::logic_error);
  CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) ==
        "lookups.read_raf.sumcheck.round_sum");
}

TEST_CASE("malformed inputs are refused by prove") {
  auto tr = sample_trace(1);
  auto rows = tr.rows;
  rows.pop_back();
  CHECK_THROWS_AS(prove(tr.statement, rows), std::invalid_argument);
  auto st = tr.statement;
  st.trace_length += 1;  // claims a padding row is real
  CHECK_THROWS_AS(prove(st, tr.rows), std::invalid_argument);
}

TEST_CASE("the reference backend proves the same bytes as the optimized one") {
  auto tr = sample_trace(40);
  ProverOptions reference;
  reference.backend = ProverBackend::kReference;
  const auto optimized = prove(tr.statement, tr.rows);
  CHECK(prove(tr.statement, tr.rows, reference) == optimized);
  CHECK_FALSE(verify(tr.statement, optimized));
  CHECK(backend_name(ProverBackend::kReference) == "reference");
  CHECK(parse_backend("optimized") == ProverBackend::kOptimized);
  CHECK(parse_backend("reference") == ProverBackend::kReference);
  CHECK_FALSE(parse_backend("fast"));
}

TEST_CASE("proofs are identical with 1 and 2 threads") {
  auto tr = sample_trace(120);  // T = 2^11: the parallel paths engage
  ProverOptions one, two;
  one.num_threads = 1;
  two.num_threads = 2;
  auto p1 = prove(tr.statement, tr.rows, one);
  auto p2 = prove(tr.statement, tr.rows, two);
  CHECK(p1 == p2);
  CHECK_FALSE(verify(tr.statement, p1));
}

TEST_CASE("every claim in the proof is checked: targeted edits are rejected") {
  auto tr = sample_trace(5);
  const auto bytes = prove(tr.statement, tr.rows);
  Proof honest;
  REQUIRE_FALSE(decode_proof(bytes, honest));
  auto rejects = [&](const Proof& p) { return verify(tr.statement, encode_proof(p)).has_value(); };
  auto rejected_at = [&](const Proof& p) {
    return check_of(verify(tr.statement, encode_proof(p)));
  };
  CHECK_FALSE(rejects(honest));
  // A prover that runs every sumcheck honestly but claims one wrong opening is caught by that
  // stage's final-claim check (before anything later could notice).
  {
    Proof p = honest;
    p.stage1_openings[r1cs::kRightLookupOperand] += Fr::one();
    CHECK(rejected_at(p) == "stage1.final_claim");
    p = honest;
    p.stage2_openings[0] += Fr::one();
    CHECK(rejected_at(p) == "stage2.final_claim");
    p = honest;
    p.stage3_openings[0] += Fr::one();  // UnexpandedPC at r3
    CHECK(rejected_at(p) == "stage3.final_claim");
    p = honest;
    p.bytecode.address_outputs[0] += Fr::one();  // F_0(r_addr): the claims at r1
    CHECK(rejected_at(p) == "bytecode.address.final");
    p = honest;
    p.bytecode.address.round_polys[2].coeffs[1] += Fr::one();
    CHECK(rejected_at(p) == "bytecode.address.sumcheck.round_sum");
    p = honest;
    p.bytecode.index_bits[0] += Fr::one();  // the index's MSB at the RA point
    CHECK(rejected_at(p) == "bytecode.ra.final");
    p = honest;
    p.bytecode.ra.round_polys[1].coeffs[0] += Fr::one();
    CHECK(rejected_at(p) == "bytecode.ra.sumcheck.round_sum");
    p = honest;
    p.stage7_openings[committed_position(r1cs::kRs1Value)] += Fr::one();
    CHECK(rejected_at(p) == "stage7.final_claim");
    p = honest;
    p.stage4_openings[0] += Fr::one();  // Rs1Index at r4
    CHECK(rejected_at(p) == "stage4.leaf");
    p = honest;
    p.stage5_openings[3] += Fr::one();  // RangeCount0 at r5
    CHECK(rejected_at(p) == "stage5.leaf");
    p = honest;
    p.register_layers[2].claims[1] += Fr::one();  // a child-layer value of layer 3
    CHECK(rejected_at(p) == "stage4.fraction_layer");
    p = honest;
    p.range_layers.back().claims[0] += Fr::one();  // the leaf layer's P0
    CHECK(rejected_at(p) == "stage5.fraction_layer");
    p = honest;
    p.instruction_lookups.read_raf_outputs[4] += Fr::one();  // the RangeCheck flag at r5
    CHECK(rejected_at(p) == "lookups.read_raf.final");
    p = honest;
    p.instruction_lookups.read_raf.round_polys[3].coeffs[1] += Fr::one();
    CHECK(rejected_at(p) == "lookups.read_raf.sumcheck.round_sum");
    p = honest;
    p.instruction_lookups.key_bit_claims[63] += Fr::one();  // the key's LSB at r6b
    CHECK(rejected_at(p) == "lookups.key_bits.final");
    p = honest;
    p.instruction_lookups.key_bits.round_polys[0].coeffs[0] += Fr::one();
    CHECK(rejected_at(p) == "lookups.key_bits.sumcheck.round_sum");
    p = honest;
    p.instruction_lookups.key_bit_claims.pop_back();
    CHECK(rejected_at(p) == "lookups.shape");
    p = honest;
    p.stage1.round_polys[0].coeffs[0] += Fr::one();
    CHECK(rejected_at(p) == "stage1.sumcheck.round_sum");
  }
  for (std::uint32_t c = 0; c < r1cs::kNumColumns; ++c) {
    INFO("column " << r1cs::column_name(c));
    Proof p = honest;
    p.stage1_openings[c] += Fr::one();
    CHECK(rejects(p));
  }
  // Every committed column (the committed trace columns, the key bits, the index bits).
  for (std::size_t i = 0; i < honest.stage7_openings.size(); ++i) {
    INFO("committed column " << i);
    Proof p = honest;
    p.stage7_openings[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.stage3_openings.size(); ++i) {
    Proof p = honest;
    p.stage3_openings[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.bytecode.address_outputs.size(); ++i) {
    Proof p = honest;
    p.bytecode.address_outputs[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.bytecode.index_bits.size(); ++i) {
    Proof p = honest;
    p.bytecode.index_bits[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.instruction_lookups.read_raf_outputs.size(); ++i) {
    Proof p = honest;
    p.instruction_lookups.read_raf_outputs[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.instruction_lookups.key_bit_claims.size(); ++i) {
    Proof p = honest;
    p.instruction_lookups.key_bit_claims[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.stage2_openings.size(); ++i) {
    Proof p = honest;
    p.stage2_openings[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (SumcheckProof Proof::*stage :
       {&Proof::stage1, &Proof::stage2, &Proof::stage3, &Proof::stage7}) {
    const std::size_t rounds = (honest.*stage).round_polys.size();
    for (std::size_t j : {std::size_t{0}, rounds / 2, rounds - 1}) {
      Proof p = honest;
      (p.*stage).round_polys[j].coeffs.back() += Fr::one();
      CHECK(rejects(p));
    }
  }
  Proof p = honest;
  p.commitment[0] ^= 1;
  CHECK(rejects(p));
  p = honest;
  p.log_t += 1;
  CHECK(rejects(p));
}
