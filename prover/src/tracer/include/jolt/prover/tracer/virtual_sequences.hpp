// Virtual sequences: RV32IM instructions the prover proves as a short sequence of instructions
// whose results it proves in one row each (r1cs.hpp, "Instruction results"). The tracer records
// the sequence's rows in place of the instruction and the bytecode table holds the sequence's
// entries, so prover and verifier expand the program the same way.
//
//   SRA   rd, a, b   m = a >>s 31;  rd = ((a ^ m) >> b) ^ m
//   MULHSU rd, a, b  rd = mulhu(a, b) + (a >>s 31)·b
//   MULH  rd, a, b   rd = mulhu(a, b) + (a >>s 31)·b + (b >>s 31)·a
//   DIV   rd, a, b   |a|, |b|, q = divu(|a|, |b|), negated when the signs differ and b ≠ 0
//   REM   rd, a, b   r = remu(|a|, |b|), negated when a < 0
//   LB, LBU, LH, LHU   LW of the aligned word, shifted right by 8·(address mod 4), sign- or
//                      zero-extended
//   SB, SH             LW of the aligned word, the byte / half replaced, SW
//
// (all arithmetic mod 2^32). A sequence runs at its instruction's PC; its rows use the virtual
// registers x32 .. x38, which the guest never sees, and write rd only in the last row.
//
//   if (has_virtual_sequence(row.opcode))
//     for (const TraceRow& r : virtual_sequence(row)) ...   // static fields: pc, opcode, regs,
//                                                           // imm, sequence, sequence_remaining
//   std::vector<TraceRow> rows = execute_virtual_sequence(row, registers);  // with values
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <jolt/prover/tracer/trace_row.hpp>

namespace jolt::prover {

// Registers x0 .. x31 and the virtual registers x32 .. x39 (reset value 0).
inline constexpr std::uint32_t kNumArchitecturalRegisters = 32;
inline constexpr std::uint32_t kNumRegistersWithVirtual = 40;

bool has_virtual_sequence(Opcode op);
// Its number of rows (1 for an instruction without a sequence).
std::size_t virtual_sequence_length(Opcode op);

// The sequence of an instruction (pc, opcode, rd, rs1, rs2, imm of the decoded instruction):
// its rows' static fields. Throws std::invalid_argument for an opcode without a sequence.
std::vector<TraceRow> virtual_sequence(const TraceRow& instruction);

// Executes the sequence of `executed` (an executed row: pc, static fields, next_pc and, for a
// load or store, the accessed word: mem_word_addr, mem_pre, mem_post) on the register file `x`
// (kNumRegistersWithVirtual entries, updated) and returns its rows with operand, result and
// memory values; the last row has the instruction's next_pc.
std::vector<TraceRow> execute_virtual_sequence(const TraceRow& executed,
                                               std::span<std::uint32_t> x);

// The RV32IM result of an instruction that writes rd from its register or immediate operands
// (no memory, no control flow): the semantics the sequences are built from.
std::uint32_t alu_result(Opcode op, std::uint32_t a, std::uint32_t b, std::int32_t imm);

}  // namespace jolt::prover
