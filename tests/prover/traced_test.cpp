// End to end with the real tracer: a hand-encoded RV32IM program (ALU, M extension, word and
// sub-word loads/stores, branches, jal/jalr, auipc, ecall exit) is executed by jolt_tracer, padded
// with its padded_length(), proved and verified.
#include <doctest/doctest.h>

#include <set>

#include <jolt/prover/lookups/instruction_lookup_map.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/tracer/tracer.hpp>

using namespace jolt::prover;

namespace {

std::uint32_t r_type(std::uint32_t f7, std::uint32_t rs2, std::uint32_t rs1, std::uint32_t f3,
                     std::uint32_t rd) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33;
}
std::uint32_t i_type(std::int32_t imm, std::uint32_t rs1, std::uint32_t f3, std::uint32_t rd,
                     std::uint32_t op) {
  return (static_cast<std::uint32_t>(imm) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
std::uint32_t s_type(std::int32_t imm, std::uint32_t rs2, std::uint32_t rs1, std::uint32_t f3) {
  const auto u = static_cast<std::uint32_t>(imm);
  return ((u >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | 0x23;
}
std::uint32_t b_type(std::int32_t imm, std::uint32_t rs2, std::uint32_t rs1, std::uint32_t f3) {
  const auto u = static_cast<std::uint32_t>(imm);
  return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         ((u >> 1) & 0xf) << 8 | ((u >> 11) & 1) << 7 | 0x63;
}
std::uint32_t u_type(std::uint32_t imm, std::uint32_t rd, std::uint32_t op) {
  return (imm & 0xfffff000u) | rd << 7 | op;
}
std::uint32_t j_type(std::int32_t imm, std::uint32_t rd) {
  const auto u = static_cast<std::uint32_t>(imm);
  return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3ff) << 21 | ((u >> 11) & 1) << 20 |
         ((u >> 12) & 0xff) << 12 | rd << 7 | 0x6f;
}

std::vector<std::uint32_t> program(std::int32_t n) {
  std::vector<std::uint32_t> p = {
      u_type(0x80010000u, 5, 0x37),       // lui x5 = data base
      i_type(n, 0, 0, 3, 0x13),           // addi x3, x0, n
      i_type(1, 0, 0, 1, 0x13),           // addi x1, x0, 1
      i_type(1, 0, 0, 2, 0x13),           // addi x2, x0, 1
      r_type(0, 2, 1, 0, 4),              // loop: add x4, x1, x2
      i_type(0, 2, 0, 1, 0x13),           // addi x1, x2, 0
      i_type(0, 4, 0, 2, 0x13),           // addi x2, x4, 0
      s_type(0, 4, 5, 2),                 // sw x4, 0(x5)
      i_type(0, 5, 2, 6, 0x03),           // lw x6, 0(x5)
      i_type(1, 5, 4, 7, 0x03),           // lbu x7, 1(x5)
      s_type(2, 7, 5, 1),                 // sh x7, 2(x5)
      i_type(4, 5, 0, 5, 0x13),           // addi x5, x5, 4
      r_type(1, 3, 6, 0, 8),              // mul x8, x6, x3
      r_type(1, 3, 8, 5, 9),              // divu x9, x8, x3
      r_type(1, 1, 8, 6, 10),             // rem x10, x8, x1
      i_type(0x400 | 3, 8, 5, 11, 0x13),  // srai x11, x8, 3
      r_type(0, 8, 11, 3, 12),            // sltu x12, x11, x8
      r_type(0x20, 12, 8, 0, 14),         // sub x14, x8, x12
      i_type(-1, 3, 0, 3, 0x13),          // addi x3, x3, -1
      b_type(-60, 0, 3, 1),               // bne x3, x0, loop (15 instructions back)
      j_type(8, 1),                       // jal x1, +8
      i_type(0, 0, 0, 0, 0x13),           // (skipped)
      u_type(0x1000, 13, 0x17),           // auipc x13, 0x1000
      i_type(0, 0, 0, 17, 0x13),          // addi a7, x0, 0 (exit)
      i_type(0, 0, 0, 10, 0x13),          // addi a0, x0, 0
      0x00000073,                         // ecall
  };
  return p;
}

ElfImage image_of(const std::vector<std::uint32_t>& words) {
  ElfImage img;
  img.entry = 0x80000000u;
  Segment code;
  code.vaddr = 0x80000000u;
  code.executable = true;
  for (std::uint32_t w : words)
    for (int i = 0; i < 4; ++i) code.data.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
  code.memsz = static_cast<std::uint32_t>(code.data.size());
  Segment data;
  data.vaddr = 0x80010000u;
  data.memsz = 0x1000;
  data.writable = true;
  img.segments = {code, data};
  return img;
}

}  // namespace

TEST_CASE("traced RV32IM program: witness satisfies the uniform constraints, proof verifies") {
  ExecOptions opt;
  opt.record = true;
  const ElfImage image = image_of(program(30));
  Execution run = execute(image, {}, opt);
  // MULH, MULHSU, DIV, REM and SRA run as virtual sequences: more rows than cycles.
  REQUIRE(run.rows.size() == run.trace_rows);
  CHECK(run.trace_rows > run.cycles);
  Statement st{program_from_image(image, {9, 9, 9}), {}, run.output, run.rows.size()};
  run.rows.resize(padded_length(run.rows.size()));
  auto cols = r1cs::extract_columns(run.rows);
  for (std::size_t t = 0; t < run.rows.size(); ++t) {
    auto bad = r1cs::failing_constraints(cols, t);
    INFO("cycle " << t << " " << opcode_name(run.rows[t].opcode) << " fails "
                  << (bad.empty() ? "" : bad[0]));
    REQUIRE(bad.empty());
  }
  auto proof = prove(st, run.rows);
  auto e = verify(st, proof);
  INFO((e ? e->check + ": " + e->message : std::string()));
  CHECK_FALSE(e);
}

TEST_CASE("every row of the traced program gives the tracer's result through its lookups") {
  // The hand-encoded program runs the M extension (MUL, DIVU, REM's sequence over DIVU/REMU) and
  // a signed shift, which the compiled workloads barely use; lookups_for's keys must give the
  // tracer's results in every table these rows reach (MULHU's UpperWord: the tables' tests).
  ExecOptions opt;
  opt.record = true;
  const Execution run = execute(image_of(program(30)), {}, opt);
  std::set<lookups::LookupTable> used;
  std::size_t wrong = 0;
  for (const TraceRow& row : run.rows)
    for (const auto& s : lookups::lookups_for(row)) {
      used.insert(s.table);
      if (lookups::table_value(s.table, 32, s.key) != s.expected) {
        ++wrong;
        MESSAGE(opcode_name(row.opcode), ": ", lookups::table_name(s.table), " gives ",
                lookups::table_value(s.table, 32, s.key), ", the tracer ", s.expected);
      }
    }
  CHECK(wrong == 0);
  for (auto t : {lookups::LookupTable::MulUNoOverflow, lookups::LookupTable::ValidDiv0,
                 lookups::LookupTable::ValidUnsignedRemainder, lookups::LookupTable::VirtualSRA,
                 lookups::LookupTable::LessThanUnsigned}) {
    CAPTURE(lookups::table_name(t));
    CHECK(used.count(t) == 1);
  }
  TraceRow mulh;
  mulh.opcode = Opcode::kMulh;
  CHECK_THROWS_AS(lookups::lookups_for(mulh), std::invalid_argument);
}

TEST_CASE("the verifier's program refuses an image whose segments overlap") {
  ElfImage image = image_of(program(3));
  Segment shadow = image.segments[0];
  shadow.vaddr += 8;  // a second meaning for the words at +8 ..
  image.segments.push_back(shadow);
  CHECK_THROWS_AS(program_from_image(image, {1}), ElfError);
}
