// The uniform constraints (RV32IM) and the TraceRow → committed-column extraction.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/tracer/tracer.hpp>
#include <shared_mutex>
#include <stdexcept>

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
                                                                    "Jump",
                                                                    "Branch",
                                                                    "WriteLookupOutputToRD",
                                                                    "WritePCtoRD",
                                                                    "WriteRamReadToRD",
                                                                    "LeftOperandIsRs1",
                                                                    "LeftOperandIsPC",
                                                                    "RightOperandIsRs2",
                                                                    "RightOperandIsImm",
                                                                    "IsNoop",
                                                                    "IsEcall",
                                                                    "IsAdvice",
                                                                    "IsAssert",
                                                                    "LookupIsOneOperand",
                                                                    "TableRangeCheck",
                                                                    "TableRangeCheckAligned",
                                                                    "TableUpperWord",
                                                                    "TableAnd",
                                                                    "TableOr",
                                                                    "TableXor",
                                                                    "TableEqual",
                                                                    "TableNotEqual",
                                                                    "TableLessThan",
                                                                    "TableLessThanUnsigned",
                                                                    "TableGreaterEqual",
                                                                    "TableGreaterEqualUnsigned",
                                                                    "TablePow2",
                                                                    "TableShiftRightBitmask",
                                                                    "TableVirtualSRL",
                                                                    "TableVirtualSRA",
                                                                    "TableValidDiv0",
                                                                    "TableValidUnsignedRemainder",
                                                                    "TableMulUNoOverflow",
                                                                    "SequenceIndex",
                                                                    "InSequence",
                                                                    "Rs1Index",
                                                                    "Rs2Index",
                                                                    "RdIndex",
                                                                    "RdReadValue",
                                                                    "Rs1ReadTs",
                                                                    "Rs2ReadTs",
                                                                    "RdReadTs",
                                                                    "RamInc",
                                                                    "RangeCount0",
                                                                    "RangeCount1",
                                                                    "RangeCount2",
                                                                    "RangeCount3",
                                                                    "EcallContinues",
                                                                    "Rs1Squared"};

using Terms = std::vector<std::pair<std::uint32_t, std::int64_t>>;
LinearForm lf(std::int64_t c, Terms t) {
  return LinearForm{c, std::move(t)};
}
LinearForm col(std::uint32_t c) {
  return lf(0, {{c, 1}});
}

