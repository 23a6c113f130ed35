// Instruction results (r1cs.hpp, "Instruction results"): for every instruction whose result a
// relation fixes, the honest witness satisfies the uniform rows with its bytes in the byte table,
// and a wrong result does not; a malicious prover (the honest prover on a witness altered in one
// way, every other column recomputed to fit) is rejected at the named check.
#include <doctest/doctest.h>

#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <random>

#include <jolt/prover/tracer/virtual_sequences.hpp>

#include "mini_trace.hpp"

using testutil::check_of;
using testutil::forging;

using namespace jolt::prover;
using namespace jolt::prover::r1cs;

namespace {

std::uint64_t u64(const Fr& v) {
  const auto l = v.to_canonical_limbs();
  return (l[1] | l[2] | l[3]) ? ~std::uint64_t{0} : l[0];
}

// Every lookup of cycle t is a byte-table entry: (X_i, Y_i, X_i & Y_i) and (W_i, 0, 0).
bool bytes_in_table(const std::vector<std::vector<Fr>>& c, std::size_t t) {
  for (std::uint32_t i = 0; i < 4; ++i) {
    const std::uint64_t x = u64(c[kWordX0 + i][t]), y = u64(c[kWordY0 + i][t]),
                        z = u64(c[kWordZ0 + i][t]), w = u64(c[kWordW0 + i][t]);
    if (x > 255 || y > 255 || z != (x & y) || w > 255) return false;
  }
  return true;
}

// Recomputes cycle t's product columns from the values they multiply (after a test edits them).
void refresh_products(std::vector<std::vector<Fr>>& c, std::size_t t) {
  const Fr left = c[kLeftInstructionInput][t], right = c[kRightInstructionInput][t];
  Fr y = Fr::zero();
  for (std::uint32_t i = 4; i-- > 0;) y = y * Fr::from_u64(256) + c[kWordY0 + i][t];
  c[kDiffTimesInverse][t] = (left - right) * c[kDiffInverse][t];
  c[kOutputTimesDiff][t] = c[kLookupOutput][t] * (left - right);
  c[kSignLeftTimesRight][t] = c[kSignLeft][t] * right;
  c[kQuotientTimesRight][t] = y * right;
}

// One executed instruction with operands a (rs1) and b (rs2), or immediate imm.
TraceRow row_of(Opcode op, std::uint32_t a, std::uint32_t b, std::int32_t imm) {
  TraceRow r;
  r.pc = 0x1000;
  r.opcode = op;
  r.rd = 5;
  r.rs1 = 1;
  r.rs2 = 2;
  r.imm = imm;
  r.rs1_val = a;
  r.rs2_val = b;
  const std::uint32_t out = lookup_output(r);
  const bool branch = op >= Opcode::kBeq && op <= Opcode::kBgeu;
  if (branch) r.rd = 0;
  r.rd_post = branch ? 0 : (op == Opcode::kJal || op == Opcode::kJalr ? r.pc + 4 : out);
  return r;
}

struct Case {
  Opcode op;
  bool uses_imm;
  bool shift;
};

}  // namespace

