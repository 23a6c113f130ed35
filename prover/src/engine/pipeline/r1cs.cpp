// The uniform constraints (RV32IM) and the TraceRow → committed-column extraction.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/tracer/tracer.hpp>
#include <map>
#include <shared_mutex>
#include <stdexcept>
#include <unordered_map>

namespace jolt::prover::r1cs {

namespace {

constexpr std::array<std::string_view, kNumColumns> kColumnNames = {"UnexpandedPC",
                                                                    "Imm",
                                                                    "Rs1Value",
                                                                    "Rs2Value",
                                                                    "RdWriteValue",
                                                                    "RamAddress",
                                                                    "RamReadValue",
                                                                    "RamWriteValue",
                                                                    "LeftInstructionInput",
                                                                    "RightInstructionInput",
                                                                    "LeftLookupOperand",
                                                                    "RightLookupOperand",
                                                                    "Product",
                                                                    "LookupOutput",
                                                                    "NextExpandedPC",
                                                                    "NextIsNoop",
                                                                    "ShouldBranch",
                                                                    "ShouldJump",
                                                                    "BranchToNext",
                                                                    "StepToNext",
                                                                    "AddOperands",
                                                                    "SubtractOperands",
                                                                    "MultiplyOperands",
                                                                    "Load",
                                                                    "Store",
                                                                    "LoadWord",
                                                                    "StoreWord",
                                                                    "Jump",
                                                                    "Branch",
                                                                    "WriteLookupOutputToRD",
                                                                    "WritePCtoRD",
                                                                    "LeftOperandIsRs1",
                                                                    "LeftOperandIsPC",
                                                                    "RightOperandIsRs2",
                                                                    "RightOperandIsImm",
                                                                    "IsNoop",
                                                                    "IsEcall",
                                                                    "OutputIsLowWord",
                                                                    "OutputIsHighWord",
                                                                    "IsAnd",
                                                                    "IsOr",
                                                                    "IsXor",
                                                                    "IsLtu",
                                                                    "IsGeu",
                                                                    "IsLt",
                                                                    "IsGe",
                                                                    "IsEq",
                                                                    "IsNe",
                                                                    "IsJalr",
                                                                    "IsSra",
                                                                    "IsDivu",
                                                                    "IsRemu",
                                                                    "IsSll",
                                                                    "IsSrl",
                                                                    "SequenceIndex",
                                                                    "InSequence",
                                                                    "Rs1Index",
                                                                    "Rs2Index",
                                                                    "RdIndex",
                                                                    "RdReadValue",
                                                                    "Rs1ReadTs",
                                                                    "Rs2ReadTs",
                                                                    "RdReadTs",
                                                                    "RamReadTs",
                                                                    "RangeCount0",
                                                                    "RangeCount1",
                                                                    "RangeCount2",
                                                                    "RangeCount3",
                                                                    "EcallContinues",
                                                                    "Rs1Squared",
                                                                    "WordX0",
                                                                    "WordX1",
                                                                    "WordX2",
                                                                    "WordX3",
                                                                    "WordY0",
                                                                    "WordY1",
                                                                    "WordY2",
                                                                    "WordY3",
                                                                    "WordZ0",
                                                                    "WordZ1",
                                                                    "WordZ2",
                                                                    "WordZ3",
                                                                    "WordW0",
                                                                    "WordW1",
                                                                    "WordW2",
                                                                    "WordW3",
                                                                    "Carry",
                                                                    "SignLeft",
                                                                    "SignRight",
                                                                    "DiffInverse",
                                                                    "DiffTimesInverse",
                                                                    "OutputTimesDiff",
                                                                    "SignLeftTimesRight",
                                                                    "DivisorIsZero",
                                                                    "QuotientTimesRight",
                                                                    "ShiftAmountByte",
                                                                    "ShiftPower",
                                                                    "ShiftProduct"};

using Terms = std::vector<std::pair<std::uint32_t, std::int64_t>>;
LinearForm lf(std::int64_t c, Terms t) {
  return LinearForm{c, std::move(t)};
}
LinearForm col(std::uint32_t c) {
  return lf(0, {{c, 1}});
}

// Σ 256^i·column(base + i)·k: a word from its four byte columns.
void add_word(Terms& t, std::uint32_t base, std::int64_t k) {
  for (std::uint32_t i = 0; i < 4; ++i) t.push_back({base + i, k << (8 * i)});
}
// column(out) − Σ k·word(base): out is this combination of words (plus a constant).
LinearForm output_is(std::int64_t constant,
                     std::initializer_list<std::pair<std::uint32_t, std::int64_t>> words,
                     Terms extra = {}) {
  LinearForm f{constant, {{kLookupOutput, 1}}};
  for (auto [base, k] : words) add_word(f.terms, base, -k);
  for (auto& e : extra) f.terms.push_back(e);
  return f;
}

std::vector<ConstraintRow> build_constraints() {
  const std::int64_t two32 = std::int64_t{1} << 32;
  std::vector<ConstraintRow> r;
  // The RAM address is the low word of Rs1 + Imm (wrapping as RV32I's does).
  {
    LinearForm b = col(kRamAddress);
    add_word(b.terms, kWordX0, -1);
    r.push_back({"RamAddressIsLowWord", "ram_address", lf(0, {{kLoad, 1}, {kStore, 1}}), b});
  }
  // Word accesses are aligned: Y = 3 and Z_0 = X_0 & 3 = 0.
  {
    LinearForm three = lf(-3, {});
    add_word(three.terms, kWordY0, 1);
    r.push_back({"RamMaskIsThree", "ram_address", lf(0, {{kLoad, 1}, {kStore, 1}}), three});
    r.push_back(
        {"RamAccessIsAligned", "ram_address", lf(0, {{kLoad, 1}, {kStore, 1}}), col(kWordZ0)});
  }
  r.push_back({"RamAddressZeroOtherwise", "ram_address", lf(1, {{kLoad, -1}, {kStore, -1}}),
               col(kRamAddress)});
  r.push_back({"LoadKeepsRamWord", "ram_values", col(kLoad),
               lf(0, {{kRamReadValue, 1}, {kRamWriteValue, -1}})});
  r.push_back({"LoadWordOutputIsRamRead", "ram_values", col(kLoadWord),
               lf(0, {{kLookupOutput, 1}, {kRamReadValue, -1}})});
  r.push_back({"StoreWordWritesRs2", "ram_values", col(kStoreWord),
               lf(0, {{kRamWriteValue, 1}, {kRs2Value, -1}})});
  r.push_back({"LeftLookupZeroForArith", "lookup_operands",
               lf(0, {{kAddOperands, 1}, {kSubtractOperands, 1}, {kMultiplyOperands, 1}}),
               col(kLeftLookupOperand)});
  r.push_back({"LeftLookupIsLeftInput", "lookup_operands",
               lf(1, {{kAddOperands, -1}, {kSubtractOperands, -1}, {kMultiplyOperands, -1}}),
               lf(0, {{kLeftLookupOperand, 1}, {kLeftInstructionInput, -1}})});
  r.push_back(
      {"RightLookupAdd", "lookup_operands", col(kAddOperands),
       lf(0,
          {{kRightLookupOperand, 1}, {kLeftInstructionInput, -1}, {kRightInstructionInput, -1}})});
  r.push_back(
      {"RightLookupSub", "lookup_operands", col(kSubtractOperands),
       lf(-two32,
          {{kRightLookupOperand, 1}, {kLeftInstructionInput, -1}, {kRightInstructionInput, 1}})});
  r.push_back({"RightLookupMul", "lookup_operands", col(kMultiplyOperands),
               lf(0, {{kRightLookupOperand, 1}, {kProduct, -1}})});
  r.push_back({"RightLookupIsRightInput", "lookup_operands",
               lf(1, {{kAddOperands, -1}, {kSubtractOperands, -1}, {kMultiplyOperands, -1}}),
               lf(0, {{kRightLookupOperand, 1}, {kRightInstructionInput, -1}})});
  r.push_back({"RdIsLookupOutput", "rd_write", col(kWriteLookupOutputToRD),
               lf(0, {{kRdWriteValue, 1}, {kLookupOutput, -1}})});
  r.push_back({"RdIsReturnAddress", "rd_write", col(kWritePCtoRD),
               lf(-4, {{kRdWriteValue, 1}, {kUnexpandedPC, -1}})});
  // Control flow on ExpandedPC = 64·PC + SequenceIndex (r1cs.hpp).
  r.push_back({"JumpTarget", "pc_update", col(kShouldJump),
               lf(0, {{kNextExpandedPC, 1}, {kLookupOutput, -64}})});
  r.push_back({"BranchTarget", "pc_update", col(kBranchToNext),
               lf(0, {{kNextExpandedPC, 1}, {kUnexpandedPC, -64}, {kImm, -64}})});
  r.push_back({"SequentialPC", "pc_update", col(kStepToNext),
               lf(-256, {{kNextExpandedPC, 1}, {kUnexpandedPC, -64}})});
  // A virtual sequence runs to its end, in order, at one PC (the next row is never padding:
  // NextExpandedPC would be 0).
  r.push_back({"SequenceContinues", "pc_update", col(kInSequence),
               lf(-1, {{kNextExpandedPC, 1}, {kUnexpandedPC, -64}, {kSequenceIndex, -1}})});
  r.push_back({"LeftInputIsRs1", "instruction_input", col(kLeftOperandIsRs1),
               lf(0, {{kLeftInstructionInput, 1}, {kRs1Value, -1}})});
  r.push_back({"LeftInputIsPC", "instruction_input", col(kLeftOperandIsPC),
               lf(0, {{kLeftInstructionInput, 1}, {kUnexpandedPC, -1}})});
  r.push_back({"LeftInputZero", "instruction_input",
               lf(1, {{kLeftOperandIsRs1, -1}, {kLeftOperandIsPC, -1}}),
               col(kLeftInstructionInput)});
  r.push_back({"RightInputIsRs2", "instruction_input", col(kRightOperandIsRs2),
               lf(0, {{kRightInstructionInput, 1}, {kRs2Value, -1}})});
  r.push_back({"RightInputIsImm", "instruction_input", col(kRightOperandIsImm),
               lf(0, {{kRightInstructionInput, 1}, {kImm, -1}})});
  r.push_back({"RightInputZero", "instruction_input",
               lf(1, {{kRightOperandIsRs2, -1}, {kRightOperandIsImm, -1}}),
               col(kRightInstructionInput)});
  // An instruction that writes neither a lookup output nor a return address keeps rd (x0, stores,
  // branches, ECALL, padding).
  r.push_back({"RdKeepsValue", "rd_write",
               lf(1, {{kWriteLookupOutputToRD, -1}, {kWritePCtoRD, -1}}),
               lf(0, {{kRdWriteValue, 1}, {kRdReadValue, -1}})});
  // An ECALL that is not the last real cycle reads a7 in {1, 2} (a cycle marker): the guest
  // exits (a7 = 0) only at the last real cycle.
  r.push_back({"EcallBeforeExitIsMarker", "termination", col(kEcallContinues),
               lf(2, {{kRs1Squared, 1}, {kRs1Value, -3}})});
  // The flags are boolean without a row of their own: the bytecode columns are the table's 0/1
  // values (stage 6a) and NextIsNoop is IsNoop of the next row (stage 3), 1 on the last.

  // Instruction results (r1cs.hpp, "Instruction results").
  {
    LinearForm b = lf(0, {{kRightLookupOperand, 1}, {kCarry, -two32}});
    add_word(b.terms, kWordX0, -1);
    r.push_back({"SumIsLowWordAndCarry", "alu_words",
                 lf(0, {{kAddOperands, 1}, {kSubtractOperands, 1}}), b});
  }
  {
    LinearForm b = col(kProduct);
    add_word(b.terms, kWordX0, -1);
    add_word(b.terms, kWordW0, -two32);
    r.push_back({"ProductIsTwoWords", "alu_words", col(kMultiplyOperands), b});
  }
  r.push_back({"CarryIsBoolean", "alu_words", col(kCarry), lf(-1, {{kCarry, 1}})});
  r.push_back({"SignIsBoolean", "alu_words", col(kSignLeft), lf(-1, {{kSignLeft, 1}})});
  r.push_back({"SignIsBoolean", "alu_words", col(kSignRight), lf(-1, {{kSignRight, 1}})});
  {
    const LinearForm guard = lf(0, {{kIsLt, 1}, {kIsGe, 1}, {kIsSra, 1}});
    LinearForm b = lf(0, {{kLeftInstructionInput, -2}, {kSignLeft, two32}});
    add_word(b.terms, kWordY0, 1);
    r.push_back({"LeftSignFromY", "alu_words", guard, b});
  }
  {
    LinearForm b = lf(0, {{kRightInstructionInput, -2}, {kSignRight, two32}});
    add_word(b.terms, kWordW0, 1);
    r.push_back({"RightSignFromW", "alu_words", lf(0, {{kIsLt, 1}, {kIsGe, 1}}), b});
  }
  {
    const LinearForm bitwise = lf(0, {{kIsAnd, 1}, {kIsOr, 1}, {kIsXor, 1}});
    LinearForm x = lf(0, {{kLeftInstructionInput, -1}});
    add_word(x.terms, kWordX0, 1);
    r.push_back({"BitwiseLeftIsX", "alu_words", bitwise, x});
    LinearForm y = lf(0, {{kRightInstructionInput, -1}});
    add_word(y.terms, kWordY0, 1);
    r.push_back({"BitwiseRightIsY", "alu_words", bitwise, y});
  }
  {
    LinearForm y = lf(-1, {});
    add_word(y.terms, kWordY0, 1);
    r.push_back({"JalrMaskIsOne", "alu_words", col(kIsJalr), y});
  }
  r.push_back(
      {"OutputIsLowWord", "alu_output", col(kOutputIsLowWord), output_is(0, {{kWordX0, 1}})});
  r.push_back(
      {"OutputIsHighWord", "alu_output", col(kOutputIsHighWord), output_is(0, {{kWordW0, 1}})});
  r.push_back({"AndOutput", "alu_output", col(kIsAnd), output_is(0, {{kWordZ0, 1}})});
  r.push_back({"OrOutput", "alu_output", col(kIsOr),
               output_is(0, {{kWordX0, 1}, {kWordY0, 1}, {kWordZ0, -1}})});
  r.push_back({"XorOutput", "alu_output", col(kIsXor),
               output_is(0, {{kWordX0, 1}, {kWordY0, 1}, {kWordZ0, -2}})});
  r.push_back({"LtuOutput", "alu_output", col(kIsLtu), lf(-1, {{kLookupOutput, 1}, {kCarry, 1}})});
  r.push_back({"GeuOutput", "alu_output", col(kIsGeu), lf(0, {{kLookupOutput, 1}, {kCarry, -1}})});
  r.push_back({"LtOutput", "alu_output", col(kIsLt),
               lf(-1, {{kLookupOutput, 1}, {kCarry, 1}, {kSignLeft, -1}, {kSignRight, 1}})});
  r.push_back({"GeOutput", "alu_output", col(kIsGe),
               lf(0, {{kLookupOutput, 1}, {kCarry, -1}, {kSignLeft, 1}, {kSignRight, -1}})});
  r.push_back(
      {"EqOutput", "alu_output", col(kIsEq), lf(-1, {{kLookupOutput, 1}, {kDiffTimesInverse, 1}})});
  r.push_back({"EqDiffVanishes", "alu_output", col(kIsEq), col(kOutputTimesDiff)});
  r.push_back(
      {"NeOutput", "alu_output", col(kIsNe), lf(0, {{kLookupOutput, 1}, {kDiffTimesInverse, -1}})});
  r.push_back(
      {"NeDiffVanishes", "alu_output", col(kIsNe),
       lf(0, {{kOutputTimesDiff, 1}, {kLeftInstructionInput, -1}, {kRightInstructionInput, 1}})});
  r.push_back(
      {"JalrOutput", "alu_output", col(kIsJalr), output_is(0, {{kWordX0, 1}, {kWordZ0, -1}})});
  r.push_back({"SraOutput", "alu_output", col(kIsSra),
               output_is(0, {{kWordW0, 1}}, {{kSignLeft, -two32}, {kSignLeftTimesRight, 1}})});
  {
    const LinearForm division = lf(0, {{kIsDivu, 1}, {kIsRemu, 1}});
    LinearForm id = lf(0, {{kQuotientTimesRight, 1}, {kLeftInstructionInput, -1}});
    add_word(id.terms, kWordW0, 1);
    r.push_back({"DivisionIdentity", "alu_words", division, id});
    LinearForm below = lf(1, {{kRightInstructionInput, -1}, {kDivisorIsZero, -two32}});
    add_word(below.terms, kWordX0, 1);
    add_word(below.terms, kWordW0, 1);
    r.push_back({"RemainderBelowDivisor", "alu_words", division, below});
    LinearForm all_ones = lf(-(two32 - 1), {});
    add_word(all_ones.terms, kWordY0, 1);
    r.push_back({"ZeroDivisorQuotient", "alu_words", col(kDivisorIsZero), all_ones});
    r.push_back(
        {"ZeroDivisorIsZero", "alu_words", col(kDivisorIsZero), col(kRightInstructionInput)});
    r.push_back(
        {"DivisorIsZeroBoolean", "alu_words", col(kDivisorIsZero), lf(-1, {{kDivisorIsZero, 1}})});
  }
  {
    const LinearForm shift = lf(0, {{kIsSll, 1}, {kIsSrl, 1}});
    LinearForm amount = lf(0, {{kRightInstructionInput, 1}, {kShiftAmountByte, -1}});
    add_word(amount.terms, kWordY0, -256);
    r.push_back({"ShiftAmountIsLowByte", "alu_words", shift, amount});
    r.push_back({"ShiftRestBelow2To24", "alu_words", shift, col(kWordY3)});
    LinearForm words = col(kShiftProduct);
    add_word(words.terms, kWordX0, -1);
    add_word(words.terms, kWordW0, -two32);
    r.push_back({"ShiftProductIsTwoWords", "alu_words", shift, words});
  }
  r.push_back({"DivuOutput", "alu_output", col(kIsDivu), output_is(0, {{kWordY0, 1}})});
  r.push_back({"RemuOutput", "alu_output", col(kIsRemu), output_is(0, {{kWordW0, 1}})});
  if (r.size() > kNumRowsPadded)
    throw std::logic_error("r1cs: more constraint rows than kNumRowsPadded");
  return r;
}

std::vector<ProductConstraint> build_products() {
  const LinearForm diff = lf(0, {{kLeftInstructionInput, 1}, {kRightInstructionInput, -1}});
  LinearForm quotient;
  add_word(quotient.terms, kWordY0, 1);
  return {
      {"Product", kProduct, col(kLeftInstructionInput), col(kRightInstructionInput)},
      {"ShouldBranch", kShouldBranch, col(kLookupOutput), col(kBranch)},
      {"ShouldJump", kShouldJump, col(kJump), lf(1, {{kNextIsNoop, -1}})},
      {"BranchToNext", kBranchToNext, col(kShouldBranch), lf(1, {{kNextIsNoop, -1}})},
      {"StepToNext", kStepToNext, lf(1, {{kNextIsNoop, -1}}),
       lf(1, {{kJump, -1}, {kShouldBranch, -1}, {kInSequence, -1}})},
      {"EcallContinues", kEcallContinues, col(kIsEcall), lf(1, {{kNextIsNoop, -1}})},
      {"Rs1Squared", kRs1Squared, col(kRs1Value), col(kRs1Value)},
      {"DiffTimesInverse", kDiffTimesInverse, diff, col(kDiffInverse)},
      {"OutputTimesDiff", kOutputTimesDiff, col(kLookupOutput), diff},
      {"SignLeftTimesRight", kSignLeftTimesRight, col(kSignLeft), col(kRightInstructionInput)},
      {"QuotientTimesRight", kQuotientTimesRight, quotient, col(kRightInstructionInput)},
      {"ShiftProduct", kShiftProduct, col(kLeftInstructionInput), col(kShiftPower)},
  };
}

bool is_load(Opcode o) {
  return o == Opcode::kLb || o == Opcode::kLh || o == Opcode::kLw || o == Opcode::kLbu ||
         o == Opcode::kLhu;
}
bool is_store(Opcode o) {
  return o == Opcode::kSb || o == Opcode::kSh || o == Opcode::kSw;
}
bool is_branch(Opcode o) {
  return o == Opcode::kBeq || o == Opcode::kBne || o == Opcode::kBlt || o == Opcode::kBge ||
         o == Opcode::kBltu || o == Opcode::kBgeu;
}
bool is_imm_alu(Opcode o) {
  switch (o) {
    case Opcode::kAddi:
    case Opcode::kSlti:
    case Opcode::kSltiu:
    case Opcode::kXori:
    case Opcode::kOri:
    case Opcode::kAndi:
    case Opcode::kSlli:
    case Opcode::kSrli:
    case Opcode::kSrai:
      return true;
    default:
      return false;
  }
}
bool is_reg_alu(Opcode o) {
  return (o >= Opcode::kAdd && o <= Opcode::kAnd) || (o >= Opcode::kMul && o <= Opcode::kRemu);
}

bool is_imm_shift(Opcode o) {
  return o == Opcode::kSlli || o == Opcode::kSrli || o == Opcode::kSrai;
}

// The circuit flags of an instruction: a function of opcode and rd only.
struct InstructionFlags {
  bool noop, load, store, branch, jump, add, sub, mul, left_rs1, left_pc, right_rs2, right_imm,
      writes_lookup, writes_pc;
  // output classes
  bool out_low, out_high, is_and, is_or, is_xor, ltu, geu, lt, ge, eq, ne, jalr, sra, divu, remu,
      sll, srl;
};

InstructionFlags instruction_flags(const TraceRow& r) {
  using O = Opcode;
  const Opcode o = r.opcode;
  InstructionFlags f{};
  f.noop = o == O::kNoop;
  f.load = is_load(o);
  f.store = is_store(o);
  f.branch = is_branch(o);
  f.jump = o == O::kJal || o == O::kJalr;
  f.add = o == O::kAdd || o == O::kAddi || o == O::kLui || o == O::kAuipc || f.jump || f.load ||
          f.store;
  f.sub =
      o == O::kSub || o == O::kSlt || o == O::kSlti || o == O::kSltu || o == O::kSltiu || f.branch;
  f.mul = o == O::kMul || o == O::kMulhu || is_imm_shift(o);
  f.left_rs1 = f.load || f.store || f.branch || is_imm_alu(o) || is_reg_alu(o) || o == O::kJalr;
  f.left_pc = o == O::kAuipc || o == O::kJal;
  f.right_rs2 = f.branch || is_reg_alu(o);
  f.right_imm = f.load || f.store || is_imm_alu(o) || o == O::kLui || o == O::kAuipc || f.jump;
  f.writes_lookup =
      (f.load || is_imm_alu(o) || is_reg_alu(o) || o == O::kLui || o == O::kAuipc) && r.rd != 0;
  f.writes_pc = f.jump && r.rd != 0;
  f.out_low = o == O::kAdd || o == O::kAddi || o == O::kSub || o == O::kLui || o == O::kAuipc ||
              o == O::kJal || f.store || o == O::kMul || o == O::kSlli || o == O::kSll;
  // The high word is MULHU's, SRLI's and SRL's result; for loads (whose value RAM checking
  // fixes) W is the result itself, which bounds it to 32 bits. SRA, MULH, MULHSU, DIV and REM
  // never execute as one row: their virtual sequences do (tracer/virtual_sequences.hpp).
  f.out_high = o == O::kMulhu || o == O::kSrli || f.load || o == O::kSrl;
  f.sll = o == O::kSll;
  f.srl = o == O::kSrl;
  f.divu = o == O::kDivu;
  f.remu = o == O::kRemu;
  f.is_and = o == O::kAnd || o == O::kAndi;
  f.is_or = o == O::kOr || o == O::kOri;
  f.is_xor = o == O::kXor || o == O::kXori;
  f.ltu = o == O::kSltu || o == O::kSltiu || o == O::kBltu;
  f.geu = o == O::kBgeu;
  f.lt = o == O::kSlt || o == O::kSlti || o == O::kBlt;
  f.ge = o == O::kBge;
  f.eq = o == O::kBeq;
  f.ne = o == O::kBne;
  f.jalr = o == O::kJalr;
  f.sra = o == O::kSrai;
  return f;
}

// The right operand the ALU sees for an immediate instruction (the Imm column off branches).
std::uint64_t alu_immediate(const TraceRow& r) {
  const auto s = static_cast<std::uint32_t>(r.imm) & 31;
  if (r.opcode == Opcode::kSlli) return std::uint64_t{1} << s;
  if (r.opcode == Opcode::kSrli || r.opcode == Opcode::kSrai) return std::uint64_t{1} << (32 - s);
  return static_cast<std::uint32_t>(r.imm);
}

std::uint64_t canonical_u64(const Fr& v) {
  const auto l = v.to_canonical_limbs();
  return (l[1] | l[2] | l[3]) ? ~std::uint64_t{0} : l[0];
}

}  // namespace

std::string_view column_name(std::uint32_t c) {
  return c < kNumColumns ? kColumnNames[c] : std::string_view("?");
}

Fr LinearForm::evaluate(std::span<const Fr> v) const {
  Fr acc = Fr::from_i64(constant);
  for (const auto& [c, k] : terms) acc += Fr::from_i64(k) * v[c];
  return acc;
}

const std::vector<ConstraintRow>& constraints() {
  static const std::vector<ConstraintRow> rows = build_constraints();
  return rows;
}

const std::vector<ProductConstraint>& products() {
  static const std::vector<ProductConstraint> p = build_products();
  return p;
}

std::uint32_t lookup_output(const TraceRow& row) {
  const Opcode o = row.opcode;
  const auto imm = static_cast<std::uint32_t>(row.imm);
  if (o == Opcode::kLui) return imm;
  if (o == Opcode::kAuipc || o == Opcode::kJal) return row.pc + imm;
  if (o == Opcode::kJalr) return (row.rs1_val + imm) & ~1u;
  if (is_branch(o)) {
    const std::uint32_t a = row.rs1_val, b = row.rs2_val;
    const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
    switch (o) {
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
      default:
        return a >= b;
    }
  }
  if (is_load(o)) {
    const std::uint32_t shift = 8 * (row.mem_addr & 3);
    const std::uint32_t w = row.mem_pre >> shift;
    switch (o) {
      case Opcode::kLb:
        return static_cast<std::uint32_t>(static_cast<std::int8_t>(w & 0xff));
      case Opcode::kLbu:
        return w & 0xff;
      case Opcode::kLh:
        return static_cast<std::uint32_t>(static_cast<std::int16_t>(w & 0xffff));
      case Opcode::kLhu:
        return w & 0xffff;
      default:
        return row.mem_pre;
    }
  }
  if (is_store(o)) return row.rs1_val + imm;
  if (is_imm_alu(o) || is_reg_alu(o)) return alu_result(o, row.rs1_val, row.rs2_val, row.imm);
  return 0;
}

std::array<Fr, kNumBytecodeColumns> bytecode_values(const TraceRow& r) {
  const InstructionFlags f = instruction_flags(r);
  std::array<Fr, kNumColumns> v{};
  const Fr one = Fr::one();
  auto flag = [&](std::uint32_t c, bool b) { v[c] = b ? one : Fr::zero(); };
  v[kUnexpandedPC] = Fr::from_u64(r.pc);
  v[kImm] = f.branch ? Fr::from_i64(r.imm) : Fr::from_u64(alu_immediate(r));
  flag(kIsNoop, f.noop);
  flag(kLoad, f.load);
  flag(kStore, f.store);
  flag(kLoadWord, r.opcode == Opcode::kLw);
  flag(kStoreWord, r.opcode == Opcode::kSw);
  flag(kBranch, f.branch);
  flag(kJump, f.jump);
  flag(kAddOperands, f.add);
  flag(kSubtractOperands, f.sub);
  flag(kMultiplyOperands, f.mul);
  flag(kLeftOperandIsRs1, f.left_rs1);
  flag(kLeftOperandIsPC, f.left_pc);
  flag(kRightOperandIsRs2, f.right_rs2);
  flag(kRightOperandIsImm, f.right_imm);
  flag(kWriteLookupOutputToRD, f.writes_lookup);
  flag(kWritePCtoRD, f.writes_pc);
  flag(kIsEcall, r.opcode == Opcode::kEcall);
  flag(kOutputIsLowWord, f.out_low);
  flag(kOutputIsHighWord, f.out_high);
  flag(kIsAnd, f.is_and);
  flag(kIsOr, f.is_or);
  flag(kIsXor, f.is_xor);
  flag(kIsLtu, f.ltu);
  flag(kIsGeu, f.geu);
  flag(kIsLt, f.lt);
  flag(kIsGe, f.ge);
  flag(kIsEq, f.eq);
  flag(kIsNe, f.ne);
  flag(kIsJalr, f.jalr);
  flag(kIsSra, f.sra);
  flag(kIsDivu, f.divu);
  flag(kIsRemu, f.remu);
  flag(kIsSll, f.sll);
  flag(kIsSrl, f.srl);
  v[kSequenceIndex] = Fr::from_u64(r.sequence);
  flag(kInSequence, r.sequence_remaining != 0);
  v[kRs1Index] = Fr::from_u64(r.rs1);
  v[kRs2Index] = Fr::from_u64(r.rs2);
  v[kRdIndex] = Fr::from_u64(r.rd);
  std::array<Fr, kNumBytecodeColumns> out;
  for (std::size_t i = 0; i < kNumBytecodeColumns; ++i) out[i] = v[kBytecodeColumns[i]];
  return out;
}

namespace {

// Every column of row t (the row and the next one decide it), except the register and RAM
// timestamps and range counts, which fill_register_columns adds by a scan in trace order.
void row_values(std::span<const TraceRow> rows, std::size_t t, RowValues& c) {
  const std::size_t T = rows.size();
  const Fr one = Fr::one();
  const TraceRow& r = rows[t];
  c.fill(Fr::zero());
  auto set = [&](std::uint32_t col_id, const Fr& v) { c[col_id] = v; };
  auto flag = [&](std::uint32_t col_id, bool b) { c[col_id] = b ? one : Fr::zero(); };
  const InstructionFlags f = instruction_flags(r);
  const bool noop = f.noop, branch = f.branch, jump = f.jump, left_rs1 = f.left_rs1,
             left_pc = f.left_pc, right_rs2 = f.right_rs2, right_imm = f.right_imm, load = f.load,
             store = f.store;
  const std::array<Fr, kNumBytecodeColumns> fixed = bytecode_values(r);
  for (std::size_t i = 0; i < kNumBytecodeColumns; ++i) set(kBytecodeColumns[i], fixed[i]);

  const Fr pc = Fr::from_u64(r.pc);
  const Fr rs1 = Fr::from_u64(r.rs1_val), rs2 = Fr::from_u64(r.rs2_val);
  set(kRs1Value, rs1);
  set(kRs2Value, rs2);
  set(kRdWriteValue, Fr::from_u64(r.rd_post));
  set(kRdReadValue, Fr::from_u64(r.rd_pre));
  set(kRamAddress, (load || store) ? Fr::from_u64(r.mem_addr) : Fr::zero());
  set(kRamReadValue, (load || store) ? Fr::from_u64(r.mem_pre) : Fr::zero());
  set(kRamWriteValue, (load || store) ? Fr::from_u64(r.mem_post) : Fr::zero());
  const Fr left = left_rs1 ? rs1 : (left_pc ? pc : Fr::zero());
  const Fr right = right_rs2 ? rs2 : (right_imm ? c[kImm] : Fr::zero());
  set(kLeftInstructionInput, left);
  set(kRightInstructionInput, right);
  const std::uint32_t lo = noop ? 0 : lookup_output(r);
  set(kLookupOutput, Fr::from_u64(lo));
  const bool last = t + 1 == T;
  const bool next_noop = last ? true : rows[t + 1].opcode == Opcode::kNoop;
  set(kNextExpandedPC,
      last ? Fr::zero() : Fr::from_u64(64 * std::uint64_t{rows[t + 1].pc} + rows[t + 1].sequence));
  flag(kNextIsNoop, next_noop);
  const bool should_branch = branch && lo == 1;
  flag(kShouldBranch, should_branch);
  flag(kShouldJump, jump && !next_noop);
  flag(kBranchToNext, should_branch && !next_noop);
  flag(kStepToNext, !next_noop && !jump && !should_branch && r.sequence_remaining == 0);
  flag(kEcallContinues, r.opcode == Opcode::kEcall && !next_noop);
  set(kRs1Squared, rs1 * rs1);
  fill_alu_row(c);
}

}  // namespace

WitnessColumns extract_witness(std::span<const TraceRow> rows) {
  const std::size_t T = rows.size();
  if (T == 0 || (T & (T - 1)) != 0)
    throw std::invalid_argument("r1cs::extract_witness: row count must be a power of two");
  WitnessColumns w(kNumColumns, T);
  // Rows in parallel, a block at a time: each block's columns are computed densely, then stored
  // in the width each column needs — widening a column (rare: at most three times) takes the
  // lock exclusively, storing a block into columns already wide enough shares it.
  std::shared_mutex widths;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 1024), [&](const auto& rg) {
    using Canonical = std::array<std::uint64_t, 4>;
    std::vector<std::array<Canonical, kNumColumns>> block(rg.size());
    std::array<ColumnWidth, kNumColumns> need{};
    RowValues v;
    for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
      row_values(rows, t, v);
      auto& out = block[t - rg.begin()];
      for (std::uint32_t c = 0; c < kNumColumns; ++c) {
        out[c] = v[c].to_canonical_limbs();
        need[c] = std::max(need[c], width_for(out[c]));
      }
    }
    bool wide_enough = true;
    {
      std::shared_lock lk(widths);
      for (std::uint32_t c = 0; c < kNumColumns; ++c) wide_enough &= need[c] <= w[c].width();
    }
    if (!wide_enough) {
      std::unique_lock lk(widths);
      for (std::uint32_t c = 0; c < kNumColumns; ++c) w[c].widen(need[c]);
    }
    std::shared_lock lk(widths);
    for (std::uint32_t c = 0; c < kNumColumns; ++c)
      for (std::size_t t = rg.begin(); t < rg.end(); ++t) w[c].store(t, block[t - rg.begin()][c]);
  });
  fill_register_columns(w);
  return w;
}

