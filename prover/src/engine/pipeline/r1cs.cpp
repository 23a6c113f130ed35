// The uniform constraints (RV32IM) and the TraceRow → committed-column extraction.
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/tracer/tracer.hpp>
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
                                                                    "NextUnexpandedPC",
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
                                                                    "IsJal",
                                                                    "Rs1Index",
                                                                    "Rs2Index",
                                                                    "RdIndex",
                                                                    "RdReadValue",
                                                                    "Rs1ReadTs",
                                                                    "Rs2ReadTs",
                                                                    "RdReadTs",
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
  std::vector<ConstraintRow> r;
  r.push_back({"RamAddressIsRs1PlusImm", "ram_address", lf(0, {{kLoad, 1}, {kStore, 1}}),
               lf(0, {{kRamAddress, 1}, {kRs1Value, -1}, {kImm, -1}})});
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
  r.push_back({"JumpTarget", "pc_update", col(kShouldJump),
               lf(0, {{kNextUnexpandedPC, 1}, {kLookupOutput, -1}})});
  r.push_back({"BranchTarget", "pc_update", col(kBranchToNext),
               lf(0, {{kNextUnexpandedPC, 1}, {kUnexpandedPC, -1}, {kImm, -1}})});
  // JAL's target (its lookup output, the next PC when it jumps) is PC + Imm (RightLookupOperand
  // of an AddOperands instruction); a target that wraps around 2^32 is not provable.
  r.push_back({"JalTargetIsPCPlusImm", "pc_update", col(kIsJal),
               lf(0, {{kLookupOutput, 1}, {kRightLookupOperand, -1}})});
  r.push_back({"SequentialPC", "pc_update", col(kStepToNext),
               lf(-4, {{kNextUnexpandedPC, 1}, {kUnexpandedPC, -1}})});
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
  for (std::uint32_t f : {kLoad, kStore, kJump, kBranch, kIsNoop, kNextIsNoop})
    r.push_back({"FlagIsBoolean", "flags", col(f), lf(-1, {{f, 1}})});
  if (r.size() > kNumRowsPadded)
    throw std::logic_error("r1cs: more constraint rows than kNumRowsPadded");
  return r;
}