std::vector<ConstraintRow> build_constraints() {
  const std::int64_t two32 = std::int64_t{1} << 32;
  const Terms one_operand = {
      {kAddOperands, 1}, {kSubtractOperands, 1}, {kMultiplyOperands, 1}, {kIsAdvice, 1}};
  const Terms interleaved = {
      {kAddOperands, -1}, {kSubtractOperands, -1}, {kMultiplyOperands, -1}, {kIsAdvice, -1}};
  std::vector<ConstraintRow> r;
  // LW / SW: the RAM address is the lookup output, (Rs1 + Imm) mod 2^32 (RangeCheck); memory
  // checking ties it to an aligned word of the memory map (the final state's addresses are).
  r.push_back({"RamAddressIsLookupOutput", "ram_address", lf(0, {{kLoad, 1}, {kStore, 1}}),
               lf(0, {{kRamAddress, 1}, {kLookupOutput, -1}})});
  r.push_back({"RamAddressZeroOtherwise", "ram_address", lf(1, {{kLoad, -1}, {kStore, -1}}),
               col(kRamAddress)});
  r.push_back({"LoadKeepsRamWord", "ram_values", col(kLoad),
               lf(0, {{kRamReadValue, 1}, {kRamWriteValue, -1}})});
  r.push_back(
      {"StoreWritesRs2", "ram_values", col(kStore), lf(0, {{kRamWriteValue, 1}, {kRs2Value, -1}})});
  // The lookup's operands (the key is interleave(Left, Right), or Right alone for one operand).
  r.push_back({"LeftLookupZeroForOneOperand", "lookup_operands", lf(0, one_operand),
               col(kLeftLookupOperand)});
  r.push_back({"LeftLookupIsLeftInput", "lookup_operands", lf(1, interleaved),
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
  r.push_back({"RightLookupIsRightInput", "lookup_operands", lf(1, interleaved),
               lf(0, {{kRightLookupOperand, 1}, {kRightInstructionInput, -1}})});
  // What the lookup output does: rd, an assertion, the branch condition, the jump target.
  r.push_back({"RdIsLookupOutput", "rd_write", col(kWriteLookupOutputToRD),
               lf(0, {{kRdWriteValue, 1}, {kLookupOutput, -1}})});
  r.push_back({"RdIsReturnAddress", "rd_write", col(kWritePCtoRD),
               lf(-4, {{kRdWriteValue, 1}, {kUnexpandedPC, -1}})});
  r.push_back({"RdIsRamRead", "rd_write", col(kWriteRamReadToRD),
               lf(0, {{kRdWriteValue, 1}, {kRamReadValue, -1}})});
  r.push_back({"AssertionHolds", "lookup_output", col(kIsAssert), lf(-1, {{kLookupOutput, 1}})});
  r.push_back({"ShouldBranchIsOutput", "pc_update", col(kBranch),
               lf(0, {{kShouldBranch, 1}, {kLookupOutput, -1}})});
  r.push_back({"ShouldBranchZero", "pc_update", lf(1, {{kBranch, -1}}), col(kShouldBranch)});
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
  // An instruction that writes neither a lookup output, a return address nor a loaded word keeps
  // rd (x0, stores, branches, assertions, ECALL, padding).
  r.push_back({"RdKeepsValue", "rd_write",
               lf(1, {{kWriteLookupOutputToRD, -1}, {kWritePCtoRD, -1}, {kWriteRamReadToRD, -1}}),
               lf(0, {{kRdWriteValue, 1}, {kRdReadValue, -1}})});
  // An ECALL that is not the last real cycle reads a7 in {1, 2} (a cycle marker): the guest
  // exits (a7 = 0) only at the last real cycle.
  r.push_back({"EcallBeforeExitIsMarker", "termination", col(kEcallContinues),
               lf(2, {{kRs1Squared, 1}, {kRs1Value, -3}})});
  // The flags are boolean without a row of their own: the bytecode columns are the table's 0/1
  // values (stage 6a) and NextIsNoop is IsNoop of the next row (stage 3), 1 on the last.
  if (r.size() > kNumRowsPadded)
    throw std::logic_error("r1cs: more constraint rows than kNumRowsPadded");
  return r;
}

std::vector<ProductConstraint> build_products() {
  return {
      {"Product", kProduct, col(kLeftInstructionInput), col(kRightInstructionInput)},
      {"ShouldJump", kShouldJump, col(kJump), lf(1, {{kNextIsNoop, -1}})},
      {"BranchToNext", kBranchToNext, col(kShouldBranch), lf(1, {{kNextIsNoop, -1}})},
      {"StepToNext", kStepToNext, lf(1, {{kNextIsNoop, -1}}),
       lf(1, {{kJump, -1}, {kShouldBranch, -1}, {kInSequence, -1}})},
      {"EcallContinues", kEcallContinues, col(kIsEcall), lf(1, {{kNextIsNoop, -1}})},
      {"Rs1Squared", kRs1Squared, col(kRs1Value), col(kRs1Value)},
  };
}

bool is_branch(Opcode o) {
  return o == Opcode::kBeq || o == Opcode::kBne || o == Opcode::kBlt || o == Opcode::kBge ||
         o == Opcode::kBltu || o == Opcode::kBgeu;
}

using lookups::LookupTable;
constexpr int kNoTable = -1;

// The circuit flags of an instruction: a function of opcode and rd only.
struct InstructionFlags {
  bool noop = false, load = false, store = false, branch = false, jump = false, add = false,
       sub = false, mul = false, advice = false, assertion = false, left_rs1 = false,
       left_pc = false, right_rs2 = false, right_imm = false, writes_lookup = false,
       writes_pc = false, writes_ram = false;
  int table = kNoTable;  // a LookupTable < kNumInstructionTables
};

InstructionFlags instruction_flags(const TraceRow& r) {
  using O = Opcode;
  using T = LookupTable;
  InstructionFlags f;
  // The row's lookup: its table, how its key is formed, which operands it reads, whether its
  // output goes to rd.
  enum Key { kInterleaved, kAdd, kSub, kMul, kAdvice };
  auto set = [&](T table, Key key, bool rs1, bool pc, bool rs2, bool imm, bool writes) {
    f.table = static_cast<int>(table);
    f.add = key == kAdd, f.sub = key == kSub, f.mul = key == kMul, f.advice = key == kAdvice;
    f.left_rs1 = rs1, f.left_pc = pc, f.right_rs2 = rs2, f.right_imm = imm;
    f.writes_lookup = writes && r.rd != 0;
  };
  auto assertion = [&](T table, Key key) {
    set(table, key, true, false, true, false, false);
    f.assertion = true;
  };
  switch (r.opcode) {
    case O::kNoop:
      f.noop = true;
      break;
    case O::kFence:
    case O::kEbreak:
      break;
    case O::kEcall:
      break;
    case O::kLui:
      set(T::RangeCheck, kAdd, false, false, false, true, true);
      break;
    case O::kAuipc:
      set(T::RangeCheck, kAdd, false, true, false, true, true);
      break;
    case O::kJal:
      set(T::RangeCheck, kAdd, false, true, false, true, false);
      f.jump = true;
      break;
    case O::kJalr:
      set(T::RangeCheckAligned, kAdd, true, false, false, true, false);
      f.jump = true;
      break;
    case O::kBeq:
      set(T::Equal, kInterleaved, true, false, true, false, false);
      break;
    case O::kBne:
      set(T::NotEqual, kInterleaved, true, false, true, false, false);
      break;
    case O::kBlt:
      set(T::LessThan, kInterleaved, true, false, true, false, false);
      break;
    case O::kBge:
      set(T::GreaterEqual, kInterleaved, true, false, true, false, false);
      break;
    case O::kBltu:
      set(T::LessThanUnsigned, kInterleaved, true, false, true, false, false);
      break;
    case O::kBgeu:
      set(T::GreaterEqualUnsigned, kInterleaved, true, false, true, false, false);
      break;
    case O::kLw:
      set(T::RangeCheck, kAdd, true, false, false, true, false);
      f.load = true;
      f.writes_ram = r.rd != 0;
      break;
    case O::kSw:
      set(T::RangeCheck, kAdd, true, false, false, true, false);
      f.store = true;
      break;
    case O::kAddi:
      set(T::RangeCheck, kAdd, true, false, false, true, true);
      break;
    case O::kSlti:
      set(T::LessThan, kInterleaved, true, false, false, true, true);
      break;
    case O::kSltiu:
      set(T::LessThanUnsigned, kInterleaved, true, false, false, true, true);
      break;
    case O::kXori:
      set(T::Xor, kInterleaved, true, false, false, true, true);
      break;
    case O::kOri:
      set(T::Or, kInterleaved, true, false, false, true, true);
      break;
    case O::kAndi:
      set(T::And, kInterleaved, true, false, false, true, true);
      break;
    case O::kSlli:  // Rs1 · 2^s
      set(T::RangeCheck, kMul, true, false, false, true, true);
      break;
    case O::kSrli:  // the bits of Rs1 under the mask 2^32 − 2^s
      set(T::VirtualSRL, kInterleaved, true, false, false, true, true);
      break;
    case O::kSrai:
      set(T::VirtualSRA, kInterleaved, true, false, false, true, true);
      break;
    case O::kAdd:
      set(T::RangeCheck, kAdd, true, false, true, false, true);
      break;
    case O::kSub:
      set(T::RangeCheck, kSub, true, false, true, false, true);
      break;
    case O::kSlt:
      set(T::LessThan, kInterleaved, true, false, true, false, true);
      break;
    case O::kSltu:
      set(T::LessThanUnsigned, kInterleaved, true, false, true, false, true);
      break;
    case O::kXor:
      set(T::Xor, kInterleaved, true, false, true, false, true);
      break;
    case O::kOr:
      set(T::Or, kInterleaved, true, false, true, false, true);
      break;
    case O::kAnd:
      set(T::And, kInterleaved, true, false, true, false, true);
      break;
    case O::kMul:
      set(T::RangeCheck, kMul, true, false, true, false, true);
      break;
    case O::kMulhu:
      set(T::UpperWord, kMul, true, false, true, false, true);
      break;
    case O::kVirtualAdvice:
      set(T::RangeCheck, kAdvice, false, false, false, false, true);
      break;
    case O::kVirtualPow2:
      set(T::Pow2, kAdd, true, false, false, false, true);
      break;
    case O::kVirtualShiftRightBitmask:
      set(T::ShiftRightBitmask, kAdd, true, false, false, false, true);
      break;
    case O::kVirtualSrl:
      set(T::VirtualSRL, kInterleaved, true, false, true, false, true);
      break;
    case O::kVirtualSra:
      set(T::VirtualSRA, kInterleaved, true, false, true, false, true);
      break;
    case O::kVirtualAssertValidUnsignedRemainder:
      assertion(T::ValidUnsignedRemainder, kInterleaved);
      break;
    case O::kVirtualAssertValidDiv0:
      assertion(T::ValidDiv0, kInterleaved);
      break;
    case O::kVirtualAssertMulUNoOverflow:
      assertion(T::MulUNoOverflow, kMul);
      break;
    case O::kVirtualAssertEq:
      assertion(T::Equal, kInterleaved);
      break;
    case O::kVirtualAssertGeu:
      assertion(T::GreaterEqualUnsigned, kInterleaved);
      break;
    default:
      // SLL, SRL, SRA, MULH, MULHSU, DIV, DIVU, REM, REMU and the sub-word loads and stores
      // never execute as one row: their virtual sequences do (tracer/virtual_sequences.hpp). A
      // witness row holding one (an altered witness) gets no flags: the bytecode table has no
      // such entry, so the bytecode read-raf rejects it.
      break;
  }
  f.branch = is_branch(r.opcode);
  f.writes_pc = f.jump && r.rd != 0;
  return f;
}

// The right operand the ALU sees for an immediate instruction (the Imm column off branches).
std::uint64_t alu_immediate(const TraceRow& r) {
  const auto s = static_cast<std::uint32_t>(r.imm) & 31;
  if (r.opcode == Opcode::kSlli) return std::uint64_t{1} << s;
  if (r.opcode == Opcode::kSrli || r.opcode == Opcode::kSrai)
    return (std::uint64_t{1} << 32) - (std::uint64_t{1} << s);
  return static_cast<std::uint32_t>(r.imm);
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

namespace {

// The lookup of an honest row: its key from the instruction inputs, and the table's value there.
struct RowLookup {
  std::uint64_t left = 0, right = 0;  // the lookup operands (right < 2^64)
  std::uint64_t output = 0;
};
RowLookup row_lookup(const TraceRow& r, const InstructionFlags& f) {
  const std::uint64_t imm = alu_immediate(r);
  const std::uint64_t left = f.left_rs1 ? r.rs1_val : (f.left_pc ? r.pc : 0);
  const std::uint64_t right = f.right_rs2 ? r.rs2_val : (f.right_imm ? imm : 0);
  RowLookup l;
  std::uint64_t key = 0;
  if (f.add) {
    l.right = key = left + right;
  } else if (f.sub) {
    l.right = key = left + (std::uint64_t{1} << 32) - right;
  } else if (f.mul) {
    l.right = key = left * right;
  } else if (f.advice) {
    l.right = key = r.rd_post;
  } else {
    l.left = left, l.right = right;
    key = lookups::interleave(static_cast<std::uint32_t>(left), static_cast<std::uint32_t>(right));
  }
  if (f.table != kNoTable)
    l.output = lookups::table_value(static_cast<LookupTable>(f.table), 32, key);
  return l;
}

}  // namespace

std::uint32_t lookup_output(const TraceRow& row) {
  if (row.opcode == Opcode::kNoop) return 0;
  return static_cast<std::uint32_t>(row_lookup(row, instruction_flags(row)).output);
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
  flag(kBranch, f.branch);
  flag(kJump, f.jump);
  flag(kAddOperands, f.add);
  flag(kSubtractOperands, f.sub);
  flag(kMultiplyOperands, f.mul);
  flag(kIsAdvice, f.advice);
  flag(kIsAssert, f.assertion);
  flag(kLookupIsOneOperand, f.add || f.sub || f.mul || f.advice);
  flag(kLeftOperandIsRs1, f.left_rs1);
  flag(kLeftOperandIsPC, f.left_pc);
  flag(kRightOperandIsRs2, f.right_rs2);
  flag(kRightOperandIsImm, f.right_imm);
  flag(kWriteLookupOutputToRD, f.writes_lookup);
  flag(kWritePCtoRD, f.writes_pc);
  flag(kWriteRamReadToRD, f.writes_ram);
  flag(kIsEcall, r.opcode == Opcode::kEcall);
  if (f.table != kNoTable) flag(kTableRangeCheck + static_cast<std::uint32_t>(f.table), true);
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
  const bool noop = f.noop, branch = f.branch, jump = f.jump, load = f.load, store = f.store;
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
  set(kRamInc, (load || store) ? Fr::from_u64(r.mem_post) - Fr::from_u64(r.mem_pre) : Fr::zero());
  const Fr left = f.left_rs1 ? rs1 : (f.left_pc ? pc : Fr::zero());
  const Fr right = f.right_rs2 ? rs2 : (f.right_imm ? c[kImm] : Fr::zero());
  set(kLeftInstructionInput, left);
  set(kRightInstructionInput, right);
  const std::uint64_t lo = noop ? 0 : row_lookup(r, f).output;
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
  // x·R^-1 has the Montgomery limbs of x's canonical value (R = 2^256): one product turns a field
  // element into the integer a column stores.
  const Fr r_inv = Fr::from_u64(2).pow(256).inverse();
  if (r_inv.mont_limbs()[0] != 1 || r_inv.mont_limbs()[1] != 0 || r_inv.mont_limbs()[2] != 0 ||
      r_inv.mont_limbs()[3] != 0)
    throw std::logic_error("r1cs::extract_witness: R^-1 does not have the Montgomery limbs 1");
  // Rows in parallel, kRows at a time (the block's values stay in the core's cache): a block's
  // columns are computed as field elements; the entries other than 0 and 1 (flags: most of
  // them) are made canonical by one product over arrays (multiply_arrays: the IFMA lanes where
  // the CPU has them) instead of one scalar reduction each; then each column is stored in the
  // width it needs — widening a column (rare: at most three times) takes the lock exclusively,
  // storing a block into columns already wide enough shares it.
  constexpr std::size_t kRows = 64;
  const std::vector<Fr> r_inv_row(kRows * kNumColumns, r_inv);
  std::shared_mutex widths;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 1024), [&](const auto& rg) {
    using Canonical = std::array<std::uint64_t, 4>;
    std::vector<RowValues> values(kRows);
    std::vector<std::array<Canonical, kNumColumns>> block(kRows);
    std::vector<Fr> other(kRows * kNumColumns);
    std::vector<Canonical*> other_to(kRows * kNumColumns);
    const Fr one = Fr::one();
    for (std::size_t t0 = rg.begin(); t0 < rg.end(); t0 += kRows) {
      const std::size_t n = std::min(kRows, rg.end() - t0);
      std::size_t m = 0;
      for (std::size_t i = 0; i < n; ++i) {
        row_values(rows, t0 + i, values[i]);
        for (std::uint32_t c = 0; c < kNumColumns; ++c) {
          const Fr& x = values[i][c];
          Canonical& out = block[i][c];
          if (x.is_zero()) {
            out = Canonical{};
          } else if (x == one) {
            out = Canonical{1, 0, 0, 0};
          } else {
            other[m] = x;
            other_to[m++] = &out;
          }
        }
      }
      multiply_arrays(other.data(), r_inv_row.data(), other.data(), m);
      for (std::size_t k = 0; k < m; ++k) {
        const std::uint64_t* l = other[k].mont_limbs();
        *other_to[k] = Canonical{l[0], l[1], l[2], l[3]};
      }
      std::array<ColumnWidth, kNumColumns> need{};
      for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t c = 0; c < kNumColumns; ++c)
          need[c] = std::max(need[c], width_for(block[i][c]));
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
        for (std::size_t i = 0; i < n; ++i) w[c].store(t0 + i, block[i][c]);
    }
  });
  fill_register_columns(w);
  w.pack_bits();
  return w;
}

