// The virtual sequences (virtual_sequences.hpp).
#include <jolt/prover/tracer/virtual_sequences.hpp>
#include <stdexcept>
#include <string>

namespace jolt::prover {

namespace {

// Operand placeholders resolved against the instruction: its rd, rs1, rs2.
constexpr std::uint8_t kRd = 0xf0, kA = 0xf1, kB = 0xf2;
// Immediate placeholder: the instruction's imm.
constexpr std::int32_t kImm = 0x7fffffff;
constexpr std::uint8_t v(std::uint8_t i) {
  return static_cast<std::uint8_t>(kNumArchitecturalRegisters + i);
}

struct Step {
  Opcode op;
  std::uint8_t rd, rs1, rs2;
  std::int32_t imm;
};

using O = Opcode;
// |x| (mod 2^32) into v(dst) from x and its sign mask v(mask): (x ^ m) − m.
#define JOLT_ABS(x, mask, dst)          \
  {O::kXor, v(dst), x, v(mask), 0}, {   \
    O::kSub, v(dst), v(dst), v(mask), 0 \
  }

const std::vector<Step>& steps(Opcode op) {
  static const std::vector<Step> sra = {{O::kSrai, v(0), kA, 0, 31},
                                        {O::kXor, v(1), kA, v(0), 0},
                                        {O::kSrl, v(1), v(1), kB, 0},
                                        {O::kXor, kRd, v(1), v(0), 0}};
  static const std::vector<Step> mulhsu = {{O::kSrai, v(0), kA, 0, 31},
                                           {O::kMul, v(0), v(0), kB, 0},
                                           {O::kMulhu, v(1), kA, kB, 0},
                                           {O::kAdd, kRd, v(1), v(0), 0}};
  static const std::vector<Step> mulh = {
      {O::kSrai, v(0), kA, 0, 31},  {O::kMul, v(0), v(0), kB, 0}, {O::kSrai, v(2), kB, 0, 31},
      {O::kMul, v(2), v(2), kA, 0}, {O::kMulhu, v(1), kA, kB, 0}, {O::kAdd, v(1), v(1), v(0), 0},
      {O::kAdd, kRd, v(1), v(2), 0}};
  static const std::vector<Step> div = {
      {O::kSrai, v(0), kA, 0, 31},     JOLT_ABS(kA, 0, 1),
      {O::kSrai, v(2), kB, 0, 31},     JOLT_ABS(kB, 2, 3),
      {O::kDivu, v(4), v(1), v(3), 0},  // quotient of the magnitudes (2^32 − 1 when b = 0)
      {O::kXor, v(5), v(0), v(2), 0},   // −1 when the signs differ
      {O::kSltu, v(6), 0, kB, 0},       // b ≠ 0
      {O::kSub, v(6), 0, v(6), 0},      // −1 when b ≠ 0
      {O::kAnd, v(5), v(5), v(6), 0},   // negate only when b ≠ 0 (b = 0 gives −1 unsigned)
      {O::kXor, v(4), v(4), v(5), 0},  {O::kSub, kRd, v(4), v(5), 0}};
  static const std::vector<Step> rem = {
      {O::kSrai, v(0), kA, 0, 31},     JOLT_ABS(kA, 0, 1),
      {O::kSrai, v(2), kB, 0, 31},     JOLT_ABS(kB, 2, 3),
      {O::kRemu, v(4), v(1), v(3), 0},  // remainder of the magnitudes (|a| when b = 0)
      {O::kXor, v(4), v(4), v(0), 0},  {O::kSub, kRd, v(4), v(0), 0}};  // the sign of a
  // Sub-word accesses on the aligned word: the address a + imm (v0), the word's address (v1:
  // bits 1..0 cleared for bytes; only bit 1 for halves, so a misaligned half leaves bit 0 set
  // and the word access, which must be aligned, cannot be proved), the word (v2), the bit
  // offset 8·(address mod 4) (v3).
#define JOLT_WORD(clear)                                                                       \
  {O::kAddi, v(0), kA, 0, kImm}, {O::kAndi, v(1), v(0), 0, clear}, {O::kLw, v(2), v(1), 0, 0}, \
      {O::kAndi, v(3), v(0), 0, 3}, {                                                          \
    O::kSlli, v(3), v(3), 0, 3                                                                 \
  }
  static const std::vector<Step> lb = {JOLT_WORD(-4),
                                       {O::kSrl, v(2), v(2), v(3), 0},
                                       {O::kSlli, v(2), v(2), 0, 24},
                                       {O::kSrai, kRd, v(2), 0, 24}};
  static const std::vector<Step> lbu = {
      JOLT_WORD(-4), {O::kSrl, v(2), v(2), v(3), 0}, {O::kAndi, kRd, v(2), 0, 255}};
  static const std::vector<Step> lh = {JOLT_WORD(-3),
                                       {O::kSrl, v(2), v(2), v(3), 0},
                                       {O::kSlli, v(2), v(2), 0, 16},
                                       {O::kSrai, kRd, v(2), 0, 16}};
  static const std::vector<Step> lhu = {JOLT_WORD(-3),
                                        {O::kSrl, v(2), v(2), v(3), 0},
                                        {O::kSlli, v(2), v(2), 0, 16},
                                        {O::kSrli, kRd, v(2), 0, 16}};
  // Stores: clear the byte / half in the word (mask v4), or in rs2's low byte / half (v5).
  static const std::vector<Step> sb = {JOLT_WORD(-4),
                                       {O::kAddi, v(4), 0, 0, 255},
                                       {O::kSll, v(4), v(4), v(3), 0},
                                       {O::kXori, v(4), v(4), 0, -1},
                                       {O::kAnd, v(2), v(2), v(4), 0},
                                       {O::kAndi, v(5), kB, 0, 255},
                                       {O::kSll, v(5), v(5), v(3), 0},
                                       {O::kOr, v(2), v(2), v(5), 0},
                                       {O::kSw, 0, v(1), v(2), 0}};
  static const std::vector<Step> sh = {JOLT_WORD(-3),
                                       {O::kLui, v(4), 0, 0, 0x10000},
                                       {O::kAddi, v(4), v(4), 0, -1},
                                       {O::kSll, v(4), v(4), v(3), 0},
                                       {O::kXori, v(4), v(4), 0, -1},
                                       {O::kAnd, v(2), v(2), v(4), 0},
                                       {O::kSlli, v(5), kB, 0, 16},
                                       {O::kSrli, v(5), v(5), 0, 16},
                                       {O::kSll, v(5), v(5), v(3), 0},
                                       {O::kOr, v(2), v(2), v(5), 0},
                                       {O::kSw, 0, v(1), v(2), 0}};
#undef JOLT_WORD
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
    case O::kSra:
      return sra;
    case O::kMulhsu:
      return mulhsu;
    case O::kMulh:
      return mulh;
    case O::kDiv:
      return div;
    case O::kRem:
      return rem;
    default:
      throw std::invalid_argument("no virtual sequence for opcode " +
                                  std::to_string(static_cast<int>(op)));
  }
}
#undef JOLT_ABS

}  // namespace

bool has_virtual_sequence(Opcode op) {
  switch (op) {
    case O::kSra:
    case O::kMulhsu:
    case O::kMulh:
    case O::kDiv:
    case O::kRem:
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
  const auto& s = steps(in.opcode);
  auto reg = [&](std::uint8_t r) -> std::uint8_t {
    return r == kRd ? in.rd : r == kA ? in.rs1 : r == kB ? in.rs2 : r;
  };
  std::vector<TraceRow> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    TraceRow& r = out[i];
    r.pc = in.pc;
    r.word = in.word;
    r.opcode = s[i].op;
    r.rd = reg(s[i].rd), r.rs1 = reg(s[i].rs1), r.rs2 = reg(s[i].rs2);
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
  std::vector<TraceRow> rows = virtual_sequence(executed);
  for (TraceRow& r : rows) {
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
    default:
      throw std::invalid_argument("alu_result: opcode " + std::to_string(static_cast<int>(op)) +
                                  " is not a register/immediate ALU instruction");
  }
}

}  // namespace jolt::prover
