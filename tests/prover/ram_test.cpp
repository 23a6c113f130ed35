// RAM by Twist (memory/ram_twist.hpp; read/write checking, RAF and output check in stage 2, the
// Val check in stage 4, the RA virtualization in stage 5): an honest run with loads, stores,
// input and output verifies, and a malicious prover — the honest prover on a witness or
// statement altered in one way — is rejected at the named check. In the stage-2 batch
// (`ram.read_write.*`) the read/write member catches a read the claims do not match, the RAF
// member an accessed word whose address is not the R1CS address, the output check a final
// memory that does not hold the claimed output or changed a read-only word; the Val check
// (`ram.val_check.*`) catches a read of a value the increments and the image do not give.
#include <doctest/doctest.h>

#include <jolt/prover/memory/ram_twist.hpp>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>

#include "mini_trace.hpp"

using testutil::check_of;
using testutil::forging;

using namespace jolt::prover;
using namespace jolt::prover::r1cs;

namespace {

using O = Opcode;
constexpr auto kData = static_cast<std::int32_t>(0x80010000u);
constexpr auto kIn = static_cast<std::int32_t>(kInputBase);
constexpr auto kOut = static_cast<std::int32_t>(kOutputBase);

// Stores 7 to a RAM word and loads it back; copies the input's first word to the output
// (length 4): output = input[0..4).
std::vector<testutil::Instr> ram_program() {
  return {
      {O::kLui, 5, 0, 0, kData},  // 0
      {O::kAddi, 1, 0, 0, 7},     // 4
      {O::kSw, 0, 5, 1, 0},       // 8: mem[x5] = 7
      {O::kLw, 2, 5, 0, 0},       // 12: x2 = 7
      {O::kLui, 6, 0, 0, kIn},    // 16
      {O::kLw, 3, 6, 0, 4},       // 20: x3 = input word 0
      {O::kLui, 7, 0, 0, kOut},   // 24
      {O::kAddi, 8, 0, 0, 4},     // 28
      {O::kSw, 0, 7, 3, 4},       // 32: output bytes = x3
      {O::kSw, 0, 7, 8, 0},       // 36: output length = 4
      {O::kSb, 0, 5, 3, 1},       // 40: a byte store (virtual sequence)
      {O::kLbu, 9, 5, 0, 1},      // 44: and a byte load
      {O::kAddi, 10, 0, 0, 0},    // 48
      {O::kEcall, 0, 17, 10, 0},  // 52: exit
  };
}

struct Run {
  Statement st;
  std::vector<TraceRow> rows;  // padded
};

// The mini executor's memory starts empty: seed the input region as the verifier's image does.
Run run_ram(const std::vector<testutil::Instr>& prog, std::vector<std::uint8_t> input) {
  auto rows = testutil::run(prog, 100000, 0, 0, input);
  Run r{Statement{testutil::program_of(prog), input, {}, rows.size()}, std::move(rows)};
  r.rows.resize(padded_trace_length(r.rows.size()));
  return r;
}

std::size_t row_of(const std::vector<TraceRow>& rows, std::uint32_t pc) {
  for (std::size_t t = 0; t < rows.size(); ++t)
    if (rows[t].pc == pc && rows[t].opcode != O::kNoop) return t;
  FAIL("pc not executed");
  return 0;
}

}  // namespace

TEST_CASE("loads, stores, input and output: the honest proof verifies") {
  const std::vector<std::uint8_t> input = {1, 2, 3, 4, 9};
  auto r = run_ram(ram_program(), input);
  r.st.outputs = {1, 2, 3, 4};
  CHECK_FALSE(verify(r.st, prove(r.st, r.rows)));
}

