// Instruction results (r1cs.hpp, "Instruction results"): every row's lookup — its table, its key
// formed from the instruction inputs, its output — gives the RV32IM result, and a malicious
// prover (the honest prover on a witness altered in one way, every other column consistent with
// it) is rejected at the named check: the instruction read-raf's first round for a wrong result,
// a wrong branch condition, a value beyond 32 bits or a wrong advice.
#include <doctest/doctest.h>

#include <jolt/prover/lookups/instruction_lookup_map.hpp>
#include <jolt/prover/lookups/instruction_tables.hpp>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <map>
#include <random>

#include <jolt/prover/tracer/virtual_sequences.hpp>

#include "mini_trace.hpp"

using testutil::check_of;
using testutil::forging;

using namespace jolt::prover;
using namespace jolt::prover::r1cs;
using jolt::prover::lookups::LookupTable;

namespace {

constexpr const char* kReadRafRound = "lookups.read_raf.sumcheck.round_sum";

std::uint64_t u64(const Fr& v) {
  const auto l = v.to_canonical_limbs();
  return (l[1] | l[2] | l[3]) ? ~std::uint64_t{0} : l[0];
}

// What the instruction read-raf proves of cycle t: LookupOutput is the value of the table its
// flag names at the key its lookup operands form (0 without a table), the operands being
// words (interleaved) or the left one 0 and the right one a 64-bit key.
bool lookup_holds(const std::vector<std::vector<Fr>>& c, std::size_t t) {
  int table = -1;
  for (std::uint32_t k = 0; k < jolt::prover::lookups::kNumInstructionTables; ++k)
    if (c[kTableRangeCheck + k][t] == Fr::one()) table = static_cast<int>(k);
  const std::uint64_t left = u64(c[kLeftLookupOperand][t]), right = u64(c[kRightLookupOperand][t]);
  const bool one_operand = c[kLookupIsOneOperand][t] == Fr::one();
  std::uint64_t key = 0;
  if (one_operand) {
    if (left != 0 || right == ~std::uint64_t{0}) return false;
    key = right;
  } else {
    if (left >> 32 || right >> 32) return false;
    key = jolt::prover::lookups::interleave(static_cast<std::uint32_t>(left),
                                            static_cast<std::uint32_t>(right));
  }
  const std::uint64_t value =
      table < 0 ? 0 : jolt::prover::lookups::table_value(static_cast<LookupTable>(table), 32, key);
  return c[kLookupOutput][t] == Fr::from_u64(value);
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
  r.next_pc = op == Opcode::kJal || op == Opcode::kJalr ? out : r.pc + 4;
  return r;
}

// The RV32IM meaning of a row's lookup output, written out independently of the tables.
std::uint64_t rv32im_output(const TraceRow& r) {
  const std::uint32_t a = r.rs1_val, b = r.rs2_val, imm = static_cast<std::uint32_t>(r.imm);
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
  switch (r.opcode) {
    case Opcode::kLui:
      return imm;
    case Opcode::kAuipc:
    case Opcode::kJal:
      return r.pc + imm;
    case Opcode::kJalr:
      return (a + imm) & ~1u;
    case Opcode::kBeq:
      return a == b;
    case Opcode::kBne:
      return a != b;
    case Opcode::kBlt:
      return sa < sb;
    case Opcode::kBge:
      return sa >= sb;
    case Opcode::kBltu:
      return a < b;
    case Opcode::kBgeu:
      return a >= b;
    case Opcode::kVirtualPow2:
      return std::uint64_t{1} << (a & 31);
    case Opcode::kVirtualShiftRightBitmask:
      return (std::uint64_t{1} << 32) - (std::uint64_t{1} << (a & 31));
    default:
      return alu_result(r.opcode, a, b, r.imm);
  }
}

// Re-executes `rows` (their static fields) from the reset registers, with row t's result forced
// to `forced` (a malicious prover's choice): every later row reads what the forced value implies,
// so registers stay consistent. Rows without memory access only (loads/stores keep their values).
std::vector<TraceRow> replay(std::vector<TraceRow> rows, std::size_t t, std::uint32_t forced) {
  std::uint32_t x[kNumRegistersWithVirtual] = {};
  x[2] = kInitialStackPointer;
  const auto fixed_of = [](const TraceRow& r) { return bytecode_values(r); };
  const auto field = [](std::uint32_t column) {
    for (std::size_t i = 0; i < kNumBytecodeColumns; ++i)
      if (kBytecodeColumns[i] == column) return i;
    return kNumBytecodeColumns;
  };
  for (std::size_t i = 0; i < rows.size() && rows[i].opcode != Opcode::kNoop; ++i) {
    TraceRow& r = rows[i];
    r.rs1_val = x[r.rs1], r.rs2_val = x[r.rs2], r.rd_pre = x[r.rd];
    const auto f = fixed_of(r);
    std::uint32_t v = r.rd_pre;
    if (f[field(kWriteLookupOutputToRD)] == Fr::one())
      v = r.opcode == Opcode::kVirtualAdvice ? r.rd_post : lookup_output(r);
    if (f[field(kWritePCtoRD)] == Fr::one()) v = r.pc + 4;
    if (f[field(kWriteRamReadToRD)] == Fr::one()) v = r.mem_pre;
    if (i == t) v = forced;
    if (r.rd != 0) x[r.rd] = v;
    r.rd_post = x[r.rd];
  }
  return rows;
}

// The columns of `rows` with row t's LookupOutput set to its forced rd value (so RdIsLookupOutput
// holds) and its lookup operands recomputed: every uniform row holds at t.
std::vector<std::vector<Fr>> forged_columns(const std::vector<TraceRow>& rows, std::size_t t,
                                            const Fr& output) {
  auto cols = extract_columns(rows);
  cols[kLookupOutput][t] = output;
  fill_alu_columns(cols, t);
  return cols;
}

std::size_t row_at(const std::vector<TraceRow>& rows, Opcode op, std::size_t skip = 0) {
  for (std::size_t t = 0; t < rows.size(); ++t)
    if (rows[t].opcode == op && skip-- == 0) return t;
  FAIL("opcode not in trace");
  return 0;
}

}  // namespace

