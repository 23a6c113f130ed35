#include <jolt/prover/lookups/instruction_lookup_map.hpp>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include <jolt/prover/lookups/instruction_lookups.hpp>

namespace jolt::prover::lookups {

namespace {

constexpr std::uint64_t kWord = std::uint64_t{1} << 32;

// The bit mask ShiftRightBitmask gives for a shift by s: ones at [s, 32).
std::uint64_t shift_mask(unsigned s) {
  return kWord - (std::uint64_t{1} << s);
}

}  // namespace

std::vector<LookupStep> lookups_for(const TraceRow& row) {
  const std::uint32_t x = row.rs1_val, y = row.rs2_val, rd = row.rd_post;
  const auto imm = static_cast<std::uint32_t>(row.imm);
  const std::uint64_t pair_reg = interleave(x, y), pair_imm = interleave(x, imm);
  // A branch's condition, read from where the tracer went (for an offset of 4 both ways lead to
  // the same place, so the condition is recomputed from the operands).
  auto branch = [&](LookupTable t, bool condition) -> std::vector<LookupStep> {
    const bool taken = imm == 4 ? condition : row.next_pc == row.pc + imm;
    return {{t, pair_reg, taken ? 1u : 0u}};
  };
  const auto sx = static_cast<std::int32_t>(x), sy = static_cast<std::int32_t>(y);
  switch (row.opcode) {
    case Opcode::kNoop:
    case Opcode::kFence:
    case Opcode::kEcall:
    case Opcode::kEbreak:
      return {};
    case Opcode::kLw:
    case Opcode::kSw:  // the accessed address x + imm, wrapping mod 2^32
      return {{LookupTable::RangeCheck, std::uint64_t{x} + imm, row.mem_addr}};
    case Opcode::kLui:
      return {{LookupTable::RangeCheck, imm, rd}};
    case Opcode::kAuipc:
      return {{LookupTable::RangeCheck, std::uint64_t{row.pc} + imm, rd}};
    case Opcode::kJal:
      return {{LookupTable::RangeCheck, std::uint64_t{row.pc} + imm, row.next_pc}};
    case Opcode::kJalr:
      return {{LookupTable::RangeCheckAligned, std::uint64_t{x} + imm, row.next_pc}};
    case Opcode::kBeq:
      return branch(LookupTable::Equal, x == y);
    case Opcode::kBne:
      return branch(LookupTable::NotEqual, x != y);
    case Opcode::kBlt:
      return branch(LookupTable::LessThan, sx < sy);
    case Opcode::kBge:
      return branch(LookupTable::GreaterEqual, sx >= sy);
    case Opcode::kBltu:
      return branch(LookupTable::LessThanUnsigned, x < y);
    case Opcode::kBgeu:
      return branch(LookupTable::GreaterEqualUnsigned, x >= y);
    case Opcode::kAddi:
      return {{LookupTable::RangeCheck, std::uint64_t{x} + imm, rd}};
    case Opcode::kSlti:
      return {{LookupTable::LessThan, pair_imm, rd}};
    case Opcode::kSltiu:
      return {{LookupTable::LessThanUnsigned, pair_imm, rd}};
    case Opcode::kXori:
      return {{LookupTable::Xor, pair_imm, rd}};
    case Opcode::kOri:
      return {{LookupTable::Or, pair_imm, rd}};
    case Opcode::kAndi:
      return {{LookupTable::And, pair_imm, rd}};
    case Opcode::kSlli:
      return {{LookupTable::RangeCheck, std::uint64_t{x} << (imm & 31), rd}};  // x·2^s
    case Opcode::kSrli:
      return {{LookupTable::VirtualSRL,
               interleave(x, static_cast<std::uint32_t>(shift_mask(imm & 31))), rd}};
    case Opcode::kSrai:
      return {{LookupTable::VirtualSRA,
               interleave(x, static_cast<std::uint32_t>(shift_mask(imm & 31))), rd}};
    case Opcode::kAdd:
      return {{LookupTable::RangeCheck, std::uint64_t{x} + y, rd}};
    case Opcode::kSub:
      return {{LookupTable::RangeCheck, std::uint64_t{x} + (kWord - y), rd}};
    case Opcode::kSlt:
      return {{LookupTable::LessThan, pair_reg, rd}};
    case Opcode::kSltu:
      return {{LookupTable::LessThanUnsigned, pair_reg, rd}};
    case Opcode::kXor:
      return {{LookupTable::Xor, pair_reg, rd}};
    case Opcode::kOr:
      return {{LookupTable::Or, pair_reg, rd}};
    case Opcode::kAnd:
      return {{LookupTable::And, pair_reg, rd}};
    case Opcode::kMul:
      return {{LookupTable::RangeCheck, std::uint64_t{x} * y, rd}};
    case Opcode::kMulhu:
      return {{LookupTable::UpperWord, std::uint64_t{x} * y, rd}};
    // Virtual instructions (rows of virtual sequences).
    case Opcode::kVirtualAdvice:  // the advice, range-checked: the key is the value written
      return {{LookupTable::RangeCheck, rd, rd}};
    case Opcode::kVirtualPow2:
      return {{LookupTable::Pow2, x, rd}};
    case Opcode::kVirtualShiftRightBitmask:
      return {{LookupTable::ShiftRightBitmask, x, rd}};
    case Opcode::kVirtualSrl:
      return {{LookupTable::VirtualSRL, pair_reg, rd}};
    case Opcode::kVirtualSra:
      return {{LookupTable::VirtualSRA, pair_reg, rd}};
    case Opcode::kVirtualAssertValidUnsignedRemainder:
      return {{LookupTable::ValidUnsignedRemainder, pair_reg, 1}};
    case Opcode::kVirtualAssertValidDiv0:
      return {{LookupTable::ValidDiv0, pair_reg, 1}};
    case Opcode::kVirtualAssertMulUNoOverflow:
      return {{LookupTable::MulUNoOverflow, std::uint64_t{x} * y, 1}};
    case Opcode::kVirtualAssertEq:
      return {{LookupTable::Equal, pair_reg, 1}};
    case Opcode::kVirtualAssertGeu:
      return {{LookupTable::GreaterEqualUnsigned, pair_reg, 1}};
    case Opcode::kLb:
    case Opcode::kLh:
    case Opcode::kLbu:
    case Opcode::kLhu:
    case Opcode::kSb:
    case Opcode::kSh:
    case Opcode::kSll:
    case Opcode::kSrl:
    case Opcode::kSra:
    case Opcode::kMulh:
    case Opcode::kMulhsu:
    case Opcode::kDiv:
    case Opcode::kDivu:
    case Opcode::kRem:
    case Opcode::kRemu:
    case Opcode::kCount:
      break;
  }
  throw std::invalid_argument("lookups_for: opcode " +
                              std::to_string(static_cast<unsigned>(row.opcode)) +
                              " is never a trace row of its own (it runs as a virtual sequence)");
}

InstructionLookupWitness lookup_witness_of(std::span<const TraceRow> rows,
                                           std::vector<std::uint64_t>* expected) {
  InstructionLookupWitness w;
  w.word_bits = 32;
  if (expected) expected->clear();
  for (const TraceRow& row : rows)
    for (const LookupStep& s : lookups_for(row)) {
      w.keys.push_back(s.key);
      w.tables.push_back(static_cast<std::uint8_t>(s.table));
      w.raf.push_back(takes_operand_pair(s.table) ? 0 : 1);
      if (expected) expected->push_back(s.expected);
    }
  const std::size_t n = std::bit_ceil(std::max<std::size_t>(w.keys.size(), 2));
  w.keys.resize(n, 0);
  w.tables.resize(n, kNoTable);
  w.raf.resize(n, 0);
  if (expected) expected->resize(n, 0);
  return w;
}

}  // namespace jolt::prover::lookups
