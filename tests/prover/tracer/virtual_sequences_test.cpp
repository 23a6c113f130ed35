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

TEST_CASE("every virtual sequence computes its instruction's RV32IM result") {
  std::vector<std::uint32_t> operands = {0,          1,          2,          3,          7,
                                         0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
                                         0xfffffff9, 0x12345678, 31,         32};
  std::mt19937 rng(5);
  for (int i = 0; i < 12; ++i) operands.push_back(static_cast<std::uint32_t>(rng()));
  std::size_t checked = 0;
  for (Opcode op : {Opcode::kSra, Opcode::kMulh, Opcode::kMulhsu, Opcode::kDiv, Opcode::kRem}) {
    REQUIRE(has_virtual_sequence(op));
    // Distinct registers, and rd aliasing each operand (rd is written only by the last row).
    // (Plain variables, not a structured binding: clang 14 cannot capture one in INFO.)
    for (const auto& regs :
         {std::array<std::uint8_t, 3>{5, 6, 7}, {6, 6, 7}, {7, 6, 7}, {6, 6, 6}, {0, 6, 7}})
      for (std::uint32_t a : operands)
        for (std::uint32_t b : operands) {
          const std::uint8_t rd = regs[0], rs1 = regs[1], rs2 = regs[2];
          std::vector<std::uint32_t> x(kNumRegistersWithVirtual, 0xdeadbeef);
          x[0] = 0;
          x[rs1] = a;
          if (rs2 != rs1) x[rs2] = b;
          const std::uint32_t bb = rs2 == rs1 ? a : b;
          TraceRow in;
          in.pc = 0x100, in.opcode = op, in.rd = rd, in.rs1 = rs1, in.rs2 = rs2, in.next_pc = 0x104;
          const auto rows = execute_virtual_sequence(in, x);
          INFO("op " << opcode_name(op) << " rd " << int(rd) << " a " << a << " b " << bb);
          REQUIRE(rows.size() == virtual_sequence_length(op));
          CHECK(x[rd] == (rd == 0 ? 0u : alu_result(op, a, bb, 0)));
          for (std::uint32_t r = 1; r < kNumArchitecturalRegisters; ++r)
            if (r != rd && r != rs1 && r != rs2) CHECK(x[r] == 0xdeadbeefu);  // nothing else
          for (std::size_t i = 0; i < rows.size(); ++i) {
            CHECK(rows[i].pc == 0x100);
            CHECK(rows[i].sequence == i);
            CHECK(rows[i].sequence_remaining == rows.size() - 1 - i);
            CHECK(rows[i].next_pc == (i + 1 == rows.size() ? 0x104u : 0x100u));
            CHECK(!has_virtual_sequence(rows[i].opcode));
            if (i + 1 < rows.size()) CHECK(rows[i].rd >= kNumArchitecturalRegisters);
          }
          ++checked;
        }
  }
  CHECK(checked > 4000);
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