TEST_CASE("every row's lookup gives the RV32IM result, and the uniform rows pin its key") {
  using O = Opcode;
  struct Case {
    Opcode op;
    bool uses_imm;
    bool shift;
  };
  const std::vector<Case> cases = {
      {O::kAdd, false, false},         {O::kSub, false, false},
      {O::kAnd, false, false},         {O::kOr, false, false},
      {O::kXor, false, false},         {O::kSlt, false, false},
      {O::kSltu, false, false},        {O::kMul, false, false},
      {O::kMulhu, false, false},       {O::kAddi, true, false},
      {O::kAndi, true, false},         {O::kOri, true, false},
      {O::kXori, true, false},         {O::kSlti, true, false},
      {O::kSltiu, true, false},        {O::kSlli, true, true},
      {O::kSrli, true, true},          {O::kSrai, true, true},
      {O::kLui, true, false},          {O::kAuipc, true, false},
      {O::kJal, true, false},          {O::kJalr, true, false},
      {O::kBeq, false, false},         {O::kBne, false, false},
      {O::kBlt, false, false},         {O::kBge, false, false},
      {O::kBltu, false, false},        {O::kBgeu, false, false},
      {O::kVirtualPow2, false, false}, {O::kVirtualShiftRightBitmask, false, false},
      {O::kVirtualSrl, false, false},  {O::kVirtualSra, false, false}};
  std::vector<std::uint32_t> operands = {
      0, 1, 2, 7, 31, 32, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x12345678};
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
        std::uint32_t b = c.uses_imm ? 0 : operands[k];
        // VirtualSrl / VirtualSra read a shift's bit mask (what ShiftRightBitmask wrote).
        if (c.op == O::kVirtualSrl || c.op == O::kVirtualSra)
          b = static_cast<std::uint32_t>((std::uint64_t{1} << 32) - (std::uint64_t{1} << (b & 31)));
        const std::int32_t imm = c.uses_imm ? immediates(c)[k] : 0;
        const TraceRow r = row_of(c.op, a, b, imm);
        std::vector<TraceRow> rows = {r, TraceRow{}};
        auto cols = extract_columns(rows);
        INFO("opcode " << static_cast<int>(c.op) << " a " << a << " b " << b << " imm " << imm);
        REQUIRE(failing_constraints(cols, 0).empty());
        REQUIRE(lookup_holds(cols, 0));
        // The table at the key the rows form is the RV32IM result (shifts: by the amount, not
        // the mask, for the plain instructions; the virtual ones as their definition says).
        std::uint64_t want = rv32im_output(r);
        if (c.op == O::kVirtualSrl) want = a >> (operands[k] & 31);
        if (c.op == O::kVirtualSra)
          want = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (operands[k] & 31));
        CHECK(u64(cols[kLookupOutput][0]) == want);
        CHECK(lookup_output(r) == want);
        // The lookup map (what the tracer's rows are tested against) agrees: one step, this
        // table, this output.
        const auto steps = jolt::prover::lookups::lookups_for(r);
        REQUIRE(steps.size() == 1);
        CHECK(cols[kTableRangeCheck + static_cast<std::uint32_t>(steps[0].table)][0] == Fr::one());
        // The uniform rows pin the key: moving either lookup operand (the key the read-raf reads)
        // breaks one of them, so no other key — and no other table value — can be claimed.
        for (std::uint32_t operand : {kLeftLookupOperand, kRightLookupOperand}) {
          auto bad = cols;
          bad[operand][0] += Fr::one();
          CHECK_FALSE(failing_constraints(bad, 0).empty());
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
      {O::kSra, 11, 1, 2, 0},                                      // 48: 0xff000000
      {O::kEcall, 0, 17, 10, 0},                                   // 52: exit
  };
}