std::vector<std::vector<Fr>> extract_columns(std::span<const TraceRow> rows) {
  return extract_witness(rows).to_dense();
}

void fill_alu_row(RowValues& c) {
  auto on = [&](std::uint32_t flag) { return c[flag] == Fr::one(); };
  const Fr left = c[kLeftInstructionInput], right = c[kRightInstructionInput];
  const bool add = on(kAddOperands), sub = on(kSubtractOperands), mul = on(kMultiplyOperands);
  const Fr two32 = Fr::from_u64(std::uint64_t{1} << 32);
  c[kProduct] = left * right;
  c[kLeftLookupOperand] = (add || sub || mul) ? Fr::zero() : left;
  Fr rl = right;
  if (add) rl = left + right;
  if (sub) rl = left - right + two32;
  if (mul) rl = c[kProduct];
  c[kRightLookupOperand] = rl;
  // The words as integers (an input that is no 32-bit word leaves them 0: its relation then
  // fails, as it must).
  const std::uint64_t l = canonical_u64(left), rt = canonical_u64(right);
  const std::uint64_t out = canonical_u64(c[kLookupOutput]);
  const bool words = l < (std::uint64_t{1} << 32) && rt <= (std::uint64_t{1} << 32);
  std::uint64_t x = 0, y = 0, w = 0;
  bool carry = false, sign_left = false, sign_right = false;
  if (words && add) {
    const std::uint64_t s = l + rt;
    x = s & 0xffffffffu, carry = (s >> 32) != 0;
  }
  if (words && sub) {
    const std::uint64_t s = l + (std::uint64_t{1} << 32) - rt;
    x = s & 0xffffffffu, carry = (s >> 32) != 0;
  }
  if (words && mul) {
    const std::uint64_t p = l * rt;
    x = p & 0xffffffffu, w = p >> 32;
  }
  if (words && (on(kIsAnd) || on(kIsOr) || on(kIsXor))) x = l, y = rt & 0xffffffffu;
  if (words && (on(kIsLt) || on(kIsGe) || on(kIsSra)))
    y = (l << 1) & 0xffffffffu, sign_left = ((l >> 31) & 1) != 0;
  if (words && (on(kIsLt) || on(kIsGe)))
    w = (rt << 1) & 0xffffffffu, sign_right = ((rt >> 31) & 1) != 0;
  if (on(kIsJalr)) y = 1;
  if (on(kLoad) || on(kStore)) y = 3;
  std::uint64_t amount = 0, power = 1;
  if (words && (on(kIsSll) || on(kIsSrl)) && rt < (std::uint64_t{1} << 32)) {
    amount = rt & 0xff;
    y = rt >> 8;
    const std::uint64_t s = amount & 31;
    power = on(kIsSll) ? std::uint64_t{1} << s : std::uint64_t{1} << (32 - s);
    const std::uint64_t p = l * power;  // < 2^64: l < 2^32, power ≤ 2^32
    x = p & 0xffffffffu, w = p >> 32;
  }
  bool divisor_zero = false;
  if (words && (on(kIsDivu) || on(kIsRemu)) && rt < (std::uint64_t{1} << 32)) {
    divisor_zero = rt == 0;
    y = divisor_zero ? 0xffffffffu : l / rt;          // quotient
    w = divisor_zero ? l : l % rt;                    // remainder
    x = divisor_zero ? 0xffffffffu - w : rt - w - 1;  // the remainder is below the divisor
  }
  if (on(kOutputIsHighWord) && !mul) w = out & 0xffffffffu;
  for (std::uint32_t i = 0; i < 4; ++i) {
    const std::uint64_t xi = (x >> (8 * i)) & 0xff, yi = (y >> (8 * i)) & 0xff;
    c[kWordX0 + i] = Fr::from_u64(xi);
    c[kWordY0 + i] = Fr::from_u64(yi);
    c[kWordZ0 + i] = Fr::from_u64(xi & yi);
    c[kWordW0 + i] = Fr::from_u64((w >> (8 * i)) & 0xff);
  }
  c[kCarry] = carry ? Fr::one() : Fr::zero();
  c[kSignLeft] = sign_left ? Fr::one() : Fr::zero();
  c[kSignRight] = sign_right ? Fr::one() : Fr::zero();
  const Fr diff = left - right;
  c[kDiffInverse] = (on(kIsEq) || on(kIsNe)) && !diff.is_zero() ? diff.inverse() : Fr::zero();
  c[kDiffTimesInverse] = diff * c[kDiffInverse];
  c[kOutputTimesDiff] = c[kLookupOutput] * diff;
  c[kSignLeftTimesRight] = c[kSignLeft] * right;
  c[kDivisorIsZero] = divisor_zero ? Fr::one() : Fr::zero();
  c[kQuotientTimesRight] = Fr::from_u64(y) * right;
  c[kShiftAmountByte] = Fr::from_u64(amount);
  c[kShiftPower] = Fr::from_u64(power);
  c[kShiftProduct] = left * c[kShiftPower];
}

