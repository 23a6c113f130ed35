// Virtual sequences compute the RV32IM result of the instruction they replace, on edge and
// random operands, whatever registers the instruction names; the interpreter records them in
// the instruction's place.
#include <doctest/doctest.h>

#include <array>
#include <jolt/prover/tracer/tracer.hpp>
#include <jolt/prover/tracer/virtual_sequences.hpp>
#include <random>
#include <vector>

#include "rv32_asm.hpp"

using namespace jolt::prover;

namespace {

bool is_assertion(Opcode op) {
  return op >= Opcode::kVirtualAssertValidUnsignedRemainder && op <= Opcode::kVirtualAssertGeu;
}

// What every executed sequence must satisfy: it agrees with the verifier's static expansion
// (virtual_sequence), runs at the instruction's PC, writes virtual registers only before its
// last row, its assertions write nothing and its advice rows read nothing.
void check_rows(const TraceRow& in, const std::vector<TraceRow>& rows) {
  const std::vector<TraceRow> expanded = virtual_sequence(in);
  REQUIRE(rows.size() == virtual_sequence_length(in.opcode));
  REQUIRE(expanded.size() == rows.size());
  CHECK(rows.size() <= 64);  // ExpandedPC = 64·PC + index
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TraceRow& r = rows[i];
    CHECK(r.pc == in.pc);
    CHECK(r.opcode == expanded[i].opcode);
    CHECK(r.rd == expanded[i].rd);
    CHECK(r.rs1 == expanded[i].rs1);
    CHECK(r.rs2 == expanded[i].rs2);
    CHECK(r.imm == expanded[i].imm);
    CHECK(r.sequence == i);
    CHECK(r.sequence_remaining == rows.size() - 1 - i);
    CHECK(expanded[i].sequence == i);
    CHECK(expanded[i].sequence_remaining == rows.size() - 1 - i);
    CHECK(r.next_pc == (i + 1 == rows.size() ? in.next_pc : in.pc));
    CHECK(!has_virtual_sequence(r.opcode));
    CHECK(r.rd < kNumRegistersWithVirtual);
    CHECK(r.rs1 < kNumRegistersWithVirtual);
    CHECK(r.rs2 < kNumRegistersWithVirtual);
    if (is_assertion(r.opcode)) {
      CHECK(r.rd == 0);
      CHECK(r.rd_post == r.rd_pre);
    } else if (i + 1 < rows.size() && r.opcode != Opcode::kSw) {
      CHECK(r.rd >= kNumArchitecturalRegisters);  // rd only in the last row
    }
    if (r.opcode == Opcode::kVirtualAdvice) {
      CHECK(r.rs1 == 0);
      CHECK(r.rs2 == 0);
      CHECK(r.rs1_val == 0);
      CHECK(r.rs2_val == 0);
      CHECK((r.imm == 0 || r.imm == 1));
    }
  }
}

std::vector<std::uint32_t> edge_operands() {
  std::vector<std::uint32_t> operands = {
      0,          1,          2,          3,          7,          0x7fffffff, 0x80000000,
      0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff9, 0x12345678, 31,         32,
      33,         63,         64,         0x10000,    0xffff,     0x7ffffffe};
  std::mt19937 rng(5);
  for (int i = 0; i < 12; ++i) operands.push_back(static_cast<std::uint32_t>(rng()));
  return operands;
}

}  // namespace

