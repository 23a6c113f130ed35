// RV32IM instruction decoding into TraceRow fields.
#include "jolt/prover/tracer/tracer.hpp"

namespace jolt::prover {
namespace {
inline std::int32_t sext(std::uint32_t v, int bits) {
  const std::uint32_t m = 1u << (bits - 1);
  return static_cast<std::int32_t>((v ^ m) - m);
}
}  // namespace

bool decode(std::uint32_t w, TraceRow& r) {
  const std::uint32_t opc = w & 0x7f, f3 = (w >> 12) & 7, f7 = w >> 25;
  const std::uint8_t rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
  const std::int32_t imm_i = sext(w >> 20, 12);
  const std::int32_t imm_s = sext(((w >> 25) << 5) | ((w >> 7) & 31), 12);
  const std::int32_t imm_b = sext(((w >> 31) << 12) | (((w >> 7) & 1) << 11) |
                                      (((w >> 25) & 0x3f) << 5) | (((w >> 8) & 0xf) << 1),
                                  13);
  const std::int32_t imm_u = static_cast<std::int32_t>(w & 0xfffff000u);
  const std::int32_t imm_j = sext(((w >> 31) << 20) | (((w >> 12) & 0xff) << 12) |
                                      (((w >> 20) & 1) << 11) | (((w >> 21) & 0x3ff) << 1),
                                  21);
  r.word = w;
  r.rd = r.rs1 = r.rs2 = 0;
  r.imm = 0;
  switch (opc) {
    case 0x37:
      r.opcode = Opcode::kLui, r.rd = rd, r.imm = imm_u;
      return true;
    case 0x17:
      r.opcode = Opcode::kAuipc, r.rd = rd, r.imm = imm_u;
      return true;
    case 0x6f:
      r.opcode = Opcode::kJal, r.rd = rd, r.imm = imm_j;
      return true;
    case 0x67:
      if (f3 != 0) return false;
      r.opcode = Opcode::kJalr, r.rd = rd, r.rs1 = rs1, r.imm = imm_i;
      return true;
    case 0x63: {
      static constexpr Opcode kB[8] = {Opcode::kBeq, Opcode::kBne, Opcode::kNoop, Opcode::kNoop,
                                       Opcode::kBlt, Opcode::kBge, Opcode::kBltu, Opcode::kBgeu};
      if (kB[f3] == Opcode::kNoop) return false;
      r.opcode = kB[f3], r.rs1 = rs1, r.rs2 = rs2, r.imm = imm_b;
      return true;
    }
    case 0x03: {
      static constexpr Opcode kL[8] = {Opcode::kLb,  Opcode::kLh,  Opcode::kLw,   Opcode::kNoop,
                                       Opcode::kLbu, Opcode::kLhu, Opcode::kNoop, Opcode::kNoop};
      if (kL[f3] == Opcode::kNoop) return false;
      r.opcode = kL[f3], r.rd = rd, r.rs1 = rs1, r.imm = imm_i;
      return true;
    }
    case 0x23: {
      static constexpr Opcode kS[4] = {Opcode::kSb, Opcode::kSh, Opcode::kSw, Opcode::kNoop};
      if (f3 > 2) return false;
      r.opcode = kS[f3], r.rs1 = rs1, r.rs2 = rs2, r.imm = imm_s;
      return true;
    }
    case 0x13:
      r.rd = rd, r.rs1 = rs1, r.imm = imm_i;
      switch (f3) {
        case 0:
          r.opcode = Opcode::kAddi;
          return true;
        case 2:
          r.opcode = Opcode::kSlti;
          return true;
        case 3:
          r.opcode = Opcode::kSltiu;
          return true;
        case 4:
          r.opcode = Opcode::kXori;
          return true;
        case 6:
          r.opcode = Opcode::kOri;
          return true;
        case 7:
          r.opcode = Opcode::kAndi;
          return true;
        case 1:
          if (f7 != 0) return false;
          r.opcode = Opcode::kSlli, r.imm = rs2;
          return true;
        case 5:
          if (f7 == 0)
            r.opcode = Opcode::kSrli;
          else if (f7 == 0x20)
            r.opcode = Opcode::kSrai;
          else
            return false;
          r.imm = rs2;
          return true;
      }
      return false;
    case 0x33: {
      r.rd = rd, r.rs1 = rs1, r.rs2 = rs2;
      if (f7 == 1) {
        static constexpr Opcode kM[8] = {Opcode::kMul,   Opcode::kMulh, Opcode::kMulhsu,
                                         Opcode::kMulhu, Opcode::kDiv,  Opcode::kDivu,
                                         Opcode::kRem,   Opcode::kRemu};
        r.opcode = kM[f3];
        return true;
      }
      if (f7 == 0) {
        static constexpr Opcode kR[8] = {Opcode::kAdd, Opcode::kSll, Opcode::kSlt, Opcode::kSltu,
                                         Opcode::kXor, Opcode::kSrl, Opcode::kOr,  Opcode::kAnd};
        r.opcode = kR[f3];
        return true;
      }
      if (f7 == 0x20 && (f3 == 0 || f3 == 5)) {
        r.opcode = f3 == 0 ? Opcode::kSub : Opcode::kSra;
        return true;
      }
      return false;
    }
    case 0x0f:
      r.opcode = Opcode::kFence;
      return true;
    case 0x73:
      if (w == 0x00000073u) {
        // The registers ECALL reads: a7 selects the service, a0 is its argument.
        r.opcode = Opcode::kEcall, r.rs1 = 17, r.rs2 = 10;
        return true;
      }
      if (w == 0x00100073u) {
        r.opcode = Opcode::kEbreak;
        return true;
      }
      return false;
  }
  return false;
}

const char* opcode_name(Opcode op) {
  static constexpr const char* kNames[] = {
      "noop",   "lui",   "auipc", "jal",    "jalr",  "beq",  "bne",  "blt",  "bge",   "bltu",
      "bgeu",   "lb",    "lh",    "lw",     "lbu",   "lhu",  "sb",   "sh",   "sw",    "addi",
      "slti",   "sltiu", "xori",  "ori",    "andi",  "slli", "srli", "srai", "add",   "sub",
      "sll",    "slt",   "sltu",  "xor",    "srl",   "sra",  "or",   "and",  "fence", "ecall",
      "ebreak", "mul",   "mulh",  "mulhsu", "mulhu", "div",  "divu", "rem",  "remu"};
  // The virtual instructions (virtual_sequences.hpp), from Opcode::kVirtualAdvice on.
  static constexpr const char* kVirtualNames[] = {
      "virtual_advice",
      "virtual_pow2",
      "virtual_shift_right_bitmask",
      "virtual_srl",
      "virtual_sra",
      "virtual_assert_valid_unsigned_remainder",
      "virtual_assert_valid_div0",
      "virtual_assert_mulu_no_overflow",
      "virtual_assert_eq",
      "virtual_assert_geu",
  };
  constexpr std::size_t kReal = sizeof(kNames) / sizeof(kNames[0]);
  static_assert(kReal == static_cast<std::size_t>(Opcode::kVirtualAdvice));
  static_assert(kReal + sizeof(kVirtualNames) / sizeof(kVirtualNames[0]) ==
                static_cast<std::size_t>(Opcode::kCount));
  const auto i = static_cast<std::size_t>(op);
  if (i < kReal) return kNames[i];
  return i < static_cast<std::size_t>(Opcode::kCount) ? kVirtualNames[i - kReal] : "?";
}

}  // namespace jolt::prover