TEST_CASE("the uniform rows and the byte table fix every covered instruction's RV32IM result") {
  using O = Opcode;
  const std::vector<Case> cases = {
      {O::kAdd, false, false},  {O::kSub, false, false},  {O::kAnd, false, false},
      {O::kOr, false, false},   {O::kXor, false, false},  {O::kSlt, false, false},
      {O::kSltu, false, false}, {O::kMul, false, false},  {O::kMulhu, false, false},
      {O::kAddi, true, false},  {O::kAndi, true, false},  {O::kOri, true, false},
      {O::kXori, true, false},  {O::kSlti, true, false},  {O::kSltiu, true, false},
      {O::kSlli, true, true},   {O::kSrli, true, true},   {O::kSrai, true, true},
      {O::kLui, true, false},   {O::kAuipc, true, false}, {O::kJal, true, false},
      {O::kJalr, true, false},  {O::kBeq, false, false},  {O::kBne, false, false},
      {O::kBlt, false, false},  {O::kBge, false, false},  {O::kBltu, false, false},
      {O::kBgeu, false, false}, {O::kDivu, false, false}, {O::kRemu, false, false},
      {O::kSll, false, false},  {O::kSrl, false, false}};
  std::vector<std::uint32_t> operands = {
      0, 1, 2, 7, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x12345678};
  std::mt19937 rng(12);
  for (int i = 0; i < 6; ++i) operands.push_back(static_cast<std::uint32_t>(rng()));
  auto immediates = [](const Case& c) -> std::vector<std::int32_t> {
    if (c.shift) return {0, 1, 4, 17, 31};
    if (c.op == Opcode::kLui || c.op == Opcode::kAuipc)
      return {0, 0x12345000, static_cast<std::int32_t>(0x80000000u),
              static_cast<std::int32_t>(0xfffff000u)};
    if (c.op == Opcode::kJal) return {8, -8, 2046, -4096};
    return {0, 1, -1, 2047, -2048, -7};
  };
  std::size_t checked = 0;
  for (const Case& c : cases)
    for (std::uint32_t a : operands)
      for (std::size_t k = 0; k < (c.uses_imm ? immediates(c).size() : operands.size()); ++k) {
        const std::uint32_t b = c.uses_imm ? 0 : operands[k];
        const std::int32_t imm = c.uses_imm ? immediates(c)[k] : 0;
        const TraceRow r = row_of(c.op, a, b, imm);
        std::vector<TraceRow> rows = {r, TraceRow{}};
        auto cols = extract_columns(rows);
        INFO("opcode " << static_cast<int>(c.op) << " a " << a << " b " << b << " imm " << imm);
        REQUIRE(failing_constraints(cols, 0).empty());
        REQUIRE(bytes_in_table(cols, 0));
        const std::uint64_t out = lookup_output(r);
        CHECK(u64(cols[kLookupOutput][0]) == out);
        // Any other result, with the rest of the witness recomputed around it, breaks a row or
        // leaves the byte table.
        const bool boolean = c.op >= O::kBeq && c.op <= O::kBgeu;
        const std::vector<Fr> wrong =
            boolean ? std::vector<Fr>{Fr::one() - Fr::from_u64(out)}
                    : std::vector<Fr>{Fr::from_u64(out) + Fr::one(), Fr::from_u64(out) - Fr::one(),
                                      Fr::from_u64(out ^ 0x80000000u),
                                      Fr::from_u64(out + (std::uint64_t{1} << 32))};
        for (const Fr& v : wrong) {
          auto bad = cols;
          bad[kLookupOutput][0] = v;
          if (!bad[kWriteLookupOutputToRD][0].is_zero()) bad[kRdWriteValue][0] = v;
          fill_alu_columns(bad, 0);
          CHECK((!failing_constraints(bad, 0).empty() || !bytes_in_table(bad, 0)));
        }
        ++checked;
      }
  CHECK(checked > 1000);
}

// A program with the results the malicious provers below alter (x1 = 2^31, x2 = 7).
std::vector<testutil::Instr> alu_program() {
  using O = Opcode;
  return {
      {O::kLui, 1, 0, 0, static_cast<std::int32_t>(0x80000000u)},  // 0
      {O::kAddi, 2, 0, 0, 7},                                      // 4
      {O::kAdd, 3, 1, 1, 0},                                       // 8: 2^32 wraps to 0
      {O::kSub, 4, 2, 1, 0},                                       // 12
      {O::kSltu, 5, 2, 1, 0},                                      // 16: 1
      {O::kXor, 6, 1, 2, 0},                                       // 20
      {O::kSrai, 7, 1, 0, 4},                                      // 24: 0xf8000000
      {O::kMulhu, 8, 1, 2, 0},                                     // 28: 3
      {O::kBltu, 0, 2, 0, 8},                                      // 32: not taken
      {O::kAddi, 9, 0, 0, 1},                                      // 36
      {O::kBeq, 0, 2, 0, 8},                                       // 40: not taken
      {O::kAddi, 10, 0, 0, 0},                                     // 44
      {O::kEcall, 0, 17, 10, 0},                                   // 48: exit
  };
}