void fill_alu_columns(std::vector<std::vector<Fr>>& columns, std::size_t t) {
  RowValues v;
  for (std::uint32_t c = 0; c < kNumColumns; ++c) v[c] = columns[c][t];
  fill_alu_row(v);
  for (std::uint32_t c = 0; c < kNumColumns; ++c) columns[c][t] = v[c];
}

constexpr std::array<std::uint64_t, 4> kOne = {1, 0, 0, 0};

void fill_register_columns(WitnessColumns& c) {
  const std::size_t T = c.length();
  std::array<std::uint64_t, kNumRegisters> last{};  // timestamp of the last access
  std::unordered_map<std::uint64_t, std::uint64_t> last_ram;
  std::vector<std::uint32_t> counts(4 * T, 0);
  const std::array<std::uint32_t, 3> index = {kRs1Index, kRs2Index, kRdIndex};
  const std::array<std::uint32_t, 3> ts = {kRs1ReadTs, kRs2ReadTs, kRdReadTs};
  for (std::size_t t = 0; t < T; ++t) {
    for (std::uint32_t j = 0; j < 3; ++j) {
      const std::uint64_t reg = c[index[j]].canonical(t)[0];
      if (reg >= kNumRegisters)
        throw std::invalid_argument("register index column holds " + std::to_string(reg));
      const std::uint64_t now = 4 * t + j + 1;
      c.set(ts[j], t, Fr::from_u64(last[reg]));
      ++counts[now - 1 - last[reg]];
      last[reg] = now;
    }
    std::uint64_t read_ts = 4 * t + 3;  // no access: distance 0
    if (c[kLoad].canonical(t) == kOne || c[kStore].canonical(t) == kOne) {
      std::uint64_t& prev = last_ram[c[kRamAddress].canonical(t)[0]];
      read_ts = prev;
      prev = 4 * t + 4;
    }
    c.set(kRamReadTs, t, Fr::from_u64(read_ts));
    ++counts[4 * t + 3 - read_ts];
  }
  for (std::uint32_t k = 0; k < 4; ++k)
    for (std::size_t t = 0; t < T; ++t) c.set(kRangeCount0 + k, t, Fr::from_u64(counts[k * T + t]));
}

