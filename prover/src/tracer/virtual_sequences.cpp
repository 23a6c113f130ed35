// The virtual sequences (virtual_sequences.hpp).
#include <jolt/prover/tracer/virtual_sequences.hpp>

#include <bit>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include <jolt/prover/tracer/tracer.hpp>

namespace jolt::prover {

namespace {

// Operand placeholders resolved against the instruction: its rd, rs1, rs2.
constexpr std::uint8_t kRd = 0xf0, kA = 0xf1, kB = 0xf2;
// Immediate placeholder: the instruction's imm.
constexpr std::int32_t kImm = 0x7fffffff;
constexpr std::uint8_t v(std::uint8_t i) {
  return static_cast<std::uint8_t>(kNumArchitecturalRegisters + i);
}

// A row of a sequence. An advice row keeps the dividend and divisor registers of its division
// block in rs1, rs2 (the tracer computes the advice from them); its TraceRow reads no register.
struct Step {
  Opcode op;
  std::uint8_t rd, rs1, rs2;
  std::int32_t imm;
};
using Steps = std::vector<Step>;
using O = Opcode;

Steps cat(std::initializer_list<Steps> parts) {
  Steps out;
  for (const Steps& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// |x| (mod 2^32) into v(dst) from x and its sign mask v(mask): (x ^ m) − m.
Steps abs_of(std::uint8_t x, std::uint8_t mask, std::uint8_t dst) {
  return {{O::kXor, v(dst), x, v(mask), 0}, {O::kSub, v(dst), v(dst), v(mask), 0}};
}

// The division block DIVREM(a, b, q, r, s): q = divu(a, b), r = remu(a, b) as advice, checked by
// r < b (or b = 0), q = 2^32 − 1 when b = 0, q·b < 2^32 and q·b + r = a without a wrap; s is
// scratch. a and b are read in every row, so none of q, r, s may be one of them.
Steps divrem(std::uint8_t a, std::uint8_t b, std::uint8_t q, std::uint8_t r, std::uint8_t s) {
  return {{O::kVirtualAdvice, q, a, b, 0},
          {O::kVirtualAdvice, r, a, b, 1},
          {O::kVirtualAssertValidUnsignedRemainder, 0, r, b, 0},
          {O::kVirtualAssertValidDiv0, 0, b, q, 0},
          {O::kVirtualAssertMulUNoOverflow, 0, q, b, 0},
          {O::kMul, s, q, b, 0},
          {O::kAdd, s, s, r, 0},
          {O::kVirtualAssertGeu, 0, s, r, 0},  // q·b + r did not wrap
          {O::kVirtualAssertEq, 0, s, a, 0}};
}

// Sub-word accesses on the aligned word: the address a + imm (v0), the word's address (v1: bits
// 1..0 cleared for bytes; only bit 1 for halves, so a misaligned half leaves bit 0 set and the
// word access, which must be aligned, cannot be proved), the word (v2), the bit offset
// 8·(address mod 4) (v3).
Steps word(std::int32_t clear) {
  return {{O::kAddi, v(0), kA, 0, kImm},
          {O::kAndi, v(1), v(0), 0, clear},
          {O::kLw, v(2), v(1), 0, 0},
          {O::kAndi, v(3), v(0), 0, 3},
          {O::kSlli, v(3), v(3), 0, 3}};
}

const Steps& steps(Opcode op) {
  // Shifts by a register: the shift's power of two or bit mask, then the product or the bit
  // extraction (VirtualSrl/VirtualSra of a ShiftRightBitmask is the shift).
  static const Steps sll = {{O::kVirtualPow2, v(0), kB, 0, 0}, {O::kMul, kRd, kA, v(0), 0}};
  static const Steps srl = {{O::kVirtualShiftRightBitmask, v(0), kB, 0, 0},
                            {O::kVirtualSrl, kRd, kA, v(0), 0}};
  static const Steps sra = {{O::kVirtualShiftRightBitmask, v(0), kB, 0, 0},
                            {O::kVirtualSra, kRd, kA, v(0), 0}};
  static const Steps mulhsu = {{O::kSrai, v(0), kA, 0, 31},
                               {O::kMul, v(0), v(0), kB, 0},
                               {O::kMulhu, v(1), kA, kB, 0},
                               {O::kAdd, kRd, v(1), v(0), 0}};
  static const Steps mulh = {{O::kSrai, v(0), kA, 0, 31},  {O::kMul, v(0), v(0), kB, 0},
                             {O::kSrai, v(2), kB, 0, 31},  {O::kMul, v(2), v(2), kA, 0},
                             {O::kMulhu, v(1), kA, kB, 0}, {O::kAdd, v(1), v(1), v(0), 0},
                             {O::kAdd, kRd, v(1), v(2), 0}};
  static const Steps divu = cat({divrem(kA, kB, v(0), v(1), v(2)), {{O::kAddi, kRd, v(0), 0, 0}}});
  static const Steps remu = cat({divrem(kA, kB, v(0), v(1), v(2)), {{O::kAddi, kRd, v(1), 0, 0}}});
  // DIV and REM: the signs (v0, v2) and magnitudes (v1, v3) of a and b, then divu/remu of the
  // magnitudes into v4.
  static const Steps div =
      cat({{{O::kSrai, v(0), kA, 0, 31}},
           abs_of(kA, 0, 1),
           {{O::kSrai, v(2), kB, 0, 31}},
           abs_of(kB, 2, 3),
           divrem(v(1), v(3), v(4), v(5), v(6)),  // quotient of the magnitudes (2^32 − 1 for b = 0)
           {{O::kXor, v(5), v(0), v(2), 0},       // −1 when the signs differ
            {O::kSltu, v(6), 0, kB, 0},           // b ≠ 0
            {O::kSub, v(6), 0, v(6), 0},          // −1 when b ≠ 0
            {O::kAnd, v(5), v(5), v(6), 0},  // negate only when b ≠ 0 (b = 0 gives −1 unsigned)
            {O::kXor, v(4), v(4), v(5), 0},
            {O::kSub, kRd, v(4), v(5), 0}}});
  static const Steps rem =
      cat({{{O::kSrai, v(0), kA, 0, 31}},
           abs_of(kA, 0, 1),
           {{O::kSrai, v(2), kB, 0, 31}},
           abs_of(kB, 2, 3),
           divrem(v(1), v(3), v(5), v(4), v(6)),  // remainder of the magnitudes (|a| for b = 0)
           {{O::kXor, v(4), v(4), v(0), 0}, {O::kSub, kRd, v(4), v(0), 0}}});  // the sign of a
  // Loads: the word shifted right by v3 (bit mask in v4), then sign- or zero-extended.
  static const Steps shift_word = {{O::kVirtualShiftRightBitmask, v(4), v(3), 0, 0},
                                   {O::kVirtualSrl, v(2), v(2), v(4), 0}};
  static const Steps lb =
      cat({word(-4), shift_word, {{O::kSlli, v(2), v(2), 0, 24}, {O::kSrai, kRd, v(2), 0, 24}}});
  static const Steps lbu = cat({word(-4), shift_word, {{O::kAndi, kRd, v(2), 0, 255}}});
  static const Steps lh =
      cat({word(-3), shift_word, {{O::kSlli, v(2), v(2), 0, 16}, {O::kSrai, kRd, v(2), 0, 16}}});
  static const Steps lhu =
      cat({word(-3), shift_word, {{O::kSlli, v(2), v(2), 0, 16}, {O::kSrli, kRd, v(2), 0, 16}}});
  // Stores: 2^offset (v6), the byte / half cleared in the word (mask v4), rs2's low byte / half
  // (v5) shifted into place (products by v6), OR, SW.
  static const Steps sb = cat({word(-4),
                               {{O::kVirtualPow2, v(6), v(3), 0, 0},
                                {O::kAddi, v(4), 0, 0, 255},
                                {O::kMul, v(4), v(4), v(6), 0},
                                {O::kXori, v(4), v(4), 0, -1},
                                {O::kAnd, v(2), v(2), v(4), 0},
                                {O::kAndi, v(5), kB, 0, 255},
                                {O::kMul, v(5), v(5), v(6), 0},
                                {O::kOr, v(2), v(2), v(5), 0},
                                {O::kSw, 0, v(1), v(2), 0}}});
  static const Steps sh = cat({word(-3),
                               {{O::kVirtualPow2, v(6), v(3), 0, 0},
                                {O::kLui, v(4), 0, 0, 0x10000},
                                {O::kAddi, v(4), v(4), 0, -1},
                                {O::kMul, v(4), v(4), v(6), 0},
                                {O::kXori, v(4), v(4), 0, -1},
                                {O::kAnd, v(2), v(2), v(4), 0},
                                {O::kSlli, v(5), kB, 0, 16},
                                {O::kSrli, v(5), v(5), 0, 16},
                                {O::kMul, v(5), v(5), v(6), 0},
                                {O::kOr, v(2), v(2), v(5), 0},
                                {O::kSw, 0, v(1), v(2), 0}}});
  switch (op) {
    case O::kLb:
      return lb;
    case O::kLbu:
      return lbu;
    case O::kLh:
      return lh;
    case O::kLhu:
      return lhu;
    case O::kSb:
      return sb;
    case O::kSh:
      return sh;
    case O::kSll:
      return sll;
    case O::kSrl:
      return srl;
    case O::kSra:
      return sra;
    case O::kMulhsu:
      return mulhsu;
    case O::kMulh:
      return mulh;
    case O::kDiv:
      return div;
    case O::kDivu:
      return divu;
    case O::kRem:
      return rem;
    case O::kRemu:
      return remu;
    default:
      throw std::invalid_argument("no virtual sequence for opcode " +
                                  std::to_string(static_cast<int>(op)));
  }
}

// A step's register resolved against the instruction.
std::uint8_t resolve(const TraceRow& in, std::uint8_t r) {
  return r == kRd ? in.rd : r == kA ? in.rs1 : r == kB ? in.rs2 : r;
}

// Whether an assertion row holds for its operands (false for an opcode that is no assertion).
bool assertion_holds(Opcode op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
    case O::kVirtualAssertValidUnsignedRemainder:
      return b == 0 || a < b;
    case O::kVirtualAssertValidDiv0:
      return a != 0 || b == 0xffffffffu;
    case O::kVirtualAssertMulUNoOverflow:
      return (std::uint64_t{a} * b) >> 32 == 0;
    case O::kVirtualAssertEq:
      return a == b;
    case O::kVirtualAssertGeu:
      return a >= b;
    default:
      return false;
  }
}

bool is_assertion(Opcode op) {
  return op >= O::kVirtualAssertValidUnsignedRemainder && op <= O::kVirtualAssertGeu;
}

// pext: the bits of x where mask has ones, packed towards bit 0.
std::uint32_t extract_bits(std::uint32_t x, std::uint32_t mask) {
  // A shift's bit mask (ones at [s, 32)) extracts x >> s.
  if (mask != 0 && mask + (mask & (0u - mask)) == 0) return x >> std::countr_zero(mask);
  std::uint32_t out = 0;
  for (unsigned i = 0, j = 0; i < 32; ++i)
    if ((mask >> i) & 1) out |= ((x >> i) & 1u) << j++;
  return out;
}

}  // namespace

bool has_virtual_sequence(Opcode op) {
  switch (op) {
    case O::kSll:
    case O::kSrl:
    case O::kSra:
    case O::kMulhsu:
    case O::kMulh:
    case O::kDiv:
    case O::kDivu:
    case O::kRem:
    case O::kRemu:
    case O::kLb:
    case O::kLbu:
    case O::kLh:
    case O::kLhu:
    case O::kSb:
    case O::kSh:
      return true;
    default:
      return false;
  }
}

std::size_t virtual_sequence_length(Opcode op) {
  return has_virtual_sequence(op) ? steps(op).size() : 1;
}

std::vector<TraceRow> virtual_sequence(const TraceRow& in) {
  const Steps& s = steps(in.opcode);
  std::vector<TraceRow> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    TraceRow& r = out[i];
    r.pc = in.pc;
    r.word = in.word;
    r.opcode = s[i].op;
    r.rd = resolve(in, s[i].rd);
    if (s[i].op != O::kVirtualAdvice) r.rs1 = resolve(in, s[i].rs1), r.rs2 = resolve(in, s[i].rs2);
    r.imm = s[i].imm == kImm ? in.imm : s[i].imm;
    r.sequence = static_cast<std::uint8_t>(i);
    r.sequence_remaining = static_cast<std::uint8_t>(s.size() - 1 - i);
  }
  return out;
}

std::vector<TraceRow> execute_virtual_sequence(const TraceRow& executed,
                                               std::span<std::uint32_t> x) {
  if (x.size() < kNumRegistersWithVirtual)
    throw std::invalid_argument("execute_virtual_sequence: register file too small");
  const Steps& s = steps(executed.opcode);
  std::vector<TraceRow> rows = virtual_sequence(executed);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    TraceRow& r = rows[i];
    r.rs1_val = x[r.rs1], r.rs2_val = x[r.rs2];
    r.rd_pre = x[r.rd];
    std::uint32_t result = 0;
    if (r.opcode == O::kLw || r.opcode == O::kSw) {
      // The word the instruction accessed (the executed row's aligned word, before and after).
      const std::uint32_t address = r.rs1_val + static_cast<std::uint32_t>(r.imm);
      if (address != executed.mem_word_addr)
        throw std::logic_error(
            "virtual sequence: word access at another address than the "
            "instruction's word");
      r.mem = r.opcode == O::kLw ? MemAccess::kLoad : MemAccess::kStore;
      r.mem_width = 4;
      r.mem_addr = r.mem_word_addr = address;
      r.mem_pre = executed.mem_pre;
      r.mem_post = r.opcode == O::kLw ? executed.mem_pre : r.rs2_val;
      if (r.opcode == O::kSw && r.mem_post != executed.mem_post)
        throw std::logic_error("virtual sequence: stored another word than the instruction");
      result = r.mem_pre;
    } else if (r.opcode == O::kVirtualAdvice) {
      // The unsigned quotient or remainder of the division block's operands (its rows do not
      // write them), RV32IM's for a divisor of 0.
      const std::uint32_t a = x[resolve(executed, s[i].rs1)], b = x[resolve(executed, s[i].rs2)];
      result = alu_result(r.imm == 0 ? O::kDivu : O::kRemu, a, b, 0);
    } else if (is_assertion(r.opcode)) {
      if (!assertion_holds(r.opcode, r.rs1_val, r.rs2_val))
        throw std::logic_error(std::string("virtual sequence of ") + opcode_name(executed.opcode) +
                               ": " + opcode_name(r.opcode) + " fails on " +
                               std::to_string(r.rs1_val) + ", " + std::to_string(r.rs2_val));
    } else {
      result = alu_result(r.opcode, r.rs1_val, r.rs2_val, r.imm);
    }
    if (r.rd != 0 && r.opcode != O::kSw) x[r.rd] = result;
    r.rd_post = x[r.rd];
    r.next_pc = r.sequence_remaining == 0 ? executed.next_pc : executed.pc;
  }
  return rows;
}

