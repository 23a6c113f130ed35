// End to end with the real tracer: a hand-encoded RV32IM program (ALU, M extension, word and
// sub-word loads/stores, branches, jal/jalr, auipc, ecall exit) is executed by jolt_tracer, padded
// with its padded_length(), proved and verified.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <utility>

#include <jolt/prover/lookups/instruction_lookup_map.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/tracer/tracer.hpp>

#include "tracer/rv32_asm.hpp"

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
  // DIVU, REM, LBU and SH run as virtual sequences: more rows than cycles.
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
  // The hand-encoded program runs the M extension (MUL, DIVU's and REM's division blocks) and a
  // signed shift, which the compiled workloads barely use; lookups_for's keys must give the
  // tracer's results in every table these rows reach (MULHU's UpperWord: the tables' tests),
  // with at most one lookup per row.
  ExecOptions opt;
  opt.record = true;
  const Execution run = execute(image_of(program(30)), {}, opt);
  std::set<lookups::LookupTable> used;
  std::size_t wrong = 0, multi = 0;
  for (const TraceRow& row : run.rows) {
    const auto steps = lookups::lookups_for(row);
    multi += steps.size() > 1;
    for (const auto& s : steps) {
      used.insert(s.table);
      if (lookups::table_value(s.table, 32, s.key) != s.expected) {
        ++wrong;
        MESSAGE(opcode_name(row.opcode), ": ", lookups::table_name(s.table), " gives ",
                lookups::table_value(s.table, 32, s.key), ", the tracer ", s.expected);
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(multi == 0);
  for (auto t : {lookups::LookupTable::MulUNoOverflow, lookups::LookupTable::ValidDiv0,
                 lookups::LookupTable::ValidUnsignedRemainder, lookups::LookupTable::VirtualSRA,
                 lookups::LookupTable::LessThanUnsigned, lookups::LookupTable::Equal,
                 lookups::LookupTable::GreaterEqualUnsigned, lookups::LookupTable::VirtualSRL,
                 lookups::LookupTable::ShiftRightBitmask}) {
    CAPTURE(lookups::table_name(t));
    CHECK(used.count(t) == 1);
  }
  // Instructions that always run as virtual sequences are never rows of their own.
  for (Opcode op : {Opcode::kMulh, Opcode::kMulhsu, Opcode::kDiv, Opcode::kDivu, Opcode::kRem,
                    Opcode::kRemu, Opcode::kSll, Opcode::kSrl, Opcode::kSra, Opcode::kLb,
                    Opcode::kLbu, Opcode::kLh, Opcode::kLhu, Opcode::kSb, Opcode::kSh}) {
    TraceRow row;
    row.opcode = op;
    CAPTURE(opcode_name(op));
    CHECK_THROWS_AS(lookups::lookups_for(row), std::invalid_argument);
  }
}

TEST_CASE("every row of every virtual sequence is one lookup that gives the tracer's value") {
  // Each instruction with a virtual sequence on edge and random operands (shifts by 0 .. 39 and
  // more; division by 0, INT_MIN / −1), and sub-word loads and stores at every offset, run by the
  // interpreter (which checks each sequence's result against the instruction's): every row but
  // the exit's ECALL has exactly one lookup, and the table gives the row's value.
  namespace a = rv32;
  std::vector<std::uint32_t> operands = {
      0,          1,          2,          3,          7,          31,         32,         33,
      0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff9, 0x12345678, 0x10000};
  std::mt19937 rng(7);
  for (int i = 0; i < 8; ++i) operands.push_back(static_cast<std::uint32_t>(rng()));
  std::vector<std::uint32_t> bs = operands;
  for (std::uint32_t s = 0; s < 40; ++s) bs.push_back(s);
  std::vector<std::uint32_t> p;
  for (std::uint32_t x : operands)
    for (std::uint32_t y : bs) {
      a::li(p, 6, x);
      a::li(p, 7, y);
      for (std::uint32_t w : {a::sll(8, 6, 7), a::srl(8, 6, 7), a::sra(8, 6, 7), a::mulh(8, 6, 7),
                              a::mulhsu(8, 6, 7), a::div(8, 6, 7), a::divu(8, 6, 7),
                              a::rem(8, 6, 7), a::remu(8, 6, 7), a::sra(6, 6, 7), a::divu(7, 6, 7)})
        p.push_back(w);
    }
  // Sub-word accesses: x5 = the data word's address + 4 (negative offsets), x7 = the stored value.
  a::li(p, 5, kRamBase + 0x100004);
  for (std::uint32_t value : {0x8081f2f3u, 0x7f7f7f7fu, 0x00ff8000u}) {
    a::li(p, 7, value);
    p.push_back(a::sw(7, 5, -4));
    for (std::int32_t off = -4; off < 0; ++off) {
      p.push_back(a::lb(8, 5, off));
      p.push_back(a::lbu(8, 5, off));
      p.push_back(a::sb(5, 5, off));
      if (off % 2 == 0) {
        p.push_back(a::lh(8, 5, off));
        p.push_back(a::lhu(8, 5, off));
        p.push_back(a::sh(7, 5, off));
        p.push_back(a::lhu(5, 5, off));  // rd = rs1
        a::li(p, 5, kRamBase + 0x100004);
      }
      p.push_back(a::lw(8, 5, -4));
    }
  }
  p.push_back(a::addi(10, 0, 0));
  a::exit_(p);
  const Execution run = execute(load_elf(a::make_elf(p)), {}, ExecOptions{true});
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.rows.size() == run.trace_rows);
  std::map<lookups::LookupTable, std::size_t> used;
  std::size_t wrong = 0, without = 0, multi = 0;
  for (const TraceRow& row : run.rows) {
    const auto steps = lookups::lookups_for(row);
    multi += steps.size() > 1;
    if (steps.empty()) {
      ++without;
      CHECK(row.opcode == Opcode::kEcall);
    }
    for (const auto& s : steps) {
      ++used[s.table];
      if (lookups::table_value(s.table, 32, s.key) != s.expected && wrong++ < 5)
        MESSAGE(opcode_name(row.opcode), " (row ", row.sequence, " of a sequence at pc ", row.pc,
                "): ", lookups::table_name(s.table), " gives ",
                lookups::table_value(s.table, 32, s.key), ", the tracer ", s.expected);
    }
  }
  CHECK(wrong == 0);
  CHECK(multi == 0);
  CHECK(without == 1);
  for (auto t : {lookups::LookupTable::RangeCheck, lookups::LookupTable::UpperWord,
                 lookups::LookupTable::Pow2, lookups::LookupTable::ShiftRightBitmask,
                 lookups::LookupTable::VirtualSRL, lookups::LookupTable::VirtualSRA,
                 lookups::LookupTable::ValidDiv0, lookups::LookupTable::ValidUnsignedRemainder,
                 lookups::LookupTable::MulUNoOverflow, lookups::LookupTable::Equal,
                 lookups::LookupTable::GreaterEqualUnsigned}) {
    CAPTURE(lookups::table_name(t));
    CHECK(used[t] > 0);
  }
}

TEST_CASE("lookups_for: LW/SW addresses wrap; a failing assertion's lookup gives 0, not 1") {
  TraceRow lw;
  lw.opcode = Opcode::kLw;
  lw.rs1_val = 0xfffffff0u, lw.imm = 0x20, lw.mem_addr = 0x10;  // wraps past 2^32
  auto s = lookups::lookups_for(lw);
  REQUIRE(s.size() == 1);
  CHECK(s[0].table == lookups::LookupTable::RangeCheck);
  CHECK(s[0].key == 0x100000010ull);
  CHECK(lookups::table_value(s[0].table, 32, s[0].key) == s[0].expected);
  TraceRow sw;
  sw.opcode = Opcode::kSw;
  sw.rs1_val = 0x80010010u, sw.imm = -16, sw.mem_addr = 0x80010000u;
  s = lookups::lookups_for(sw);
  REQUIRE(s.size() == 1);
  CHECK(lookups::table_value(s[0].table, 32, s[0].key) == 0x80010000u);
  sw.mem_addr = 0x80010004u;  // another address than rs1 + imm
  s = lookups::lookups_for(sw);
  CHECK(lookups::table_value(s[0].table, 32, s[0].key) != s[0].expected);
  // The assertions expect 1 whatever the operands: a false one is caught by its table.
  for (Opcode op : {Opcode::kVirtualAssertEq, Opcode::kVirtualAssertGeu,
                    Opcode::kVirtualAssertValidUnsignedRemainder, Opcode::kVirtualAssertValidDiv0,
                    Opcode::kVirtualAssertMulUNoOverflow}) {
    TraceRow row;
    row.opcode = op;
    row.rs1_val = 0x10000u, row.rs2_val = 0x10001u;  // 2^16 < 2^16 + 1, product ≥ 2^32
    if (op == Opcode::kVirtualAssertValidDiv0) row.rs1_val = 0;  // divisor 0, quotient ≠ 2^32 − 1
    if (op == Opcode::kVirtualAssertValidUnsignedRemainder) std::swap(row.rs1_val, row.rs2_val);
    CAPTURE(opcode_name(op));
    s = lookups::lookups_for(row);
    REQUIRE(s.size() == 1);
    CHECK(s[0].expected == 1);
    CHECK(lookups::table_value(s[0].table, 32, s[0].key) == 0);
  }
}

TEST_CASE("the verifier's program refuses an image whose segments overlap") {
  ElfImage image = image_of(program(3));
  Segment shadow = image.segments[0];
  shadow.vaddr += 8;  // a second meaning for the words at +8 ..
  image.segments.push_back(shadow);
  CHECK_THROWS_AS(program_from_image(image, {1}), ElfError);
}
