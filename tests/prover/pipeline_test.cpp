// M1 pipeline: honest proofs verify (every PCS), the witness satisfies every constraint,
// corrupted proofs and witnesses that break one constraint family are rejected, and proofs are
// identical with 1 and 2 threads.
#include <doctest/doctest.h>

#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <random>

#include "mini_trace.hpp"

using namespace jolt::prover;
using testutil::sample_trace;

namespace {

ProverOptions forging() {
  ProverOptions o;
  o.self_check = false;
  return o;
}

std::size_t find_row(const std::vector<TraceRow>& rows, Opcode op, std::size_t skip = 0) {
  for (std::size_t t = 0; t < rows.size(); ++t)
    if (rows[t].opcode == op && skip-- == 0) return t;
  FAIL("opcode not in trace");
  return 0;
}

}  // namespace

TEST_CASE("the sample witness satisfies every M1 constraint") {
  auto tr = sample_trace(5);
  auto cols = m1::extract_columns(tr.rows);
  for (std::size_t t = 0; t < tr.rows.size(); ++t) {
    auto bad = m1::failing_constraints(cols, t);
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
      VerifyResult v = verify(tr.statement, proof);
      INFO("pcs " << pcs_name(pcs) << " n " << n << ": " << v.check << " " << v.message);
      CHECK(v.ok);
      auto d = decode_proof(proof);
      REQUIRE(d.proof);
      CHECK(encode_proof(*d.proof) == proof);  // stable encoding round-trips
    }
  }
}

TEST_CASE("the statement is bound: any change to it rejects") {
  auto tr = sample_trace(5);
  auto proof = prove(tr.statement, tr.rows);
  auto st = tr.statement;
  st.outputs[0] ^= 1;
  CHECK_FALSE(verify(st, proof).ok);
  st = tr.statement;
  st.program_digest.push_back(0);
  CHECK_FALSE(verify(st, proof).ok);
  st = tr.statement;
  st.trace_length -= 1;
  CHECK_FALSE(verify(st, proof).ok);
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
    VerifyResult v = verify(tr.statement, bad);
    INFO("offset " << off << " accepted");
    CHECK_FALSE(v.ok);
    CHECK_FALSE(v.check.empty());
  }
  // Truncations and garbage: a clear decode error.
  for (std::size_t len : {std::size_t{0}, std::size_t{3}, std::size_t{17}, proof.size() - 1}) {
    VerifyResult v = verify(tr.statement, std::span<const std::uint8_t>(proof.data(), len));
    CHECK_FALSE(v.ok);
    CHECK(v.check == "decode");
    CHECK(v.message.find("truncated") != std::string::npos);
  }
  auto longer = proof;
  longer.push_back(0);
  CHECK(verify(tr.statement, longer).check == "decode");
}

TEST_CASE("a witness breaking one constraint family is rejected") {
  auto tr = sample_trace(5);
  SUBCASE("pc update") {
    auto rows = tr.rows;
    rows[find_row(rows, Opcode::kMul)].pc += 4;
    CHECK_THROWS_AS(prove(tr.statement, rows), std::logic_error);
    auto v = verify(tr.statement, prove(tr.statement, rows, forging()));
    CHECK_FALSE(v.ok);
    CHECK(v.check.rfind("stage1", 0) == 0);
  }
  SUBCASE("ram address") {
    auto rows = tr.rows;
    rows[find_row(rows, Opcode::kSw, 2)].mem_addr += 4;
    auto v = verify(tr.statement, prove(tr.statement, rows, forging()));
    CHECK_FALSE(v.ok);
    CHECK(v.check.rfind("stage1", 0) == 0);
  }
  SUBCASE("rd write") {
    auto rows = tr.rows;
    rows[find_row(rows, Opcode::kAdd, 1)].rd_post += 1;
    auto v = verify(tr.statement, prove(tr.statement, rows, forging()));
    CHECK_FALSE(v.ok);
  }
  SUBCASE("lookup operands") {
    auto cols = m1::extract_columns(tr.rows);
    cols[m1::kRightLookupOperand][find_row(tr.rows, Opcode::kAdd)] += Fr::one();
    auto v = verify(tr.statement, prove_columns(tr.statement, cols, forging()));
    CHECK_FALSE(v.ok);
    CHECK(v.check.rfind("stage1", 0) == 0);
  }
  SUBCASE("product constraint") {
    // Product ≠ Left·Right, with RightLookup = Product kept consistent so R1CS rows still hold.
    auto cols = m1::extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kMul);
    cols[m1::kProduct][t] += Fr::one();
    cols[m1::kRightLookupOperand][t] += Fr::one();
    CHECK(m1::failing_constraints(cols, t) == std::vector<std::string_view>{"Product"});
    auto v = verify(tr.statement, prove_columns(tr.statement, cols, forging()));
    CHECK_FALSE(v.ok);
    CHECK(v.check.rfind("stage2", 0) == 0);
  }
  SUBCASE("shift (Next* is not the next row)") {
    // Claim the program stops after an ALU row: every R1CS/product row still holds.
    auto cols = m1::extract_columns(tr.rows);
    const std::size_t t = find_row(tr.rows, Opcode::kXor);
    cols[m1::kNextIsNoop][t] = Fr::one();
    cols[m1::kStepToNext][t] = Fr::zero();
    CHECK(m1::failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(tr.statement, cols), std::logic_error);
    auto v = verify(tr.statement, prove_columns(tr.statement, cols, forging()));
    CHECK_FALSE(v.ok);
    CHECK(v.check.rfind("stage3", 0) == 0);
  }
  SUBCASE("next pc column") {
    auto cols = m1::extract_columns(tr.rows);
    cols[m1::kNextUnexpandedPC][3] += Fr::from_u64(4);
    cols[m1::kUnexpandedPC][4] += Fr::from_u64(4);  // shift stays consistent, R1CS breaks
    auto v = verify(tr.statement, prove_columns(tr.statement, cols, forging()));
    CHECK_FALSE(v.ok);
  }
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

TEST_CASE("proofs are identical with 1 and 2 threads") {
  auto tr = sample_trace(120);  // T = 2^11: the parallel paths engage
  ProverOptions one, two;
  one.num_threads = 1;
  two.num_threads = 2;
  auto p1 = prove(tr.statement, tr.rows, one);
  auto p2 = prove(tr.statement, tr.rows, two);
  CHECK(p1 == p2);
  CHECK(verify(tr.statement, p1).ok);
}

TEST_CASE("every claim in the proof is checked: targeted edits are rejected") {
  auto tr = sample_trace(5);
  const auto bytes = prove(tr.statement, tr.rows);
  const Proof honest = *decode_proof(bytes).proof;
  auto rejects = [&](const Proof& p) { return !verify(tr.statement, encode_proof(p)).ok; };
  CHECK_FALSE(rejects(honest));
  for (std::uint32_t c = 0; c < m1::kNumColumns; ++c) {
    INFO("column " << m1::column_name(c));
    Proof p = honest;
    p.stage1_openings[c] += Fr::one();
    CHECK(rejects(p));
    p = honest;
    p.stage3_openings[c] += Fr::one();
    CHECK(rejects(p));
  }
  for (std::size_t i = 0; i < honest.stage2_openings.size(); ++i) {
    Proof p = honest;
    p.stage2_openings[i] += Fr::one();
    CHECK(rejects(p));
  }
  for (SumcheckProof Proof::*stage : {&Proof::stage1, &Proof::stage2, &Proof::stage3}) {
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
