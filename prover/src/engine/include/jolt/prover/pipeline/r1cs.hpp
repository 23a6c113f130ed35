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
// by register memory checking, the instruction results by the instruction read-raf
// ("Instruction results" below), RAM by Twist memory checking (memory/ram_twist.hpp).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/lookups/instruction_tables.hpp>
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
  kLeftLookupOperand,   // virtual: proved by the instruction read-raf (never committed)
  kRightLookupOperand,  // virtual, likewise
  kProduct,
  kLookupOutput,    // virtual, likewise
  kNextExpandedPC,  // ExpandedPC of the next row (ExpandedPC = 64·UnexpandedPC + SequenceIndex)
  kNextIsNoop,
  kShouldBranch,
  kShouldJump,
  kBranchToNext,
  kStepToNext,
  // circuit / instruction flags
  kAddOperands,       // one-operand key: Left + Right
  kSubtractOperands,  // one-operand key: Left − Right + 2^32
  kMultiplyOperands,  // one-operand key: Left · Right
  kLoad,              // LW (sub-word loads run as virtual sequences)
  kStore,             // SW
  kJump,
  kBranch,
  kWriteLookupOutputToRD,
  kWritePCtoRD,
  kWriteRamReadToRD,  // LW with rd ≠ 0
  kLeftOperandIsRs1,
  kLeftOperandIsPC,
  kRightOperandIsRs2,
  kRightOperandIsImm,
  kIsNoop,
  kIsEcall,
  kIsAdvice,            // one-operand key the prover chooses (its lookup output is the advice)
  kIsAssert,            // the lookup output must be 1
  kLookupIsOneOperand,  // Add + Subtract + Multiply + Advice: the read-raf's RAF flag
  // the instruction table the row's lookup reads (at most one; none for NOOP, ECALL, FENCE), in
  // lookups::LookupTable order
  kTableRangeCheck,
  kTableRangeCheckAligned,
  kTableUpperWord,
  kTableAnd,
  kTableOr,
  kTableXor,
  kTableEqual,
  kTableNotEqual,
  kTableLessThan,
  kTableLessThanUnsigned,
  kTableGreaterEqual,
  kTableGreaterEqualUnsigned,
  kTablePow2,
  kTableShiftRightBitmask,
  kTableVirtualSrl,
  kTableVirtualSra,
  kTableValidDiv0,
  kTableValidUnsignedRemainder,
  kTableMulUNoOverflow,
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
  kRamInc,       // RAM: the value written − the value read (0 without an access), committed
  kRangeCount0,  // multiplicities of the timestamp range table [0, 4T), T entries each
  kRangeCount1,
  kRangeCount2,
  kRangeCount3,
  // termination: a non-final ECALL must be a cycle marker (a7 in {1, 2}), never an exit
  kEcallContinues,  // IsEcall · (1 − NextIsNoop)
  kRs1Squared,      // Rs1Value²
  kNumColumns
};
static_assert(kTableMulUNoOverflow - kTableRangeCheck + 1 == lookups::kNumInstructionTables);
static_assert(kTableMulUNoOverflow - kTableRangeCheck ==
              static_cast<std::uint32_t>(lookups::LookupTable::MulUNoOverflow));

// The columns the instruction read-raf proves instead of the commitment: their only claims are
// stage 1's, at r1, the read-raf's input.
inline constexpr std::array<std::uint32_t, 3> kLookupColumns = {kLookupOutput, kLeftLookupOperand,
                                                                kRightLookupOperand};
// Each cycle's lookup key has 64 bits, committed as 64 bit columns after the trace columns.
inline constexpr unsigned kKeyBits = 64;

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
// RAM (word-addressed): a load or store of cycle t reads RamReadValue at RamAddress and writes
// RamWriteValue there (RamInc = their difference); Twist memory checking proves it
// (memory/ram_twist.hpp). Loads and stores are LW and SW of aligned words: the sub-word ones
// run as virtual sequences.
// Recomputes the ReadTs and RangeCount columns from the index columns (the honest assignment).
// Used by extract_witness and by tests that alter a witness.
void fill_register_columns(WitnessColumns& columns);
void fill_register_columns(std::vector<std::vector<Fr>>& columns);
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
inline constexpr std::size_t kRowBits = 5;
inline constexpr std::size_t kNumRowsPadded = std::size_t{1} << kRowBits;  // 32

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

// The value a row's lookup produces in this witness: its table at its key (rd result, branch
// condition, jump target, the LW/SW address, 1 for a passing assertion; 0 without a lookup).
std::uint32_t lookup_output(const TraceRow& row);

// Instruction results. Every row makes at most one lookup into the RV32IM tables
// (lookups/instruction_tables.hpp): the table its Table* flag names, at the key formed from its
// lookup operands — interleave(LeftLookupOperand, RightLookupOperand), or RightLookupOperand
// alone (< 2^64) when LookupIsOneOperand — and LookupOutput is the table's value there. The
// instruction read-raf (stage 5) proves this for every cycle from the 64 committed key bits;
// the rows below fix the operands from the instruction inputs (Add: Left + Right, Subtract:
// Left − Right + 2^32, Multiply: the product, Advice: a key the prover chooses) and use the
// output: rd, the branch condition, the jump target, the RAM address of LW / SW, 1 for an
// assertion. Instructions whose result needs more than one lookup (SLL/SRL/SRA by a register,
// DIVU, REMU and the sequences built on them) run as virtual sequences of one lookup per row
// (tracer/virtual_sequences.hpp). Every value written to a register is a table output, PC + 4 or
// a loaded word, so registers hold 32-bit words. The Imm column holds the right operand the ALU
// sees: imm mod 2^32, 2^s for SLLI, the bit mask 2^32 − 2^s for SRLI / SRAI; for branches the
// signed offset (BranchTarget adds it to the PC).
// Recomputes the lookup operands and the product of cycle t from the flags, the instruction
// inputs and (for advice) LookupOutput: the honest assignment, used by extract_witness (through
// fill_alu_row, the same on one cycle's values) and by tests that alter a witness.
using RowValues = std::array<Fr, kNumColumns>;  // one cycle's columns, indexed by Column
void fill_alu_row(RowValues& row);
void fill_alu_columns(std::vector<std::vector<Fr>>& columns, std::size_t t);

// Debugging aid: names of the constraints that fail at cycle t (empty if all hold).
std::vector<std::string_view> failing_constraints(const std::vector<std::vector<Fr>>& cols,
                                                  std::size_t t);

}  // namespace jolt::prover::r1cs
