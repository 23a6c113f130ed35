// The virtual sequences (virtual_sequences.hpp).
#include <jolt/prover/tracer/virtual_sequences.hpp>
#include <stdexcept>
#include <string>

namespace jolt::prover {

namespace {

// Operand placeholders resolved against the instruction: its rd, rs1, rs2.
constexpr std::uint8_t kRd = 0xf0, kA = 0xf1, kB = 0xf2;
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
  switch (op) {
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
  return op == O::kSra || op == O::kMulhsu || op == O::kMulh || op == O::kDiv || op == O::kRem;
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
    r.imm = s[i].imm;
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
    const std::uint32_t result = alu_result(r.opcode, r.rs1_val, r.rs2_val, r.imm);
    if (r.rd != 0) x[r.rd] = result;
    r.rd_post = x[r.rd];
    r.next_pc = r.sequence_remaining == 0 ? executed.next_pc : executed.pc;
  }
  return rows;
}

std::uint32_t alu_result(Opcode op, std::uint32_t a, std::uint32_t b, std::int32_t imm) {
  const auto i = static_cast<std::uint32_t>(imm);
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
  switch (op) {
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