TEST_CASE("a malicious prover's wrong instruction result is rejected at the named check") {
  const auto prog = alu_program();
  auto rows = testutil::run(prog);
  Statement st{testutil::program_of(prog), {}, {}, rows.size()};
  rows.resize(padded_trace_length(rows.size()));
  REQUIRE_FALSE(verify(st, prove(st, rows)));
  auto at = [&](Opcode op) {
    for (std::size_t t = 0; t < rows.size(); ++t)
      if (rows[t].opcode == op) return t;
    FAIL("opcode not in trace");
    return std::size_t{0};
  };
  // Sets cycle t's result to v and recomputes the rest of its instruction-result witness.
  auto set_result = [](std::vector<std::vector<Fr>>& c, std::size_t t, const Fr& v) {
    c[kLookupOutput][t] = v;
    c[kRdWriteValue][t] = v;
    fill_alu_columns(c, t);
  };
  auto rejected_at = [&](const std::vector<std::vector<Fr>>& c) {
    return check_of(verify(st, prove_columns(st, c, forging())));
  };
  const Fr two32 = Fr::from_u64(std::uint64_t{1} << 32), b256 = Fr::from_u64(256);
  auto cols = extract_columns(rows);

  SUBCASE("a wrong ADD result: the uniform rows object") {
    const std::size_t t = at(Opcode::kAdd);
    set_result(cols, t, cols[kLookupOutput][t] + Fr::one());
    CHECK(failing_constraints(cols, t) == std::vector<std::string_view>{"OutputIsLowWord"});
    CHECK_THROWS_AS(prove_columns(st, cols), std::logic_error);
    CHECK(rejected_at(cols) == "stage1.sumcheck.round_sum");
  }
  SUBCASE("a register value of 2^32: ADD without its wrap-around") {
    const std::size_t t = at(Opcode::kAdd);
    REQUIRE(cols[kLookupOutput][t].is_zero());
    set_result(cols, t, two32);
    cols[kCarry][t] = Fr::zero();
    cols[kWordX3][t] = b256;  // X = 2^32: a "byte" of 256
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(st, cols), std::logic_error);
    // The honest prover counts the "byte" 256 as entry 2^16, which the table does not have.
    CHECK(rejected_at(cols) == "stage5.byte_multiplicities");
  }
  SUBCASE("a non-canonical byte decomposition of an ADD's sum") {
    const std::size_t t = at(Opcode::kAddi);
    cols[kWordX0][t] += b256;
    cols[kWordX1][t] -= Fr::one();  // X is the same field element
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(cols) == "stage5.byte_multiplicities");
  }
  SUBCASE("a wrong SUB result (the borrow flipped)") {
    const std::size_t t = at(Opcode::kSub);
    REQUIRE(cols[kCarry][t].is_zero());
    set_result(cols, t, cols[kLookupOutput][t] - two32);
    cols[kCarry][t] = Fr::one();
    cols[kWordX3][t] -= b256;
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(cols) == "stage5.byte_logup_sum");
  }
  SUBCASE("a wrong SLTU result") {
    const std::size_t t = at(Opcode::kSltu);
    REQUIRE(cols[kLookupOutput][t] == Fr::one());
    set_result(cols, t, Fr::zero());
    cols[kCarry][t] = Fr::one();
    cols[kWordX3][t] -= b256;
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(cols) == "stage5.byte_logup_sum");
  }
  SUBCASE("a wrong XOR result (a byte's AND is not x & y)") {
    const std::size_t t = at(Opcode::kXor);
    set_result(cols, t, cols[kLookupOutput][t] - Fr::from_u64(2));
    cols[kWordZ0][t] += Fr::one();  // X + Y − 2Z is the forged result
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(cols) == "stage5.byte_logup_sum");
  }
  SUBCASE("a wrong SRAI result (the sign bit dropped)") {
    const std::size_t t = at(Opcode::kSrai);
    REQUIRE(cols[kSignLeft][t] == Fr::one());
    set_result(cols, t, Fr::from_u64(0x08000000));  // the logical shift
    cols[kSignLeft][t] = Fr::zero();
    cols[kSignLeftTimesRight][t] = Fr::zero();
    cols[kWordY3][t] += b256;  // Y = 2·Left − 2^32·SignLeft = 2^32
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(cols) == "stage5.byte_logup_sum");
  }
  SUBCASE("a wrong MULHU result") {
    const std::size_t t = at(Opcode::kMulhu);
    REQUIRE(cols[kLookupOutput][t] == Fr::from_u64(3));
    set_result(cols, t, Fr::from_u64(4));
    cols[kWordW0][t] += Fr::one();
    cols[kWordX3][t] -= b256;  // Product = X + 2^32·W still
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at(cols) == "stage5.byte_logup_sum");
  }
}