std::vector<ProductConstraint> build_products() {
  return {
      {"Product", kProduct, col(kLeftInstructionInput), col(kRightInstructionInput)},
      {"ShouldBranch", kShouldBranch, col(kLookupOutput), col(kBranch)},
      {"ShouldJump", kShouldJump, col(kJump), lf(1, {{kNextIsNoop, -1}})},
      {"BranchToNext", kBranchToNext, col(kShouldBranch), lf(1, {{kNextIsNoop, -1}})},
      {"StepToNext", kStepToNext, lf(1, {{kNextIsNoop, -1}}),
       lf(1, {{kJump, -1}, {kShouldBranch, -1}})},
      {"EcallContinues", kEcallContinues, col(kIsEcall), lf(1, {{kNextIsNoop, -1}})},
      {"Rs1Squared", kRs1Squared, col(kRs1Value), col(kRs1Value)},
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

std::uint32_t alu(Opcode o, std::uint32_t a, std::uint32_t b) {
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
  switch (o) {
    case Opcode::kAdd:
    case Opcode::kAddi:
      return a + b;
    case Opcode::kSub:
      return a - b;
    case Opcode::kSll:
    case Opcode::kSlli:
      return a << (b & 31);
    case Opcode::kSlt:
    case Opcode::kSlti:
      return sa < sb ? 1 : 0;
    case Opcode::kSltu:
    case Opcode::kSltiu:
      return a < b ? 1 : 0;
    case Opcode::kXor:
    case Opcode::kXori:
      return a ^ b;
    case Opcode::kSrl:
    case Opcode::kSrli:
      return a >> (b & 31);
    case Opcode::kSra:
    case Opcode::kSrai:
      return static_cast<std::uint32_t>(sa >> (b & 31));
    case Opcode::kOr:
    case Opcode::kOri:
      return a | b;
    case Opcode::kAnd:
    case Opcode::kAndi:
      return a & b;
    case Opcode::kMul:
      return a * b;
    case Opcode::kMulh:
      return static_cast<std::uint32_t>((static_cast<std::int64_t>(sa) * sb) >> 32);
    case Opcode::kMulhsu:
      return static_cast<std::uint32_t>(
          (static_cast<std::int64_t>(sa) * static_cast<std::int64_t>(b)) >> 32);
    case Opcode::kMulhu:
      return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
    case Opcode::kDiv:
      if (b == 0) return 0xffffffffu;
      if (sa == INT32_MIN && sb == -1) return a;
      return static_cast<std::uint32_t>(sa / sb);
    case Opcode::kDivu:
      return b == 0 ? 0xffffffffu : a / b;
    case Opcode::kRem:
      if (b == 0) return a;
      if (sa == INT32_MIN && sb == -1) return 0;
      return static_cast<std::uint32_t>(sa % sb);
    case Opcode::kRemu:
      return b == 0 ? a : a % b;
    default:
      return 0;
  }
}

// The circuit flags of an instruction: a function of opcode and rd only.
struct InstructionFlags {
  bool noop, load, store, branch, jump, add, sub, mul, left_rs1, left_pc, right_rs2, right_imm,
      writes_lookup, writes_pc;
};

InstructionFlags instruction_flags(const TraceRow& r) {
  const Opcode o = r.opcode;
  InstructionFlags f{};
  f.noop = o == Opcode::kNoop;
  f.load = is_load(o);
  f.store = is_store(o);
  f.branch = is_branch(o);
  f.jump = o == Opcode::kJal || o == Opcode::kJalr;
  f.add = o == Opcode::kAdd || o == Opcode::kAddi || o == Opcode::kLui || o == Opcode::kAuipc ||
          f.jump || f.load || f.store;
  f.sub = o == Opcode::kSub;
  f.mul = o == Opcode::kMul;
  f.left_rs1 =
      f.load || f.store || f.branch || is_imm_alu(o) || is_reg_alu(o) || o == Opcode::kJalr;
  f.left_pc = o == Opcode::kAuipc || o == Opcode::kJal;
  f.right_rs2 = f.branch || is_reg_alu(o);
  f.right_imm =
      f.load || f.store || is_imm_alu(o) || o == Opcode::kLui || o == Opcode::kAuipc || f.jump;
  f.writes_lookup =
      (f.load || is_imm_alu(o) || is_reg_alu(o) || o == Opcode::kLui || o == Opcode::kAuipc) &&
      r.rd != 0;
  f.writes_pc = f.jump && r.rd != 0;
  return f;
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
  if (is_imm_alu(o)) return alu(o, row.rs1_val, imm);
  if (is_reg_alu(o)) return alu(o, row.rs1_val, row.rs2_val);
  return 0;
}

std::array<Fr, kNumBytecodeColumns> bytecode_values(const TraceRow& r) {
  const InstructionFlags f = instruction_flags(r);
  std::array<Fr, kNumColumns> v{};
  const Fr one = Fr::one();
  auto flag = [&](std::uint32_t c, bool b) { v[c] = b ? one : Fr::zero(); };
  v[kUnexpandedPC] = Fr::from_u64(r.pc);
  v[kImm] = Fr::from_i64(r.imm);
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
  flag(kIsJal, r.opcode == Opcode::kJal);
  v[kRs1Index] = Fr::from_u64(r.rs1);
  v[kRs2Index] = Fr::from_u64(r.rs2);
  v[kRdIndex] = Fr::from_u64(r.rd);
  std::array<Fr, kNumBytecodeColumns> out;
  for (std::size_t i = 0; i < kNumBytecodeColumns; ++i) out[i] = v[kBytecodeColumns[i]];
  return out;
}

std::vector<std::vector<Fr>> extract_columns(std::span<const TraceRow> rows) {
  const std::size_t T = rows.size();
  if (T == 0 || (T & (T - 1)) != 0)
    throw std::invalid_argument("r1cs::extract_columns: row count must be a power of two");
  std::vector<std::vector<Fr>> c(kNumColumns, std::vector<Fr>(T));
  const Fr one = Fr::one();
  for (std::size_t t = 0; t < T; ++t) {
    const TraceRow& r = rows[t];
    auto set = [&](std::uint32_t col_id, const Fr& v) { c[col_id][t] = v; };
    auto flag = [&](std::uint32_t col_id, bool b) { c[col_id][t] = b ? one : Fr::zero(); };
    const InstructionFlags f = instruction_flags(r);
    const bool noop = f.noop, branch = f.branch, jump = f.jump, add = f.add, sub = f.sub,
               mul = f.mul, left_rs1 = f.left_rs1, left_pc = f.left_pc, right_rs2 = f.right_rs2,
               right_imm = f.right_imm, load = f.load, store = f.store;
    const std::array<Fr, kNumBytecodeColumns> fixed = bytecode_values(r);
    for (std::size_t i = 0; i < kNumBytecodeColumns; ++i) set(kBytecodeColumns[i], fixed[i]);

    const Fr pc = Fr::from_u64(r.pc), imm = Fr::from_i64(r.imm);
    const Fr rs1 = Fr::from_u64(r.rs1_val), rs2 = Fr::from_u64(r.rs2_val);
    set(kRs1Value, rs1);
    set(kRs2Value, rs2);
    set(kRdWriteValue, Fr::from_u64(r.rd_post));
    set(kRdReadValue, Fr::from_u64(r.rd_pre));
    set(kRamAddress, (load || store) ? Fr::from_u64(r.mem_addr) : Fr::zero());
    set(kRamReadValue, (load || store) ? Fr::from_u64(r.mem_pre) : Fr::zero());
    set(kRamWriteValue, (load || store) ? Fr::from_u64(r.mem_post) : Fr::zero());
    const Fr left = left_rs1 ? rs1 : (left_pc ? pc : Fr::zero());
    const Fr right = right_rs2 ? rs2 : (right_imm ? imm : Fr::zero());
    set(kLeftInstructionInput, left);
    set(kRightInstructionInput, right);
    const Fr product = left * right;
    set(kProduct, product);
    set(kLeftLookupOperand, (add || sub || mul) ? Fr::zero() : left);
    Fr rl = right;
    if (add) rl = left + right;
    if (sub) rl = left - right + Fr::from_u64(std::uint64_t{1} << 32);
    if (mul) rl = product;
    set(kRightLookupOperand, rl);
    const std::uint32_t lo = noop ? 0 : lookup_output(r);
    set(kLookupOutput, Fr::from_u64(lo));
    const bool last = t + 1 == T;
    const bool next_noop = last ? true : rows[t + 1].opcode == Opcode::kNoop;
    set(kNextUnexpandedPC, last ? Fr::zero() : Fr::from_u64(rows[t + 1].pc));
    flag(kNextIsNoop, next_noop);
    const bool should_branch = branch && lo == 1;
    flag(kShouldBranch, should_branch);
    flag(kShouldJump, jump && !next_noop);
    flag(kBranchToNext, should_branch && !next_noop);
    flag(kStepToNext, !next_noop && !jump && !should_branch);
    flag(kEcallContinues, r.opcode == Opcode::kEcall && !next_noop);
    set(kRs1Squared, rs1 * rs1);
  }
  fill_register_columns(c);
  return c;
}

void fill_register_columns(std::vector<std::vector<Fr>>& c) {
  const std::size_t T = c[0].size();
  std::array<std::uint64_t, kNumRegisters> last{};  // timestamp of the last access
  std::vector<std::uint32_t> counts(4 * T, 0);
  const std::array<std::uint32_t, 3> index = {kRs1Index, kRs2Index, kRdIndex};
  const std::array<std::uint32_t, 3> ts = {kRs1ReadTs, kRs2ReadTs, kRdReadTs};
  for (std::size_t t = 0; t < T; ++t) {
    for (std::uint32_t j = 0; j < 3; ++j) {
      const std::uint64_t reg = c[index[j]][t].to_canonical_limbs()[0];
      if (reg >= kNumRegisters)
        throw std::invalid_argument("register index column holds " + std::to_string(reg));
      const std::uint64_t now = 4 * t + j + 1;
      c[ts[j]][t] = Fr::from_u64(last[reg]);
      ++counts[now - 1 - last[reg]];
      last[reg] = now;
    }
  }
  for (std::uint32_t k = 0; k < 4; ++k)
    for (std::size_t t = 0; t < T; ++t) c[kRangeCount0 + k][t] = Fr::from_u64(counts[k * T + t]);
}

Fr initial_register_value(std::uint32_t r) {
  return r == 2 ? Fr::from_u64(kInitialStackPointer) : Fr::zero();
}

RegisterState final_register_state(const std::vector<std::vector<Fr>>& c) {
  const std::size_t T = c[0].size();
  RegisterState st;
  for (std::uint32_t r = 0; r < kNumRegisters; ++r) st.value[r] = initial_register_value(r);
  const std::array<std::uint32_t, 3> index = {kRs1Index, kRs2Index, kRdIndex};
  for (std::size_t t = 0; t < T; ++t)
    for (std::uint32_t j = 0; j < 3; ++j) {
      const std::uint64_t reg = c[index[j]][t].to_canonical_limbs()[0];
      if (reg >= kNumRegisters) continue;  // not a register: the bytecode lookup rejects it
      st.timestamp[reg] = Fr::from_u64(4 * t + j + 1);
      if (j == 2) st.value[reg] = c[kRdWriteValue][t];
    }
  return st;
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