TEST_CASE("a malicious prover's wrong instruction result is rejected at the read-raf") {
  const auto prog = alu_program();
  auto honest = testutil::run(prog);
  Statement st{testutil::program_of(prog), {}, {}, honest.size()};
  honest.resize(padded_trace_length(honest.size()));
  REQUIRE_FALSE(verify(st, prove(st, honest)));
  // Row t computes `forced` instead of its result; the rest of the run follows from it.
  auto rejected_at = [&](std::size_t t, std::uint64_t forced) {
    const auto rows = replay(honest, t, static_cast<std::uint32_t>(forced));
    const auto cols = forged_columns(rows, t, Fr::from_u64(forced));
    INFO("row " << t << " failing: "
                << (failing_constraints(cols, t).empty() ? "" : failing_constraints(cols, t)[0]));
    CHECK(failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(st, cols), std::logic_error);
    return check_of(verify(st, prove_columns(st, cols, forging())));
  };
  SUBCASE("ADD") {
    const std::size_t t = row_at(honest, Opcode::kAdd);
    CHECK(rejected_at(t, honest[t].rd_post + 1u) == kReadRafRound);
  }
  SUBCASE("a register value of 2^32: ADD without its wrap-around") {
    const std::size_t t = row_at(honest, Opcode::kAdd);
    REQUIRE(honest[t].rd_post == 0);
    auto rows = honest;
    auto cols = forged_columns(rows, t, Fr::from_u64(std::uint64_t{1} << 32));
    cols[kRdWriteValue][t] = cols[kLookupOutput][t];
    // x3 is never read again: the register state holds 2^32 to the end.
    CHECK(failing_constraints(cols, t).empty());
    const auto fin = final_register_state(cols);
    CHECK(fin.value[3] == Fr::from_u64(std::uint64_t{1} << 32));
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == kReadRafRound);
  }
  SUBCASE("SUB") {
    const std::size_t t = row_at(honest, Opcode::kSub);
    CHECK(rejected_at(t, honest[t].rd_post - 1u) == kReadRafRound);
  }
  SUBCASE("SLTU") {
    const std::size_t t = row_at(honest, Opcode::kSltu);
    REQUIRE(honest[t].rd_post == 1);
    CHECK(rejected_at(t, 0) == kReadRafRound);
  }
  SUBCASE("XOR") {
    const std::size_t t = row_at(honest, Opcode::kXor);
    CHECK(rejected_at(t, honest[t].rd_post ^ 4u) == kReadRafRound);
  }
  SUBCASE("SRAI: the sign bit dropped") {
    const std::size_t t = row_at(honest, Opcode::kSrai);
    REQUIRE(honest[t].rd_post == 0xf8000000u);
    CHECK(rejected_at(t, 0x08000000u) == kReadRafRound);
  }
  SUBCASE("SRA by a register: the sequence's shift with the sign bit dropped") {
    const std::size_t t = row_at(honest, Opcode::kVirtualSra);
    REQUIRE(honest[t].rd_post == 0xff000000u);
    CHECK(rejected_at(t, 0x01000000u) == kReadRafRound);
  }
  SUBCASE("SRA by a register: a shift amount other than Rs2 mod 32") {
    const std::size_t t = row_at(honest, Opcode::kVirtualShiftRightBitmask);
    CHECK(rejected_at(t, 0xffffffffu << 8) == kReadRafRound);  // the mask of 8, not 7
  }
  SUBCASE("MULHU") {
    const std::size_t t = row_at(honest, Opcode::kMulhu);
    REQUIRE(honest[t].rd_post == 3);
    CHECK(rejected_at(t, 4) == kReadRafRound);
  }
}