// x1 = 100, x2 = 7: DIVU 14, REMU 2, and DIVU by x0.
std::vector<testutil::Instr> division_program() {
  using O = Opcode;
  return {
      {O::kAddi, 1, 0, 0, 100},   // 0
      {O::kAddi, 2, 0, 0, 7},     // 4
      {O::kDivu, 3, 1, 2, 0},     // 8: 14
      {O::kRemu, 4, 1, 2, 0},     // 12: 2
      {O::kDivu, 5, 1, 0, 0},     // 16: 2^32 − 1 (by zero)
      {O::kEcall, 0, 17, 10, 0},  // 20: exit
  };
}

TEST_CASE("a malicious prover's wrong division result is rejected at the named check") {
  const auto prog = division_program();
  auto rows = testutil::run(prog);
  Statement st{testutil::program_of(prog), {}, {}, rows.size()};
  rows.resize(padded_trace_length(rows.size()));
  REQUIRE_FALSE(verify(st, prove(st, rows)));
  auto cols = extract_columns(rows);
  auto rejected_at = [&] { return check_of(verify(st, prove_columns(st, cols, forging()))); };
  const Fr b256 = Fr::from_u64(256);
  SUBCASE("DIVU: quotient one more, remainder below zero") {
    const std::size_t t = 2;
    REQUIRE(cols[kLookupOutput][t] == Fr::from_u64(14));
    cols[kLookupOutput][t] = cols[kRdWriteValue][t] = Fr::from_u64(15);
    cols[kWordY0][t] += Fr::one();
    cols[kWordW0][t] -= Fr::from_u64(7);  // 2 − 7: no byte
    cols[kWordX0][t] += Fr::from_u64(7);
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at() == "stage5.byte_logup_sum");
  }
  SUBCASE("REMU: remainder not below the divisor") {
    const std::size_t t = 3;
    REQUIRE(cols[kLookupOutput][t] == Fr::from_u64(2));
    cols[kLookupOutput][t] = cols[kRdWriteValue][t] = Fr::from_u64(9);
    cols[kWordW0][t] += Fr::from_u64(7);
    cols[kWordY0][t] -= Fr::one();
    cols[kWordX0][t] -= Fr::from_u64(7);  // 7 − 9 − 1: no byte
    cols[kWordZ0][t] = Fr::zero();
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at() == "stage5.byte_logup_sum");
  }
  SUBCASE("DIVU by zero: a quotient other than 2^32 − 1") {
    const std::size_t t = 4;
    REQUIRE(cols[kDivisorIsZero][t] == Fr::one());
    cols[kLookupOutput][t] = cols[kRdWriteValue][t] = Fr::zero();
    for (std::uint32_t i = 0; i < 4; ++i) cols[kWordY0 + i][t] = Fr::zero();
    cols[kDivisorIsZero][t] = Fr::zero();  // ZeroDivisorQuotient no longer applies
    cols[kWordX3][t] -= b256;              // X = −101: no word
    for (std::uint32_t i = 0; i < 4; ++i) cols[kWordZ0 + i][t] = Fr::zero();
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK(rejected_at() == "stage5.byte_logup_sum");
  }
}