TEST_CASE("every virtual sequence computes its instruction's RV32IM result") {
  const std::vector<std::uint32_t> operands = edge_operands();
  // Shift amounts: every one of 0 .. 31, and some of 32 or more (masked to 5 bits).
  std::vector<std::uint32_t> shifts = operands;
  for (std::uint32_t s = 0; s < 40; ++s) shifts.push_back(s);
  for (std::uint32_t s : {0x20u, 0x3fu, 0x100u, 0x80000005u, 0xffffffe1u}) shifts.push_back(s);
  std::size_t checked = 0;
  for (Opcode op : {Opcode::kSll, Opcode::kSrl, Opcode::kSra, Opcode::kMulh, Opcode::kMulhsu,
                    Opcode::kDiv, Opcode::kDivu, Opcode::kRem, Opcode::kRemu}) {
    REQUIRE(has_virtual_sequence(op));
    const bool shift = op == Opcode::kSll || op == Opcode::kSrl || op == Opcode::kSra;
    // Distinct registers, and rd aliasing each operand (rd is written only by the last row).
    // (Plain variables, not a structured binding: clang 14 cannot capture one in INFO.)
    for (const auto& regs :
         {std::array<std::uint8_t, 3>{5, 6, 7}, {6, 6, 7}, {7, 6, 7}, {6, 6, 6}, {0, 6, 7}})
      for (std::uint32_t a : operands)
        for (std::uint32_t b : shift ? shifts : operands) {
          const std::uint8_t rd = regs[0], rs1 = regs[1], rs2 = regs[2];
          std::vector<std::uint32_t> x(kNumRegistersWithVirtual, 0xdeadbeef);
          x[0] = 0;
          x[rs1] = a;
          if (rs2 != rs1) x[rs2] = b;
          const std::uint32_t bb = rs2 == rs1 ? a : b;
          TraceRow in;
          in.pc = 0x100, in.opcode = op, in.rd = rd, in.rs1 = rs1, in.rs2 = rs2, in.next_pc = 0x104;
          const auto rows = execute_virtual_sequence(in, x);
          INFO("op " << std::string(opcode_name(op)) << " rd " << int(rd) << " a " << a << " b "
                     << bb);
          CHECK(x[rd] == (rd == 0 ? 0u : alu_result(op, a, bb, 0)));
          CHECK(rows.back().rd_post == x[rd]);
          for (std::uint32_t r = 1; r < kNumArchitecturalRegisters; ++r)
            if (r != rd && r != rs1 && r != rs2) CHECK(x[r] == 0xdeadbeefu);  // nothing else
          if (rd != rs1) CHECK(x[rs1] == a);
          if (rd != rs2) CHECK(x[rs2] == bb);
          check_rows(in, rows);
          ++checked;
        }
  }
  CHECK(checked > 40000);
}

TEST_CASE("the virtual sequences' row counts") {
  CHECK(virtual_sequence_length(Opcode::kSll) == 2);
  CHECK(virtual_sequence_length(Opcode::kSrl) == 2);
  CHECK(virtual_sequence_length(Opcode::kSra) == 2);
  CHECK(virtual_sequence_length(Opcode::kMulhsu) == 4);
  CHECK(virtual_sequence_length(Opcode::kMulh) == 7);
  CHECK(virtual_sequence_length(Opcode::kDivu) == 10);
  CHECK(virtual_sequence_length(Opcode::kRemu) == 10);
  CHECK(virtual_sequence_length(Opcode::kDiv) == 21);
  CHECK(virtual_sequence_length(Opcode::kRem) == 17);
  CHECK(virtual_sequence_length(Opcode::kLb) == 9);
  CHECK(virtual_sequence_length(Opcode::kLbu) == 8);
  CHECK(virtual_sequence_length(Opcode::kLh) == 9);
  CHECK(virtual_sequence_length(Opcode::kLhu) == 9);
  CHECK(virtual_sequence_length(Opcode::kSb) == 14);
  CHECK(virtual_sequence_length(Opcode::kSh) == 16);
  for (Opcode op : {Opcode::kAdd, Opcode::kSlli, Opcode::kSrli, Opcode::kSrai, Opcode::kMul,
                    Opcode::kMulhu, Opcode::kLw, Opcode::kSw}) {
    CHECK_FALSE(has_virtual_sequence(op));
    CHECK(virtual_sequence_length(op) == 1);
  }
}

