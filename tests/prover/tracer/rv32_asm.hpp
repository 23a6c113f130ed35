// rv32_asm: encodes RV32IM instruction words and wraps them in a minimal ELF32 executable, so
// interpreter tests can run hand-written programs without a cross toolchain.
//
//   std::vector<std::uint32_t> prog = {addi(5, 0, 7), ecall_exit()...};
//   auto elf = make_elf(prog);  // one R+X PT_LOAD at kRamBase, entry = kRamBase
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include <jolt/prover/tracer/tracer.hpp>

namespace rv32 {

using u32 = std::uint32_t;

constexpr u32 r_type(u32 f7, u32 rs2, u32 rs1, u32 f3, u32 rd, u32 opc) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
constexpr u32 i_type(std::int32_t imm, u32 rs1, u32 f3, u32 rd, u32 opc) {
  return ((static_cast<u32>(imm) & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
constexpr u32 s_type(std::int32_t imm, u32 rs2, u32 rs1, u32 f3, u32 opc) {
  const u32 i = static_cast<u32>(imm);
  return (((i >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((i & 31) << 7) | opc;
}
constexpr u32 b_type(std::int32_t imm, u32 rs2, u32 rs1, u32 f3) {
  const u32 i = static_cast<u32>(imm);
  return (((i >> 12) & 1) << 31) | (((i >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) |
         (f3 << 12) | (((i >> 1) & 0xf) << 8) | (((i >> 11) & 1) << 7) | 0x63;
}
constexpr u32 u_type(u32 imm20, u32 rd, u32 opc) {
  return (imm20 << 12) | (rd << 7) | opc;
}
constexpr u32 j_type(std::int32_t imm, u32 rd) {
  const u32 i = static_cast<u32>(imm);
  return (((i >> 20) & 1) << 31) | (((i >> 1) & 0x3ff) << 21) | (((i >> 11) & 1) << 20) |
         (((i >> 12) & 0xff) << 12) | (rd << 7) | 0x6f;
}

// RV32I
constexpr u32 lui(u32 rd, u32 imm20) {
  return u_type(imm20, rd, 0x37);
}
constexpr u32 auipc(u32 rd, u32 imm20) {
  return u_type(imm20, rd, 0x17);
}
constexpr u32 jal(u32 rd, std::int32_t off) {
  return j_type(off, rd);
}
constexpr u32 jalr(u32 rd, u32 rs1, std::int32_t off) {
  return i_type(off, rs1, 0, rd, 0x67);
}
constexpr u32 beq(u32 a, u32 b, std::int32_t off) {
  return b_type(off, b, a, 0);
}
constexpr u32 bne(u32 a, u32 b, std::int32_t off) {
  return b_type(off, b, a, 1);
}
constexpr u32 blt(u32 a, u32 b, std::int32_t off) {
  return b_type(off, b, a, 4);
}
constexpr u32 bge(u32 a, u32 b, std::int32_t off) {
  return b_type(off, b, a, 5);
}
constexpr u32 bltu(u32 a, u32 b, std::int32_t off) {
  return b_type(off, b, a, 6);
}
constexpr u32 bgeu(u32 a, u32 b, std::int32_t off) {
  return b_type(off, b, a, 7);
}
constexpr u32 lb(u32 rd, u32 rs1, std::int32_t o) {
  return i_type(o, rs1, 0, rd, 0x03);
}
constexpr u32 lh(u32 rd, u32 rs1, std::int32_t o) {
  return i_type(o, rs1, 1, rd, 0x03);
}
constexpr u32 lw(u32 rd, u32 rs1, std::int32_t o) {
  return i_type(o, rs1, 2, rd, 0x03);
}
constexpr u32 lbu(u32 rd, u32 rs1, std::int32_t o) {
  return i_type(o, rs1, 4, rd, 0x03);
}
constexpr u32 lhu(u32 rd, u32 rs1, std::int32_t o) {
  return i_type(o, rs1, 5, rd, 0x03);
}
constexpr u32 sb(u32 rs2, u32 rs1, std::int32_t o) {
  return s_type(o, rs2, rs1, 0, 0x23);
}
constexpr u32 sh(u32 rs2, u32 rs1, std::int32_t o) {
  return s_type(o, rs2, rs1, 1, 0x23);
}
constexpr u32 sw(u32 rs2, u32 rs1, std::int32_t o) {
  return s_type(o, rs2, rs1, 2, 0x23);
}
constexpr u32 addi(u32 rd, u32 rs1, std::int32_t i) {
  return i_type(i, rs1, 0, rd, 0x13);
}
constexpr u32 slti(u32 rd, u32 rs1, std::int32_t i) {
  return i_type(i, rs1, 2, rd, 0x13);
}
constexpr u32 sltiu(u32 rd, u32 rs1, std::int32_t i) {
  return i_type(i, rs1, 3, rd, 0x13);
}
constexpr u32 xori(u32 rd, u32 rs1, std::int32_t i) {
  return i_type(i, rs1, 4, rd, 0x13);
}
constexpr u32 ori(u32 rd, u32 rs1, std::int32_t i) {
  return i_type(i, rs1, 6, rd, 0x13);
}
constexpr u32 andi(u32 rd, u32 rs1, std::int32_t i) {
  return i_type(i, rs1, 7, rd, 0x13);
}
constexpr u32 slli(u32 rd, u32 rs1, u32 sh) {
  return r_type(0, sh, rs1, 1, rd, 0x13);
}
constexpr u32 srli(u32 rd, u32 rs1, u32 sh) {
  return r_type(0, sh, rs1, 5, rd, 0x13);
}
constexpr u32 srai(u32 rd, u32 rs1, u32 sh) {
  return r_type(0x20, sh, rs1, 5, rd, 0x13);
}
constexpr u32 add(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 0, rd, 0x33);
}
constexpr u32 sub(u32 rd, u32 a, u32 b) {
  return r_type(0x20, b, a, 0, rd, 0x33);
}
constexpr u32 sll(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 1, rd, 0x33);
}
constexpr u32 slt(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 2, rd, 0x33);
}
constexpr u32 sltu(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 3, rd, 0x33);
}
constexpr u32 xor_(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 4, rd, 0x33);
}
constexpr u32 srl(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 5, rd, 0x33);
}
constexpr u32 sra(u32 rd, u32 a, u32 b) {
  return r_type(0x20, b, a, 5, rd, 0x33);
}
constexpr u32 or_(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 6, rd, 0x33);
}
constexpr u32 and_(u32 rd, u32 a, u32 b) {
  return r_type(0, b, a, 7, rd, 0x33);
}
constexpr u32 fence() {
  return 0x0ff0000f;
}
constexpr u32 ecall() {
  return 0x00000073;
}
constexpr u32 ebreak() {
  return 0x00100073;
}
// M
constexpr u32 mul(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 0, rd, 0x33);
}
constexpr u32 mulh(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 1, rd, 0x33);
}
constexpr u32 mulhsu(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 2, rd, 0x33);
}
constexpr u32 mulhu(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 3, rd, 0x33);
}
constexpr u32 div(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 4, rd, 0x33);
}
constexpr u32 divu(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 5, rd, 0x33);
}
constexpr u32 rem(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 6, rd, 0x33);
}
constexpr u32 remu(u32 rd, u32 a, u32 b) {
  return r_type(1, b, a, 7, rd, 0x33);
}