TEST_CASE("a register shift by another amount than Rs2 mod 32 is rejected") {
  // x1 = 0x80000001, x2 = 37 (shift by 5): SLL 0x20, SRL 0x04000000.
  using O = Opcode;
  const std::vector<testutil::Instr> prog = {
      {O::kLui, 1, 0, 0, static_cast<std::int32_t>(0x80000000u)},
      {O::kAddi, 1, 1, 0, 1},
      {O::kAddi, 2, 0, 0, 37},
      {O::kSll, 3, 1, 2, 0},
      {O::kSrl, 4, 1, 2, 0},
      {O::kEcall, 0, 17, 10, 0},
  };
  auto rows = testutil::run(prog);
  Statement st{testutil::program_of(prog), {}, {}, rows.size()};
  rows.resize(padded_trace_length(rows.size()));
  REQUIRE_FALSE(verify(st, prove(st, rows)));
  auto cols = extract_columns(rows);
  for (std::size_t t : {std::size_t{3}, std::size_t{4}}) {
    CAPTURE(t);
    auto bad = cols;
    // The power of a shift by 6: X and W follow the product, the rows all hold.
    const bool left = t == 3;
    bad[kShiftPower][t] = left ? bad[kShiftPower][t] + bad[kShiftPower][t]
                               : bad[kShiftPower][t] * Fr::from_u64(2).inverse();
    const std::uint64_t p = 0x80000001ull * (left ? 64ull : (1ull << 26));
    for (std::uint32_t i = 0; i < 4; ++i) {
      bad[kWordX0 + i][t] = Fr::from_u64((p >> (8 * i)) & 0xff);
      bad[kWordW0 + i][t] = Fr::from_u64((p >> (32 + 8 * i)) & 0xff);
      bad[kWordZ0 + i][t] = Fr::from_u64(((p >> (8 * i)) & 0xff) & u64(bad[kWordY0 + i][t]));
    }
    bad[kLookupOutput][t] = bad[kRdWriteValue][t] = Fr::from_u64(left ? p & 0xffffffffu : p >> 32);
    refresh_products(bad, t);
    bad[kShiftProduct][t] = bad[kLeftInstructionInput][t] * bad[kShiftPower][t];
    REQUIRE(failing_constraints(bad, t).empty());
    CHECK_THROWS_AS(prove_columns(st, bad), std::logic_error);
    CHECK(check_of(verify(st, prove_columns(st, bad, forging()))) == "stage5.shift_logup_sum");
  }
}

TEST_CASE("a branch taken when its condition is false is rejected") {
  // The forged trace runs the program with the branch taken: it is the honest trace of the
  // program with that branch replaced by `beq x0, x0` (always taken), with the branch row's
  // instruction and operands put back. Registers, bytecode, shift and PC update then hold; only
  // the branch's condition can object.
  using O = Opcode;
  const auto prog = alu_program();
  auto forged_run = [&](std::uint32_t pc) {
    auto always = prog;
    always[pc / 4].rs1 = 0;
    always[pc / 4].rs2 = 0;
    always[pc / 4].op = O::kBeq;
    const auto honest = testutil::run(prog);
    auto rows = testutil::run(always);
    for (std::size_t t = 0; t < rows.size(); ++t)
      if (rows[t].pc == pc) {
        rows[t].opcode = prog[pc / 4].op;
        rows[t].rs1 = prog[pc / 4].rs1;
        rows[t].rs2 = prog[pc / 4].rs2;
        rows[t].rs1_val = honest[t].rs1_val;
        rows[t].rs2_val = honest[t].rs2_val;
        return std::make_pair(rows, t);
      }
    FAIL("branch not executed");
    return std::make_pair(rows, std::size_t{0});
  };
  auto prove_taken = [&](std::uint32_t pc, std::vector<std::vector<Fr>>& cols, std::size_t& t,
                         Statement& st) {
    auto [rows, bt] = forged_run(pc);
    st = Statement{testutil::program_of(prog), {}, {}, rows.size()};
    rows.resize(padded_trace_length(rows.size()));
    cols = extract_columns(rows);
    t = bt;
    REQUIRE(cols[kLookupOutput][t].is_zero());  // the honest condition: not taken
    cols[kLookupOutput][t] = Fr::one();
    cols[kShouldBranch][t] = Fr::one();
    cols[kBranchToNext][t] = Fr::one();
    cols[kStepToNext][t] = Fr::zero();
    fill_alu_columns(cols, t);
  };
  std::vector<std::vector<Fr>> cols;
  std::size_t t = 0;
  Statement st;
  SUBCASE("BLTU: the comparison's borrow flipped leaves the byte table") {
    prove_taken(32, cols, t, st);
    cols[kCarry][t] = Fr::zero();
    cols[kWordX3][t] += Fr::from_u64(256);
    refresh_products(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(st, cols), std::logic_error);
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == "stage5.byte_multiplicities");
  }
  SUBCASE("BEQ: unequal operands cannot be equal") {
    prove_taken(40, cols, t, st);
    CHECK(failing_constraints(cols, t) ==
          std::vector<std::string_view>{"EqOutput", "EqDiffVanishes"});
    cols[kDiffInverse][t] = Fr::zero();  // EqOutput then holds; the difference still does not
    cols[kDiffTimesInverse][t] = Fr::zero();
    CHECK(failing_constraints(cols, t) == std::vector<std::string_view>{"EqDiffVanishes"});
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == "stage1.sumcheck.round_sum");
  }
}