TEST_CASE("a malicious prover's RAM is rejected at the named check") {
  const std::vector<std::uint8_t> input = {1, 2, 3, 4, 9};
  auto r = run_ram(ram_program(), input);
  r.st.outputs = {1, 2, 3, 4};
  auto cols = extract_columns(r.rows);
  auto rejected_at = [&](const Statement& st, const std::vector<std::vector<Fr>>& c) {
    return check_of(verify(st, prove_columns(st, c, forging())));
  };
  SUBCASE("a load returning a value never stored") {
    const std::size_t t = row_of(r.rows, 12);  // lw x2 (7)
    const Fr v = Fr::from_u64(8);
    cols[kRamReadValue][t] = cols[kRamWriteValue][t] = v;
    cols[kRdWriteValue][t] = v;  // (LW's lookup output is its address)
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(r.st, cols), std::logic_error);
    // The read/write member is consistent with the claimed reads; the Val it leaves at its
    // point is not the image plus the increments before it.
    CHECK(rejected_at(r.st, cols) == "ram.val_check.sumcheck.round_sum");
  }
  SUBCASE("a store not seen by the later load") {
    // The load reads the word's initial value 0, as if the store never happened (the store's
    // increment stays).
    const std::size_t t = row_of(r.rows, 12);
    const Fr v = Fr::zero();
    cols[kRamReadValue][t] = cols[kRamWriteValue][t] = v;
    cols[kRdWriteValue][t] = v;  // (LW's lookup output is its address)
    cols[kRamInc][t] = Fr::zero();
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(r.st, cols) == "ram.val_check.sumcheck.round_sum");
  }
  SUBCASE("a wrong output byte") {
    auto st = r.st;
    st.outputs[2] ^= 1;  // the output check's sum is not 0
    CHECK(check_of(verify(st, prove(st, r.rows, forging()))) ==
          "ram.read_write.sumcheck.round_sum");
    st.outputs = {1, 2, 3};  // a shorter output: the length word says 4
    CHECK(check_of(verify(st, prove(st, r.rows, forging()))) ==
          "ram.read_write.sumcheck.round_sum");
  }
  SUBCASE("a wrong input byte") {
    auto st = r.st;
    st.inputs[0] ^= 1;  // the trace read the original input
    // The word the trace read is not the claimed input's: the Val check's image term differs.
    CHECK(check_of(verify(st, prove(st, r.rows, forging()))) == "ram.val_check.sumcheck.round_sum");
  }
}

TEST_CASE("a RAM word outside the memory map or a changed read-only word is rejected") {
  SUBCASE("an address outside the memory map") {
    const std::vector<testutil::Instr> prog = {{O::kAddi, 5, 0, 0, 64},
                                               {O::kLw, 2, 5, 0, 0},
                                               {O::kAddi, 10, 0, 0, 0},
                                               {O::kEcall, 0, 17, 10, 0}};
    auto r = run_ram(prog, {});
    // No block of the layout holds address 64: the RAF member's sum is not RamAddress.
    CHECK(check_of(verify(r.st, prove(r.st, r.rows, forging()))) ==
          "ram.read_write.sumcheck.round_sum");
  }
  SUBCASE("a store to the input region") {
    const std::vector<testutil::Instr> prog = {{O::kLui, 5, 0, 0, kIn},
                                               {O::kAddi, 1, 0, 0, 7},
                                               {O::kSw, 0, 5, 1, 4},
                                               {O::kAddi, 10, 0, 0, 0},
                                               {O::kEcall, 0, 17, 10, 0}};
    auto r = run_ram(prog, {1, 2, 3, 4});
    // The output check holds the input words to their initial values.
    CHECK(check_of(verify(r.st, prove(r.st, r.rows, forging()))) ==
          "ram.read_write.sumcheck.round_sum");
  }
  SUBCASE("a misaligned word access") {
    // LW at x5 + 2: every uniform row holds (the address is the lookup output, (x5 + 2) mod
    // 2^32), but the layout's words are aligned (unmap(k) = block address + 4·offset), so no
    // compact word has that address: the RAF member's sum is not RamAddress.
    const std::vector<testutil::Instr> prog = {{O::kLui, 5, 0, 0, kData},
                                               {O::kLw, 2, 5, 0, 2},
                                               {O::kAddi, 10, 0, 0, 0},
                                               {O::kEcall, 0, 17, 10, 0}};
    auto r = run_ram(prog, {});
    auto cols = extract_columns(r.rows);
    CHECK(failing_constraints(cols, 1).empty());
    CHECK(check_of(verify(r.st, prove(r.st, r.rows, forging()))) ==
          "ram.read_write.sumcheck.round_sum");
  }
}