// rd = value (LUI + ADDI, carrying the sign of the low 12 bits).
inline void li(std::vector<u32>& p, u32 rd, u32 value) {
  const u32 lo = value & 0xfff;
  const u32 hi = (value + (lo >= 0x800 ? 0x1000 : 0)) >> 12;
  p.push_back(lui(rd, hi));
  p.push_back(addi(rd, rd, static_cast<std::int32_t>(lo << 20) >> 20));
}
// exit(status in a0 already): a7 = 0; ecall
inline void exit_(std::vector<u32>& p) {
  p.push_back(addi(17, 0, 0));
  p.push_back(ecall());
}

struct ElfSpec {
  std::uint8_t elf_class = 1, data = 1;
  std::uint16_t type = 2, machine = 243;
  std::uint32_t vaddr = jolt::prover::kRamBase;
  std::uint32_t entry = jolt::prover::kRamBase;
  std::uint32_t flags = 5;  // R+X
};

inline std::vector<std::uint8_t> make_elf(const std::vector<u32>& code, const ElfSpec& s = {}) {
  std::vector<std::uint8_t> b(52 + 32 + code.size() * 4, 0);
  auto put16 = [&](std::size_t off, std::uint16_t v) { std::memcpy(&b[off], &v, 2); };
  auto put32 = [&](std::size_t off, std::uint32_t v) { std::memcpy(&b[off], &v, 4); };
  b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F', b[4] = s.elf_class, b[5] = s.data, b[6] = 1;
  put16(16, s.type);
  put16(18, s.machine);
  put32(20, 1);
  put32(24, s.entry);
  put32(28, 52);  // phoff
  put16(40, 52);
  put16(42, 32);
  put16(44, 1);
  put32(52, 1);  // PT_LOAD
  put32(56, 84);
  put32(60, s.vaddr);
  put32(64, s.vaddr);
  put32(68, static_cast<u32>(code.size() * 4));
  put32(72, static_cast<u32>(code.size() * 4));
  put32(76, s.flags);
  put32(80, 4);
  std::memcpy(&b[84], code.data(), code.size() * 4);
  return b;
}

}  // namespace rv32