std::vector<RamWord> final_ram_state(const WitnessColumns& c) {
  const std::size_t T = c.length();
  std::map<std::uint64_t, RamWord> words;
  for (std::size_t t = 0; t < T; ++t) {
    if (c[kLoad].canonical(t) != kOne && c[kStore].canonical(t) != kOne) continue;
    const auto a = c[kRamAddress].canonical(t);
    const auto v = c[kRamWriteValue].canonical(t);
    if ((a[1] | a[2] | a[3] | v[1] | v[2] | v[3]) || a[0] > 0xffffffffu || v[0] > 0xffffffffu)
      continue;  // no word: the verifier's memory check rejects the access
    RamWord& w = words[a[0]];
    w.address = static_cast<std::uint32_t>(a[0]);
    w.value = static_cast<std::uint32_t>(v[0]);
    w.timestamp = 4 * t + 4;
  }
  std::vector<RamWord> out;
  out.reserve(words.size());
  for (const auto& [a, w] : words) out.push_back(w);
  return out;
}

Fr initial_register_value(std::uint32_t r) {
  return r == 2 ? Fr::from_u64(kInitialStackPointer) : Fr::zero();
}

RegisterState final_register_state(const WitnessColumns& c) {
  const std::size_t T = c.length();
  RegisterState st;
  for (std::uint32_t r = 0; r < kNumRegisters; ++r) st.value[r] = initial_register_value(r);
  const std::array<std::uint32_t, 3> index = {kRs1Index, kRs2Index, kRdIndex};
  for (std::size_t t = 0; t < T; ++t)
    for (std::uint32_t j = 0; j < 3; ++j) {
      const std::uint64_t reg = c[index[j]].canonical(t)[0];
      if (reg >= kNumRegisters) continue;  // not a register: the bytecode lookup rejects it
      st.timestamp[reg] = Fr::from_u64(4 * t + j + 1);
      if (j == 2) st.value[reg] = c[kRdWriteValue][t];
    }
  return st;
}

void fill_register_columns(std::vector<std::vector<Fr>>& columns) {
  WitnessColumns w = WitnessColumns::from_dense(columns);
  fill_register_columns(w);
  columns = w.to_dense();
}

std::vector<RamWord> final_ram_state(const std::vector<std::vector<Fr>>& columns) {
  return final_ram_state(WitnessColumns::from_dense(columns));
}

RegisterState final_register_state(const std::vector<std::vector<Fr>>& columns) {
  return final_register_state(WitnessColumns::from_dense(columns));
}

std::vector<std::string_view> failing_constraints(const std::vector<std::vector<Fr>>& cols,
                                                  std::size_t t) {
  std::vector<Fr> v(kNumColumns);
  for (std::uint32_t c = 0; c < kNumColumns; ++c) v[c] = cols[c][t];
  std::vector<std::string_view> bad;
  for (const auto& row : constraints())
    if (!(row.a.evaluate(v) * row.b.evaluate(v)).is_zero()) bad.push_back(row.name);
  for (const auto& p : products())
    if (p.left.evaluate(v) * p.right.evaluate(v) != v[p.out]) bad.push_back(p.name);
  return bad;
}

}  // namespace jolt::prover::r1cs