TEST_CASE("the proof's RAM layout, access gate and RAM claims are checked") {
  const std::vector<std::uint8_t> input = {1, 2, 3, 4, 9};
  auto r = run_ram(ram_program(), input);
  r.st.outputs = {1, 2, 3, 4};
  Proof honest;
  REQUIRE_FALSE(decode_proof(prove(r.st, r.rows), honest));
  auto rejected_at = [&](const Proof& p) { return check_of(verify(r.st, encode_proof(p))); };
  CHECK(rejected_at(honest).empty());
  // The layout the honest prover chose: input, output and the low RAM block.
  const memory::RamLayout layout = memory::RamLayout::pack(honest.ram_regions);
  REQUIRE(layout.compact_index(kOutputBase + 4));
  REQUIRE(layout.compact_index(static_cast<std::uint32_t>(kData)));
  Proof p = honest;
  p.ram_regions.push_back({0x10000000u, 4});  // outside the memory map
  CHECK(rejected_at(p) == "proof.header.ram_regions");
  p = honest;
  p.ram_regions.push_back(p.ram_regions.back());  // the same block twice
  CHECK(rejected_at(p) == "proof.header.ram_layout");
  p = honest;
  for (auto& g : p.ram_regions)
    if (g.address == kOutputBase) g.words = 1;  // the output's bytes outside the layout
  CHECK(rejected_at(p) == "proof.header.ram_output");
  p = honest;
  p.ram_access_flags[1] += Fr::one();  // Store at the RA point: Load + Store is not the gate
  CHECK(rejected_at(p) == "stage5.ram_access_flags");
  p = honest;
  p.ram.ra_outputs.pop_back();
  CHECK(rejected_at(p) == "ram.shape");
  for (std::size_t i = 0; i < honest.ram.read_write_outputs.size(); ++i) {
    INFO("read/write output " << i);
    p = honest;
    p.ram.read_write_outputs[i] += Fr::one();
    CHECK(rejected_at(p) == "ram.read_write.final");
  }
  for (std::size_t i = 0; i < honest.ram.val_check_outputs.size(); ++i) {
    p = honest;
    p.ram.val_check_outputs[i] += Fr::one();
    CHECK(rejected_at(p) == "ram.val_check.final");
  }
  for (std::size_t i = 0; i < honest.ram.ra_outputs.size(); ++i) {
    INFO("RA output " << i);
    p = honest;
    p.ram.ra_outputs[i] += Fr::one();
    // The gate h at the end: an h that is not Load + Store passes ram.ra.final only if the
    // bits compensate; with the bits honest it fails there.
    CHECK(rejected_at(p) == "ram.ra.final");
  }
  p = honest;
  p.ram.read_write.round_polys[0].coeffs[0] += Fr::one();
  CHECK(rejected_at(p) == "ram.read_write.sumcheck.round_sum");
  p = honest;
  p.ram.val_check.round_polys[1].coeffs[1] += Fr::one();
  CHECK(rejected_at(p) == "ram.val_check.sumcheck.round_sum");
  p = honest;
  p.ram.ra.round_polys[2].coeffs[0] += Fr::one();
  CHECK(rejected_at(p) == "ram.ra.sumcheck.round_sum");
  // Every committed column's claim at r7 (RamInc and the address bits among them).
  for (std::size_t i = 0; i < honest.stage7_openings.size(); ++i) {
    INFO("committed column " << i);
    p = honest;
    p.stage7_openings[i] += Fr::one();
    CHECK(rejected_at(p) == "stage7.final_claim");
  }
}