TEST_CASE("the value-computing virtual instructions") {
  for (std::uint32_t s = 0; s < 70; ++s) {
    CAPTURE(s);
    CHECK(alu_result(Opcode::kVirtualPow2, s, 0, 0) == 1u << (s & 31));
    const std::uint32_t mask = alu_result(Opcode::kVirtualShiftRightBitmask, s, 0, 0);
    CHECK(mask == static_cast<std::uint32_t>((std::uint64_t{1} << 32) - (1ull << (s & 31))));
    for (std::uint32_t a : edge_operands()) {
      CHECK(alu_result(Opcode::kVirtualSrl, a, mask, 0) == alu_result(Opcode::kSrl, a, s, 0));
      CHECK(alu_result(Opcode::kVirtualSra, a, mask, 0) == alu_result(Opcode::kSra, a, s, 0));
    }
  }
  // Any mask: the bits of a where the mask has ones, packed; VirtualSra fills above them with
  // a's sign.
  CHECK(alu_result(Opcode::kVirtualSrl, 0xa5a5a5a5u, 0x0000ff00u, 0) == 0xa5u);
  CHECK(alu_result(Opcode::kVirtualSrl, 0b1010u, 0b0110u, 0) == 0b01u);
  CHECK(alu_result(Opcode::kVirtualSrl, 0xffffffffu, 0, 0) == 0);
  CHECK(alu_result(Opcode::kVirtualSra, 0x80000000u, 0x0000ff00u, 0) == 0xffffff00u);
  CHECK(alu_result(Opcode::kVirtualSra, 0x8000a500u, 0x0000ff00u, 0) == 0xffffffa5u);
  CHECK(alu_result(Opcode::kVirtualSra, 0x80000000u, 0, 0) == 0xffffffffu);
  CHECK(alu_result(Opcode::kVirtualSra, 0x7fffffffu, 0x0000ff00u, 0) == 0xffu);
  CHECK_THROWS_AS(alu_result(Opcode::kVirtualAdvice, 1, 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(alu_result(Opcode::kVirtualAssertEq, 1, 1, 0), std::invalid_argument);
}

TEST_CASE("a division block's advice and assertions") {
  // DIVU's rows: advice q, r (reading no register), the four assertions and s = q·b + r.
  std::vector<std::uint32_t> x(kNumRegistersWithVirtual, 0);
  x[6] = 100, x[7] = 7;
  TraceRow in;
  in.pc = 0x100, in.next_pc = 0x104, in.opcode = Opcode::kDivu, in.rd = 5, in.rs1 = 6, in.rs2 = 7;
  const auto rows = execute_virtual_sequence(in, x);
  REQUIRE(rows.size() == 10);
  CHECK(rows[0].opcode == Opcode::kVirtualAdvice);
  CHECK(rows[0].imm == 0);
  CHECK(rows[0].rd_post == 14);
  CHECK(rows[1].opcode == Opcode::kVirtualAdvice);
  CHECK(rows[1].imm == 1);
  CHECK(rows[1].rd_post == 2);
  CHECK(rows[2].opcode == Opcode::kVirtualAssertValidUnsignedRemainder);
  CHECK(rows[2].rs1_val == 2);
  CHECK(rows[2].rs2_val == 7);
  CHECK(rows[3].opcode == Opcode::kVirtualAssertValidDiv0);
  CHECK(rows[3].rs1_val == 7);
  CHECK(rows[3].rs2_val == 14);
  CHECK(rows[4].opcode == Opcode::kVirtualAssertMulUNoOverflow);
  CHECK(rows[7].opcode == Opcode::kVirtualAssertGeu);
  CHECK(rows[7].rs1_val == 100);
  CHECK(rows[7].rs2_val == 2);
  CHECK(rows[8].opcode == Opcode::kVirtualAssertEq);
  CHECK(rows[8].rs1_val == 100);
  CHECK(rows[8].rs2_val == 100);
  CHECK(rows[9].opcode == Opcode::kAddi);
  CHECK(x[5] == 14);
  // REMU by zero: q = 2^32 − 1, r = a.
  x[7] = 0;
  in.opcode = Opcode::kRemu;
  const auto by_zero = execute_virtual_sequence(in, x);
  CHECK(by_zero[0].rd_post == 0xffffffffu);
  CHECK(by_zero[1].rd_post == 100);
  CHECK(x[5] == 100);
}

TEST_CASE("sub-word loads and stores: the byte or half at the address, sign- or zero-extended") {
  std::vector<std::uint32_t> words = {0,          0xffffffff, 0x80808080, 0x7f7f7f7f,
                                      0x8081f2f3, 0x00ff00ff, 0x12345678};
  std::mt19937 rng(11);
  for (int i = 0; i < 4; ++i) words.push_back(static_cast<std::uint32_t>(rng()));
  const std::vector<std::uint32_t> values = {0,      0xff,       0x80,       0x7f,      0xffff,
                                             0x8000, 0xffffffff, 0x12345678, 0xa5a5a5a5};
  std::size_t checked = 0;
  for (Opcode op :
       {Opcode::kLb, Opcode::kLbu, Opcode::kLh, Opcode::kLhu, Opcode::kSb, Opcode::kSh}) {
    REQUIRE(has_virtual_sequence(op));
    const bool store = op == Opcode::kSb || op == Opcode::kSh;
    const std::uint32_t width =
        op == Opcode::kLb || op == Opcode::kLbu || op == Opcode::kSb ? 1 : 2;
    // Loads (rd, rs1, 0): rd distinct from rs1, aliasing it, x0. Stores (0, rs1, rs2): rs2
    // distinct from rs1, or rs1.
    const auto variants =
        store ? std::vector<std::array<std::uint8_t, 3>>{{0, 6, 7}, {0, 6, 6}}
              : std::vector<std::array<std::uint8_t, 3>>{{5, 6, 0}, {6, 6, 0}, {0, 6, 0}};
    for (const auto& regs : variants)
      for (std::int32_t imm : {0, 1, -1, 5, 2047, -2048})
        for (std::uint32_t offset = 0; offset < 4; offset += width)
          for (std::uint32_t word : words)
            for (std::uint32_t value : store ? values : std::vector<std::uint32_t>{0}) {
              const std::uint8_t rd = regs[0], rs1 = regs[1], rs2 = regs[2];
              const std::uint32_t address = 0x80010100u + offset;
              const std::uint32_t base = address - static_cast<std::uint32_t>(imm);
              std::vector<std::uint32_t> x(kNumRegistersWithVirtual, 0xdeadbeef);
              x[0] = 0;
              x[rs1] = base;
              if (rs2 != rs1) x[rs2] = value;
              const std::uint32_t stored = rs2 == rs1 ? base : value;
              const std::uint32_t shift = 8 * offset;
              const std::uint32_t field = width == 1 ? 0xffu : 0xffffu;
              TraceRow in;
              in.pc = 0x100, in.next_pc = 0x104, in.opcode = op, in.rd = rd, in.rs1 = rs1,
              in.rs2 = rs2, in.imm = imm;
              in.mem_addr = address, in.mem_word_addr = address & ~3u, in.mem_pre = word;
              in.mem_post = store ? (word & ~(field << shift)) | ((stored & field) << shift) : word;
              INFO("op " << std::string(opcode_name(op)) << " rd " << int(rd) << " rs1 " << int(rs1)
                         << " imm " << imm << " offset " << offset << " word " << word << " value "
                         << stored);
              const auto rows = execute_virtual_sequence(in, x);  // throws on another word
              check_rows(in, rows);
              std::size_t loads = 0, stores = 0;
              for (const TraceRow& r : rows) {
                if (r.opcode == Opcode::kLw) {
                  ++loads;
                  CHECK(r.mem == MemAccess::kLoad);
                  CHECK(r.mem_addr == (address & ~3u));
                  CHECK(r.rd_post == word);
                } else if (r.opcode == Opcode::kSw) {
                  ++stores;
                  CHECK(r.mem == MemAccess::kStore);
                  CHECK(r.mem_addr == (address & ~3u));
                  CHECK(r.mem_pre == word);
                  CHECK(r.mem_post == in.mem_post);
                } else {
                  CHECK(r.mem == MemAccess::kNone);
                }
              }
              CHECK(loads == 1);
              CHECK(stores == (store ? 1u : 0u));
              if (!store) {
                const std::uint32_t raw = (word >> shift) & field;
                const std::uint32_t sign = width == 1 ? 0x80u : 0x8000u;
                const std::uint32_t loaded =
                    op == Opcode::kLb || op == Opcode::kLh ? (raw ^ sign) - sign : raw;
                CHECK(x[rd] == (rd == 0 ? 0u : loaded));
              }
              for (std::uint32_t r = 1; r < kNumArchitecturalRegisters; ++r)
                if (r != rd && r != rs1 && r != rs2) CHECK(x[r] == 0xdeadbeefu);
              if (rs1 != rd) CHECK(x[rs1] == base);
              ++checked;
            }
  }
  CHECK(checked > 2000);
}

TEST_CASE("the interpreter records a virtual sequence in the instruction's place") {
  using namespace rv32;
  std::vector<std::uint32_t> prog = {addi(5, 0, -7), addi(6, 0, 2), div(7, 5, 6), addi(10, 0, 0)};
  exit_(prog);
  auto elf = make_elf(prog);
  const ElfImage image = load_elf(elf);
  Execution ex = execute(image, {}, ExecOptions{true});
  Execution fast = execute(image, {}, ExecOptions{false});
  CHECK(ex.cycles == prog.size());
  CHECK(ex.trace_rows == prog.size() - 1 + virtual_sequence_length(Opcode::kDiv));
  CHECK(fast.trace_rows == ex.trace_rows);
  REQUIRE(ex.rows.size() == ex.trace_rows);
  std::size_t seq = 0;
  for (const TraceRow& r : ex.rows) seq += r.pc == kRamBase + 8;
  CHECK(seq == virtual_sequence_length(Opcode::kDiv));
  CHECK(ex.rows[2 + seq - 1].rd_post == static_cast<std::uint32_t>(-3));  // -7 / 2 = -3
  CHECK(ex.rows[2 + seq].pc == kRamBase + 12);
}