std::vector<std::vector<Fr>> extract_columns(std::span<const TraceRow> rows) {
  return extract_witness(rows).to_dense();
}

void fill_alu_row(RowValues& c) {
  auto on = [&](std::uint32_t flag) { return c[flag] == Fr::one(); };
  const Fr left = c[kLeftInstructionInput], right = c[kRightInstructionInput];
  const bool add = on(kAddOperands), sub = on(kSubtractOperands), mul = on(kMultiplyOperands),
             advice = on(kIsAdvice);
  c[kProduct] = left * right;
  c[kLeftLookupOperand] = (add || sub || mul || advice) ? Fr::zero() : left;
  Fr rl = right;
  if (add) rl = left + right;
  if (sub) rl = left - right + Fr::from_u64(std::uint64_t{1} << 32);
  if (mul) rl = c[kProduct];
  if (advice) rl = c[kLookupOutput];
  c[kRightLookupOperand] = rl;
}

void fill_alu_columns(std::vector<std::vector<Fr>>& columns, std::size_t t) {
  RowValues v;
  for (std::uint32_t c = 0; c < kNumColumns; ++c) v[c] = columns[c][t];
  fill_alu_row(v);
  for (std::uint32_t c = 0; c < kNumColumns; ++c) columns[c][t] = v[c];
}