TEST_CASE("a proof for one program is rejected for another") {
  // ELF A and ELF B differ in one instruction's immediate: the statement (the program's digest
  // and bytecode) is absorbed first, so every challenge differs and stage 1 fails.
  const std::vector<std::uint8_t> input = {1, 2, 3, 4, 9};
  auto a = run_ram(ram_program(), input);
  a.st.outputs = {1, 2, 3, 4};
  auto prog_b = ram_program();
  prog_b[1].imm = 8;  // addi x1, x0, 8
  auto b = run_ram(prog_b, input);
  b.st.outputs = {1, 2, 3, 4};
  const auto proof_a = prove(a.st, a.rows);
  CHECK_FALSE(verify(a.st, proof_a));
  CHECK_FALSE(verify(b.st, prove(b.st, b.rows)));
  Statement st = a.st;
  st.program = b.st.program;  // same input, output and trace length; another program
  REQUIRE(st.trace_length == b.st.trace_length);
  CHECK(check_of(verify(st, proof_a)) == "stage1.sumcheck.round_sum");
}

TEST_CASE("an output shortened in place keeps the stale bytes of its last word") {
  // The guest writes 8 output bytes, then shortens the output to 5 (jolt_write_output replaces
  // the output): bytes 5..7 stay in the output's last word. The proof names them as the output
  // tail; the statement fixes only the 5 bytes.
  const std::vector<testutil::Instr> prog = {
      {O::kLui, 7, 0, 0, kOut},        // 0
      {O::kLui, 1, 0, 0, 0x04030000},  // 4
      {O::kAddi, 1, 1, 0, 0x201},      // 8: x1 = 0x04030201
      {O::kLui, 2, 0, 0, 0x08070000},  // 12
      {O::kAddi, 2, 2, 0, 0x605},      // 16: x2 = 0x08070605
      {O::kSw, 0, 7, 1, 4},            // 20
      {O::kSw, 0, 7, 2, 8},            // 24
      {O::kAddi, 8, 0, 0, 8},          // 28
      {O::kSw, 0, 7, 8, 0},            // 32: length 8
      {O::kAddi, 8, 0, 0, 5},          // 36
      {O::kSw, 0, 7, 8, 0},            // 40: length 5
      {O::kAddi, 10, 0, 0, 0},         // 44
      {O::kEcall, 0, 17, 10, 0},       // 48
  };
  auto r = run_ram(prog, {});
  r.st.outputs = {1, 2, 3, 4, 5};
  const auto bytes = prove(r.st, r.rows);
  CHECK_FALSE(verify(r.st, bytes));
  Proof p;
  REQUIRE_FALSE(decode_proof(bytes, p));
  CHECK(p.ram_output_tail == 0x08070600u);  // the bytes after the output in word kOut + 8
  p.ram_output_tail |= 1;                   // a bit of the output's own byte
  CHECK(check_of(verify(r.st, encode_proof(p))) == "proof.header.ram_output_tail");
  // The tail is absorbed with the layout, before every challenge: another tail changes them all.
  REQUIRE_FALSE(decode_proof(bytes, p));
  p.ram_output_tail ^= 0x01000000u;
  CHECK(check_of(verify(r.st, encode_proof(p))) == "stage1.sumcheck.round_sum");
}

TEST_CASE("an input or output longer than its region is refused") {
  const std::vector<std::uint8_t> input = {1, 2, 3, 4, 9};
  auto r = run_ram(ram_program(), input);
  r.st.outputs = {1, 2, 3, 4};
  const auto bytes = prove(r.st, r.rows);
  Statement st = r.st;
  st.outputs.assign(kOutputMax - 3, 0);
  CHECK(check_of(verify(st, bytes)) == "statement.output_size");
  st = r.st;
  st.inputs.assign(kInputMax - 3, 0);
  CHECK(check_of(verify(st, bytes)) == "statement.input_size");
}
