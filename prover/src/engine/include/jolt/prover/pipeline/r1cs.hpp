// The statement: the uniform per-cycle R1CS over committed trace columns (an RV32IM adaptation
// of Jolt's rv64 constraints), and the witness extraction from TraceRows.
//
//   WitnessColumns w = r1cs::extract_witness(rows);                   // kNumColumns × T, compact
//   std::vector<std::vector<Fr>> cols = r1cs::extract_columns(rows);  // the same, dense Fr
//   const auto& rows = r1cs::constraints();                           // eq-conditional rows
//   bool ok = r1cs::check_cycle(cols, t);                             // debugging aid
//
// Every row is guard·(left − right) = 0 with guard and left − right affine in z, where z is the
// per-cycle vector (z[0] = 1, z[1 + c] = column c). The outer Spartan sumcheck proves A·z ∘ B·z = 0
// over (row, cycle), rows padded to kNumRowsPadded with zero rows. The product columns are
// defined by product constraints proved in stage 2 (kProducts).
//
// Column semantics are fixed by extract_columns(). The static columns (kBytecodeColumns: PC,
// immediate, circuit flags) are tied to the program by the bytecode lookup, the register columns
// by register memory checking, the instruction results by the byte lookup ("Instruction
// results" below); RAM values are not yet tied to memory checking.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/pipeline/witness_columns.hpp>
#include <jolt/prover/tracer/trace_row.hpp>
#include <jolt/prover/tracer/virtual_sequences.hpp>