void fill_register_columns(WitnessColumns& c) {
  const std::size_t T = c.length();
  std::array<std::uint64_t, kNumRegisters> last{};  // timestamp of the last access
  std::vector<std::uint32_t> counts(4 * T, 0);
  const std::array<std::uint32_t, 3> index = {kRs1Index, kRs2Index, kRdIndex};
  const std::array<std::uint32_t, 3> ts = {kRs1ReadTs, kRs2ReadTs, kRdReadTs};
  // Timestamps stay below 4T: their columns are widened for that once, and the scan stores
  // integers (no Montgomery conversion per entry); each count column is widened to its largest
  // count (most counts of the long gaps are small: bytes).
  for (std::uint32_t col : ts) c[col].widen(width_for({4 * T, 0, 0, 0}));
  for (std::size_t t = 0; t < T; ++t) {
    for (std::uint32_t j = 0; j < 3; ++j) {
      const std::uint64_t reg = c[index[j]].canonical(t)[0];
      if (reg >= kNumRegisters)
        throw std::invalid_argument("register index column holds " + std::to_string(reg));
      const std::uint64_t now = 4 * t + j + 1;
      c[ts[j]].store(t, {last[reg], 0, 0, 0});
      ++counts[now - 1 - last[reg]];
      last[reg] = now;
    }
  }
  for (std::uint32_t k = 0; k < 4; ++k) {
    const auto block = counts.begin() + static_cast<std::ptrdiff_t>(k * T);
    const std::uint64_t top = *std::max_element(block, block + static_cast<std::ptrdiff_t>(T));
    c[kRangeCount0 + k].widen(width_for({top, 0, 0, 0}));
    for (std::size_t t = 0; t < T; ++t) c[kRangeCount0 + k].store(t, {counts[k * T + t], 0, 0, 0});
  }
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