std::uint32_t alu_result(Opcode op, std::uint32_t a, std::uint32_t b, std::int32_t imm) {
  const auto i = static_cast<std::uint32_t>(imm);
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
  switch (op) {
    case O::kLui:
      return i;
    case O::kAddi:
      return a + i;
    case O::kSlti:
      return sa < imm;
    case O::kSltiu:
      return a < i;
    case O::kXori:
      return a ^ i;
    case O::kOri:
      return a | i;
    case O::kAndi:
      return a & i;
    case O::kSlli:
      return a << (i & 31);
    case O::kSrli:
      return a >> (i & 31);
    case O::kSrai:
      return static_cast<std::uint32_t>(sa >> (i & 31));
    case O::kAdd:
      return a + b;
    case O::kSub:
      return a - b;
    case O::kSll:
      return a << (b & 31);
    case O::kSlt:
      return sa < sb;
    case O::kSltu:
      return a < b;
    case O::kXor:
      return a ^ b;
    case O::kSrl:
      return a >> (b & 31);
    case O::kSra:
      return static_cast<std::uint32_t>(sa >> (b & 31));
    case O::kOr:
      return a | b;
    case O::kAnd:
      return a & b;
    case O::kMul:
      return a * b;
    case O::kMulh:
      return static_cast<std::uint32_t>((std::int64_t{sa} * std::int64_t{sb}) >> 32);
    case O::kMulhsu:
      return static_cast<std::uint32_t>((std::int64_t{sa} * static_cast<std::int64_t>(b)) >> 32);
    case O::kMulhu:
      return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
    case O::kDiv:
      if (b == 0) return ~0u;
      if (a == 0x80000000u && sb == -1) return a;
      return static_cast<std::uint32_t>(sa / sb);
    case O::kDivu:
      return b == 0 ? ~0u : a / b;
    case O::kRem:
      if (b == 0) return a;
      if (a == 0x80000000u && sb == -1) return 0;
      return static_cast<std::uint32_t>(sa % sb);
    case O::kRemu:
      return b == 0 ? a : a % b;
    case O::kVirtualPow2:
      return 1u << (a & 31);
    case O::kVirtualShiftRightBitmask:
      return 0u - (1u << (a & 31));  // 2^32 − 2^s
    case O::kVirtualSrl:
      return extract_bits(a, b);
    case O::kVirtualSra: {
      // pext(a, b) with the bits above popcount(b) set to a's sign: a >>s s for b's shift mask.
      const int n = std::popcount(b);
      const std::uint32_t fill = n == 32 ? 0 : 0u - (1u << n);
      return extract_bits(a, b) | ((a >> 31) ? fill : 0);
    }
    default:
      throw std::invalid_argument("alu_result: opcode " + std::to_string(static_cast<int>(op)) +
                                  " is not a register/immediate ALU instruction");
  }
}

}  // namespace jolt::prover