TEST_CASE("SRA, MULH, MULHSU, DIV and REM are proved as virtual sequences") {
  using O = Opcode;
  const std::vector<testutil::Instr> prog = {
      {O::kAddi, 1, 0, 0, -7},  {O::kAddi, 2, 0, 0, 2},   {O::kSra, 3, 1, 2, 0},
      {O::kMulhsu, 5, 1, 2, 0}, {O::kDiv, 6, 1, 2, 0},    {O::kRem, 7, 1, 2, 0},
      {O::kMulh, 4, 1, 2, 0},   {O::kEcall, 0, 17, 10, 0}};  // MULH last: see below
  const std::uint32_t mulh_pc = 24;
  const auto honest = testutil::run(prog);
  auto result = [&](std::uint8_t rd) {
    for (std::size_t t = honest.size(); t-- > 0;)
      if (honest[t].rd == rd) return honest[t].rd_post;
    return 0u;
  };
  CHECK(result(3) == static_cast<std::uint32_t>(-2));  // -7 >> 2
  CHECK(result(4) == 0xffffffffu);                     // high word of -14
  CHECK(result(5) == 0xffffffffu);
  CHECK(result(6) == static_cast<std::uint32_t>(-3));
  CHECK(result(7) == static_cast<std::uint32_t>(-1));
  auto prove_rows = [&](std::vector<TraceRow> rows, bool self_check) {
    Statement st{testutil::program_of(prog), {}, {}, rows.size()};
    rows.resize(padded_trace_length(rows.size()));
    ProverOptions o;
    o.self_check = self_check;
    return std::make_pair(st, prove(st, rows, o));
  };
  {
    const auto [st, proof] = prove_rows(honest, true);
    CHECK_FALSE(verify(st, proof));
  }
  std::size_t mulh = 0;  // the first row of MULH's sequence
  while (!(honest[mulh].pc == mulh_pc && honest[mulh].sequence == 0)) ++mulh;
  SUBCASE("a sequence's rows out of order") {
    // MULH's rows 1 (v32 = v32·b) and 2 (v34 = b >>s 31) are independent: swapped, every value
    // is still right; only the sequence order objects.
    auto rows = honest;
    std::swap(rows[mulh + 1], rows[mulh + 2]);
    const auto [st, proof] = prove_rows(rows, false);
    CHECK(check_of(verify(st, proof)) == "stage1.sumcheck.round_sum");
  }
  SUBCASE("the instruction executed as one row instead of its sequence") {
    // One MULH row with the right result: its bytecode entry does not exist (the table holds
    // the sequence). MULH is the last sequence, so no later row reads the virtual registers
    // its sequence would have written.
    auto rows = honest;
    TraceRow one;
    one.pc = mulh_pc, one.opcode = O::kMulh, one.rd = 4, one.rs1 = 1, one.rs2 = 2;
    one.rs1_val = static_cast<std::uint32_t>(-7), one.rs2_val = 2;
    one.rd_pre = 0, one.rd_post = 0xffffffffu, one.next_pc = mulh_pc + 4;
    const std::size_t n = virtual_sequence_length(O::kMulh);
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(mulh),
               rows.begin() + static_cast<std::ptrdiff_t>(mulh + n));
    rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(mulh), one);
    const auto [st, proof] = prove_rows(rows, false);
    CHECK(check_of(verify(st, proof)) == "bytecode.address.sumcheck.round_sum");
  }
}
