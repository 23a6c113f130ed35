// TraceRow: what the tracer records per executed RV32IM cycle and the prover's witness reads.
// A padding row is TraceRow{} (opcode kNoop, everything zero): a register and memory no-op.
#pragma once
#include <cstdint>

namespace jolt::prover {

// Decoded RV32IM operation. kNoop is reserved for padding rows (never decoded from an ELF).
enum class Opcode : std::uint8_t {
  kNoop = 0,
  kLui,
  kAuipc,
  kJal,
  kJalr,
  kBeq,
  kBne,
  kBlt,
  kBge,
  kBltu,
  kBgeu,
  kLb,
  kLh,
  kLw,
  kLbu,
  kLhu,
  kSb,
  kSh,
  kSw,
  kAddi,
  kSlti,
  kSltiu,
  kXori,
  kOri,
  kAndi,
  kSlli,
  kSrli,
  kSrai,
  kAdd,
  kSub,
  kSll,
  kSlt,
  kSltu,
  kXor,
  kSrl,
  kSra,
  kOr,
  kAnd,
  kFence,
  kEcall,
  kEbreak,
  kMul,
  kMulh,
  kMulhsu,
  kMulhu,
  kDiv,
  kDivu,
  kRem,
  kRemu,
  // Virtual instructions: they only occur inside virtual sequences (virtual_sequences.hpp), never
  // decoded from an ELF; each row is proved by one instruction lookup (instruction_lookup_map.hpp).
  kVirtualAdvice,                        // rd = tracer advice; imm 0: quotient, 1: remainder
  kVirtualPow2,                          // rd = 2^(x[rs1] & 31)
  kVirtualShiftRightBitmask,             // rd = 2^32 − 2^(x[rs1] & 31)
  kVirtualSrl,                           // rd = the bits of x[rs1] where x[rs2] has ones, packed
  kVirtualSra,                           // the same, sign-filled from x[rs1]'s bit 31
  kVirtualAssertValidUnsignedRemainder,  // x[rs2] == 0 or x[rs1] < x[rs2] (r, d)
  kVirtualAssertValidDiv0,               // x[rs1] != 0 or x[rs2] == 2^32 − 1 (d, q)
  kVirtualAssertMulUNoOverflow,          // x[rs1]·x[rs2] < 2^32
  kVirtualAssertEq,                      // x[rs1] == x[rs2]
  kVirtualAssertGeu,                     // x[rs1] >= x[rs2], unsigned
  kCount
};

enum class MemAccess : std::uint8_t { kNone = 0, kLoad, kStore };

struct TraceRow {
  std::uint32_t pc = 0;       // address of this instruction
  std::uint32_t next_pc = 0;  // address of the next executed instruction
  std::uint32_t word = 0;     // raw instruction word
  Opcode opcode = Opcode::kNoop;
  std::uint8_t rd = 0, rs1 = 0, rs2 = 0;   // register indices (0 when unused)
  std::int32_t imm = 0;                    // decoded immediate (sign-extended)
  std::uint32_t rs1_val = 0, rs2_val = 0;  // values read
  std::uint32_t rd_pre = 0, rd_post = 0;   // rd before/after (equal when rd = 0 or unused)
  MemAccess mem = MemAccess::kNone;
  std::uint8_t mem_width = 0;  // 1, 2 or 4 bytes
  // A row of a virtual sequence (virtual_sequences.hpp): its index in the sequence and how many
  // rows of it follow (both 0 for an instruction executed as itself).
  std::uint8_t sequence = 0, sequence_remaining = 0;
  std::uint32_t mem_addr = 0;       // byte address accessed
  std::uint32_t mem_word_addr = 0;  // aligned word containing it
  std::uint32_t mem_pre = 0;        // that word before
  std::uint32_t mem_post = 0;       // that word after (== mem_pre for loads)
};

}  // namespace jolt::prover