namespace jolt::prover::r1cs {

enum Column : std::uint32_t {
  kUnexpandedPC,
  kImm,
  kRs1Value,
  kRs2Value,
  kRdWriteValue,
  kRamAddress,
  kRamReadValue,
  kRamWriteValue,
  kLeftInstructionInput,
  kRightInstructionInput,
  kLeftLookupOperand,
  kRightLookupOperand,
  kProduct,
  kLookupOutput,
  kNextExpandedPC,  // ExpandedPC of the next row (ExpandedPC = 64·UnexpandedPC + SequenceIndex)
  kNextIsNoop,
  kShouldBranch,
  kShouldJump,
  kBranchToNext,
  kStepToNext,
  // circuit / instruction flags
  kAddOperands,
  kSubtractOperands,
  kMultiplyOperands,
  kLoad,
  kStore,
  kLoadWord,
  kStoreWord,
  kJump,
  kBranch,
  kWriteLookupOutputToRD,
  kWritePCtoRD,
  kLeftOperandIsRs1,
  kLeftOperandIsPC,
  kRightOperandIsRs2,
  kRightOperandIsImm,
  kIsNoop,
  kIsEcall,
  // output classes: which word relation fixes LookupOutput (exactly one per instruction that
  // writes rd through it or branches; see "Instruction results" below)
  kOutputIsLowWord,   // LookupOutput = X (sum or product low word)
  kOutputIsHighWord,  // LookupOutput = W (product high word; range check only for the rest)
  kIsAnd,
  kIsOr,
  kIsXor,
  kIsLtu,          // SLTU, SLTIU, BLTU
  kIsGeu,          // BGEU
  kIsLt,           // SLT, SLTI, BLT
  kIsGe,           // BGE
  kIsEq,           // BEQ
  kIsNe,           // BNE
  kIsJalr,         // (Rs1 + Imm) with bit 0 cleared
  kIsSra,          // SRAI
  kIsDivu,         // DIVU: out = the quotient Y
  kIsRemu,         // REMU: out = the remainder W
  kIsSll,          // SLL: Left·2^s = X + 2^32·W, s = Rs2 mod 32
  kIsSrl,          // SRL: Left·2^(32−s) = X + 2^32·W
  kSequenceIndex,  // the row's index in its virtual sequence (0 outside one)
  kInSequence,     // more rows of the virtual sequence follow
  kRs1Index,       // register indices (0 when the instruction has no such operand)
  kRs2Index,
  kRdIndex,
  // register memory checking (not fixed by the instruction)
  kRdReadValue,  // rd before the cycle's write
  kRs1ReadTs,    // timestamp of the previous access to rs1 (see registers below)
  kRs2ReadTs,
  kRdReadTs,
  kRamReadTs,    // timestamp of the previous access to the RAM word (see RAM below)
  kRangeCount0,  // multiplicities of the timestamp range table [0, 4T), T entries each
  kRangeCount1,
  kRangeCount2,
  kRangeCount3,
  // termination: a non-final ECALL must be a cycle marker (a7 in {1, 2}), never an exit
  kEcallContinues,  // IsEcall · (1 − NextIsNoop)
  kRs1Squared,      // Rs1Value²
  // instruction results: the words X, Y, W as bytes (each byte is a byte-lookup entry) and the
  // per-byte AND of X and Y
  kWordX0,
  kWordX1,
  kWordX2,
  kWordX3,
  kWordY0,
  kWordY1,
  kWordY2,
  kWordY3,
  kWordZ0,  // X_i & Y_i
  kWordZ1,
  kWordZ2,
  kWordZ3,
  kWordW0,
  kWordW1,
  kWordW2,
  kWordW3,
  kCarry,               // bit 32 of the sum / difference
  kSignLeft,            // bit 31 of the left input (signed comparisons, SRAI)
  kSignRight,           // bit 31 of the right input (signed comparisons)
  kDiffInverse,         // (Left − Right)^−1, 0 when equal (BEQ, BNE)
  kDiffTimesInverse,    // (Left − Right) · DiffInverse
  kOutputTimesDiff,     // LookupOutput · (Left − Right)
  kSignLeftTimesRight,  // SignLeft · RightInstructionInput
  kDivisorIsZero,       // DIVU/REMU by zero
  kQuotientTimesRight,  // Y · RightInstructionInput (the quotient times the divisor)
  kShiftAmountByte,     // SLL/SRL: the low byte of Rs2 (0 otherwise)
  kShiftPower,          // SLL: 2^s, SRL: 2^(32−s), s = ShiftAmountByte mod 32 (1 otherwise)
  kShiftProduct,        // LeftInstructionInput · ShiftPower
  kNumColumns
};

std::string_view column_name(std::uint32_t c);

// The columns a fetched instruction fixes, in the bytecode lookup's tuple order: PC, immediate,
// the circuit flags and output classes, and the 3 register indices (kAddOperands .. kRdIndex).
inline constexpr std::size_t kNumBytecodeColumns = 2 + (kRdIndex - kAddOperands + 1);
inline constexpr std::array<std::uint32_t, kNumBytecodeColumns> kBytecodeColumns = [] {
  std::array<std::uint32_t, kNumBytecodeColumns> a{};
  a[0] = kUnexpandedPC;
  a[1] = kImm;
  for (std::uint32_t i = 0; i + 2 < kNumBytecodeColumns; ++i) a[2 + i] = kAddOperands + i;
  return a;
}();

// The static columns' values for one instruction: they depend only on row.pc, opcode, rd and
// imm (extract_columns writes exactly these for every row; the verifier computes them for every
// bytecode table entry).
std::array<Fr, kNumBytecodeColumns> bytecode_values(const TraceRow& row);

// Register memory checking. Cycle t accesses rs1 at timestamp 4t+1, rs2 at 4t+2 and rd at 4t+3
// (rd is read, then written); the initial state (initial_register_value) has timestamp 0. Each
// access reads (register, value, previous timestamp) and writes back (register, value', its
// timestamp), so a ReadTs column holds the timestamp of the previous access to that register. The
// range table [0, 4T) bounds 4t + j − ReadTs_j (so every read is of an earlier access); its
// multiplicities are the kRangeCount columns (entry c·T + t in kRangeCount<c> row t).
inline constexpr std::uint32_t kNumRegisters = kNumRegistersWithVirtual;  // x0 .. x31, x32 .. x39
struct RegisterState {
  std::array<Fr, kNumRegisters> value{};
  std::array<Fr, kNumRegisters> timestamp{};
};
// The initial value of register r (tracer.hpp's reset state: sp = kInitialStackPointer).
Fr initial_register_value(std::uint32_t r);
// RAM (word-addressed): a load or store of cycle t reads (RamAddress, RamReadValue, RamReadTs)
// and writes back (RamAddress, RamWriteValue, 4t + 4) in the same memory-checking multiset as the
// registers (a RAM address ≥ kInputBase is never a register index); the range table bounds
// 4t + 3 − RamReadTs (every row: RamReadTs = 4t + 3 on rows without an access). Loads and
// stores are LW and SW of aligned words: the sub-word ones run as virtual sequences.
struct RamWord {
  std::uint32_t address = 0;
  std::uint32_t value = 0;
  std::uint64_t timestamp = 0;
};
// Recomputes the ReadTs, RamReadTs and RangeCount columns from the index and address columns
// (the honest assignment). Used by extract_witness and by tests that alter a witness.
void fill_register_columns(WitnessColumns& columns);
void fill_register_columns(std::vector<std::vector<Fr>>& columns);
// Every RAM word the columns access, ascending: its last value written and the timestamp of its
// last access.
std::vector<RamWord> final_ram_state(const WitnessColumns& columns);
std::vector<RamWord> final_ram_state(const std::vector<std::vector<Fr>>& columns);
// The state after the last cycle as the columns imply it: each register's last RdWriteValue
// (initial_register_value if never written) and the timestamp of its last access (0 if never
// accessed).
RegisterState final_register_state(const WitnessColumns& columns);
RegisterState final_register_state(const std::vector<std::vector<Fr>>& columns);

// An affine form over z: constant + Σ coeff·column.
struct LinearForm {
  std::int64_t constant = 0;
  std::vector<std::pair<std::uint32_t, std::int64_t>> terms;  // (column, coeff)
  Fr evaluate(std::span<const Fr> column_values) const;       // values indexed by Column
};

struct ConstraintRow {
  std::string_view name;
  std::string_view family;  // "ram_address", "lookup_operands", "pc_update", ...
  LinearForm a;             // guard
  LinearForm b;             // left − right
};

const std::vector<ConstraintRow>& constraints();
inline constexpr std::size_t kRowBits = 6;
inline constexpr std::size_t kNumRowsPadded = std::size_t{1} << kRowBits;  // 64

// Product constraint: out = left · right (left/right affine in the columns).
struct ProductConstraint {
  std::string_view name;
  std::uint32_t out;
  LinearForm left;
  LinearForm right;
};
const std::vector<ProductConstraint>& products();

// Columns (kNumColumns tables of rows.size() entries). rows.size() must be a power of two.
// NextExpandedPC(t) = 64·pc(t+1) + sequence(t+1) and NextIsNoop(t) = IsNoop(t+1), with
// NextExpandedPC = 0 and NextIsNoop = 1 on the last row (the shift sumcheck ties them to the next
// row). Control flow moves ExpandedPC: +1 inside a virtual sequence, else to 64 × the next PC (so
// a row after a sequence's last row, a jump or a branch starts at sequence index 0).
// extract_witness stores them compactly (witness_columns.hpp; what the prover commits);
// extract_columns returns them as dense Fr tables (tests that alter a witness).
WitnessColumns extract_witness(std::span<const TraceRow> rows);
std::vector<std::vector<Fr>> extract_columns(std::span<const TraceRow> rows);

// The value an RV32IM instruction's lookup produces in this witness (rd result, branch
// condition, jump target, loaded value, store address).
std::uint32_t lookup_output(const TraceRow& row);

// Instruction results. Each cycle decomposes three 32-bit words into bytes, X = Σ 256^i·X_i,
// Y and W alike, and looks up (X_i, Y_i, Z_i) and (W_i, 0, 0) in the table of byte pairs with
// their AND (stage 6b), so every byte is in [0, 256) and Z_i = X_i & Y_i. The rows then fix the
// result per output class:
//   Add/Sub operands: RightLookupOperand (Left + Right, or Left − Right + 2^32) = X + 2^32·Carry
//   Multiply operands: Product = X + 2^32·W (MUL, MULHU, and SLLI/SRLI/SRAI whose Imm is the
//     power of two 2^s / 2^(32−s))
//   low word: out = X;  high word: out = W;  AND: out = Z;  OR: X + Y − Z;  XOR: X + Y − 2Z
//   (bitwise: X = Left, Y = Right);  LTU: 1 − Carry;  GEU: Carry;  LT: 1 − Carry + sL − sR;
//   GE: Carry − sL + sR, with the signs from Y = 2·Left − 2^32·sL, W = 2·Right − 2^32·sR;
//   EQ/NE: the inverse of Left − Right;  JALR: Y = 1, out = X − Z;  SRAI: out = W + sL·(2^32 −
//   Right);  DIVU/REMU: quotient Y, remainder W, Y·Right + W = Left and X = Right − W − 1 +
//   2^32·DivisorIsZero (so W < Right unless Right = 0, where Y = 2^32 − 1); out = Y / W;
//   SLL/SRL: Right = ShiftAmountByte + 256·Y (Y < 2^24), ShiftProduct = X + 2^32·W, out = X / W,
//   with (ShiftAmountByte, ShiftPower, IsSrl) an entry of the shift table (stage 6b, second tree).
// Every value written to a register is so in [0, 2^32). The Imm column holds the right operand
// the ALU sees: imm mod 2^32 (the power of two for immediate shifts); for branches the signed
// offset (BranchTarget adds it to the PC).
// Recomputes the ALU witness of cycle t (LeftLookupOperand, RightLookupOperand, Product, the
// words and their bytes, Carry, the signs, DiffInverse and the product columns) from the flags,
// LeftInstructionInput, RightInstructionInput and LookupOutput: the honest assignment, used by
// extract_witness (through fill_alu_row, the same on one cycle's values) and by tests that alter
// a witness.
using RowValues = std::array<Fr, kNumColumns>;  // one cycle's columns, indexed by Column
void fill_alu_row(RowValues& row);
void fill_alu_columns(std::vector<std::vector<Fr>>& columns, std::size_t t);

// Debugging aid: names of the constraints that fail at cycle t (empty if all hold).
std::vector<std::string_view> failing_constraints(const std::vector<std::vector<Fr>>& cols,
                                                  std::size_t t);

}  // namespace jolt::prover::r1cs