// x1 = 100, x2 = 7: DIVU 14, REMU 2, DIVU by x0, SLL and SRL by x3 = 37 (a shift by 5).
std::vector<testutil::Instr> division_program() {
  using O = Opcode;
  return {
      {O::kAddi, 1, 0, 0, 100},   // 0
      {O::kAddi, 2, 0, 0, 7},     // 4
      {O::kDivu, 3, 1, 2, 0},     // 8: 14
      {O::kRemu, 4, 1, 2, 0},     // 12: 2
      {O::kDivu, 5, 1, 0, 0},     // 16: 2^32 − 1 (by zero)
      {O::kAddi, 6, 0, 0, 37},    // 20
      {O::kSll, 7, 1, 6, 0},      // 24: 3200
      {O::kSrl, 8, 1, 6, 0},      // 28: 3
      {O::kEcall, 0, 17, 10, 0},  // 32: exit
  };
}

TEST_CASE("a malicious prover's wrong division or register-shift result is rejected") {
  const auto prog = division_program();
  auto honest = testutil::run(prog);
  Statement st{testutil::program_of(prog), {}, {}, honest.size()};
  honest.resize(padded_trace_length(honest.size()));
  REQUIRE_FALSE(verify(st, prove(st, honest)));
  auto result = [&](std::uint8_t rd) {
    for (std::size_t t = honest.size(); t-- > 0;)
      if (honest[t].rd == rd) return honest[t].rd_post;
    return 0u;
  };
  REQUIRE(result(3) == 14);
  REQUIRE(result(4) == 2);
  REQUIRE(result(5) == 0xffffffffu);
  REQUIRE(result(7) == 3200);
  REQUIRE(result(8) == 3);
  // The rows of the sequence at pc: advice q, advice r, then the checks (virtual_sequences.hpp).
  auto first_row = [&](std::uint32_t pc) {
    for (std::size_t t = 0; t < honest.size(); ++t)
      if (honest[t].pc == pc) return t;
    FAIL("pc not executed");
    return std::size_t{0};
  };
  // Row t's advice replaced by `advice` (a RangeCheck lookup it passes), and the assertion row
  // `assertion` that then fails given output 1 so that AssertionHolds still holds: only the
  // read-raf can object.
  auto forge_advice = [&](std::size_t t, std::uint32_t advice, Opcode assertion) {
    auto rows = replay(honest, t, advice);
    auto cols = forged_columns(rows, t, Fr::from_u64(advice));
    const std::size_t a = [&] {
      for (std::size_t i = t; i < rows.size(); ++i)
        if (rows[i].opcode == assertion) return i;
      FAIL("assertion not in the sequence");
      return std::size_t{0};
    }();
    CHECK(cols[kLookupOutput][a].is_zero());  // the table says the assertion fails
    cols[kLookupOutput][a] = Fr::one();
    for (std::size_t i : {t, a}) {
      INFO("row " << i);
      CHECK(failing_constraints(cols, i).empty());
    }
    return check_of(verify(st, prove_columns(st, cols, forging())));
  };
  SUBCASE("DIVU: quotient one less, remainder 9 (not below the divisor 7)") {
    const std::size_t q = first_row(8);
    REQUIRE(honest[q].opcode == Opcode::kVirtualAdvice);
    // Both advices changed: q·d + r = 13·7 + 9 = 100 still.
    auto rows = replay(honest, q, 13);
    rows = replay(rows, q + 1, 9);
    auto cols = extract_columns(rows);
    const std::size_t a = q + 2;
    REQUIRE(rows[a].opcode == Opcode::kVirtualAssertValidUnsignedRemainder);
    CHECK(cols[kLookupOutput][a].is_zero());
    cols[kLookupOutput][a] = Fr::one();
    for (std::size_t i = q; i < q + virtual_sequence_length(Opcode::kDivu); ++i) {
      INFO("row " << i);
      CHECK(failing_constraints(cols, i).empty());
    }
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == kReadRafRound);
  }
  SUBCASE("REMU: a remainder the identity does not give") {
    const std::size_t r = first_row(12) + 1;
    REQUIRE(honest[r].opcode == Opcode::kVirtualAdvice);
    CHECK(forge_advice(r, 3, Opcode::kVirtualAssertEq) == kReadRafRound);
  }
  SUBCASE("DIVU by zero: a quotient other than 2^32 − 1") {
    const std::size_t q = first_row(16);
    CHECK(forge_advice(q, 0, Opcode::kVirtualAssertValidDiv0) == kReadRafRound);
  }
  SUBCASE("SLL: a power of two for another amount than Rs2 mod 32") {
    const std::size_t t = first_row(24);
    REQUIRE(honest[t].opcode == Opcode::kVirtualPow2);
    const auto rows = replay(honest, t, 64);
    const auto cols = forged_columns(rows, t, Fr::from_u64(64));
    CHECK(failing_constraints(cols, t).empty());
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == kReadRafRound);
  }
  SUBCASE("SRL: the packed bits of another mask") {
    const std::size_t t = first_row(28) + 1;
    REQUIRE(honest[t].opcode == Opcode::kVirtualSrl);
    const auto rows = replay(honest, t, 6);
    const auto cols = forged_columns(rows, t, Fr::from_u64(6));
    CHECK(failing_constraints(cols, t).empty());
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == kReadRafRound);
  }
}

