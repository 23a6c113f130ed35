// Virtual sequences: RV32IM instructions the prover proves as a short sequence of instructions
// whose results it proves with one instruction lookup per row (instruction_lookup_map.hpp). The
// tracer records the sequence's rows in place of the instruction and the bytecode table holds the
// sequence's entries, so prover and verifier expand the program the same way.
//
//   SLL   rd, a, b   v0 = pow2(b);  rd = a·v0
//   SRL   rd, a, b   v0 = shift_right_bitmask(b);  rd = virtual_srl(a, v0)
//   SRA   rd, a, b   v0 = shift_right_bitmask(b);  rd = virtual_sra(a, v0)
//   DIVU  rd, a, b   DIVREM(a, b, q = v0, r = v1, s = v2);  rd = v0
//   REMU  rd, a, b   DIVREM(a, b, v0, v1, v2);  rd = v1
//   MULHSU rd, a, b  rd = mulhu(a, b) + (a >>s 31)·b
//   MULH  rd, a, b   rd = mulhu(a, b) + (a >>s 31)·b + (b >>s 31)·a
//   DIV   rd, a, b   |a|, |b|, q = DIVREM's quotient of |a|, |b|, negated when the signs differ
//                    and b ≠ 0
//   REM   rd, a, b   r = DIVREM's remainder of |a|, |b|, negated when a < 0
//   LB, LBU, LH, LHU   LW of the aligned word, shifted right by 8·(address mod 4) (bit mask and
//                      virtual_srl), sign- or zero-extended
//   SB, SH             LW of the aligned word, the byte / half replaced (products by
//                      pow2(8·(address mod 4))), SW
//
// The division block DIVREM(a, b, q, r, s), 9 rows: q and r are advice (the tracer's unsigned
// quotient and remainder of a, b; 2^32 − 1 and a for b = 0), asserted by
// ValidUnsignedRemainder(r, b), ValidDiv0(b, q), MulUNoOverflow(q·b), then s = q·b + r with
// s >= r (no wrap) and s == a.
//
// (all arithmetic mod 2^32). A sequence runs at its instruction's PC; its rows use the virtual
// registers x32 .. x39 (v0 .. v7), which the guest never sees, and write rd only in the last
// row; the instruction's rs1 and rs2 are read, never written, so rd may alias either. Virtual
// instructions (Opcode::kVirtual*) occur only in sequences; assertion rows write no register and
// execute_virtual_sequence throws std::logic_error if one fails (never for an honest execution).
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
// its rows' static fields (an advice row reads no register: rs1 = rs2 = 0). Throws
// std::invalid_argument for an opcode without a sequence.
std::vector<TraceRow> virtual_sequence(const TraceRow& instruction);

// Executes the sequence of `executed` (an executed row: pc, static fields, next_pc and, for a
// load or store, the accessed word: mem_word_addr, mem_pre, mem_post) on the register file `x`
// (kNumRegistersWithVirtual entries, updated) and returns its rows with operand, result and
// memory values; the last row has the instruction's next_pc.
std::vector<TraceRow> execute_virtual_sequence(const TraceRow& executed,
                                               std::span<std::uint32_t> x);

// The RV32IM result of an instruction that writes rd from its register or immediate operands
// (no memory, no control flow): the semantics the sequences are built from; also the virtual
// instructions that compute a value (kVirtualPow2, kVirtualShiftRightBitmask, kVirtualSrl,
// kVirtualSra; not the advice and assertions). Throws std::invalid_argument for other opcodes.
std::uint32_t alu_result(Opcode op, std::uint32_t a, std::uint32_t b, std::int32_t imm);

}  // namespace jolt::prover