TEST_CASE("a branch taken when its condition is false is rejected") {
  // The forged trace runs the program with the branch taken: it is the honest trace of the
  // program with that branch replaced by `beq x0, x0` (always taken), with the branch row's
  // instruction and operands put back. Registers, bytecode, shift, PC update and every uniform
  // row then hold; only the branch's lookup can object.
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
  for (std::uint32_t pc : {32u, 40u}) {  // BLTU, BEQ
    CAPTURE(pc);
    auto [rows, t] = forged_run(pc);
    Statement st{testutil::program_of(prog), {}, {}, rows.size()};
    rows.resize(padded_trace_length(rows.size()));
    auto cols = extract_columns(rows);
    REQUIRE(cols[kLookupOutput][t].is_zero());  // the honest condition: not taken
    cols[kLookupOutput][t] = Fr::one();
    cols[kShouldBranch][t] = Fr::one();
    cols[kBranchToNext][t] = Fr::one();
    cols[kStepToNext][t] = Fr::zero();
    fill_alu_columns(cols, t);
    REQUIRE(failing_constraints(cols, t).empty());
    CHECK_THROWS_AS(prove_columns(st, cols), std::logic_error);
    CHECK(check_of(verify(st, prove_columns(st, cols, forging()))) == kReadRafRound);
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
    // One MULH row in place of its sequence: as a row it has no flags (no lookup, no rd
    // write), so it keeps rd and every uniform row holds; its bytecode entry does not exist
    // (the table holds the sequence). MULH is the last sequence, so no later row reads x4 or
    // the virtual registers its sequence would have written.
    auto rows = honest;
    TraceRow one;
    one.pc = mulh_pc, one.opcode = O::kMulh, one.rd = 4, one.rs1 = 1, one.rs2 = 2;
    one.rs1_val = static_cast<std::uint32_t>(-7), one.rs2_val = 2;
    one.rd_pre = 0, one.rd_post = 0, one.next_pc = mulh_pc + 4;
    const std::size_t n = virtual_sequence_length(O::kMulh);
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(mulh),
               rows.begin() + static_cast<std::ptrdiff_t>(mulh + n));
    rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(mulh), one);
    const auto [st, proof] = prove_rows(rows, false);
    CHECK(check_of(verify(st, proof)) == "bytecode.address.sumcheck.round_sum");
  }
}
