// RV32IM interpreter tests: every opcode with the spec's edge cases, TraceRow contents, ECALL
// services, I/O regions and guest faults (PC and cycle reported, never a host crash).
#include <doctest/doctest.h>

#include <string>

#include <jolt/prover/tracer/virtual_sequences.hpp>

#include "rv32_asm.hpp"

using namespace rv32;
namespace tp = jolt::prover;

namespace {

constexpr u32 kA = 5, kB = 6, kD = 7;  // t0, t1, t2

tp::Execution run(const std::vector<u32>& prog, std::span<const std::uint8_t> input = {},
                  bool record = true) {
  const auto elf = make_elf(prog);
  tp::ExecOptions opt;
  opt.record = record;
  opt.max_cycles = 100000;
  return tp::execute(tp::load_elf(elf), input, opt);
}

// t0 = a, t1 = b, then `op` (writing t2); returns the op's TraceRow (the last row of its virtual
// sequence, for SLL, SRL, SRA, MULH, MULHSU, DIV, DIVU, REM and REMU).
tp::TraceRow op_row(u32 op, u32 a, u32 b = 0) {
  std::vector<u32> p;
  li(p, kA, a);
  li(p, kB, b);
  p.push_back(op);
  exit_(p);
  const auto ex = run(p);
  REQUIRE(ex.cycles == 7);
  REQUIRE(ex.rows.size() == ex.trace_rows);
  return ex.rows[ex.rows.size() - 3];
}

u32 op(u32 word, u32 a, u32 b = 0) {
  return op_row(word, a, b).rd_post;
}

u32 fault_pc(const std::vector<u32>& prog, std::string* what = nullptr) {
  try {
    run(prog);
  } catch (const tp::GuestFault& f) {
    if (what) *what = f.what();
    return f.pc();
  }
  FAIL("expected a GuestFault");
  return 0;
}

}  // namespace

TEST_CASE("integer register-register and immediate ALU ops") {
  CHECK(op(add(kD, kA, kB), 7, 0xfffffffd) == 4);
  CHECK(op(sub(kD, kA, kB), 3, 5) == 0xfffffffe);
  CHECK(op(xor_(kD, kA, kB), 0xf0f0, 0xff00) == 0x0ff0);
  CHECK(op(or_(kD, kA, kB), 0xf0f0, 0xff00) == 0xfff0);
  CHECK(op(and_(kD, kA, kB), 0xf0f0, 0xff00) == 0xf000);
  CHECK(op(slt(kD, kA, kB), 0xffffffff, 1) == 1);   // -1 < 1 signed
  CHECK(op(sltu(kD, kA, kB), 0xffffffff, 1) == 0);  // not unsigned
  CHECK(op(addi(kD, kA, -1), 0) == 0xffffffff);
  CHECK(op(addi(kD, kA, 2047), 1) == 2048);
  CHECK(op(slti(kD, kA, -1), 0xfffffffe) == 1);
  CHECK(op(slti(kD, kA, -1), 0) == 0);
  CHECK(op(sltiu(kD, kA, -1), 5) == 1);  // imm sign-extends to 0xffffffff, compared unsigned
  CHECK(op(sltiu(kD, kA, 1), 0) == 1);
  CHECK(op(xori(kD, kA, -1), 0x1234) == ~0x1234u);
  CHECK(op(ori(kD, kA, 0x0f0), 0x100) == 0x1f0);
  CHECK(op(andi(kD, kA, 0x7ff), 0xffffffff) == 0x7ff);
  CHECK(op(lui(kD, 0xfffff), 0) == 0xfffff000);
  const auto r = op_row(auipc(kD, 0x1), 0);
  CHECK(r.rd_post == r.pc + 0x1000);
  CHECK(r.opcode == tp::Opcode::kAuipc);
}

TEST_CASE("shift amounts are masked to 5 bits; arithmetic shifts keep the sign") {
  CHECK(op(sll(kD, kA, kB), 1, 33) == 2);
  CHECK(op(srl(kD, kA, kB), 0x80000000, 63) == 1);
  CHECK(op(sra(kD, kA, kB), 0x80000000, 31 + 32) == 0xffffffff);
  CHECK(op(sra(kD, kA, kB), 0x40000000, 30) == 1);
  CHECK(op(slli(kD, kA, 31), 3) == 0x80000000);
  CHECK(op(srli(kD, kA, 4), 0xf0000000) == 0x0f000000);
  CHECK(op(srai(kD, kA, 4), 0xf0000000) == 0xff000000);
  CHECK(op(srai(kD, kA, 0), 0x80000001) == 0x80000001);
}

TEST_CASE("M extension: MUL/MULH/MULHSU/MULHU signs") {
  CHECK(op(mul(kD, kA, kB), 0xffffffff, 0xffffffff) == 1);
  CHECK(op(mul(kD, kA, kB), 0x12345678, 0x10) == 0x23456780);
  CHECK(op(mulh(kD, kA, kB), 0xffffffff, 0xffffffff) == 0);  // (-1)(-1) = 1
  CHECK(op(mulh(kD, kA, kB), 0x80000000, 0x80000000) == 0x40000000);
  CHECK(op(mulh(kD, kA, kB), 0x80000000, 1) == 0xffffffff);             // negative high word
  CHECK(op(mulhsu(kD, kA, kB), 0xffffffff, 0xffffffff) == 0xffffffff);  // -1 * (2^32-1)
  CHECK(op(mulhsu(kD, kA, kB), 2, 0x80000000) == 1);
  CHECK(op(mulhu(kD, kA, kB), 0xffffffff, 0xffffffff) == 0xfffffffe);
  CHECK(op(mulhu(kD, kA, kB), 0x80000000, 2) == 1);
}

TEST_CASE("M extension: DIV/DIVU/REM/REMU including division by zero and overflow") {
  CHECK(op(div(kD, kA, kB), static_cast<u32>(-7), 2) == static_cast<u32>(-3));  // toward zero
  CHECK(op(rem(kD, kA, kB), static_cast<u32>(-7), 2) == static_cast<u32>(-1));  // sign of dividend
  CHECK(op(div(kD, kA, kB), 7, static_cast<u32>(-2)) == static_cast<u32>(-3));
  CHECK(op(rem(kD, kA, kB), 7, static_cast<u32>(-2)) == 1);
  CHECK(op(divu(kD, kA, kB), 0xfffffffe, 2) == 0x7fffffff);
  CHECK(op(remu(kD, kA, kB), 0xffffffff, 10) == 5);
  // by zero: quotient all ones, remainder = dividend
  CHECK(op(div(kD, kA, kB), 42, 0) == 0xffffffff);
  CHECK(op(divu(kD, kA, kB), 42, 0) == 0xffffffff);
  CHECK(op(rem(kD, kA, kB), static_cast<u32>(-42), 0) == static_cast<u32>(-42));
  CHECK(op(remu(kD, kA, kB), 42, 0) == 42);
  // signed overflow: INT_MIN / -1 = INT_MIN, remainder 0
  CHECK(op(div(kD, kA, kB), 0x80000000, 0xffffffff) == 0x80000000);
  CHECK(op(rem(kD, kA, kB), 0x80000000, 0xffffffff) == 0);
}

TEST_CASE("loads sign- and zero-extend; stores write the low bytes; rows carry the word") {
  std::vector<u32> p;
  li(p, kA, tp::kRamBase + 0x10000);  // data far from the code
  li(p, kB, 0x8081f2f3);
  p.push_back(sw(kB, kA, 0));  // row 4
  p.push_back(lb(10, kA, 0));
  p.push_back(lbu(11, kA, 0));
  p.push_back(lh(12, kA, 2));
  p.push_back(lhu(13, kA, 2));
  p.push_back(lw(14, kA, 0));
  p.push_back(sb(0, kA, 1));   // row 10: byte 1 := 0
  p.push_back(sh(kB, kA, 2));  // row 11: halfword 1 := 0xf2f3
  p.push_back(lw(15, kA, 0));  // row 12
  exit_(p);
  const auto ex = run(p);
  // Sub-word loads and stores run as virtual sequences (an LW, and for stores an SW, of the
  // aligned word); `r` keeps each instruction's last row, `word` each instruction's word access.
  std::vector<tp::TraceRow> r, word;
  for (const auto& row : ex.rows) {
    if (row.mem != tp::MemAccess::kNone) word.push_back(row);
    if (row.sequence_remaining == 0) r.push_back(row);
  }
  REQUIRE(r.size() == ex.cycles);
  CHECK(r[4].mem == tp::MemAccess::kStore);
  CHECK(r[4].mem_pre == 0);
  CHECK(r[4].mem_post == 0x8081f2f3);
  CHECK(r[5].rd_post == 0xfffffff3);
  CHECK(r[6].rd_post == 0xf3);
  CHECK(r[7].rd_post == 0xffff8081);
  CHECK(r[8].rd_post == 0x8081);
  CHECK(r[9].rd_post == 0x8081f2f3);
  CHECK(r[9].mem == tp::MemAccess::kLoad);
  CHECK(r[9].mem_pre == r[9].mem_post);
  // word: SW, LB, LBU, LH, LHU, LW, SB (LW, SW), SH (LW, SW), LW
  REQUIRE(word.size() == 11);
  for (const auto& w : word) {
    CHECK(w.mem_word_addr == tp::kRamBase + 0x10000);
    CHECK(w.mem_width == 4);
  }
  CHECK(word[6].mem == tp::MemAccess::kLoad);   // SB reads the word ...
  CHECK(word[7].mem == tp::MemAccess::kStore);  // ... and writes it back
  CHECK(word[7].mem_pre == 0x8081f2f3);
  CHECK(word[7].mem_post == 0x808100f3);
  CHECK(word[9].mem_post == 0xf2f300f3);
  CHECK(r[12].rd_post == 0xf2f300f3);
}

TEST_CASE("writes to x0 are ignored and x0 reads as zero") {
  std::vector<u32> p;
  p.push_back(addi(0, 0, 5));
  p.push_back(lui(0, 0x12345));
  p.push_back(add(kD, 0, 0));
  exit_(p);
  const auto ex = run(p);
  CHECK(ex.rows[0].rd == 0);
  CHECK(ex.rows[0].rd_post == 0);
  CHECK(ex.rows[1].rd_post == 0);
  CHECK(ex.rows[2].rs1_val == 0);
  CHECK(ex.rows[2].rd_post == 0);
}

TEST_CASE("branches: taken and not taken, signed vs unsigned, targets in next_pc") {
  struct Case {
    u32 word, a, b;
    bool taken;
  };
  const Case cases[] = {
      {beq(kA, kB, 8), 3, 3, true},          {beq(kA, kB, 8), 3, 4, false},
      {bne(kA, kB, 8), 3, 4, true},          {bne(kA, kB, 8), 3, 3, false},
      {blt(kA, kB, 8), 0xffffffff, 0, true}, {bltu(kA, kB, 8), 0xffffffff, 0, false},
      {bge(kA, kB, 8), 0, 0xffffffff, true}, {bgeu(kA, kB, 8), 0, 0xffffffff, false},
      {bge(kA, kB, 8), 5, 5, true},          {bltu(kA, kB, 8), 1, 2, true},
      {bgeu(kA, kB, 8), 2, 2, true},         {blt(kA, kB, 8), 2, 2, false},
  };
  for (const auto& c : cases) {
    std::vector<u32> p;
    li(p, kA, c.a);
    li(p, kB, c.b);
    p.push_back(c.word);          // row 4
    p.push_back(addi(10, 0, 1));  // skipped when taken
    exit_(p);
    const auto ex = run(p);
    const auto& r = ex.rows[4];
    CHECK(r.next_pc == r.pc + (c.taken ? 8u : 4u));
    CHECK(ex.exit_code == (c.taken ? 0u : 1u));
  }
  // Backward branch: a loop counting t0 down from 3.
  std::vector<u32> p;
  p.push_back(addi(kA, 0, 3));
  p.push_back(addi(kA, kA, -1));
  p.push_back(bne(kA, 0, -4));
  p.push_back(addi(10, kA, 0));
  exit_(p);
  const auto ex = run(p);
  CHECK(ex.cycles == 1 + 3 * 2 + 3);
  CHECK(ex.rows[2].next_pc == ex.rows[1].pc);
}

TEST_CASE("JAL and JALR link pc+4 and jump; JALR clears bit 0") {
  std::vector<u32> p;
  p.push_back(jal(1, 12));             // row 0 at base: -> base+12, ra = base+4
  p.push_back(addi(10, 0, 9));         // skipped
  p.push_back(ebreak());               // skipped
  li(p, kA, tp::kRamBase + 0x24 + 1);  // base+12, +16: odd target
  p.push_back(jalr(kD, kA, 0));        // base+20 -> base+0x24, t2 = base+24
  p.push_back(ebreak());               // base+24..
  p.push_back(ebreak());
  p.push_back(ebreak());
  p.push_back(addi(10, 0, 0));  // base+0x24
  exit_(p);
  const auto ex = run(p);
  CHECK(ex.rows[0].rd_post == tp::kRamBase + 4);
  CHECK(ex.rows[0].next_pc == tp::kRamBase + 12);
  CHECK(ex.rows[3].opcode == tp::Opcode::kJalr);
  CHECK(ex.rows[3].rd_post == tp::kRamBase + 24);
  CHECK(ex.rows[3].next_pc == tp::kRamBase + 0x24);
  CHECK(ex.exit_code == 0);
}

TEST_CASE("FENCE is a no-op; ECALL exit status, cycle markers, input and output regions") {
  std::vector<u32> p;
  p.push_back(fence());
  li(p, kA, tp::kInputBase);
  p.push_back(lw(kB, kA, 0));   // input length
  p.push_back(lbu(kD, kA, 4));  // first input byte
  li(p, 28, tp::kOutputBase);
  p.push_back(addi(29, 0, 1));
  p.push_back(sw(29, 28, 0));  // output length 1
  p.push_back(sb(kD, 28, 4));  // output byte
  // marker "m": label stored in RAM data
  li(p, 30, tp::kRamBase + 0x20000);
  p.push_back(addi(31, 0, 'm'));
  p.push_back(sb(31, 30, 0));
  p.push_back(addi(10, 30, 0));
  p.push_back(addi(17, 0, 1));
  p.push_back(ecall());  // start "m"
  p.push_back(addi(kD, kD, 1));
  p.push_back(addi(17, 0, 2));
  p.push_back(ecall());           // end "m"
  p.push_back(addi(10, kB, 40));  // exit status = input length + 40
  exit_(p);
  const std::uint8_t input[] = {0xab, 1, 2};
  const auto ex = run(p, input);
  CHECK(ex.exit_code == 43);
  REQUIRE(ex.output.size() == 1);
  CHECK(ex.output[0] == 0xab);
  REQUIRE(ex.markers.size() == 1);
  CHECK(ex.markers[0].label == "m");
  CHECK(ex.markers[0].closed);
  CHECK(ex.markers[0].end_cycle - ex.markers[0].start_cycle == 3);
  CHECK(ex.rows.back().opcode == tp::Opcode::kEcall);
  CHECK(ex.rows.size() == ex.trace_rows);
  // Fast mode agrees.
  const auto fast = run(p, input, false);
  CHECK(fast.rows.empty());
  CHECK(fast.cycles == ex.cycles);
  CHECK(fast.output == ex.output);
  CHECK(fast.exit_code == ex.exit_code);
}

TEST_CASE("guest faults report the faulting PC and cycle") {
  std::string what;
  // illegal word at base+8
  CHECK(fault_pc({addi(5, 0, 1), addi(5, 0, 2), 0xffffffffu}, &what) == tp::kRamBase + 8);
  CHECK(what.find("illegal instruction") != std::string::npos);
  CHECK(what.find("0x80000008") != std::string::npos);
  CHECK(what.find("cycle 2") != std::string::npos);
  CHECK(fault_pc({0x00000000u}) == tp::kRamBase);                 // all-zero word
  CHECK(fault_pc({slli(5, 5, 0) | (1u << 25)}) == tp::kRamBase);  // shamt bit 5
  CHECK(fault_pc({ebreak()}, &what) == tp::kRamBase);
  {  // misaligned load
    std::vector<u32> p;
    li(p, kA, tp::kRamBase + 0x10001);
    p.push_back(lw(kB, kA, 0));
    CHECK(fault_pc(p, &what) == tp::kRamBase + 8);
    CHECK(what.find("misaligned") != std::string::npos);
  }
  {  // unmapped load at 0
    std::vector<u32> p = {lw(kB, 0, 16)};
    CHECK(fault_pc(p, &what) == tp::kRamBase);
    CHECK(what.find("unmapped") != std::string::npos);
  }
  {  // store into code
    std::vector<u32> p;
    li(p, kA, tp::kRamBase);
    p.push_back(sw(0, kA, 0));
    CHECK(fault_pc(p) == tp::kRamBase + 8);
  }
  {  // store to the read-only input region
    std::vector<u32> p;
    li(p, kA, tp::kInputBase);
    p.push_back(sw(0, kA, 0));
    CHECK(fault_pc(p) == tp::kRamBase + 8);
  }
  {  // jump outside the code
    std::vector<u32> p;
    li(p, kA, 0x1000);
    p.push_back(jalr(0, kA, 0));
    CHECK(fault_pc(p, &what) == 0x1000);
    CHECK(what.find("outside the executable") != std::string::npos);
  }
  {  // a jump to a 2-byte aligned target (no compressed instructions in RV32IM)
    std::vector<u32> p = {jal(0, 6)};
    CHECK(fault_pc(p, &what) == tp::kRamBase + 6);
    CHECK(what.find("misaligned instruction fetch") != std::string::npos);
  }
  {  // falling off the end of the code
    CHECK(fault_pc({addi(5, 0, 1)}) == tp::kRamBase + 4);
  }
  {  // unknown ECALL service
    std::vector<u32> p = {addi(17, 0, 99), ecall()};
    CHECK(fault_pc(p, &what) == tp::kRamBase + 4);
    CHECK(what.find("a7=99") != std::string::npos);
  }
  {  // infinite loop hits the cycle limit
    std::vector<u32> p = {jal(0, 0)};
    CHECK(fault_pc(p, &what) == tp::kRamBase);
    CHECK(what.find("cycle limit") != std::string::npos);
  }
}

TEST_CASE("padding: T = max(256, next_pow2(len + 1)) with TraceRow{} rows") {
  CHECK(tp::padded_length(0) == 256);
  CHECK(tp::padded_length(255) == 256);
  CHECK(tp::padded_length(256) == 512);
  CHECK(tp::padded_length(1000) == 1024);
  CHECK(tp::padded_length(1023) == 1024);
  CHECK(tp::padded_length(1024) == 2048);
  std::vector<u32> p;
  exit_(p);
  auto ex = run(p);
  REQUIRE(ex.rows.size() == 2);
  tp::pad_trace(ex.rows);
  CHECK(ex.rows.size() == 256);
  CHECK(ex.rows[2].opcode == tp::Opcode::kNoop);
  CHECK(ex.rows[255].pc == 0);
}

TEST_CASE("decode names every opcode and rejects reserved encodings") {
  tp::TraceRow r;
  CHECK(tp::decode(mulhsu(1, 2, 3), r));
  CHECK(std::string(tp::opcode_name(r.opcode)) == "mulhsu");
  CHECK(r.rd == 1);
  CHECK(r.rs1 == 2);
  CHECK(r.rs2 == 3);
  CHECK(tp::decode(sw(5, 6, -4), r));
  CHECK(r.imm == -4);
  CHECK(tp::decode(beq(1, 2, -4096), r));
  CHECK(r.imm == -4096);
  CHECK(tp::decode(jal(1, -2), r));
  CHECK(r.imm == -2);
  CHECK_FALSE(tp::decode(r_type(0x20, 1, 1, 1, 1, 0x33), r));  // SLL with funct7 0x20
  CHECK_FALSE(tp::decode(i_type(0, 1, 3, 1, 0x03), r));        // LD is RV64
  CHECK_FALSE(tp::decode(s_type(0, 1, 1, 3, 0x23), r));        // SD is RV64
  CHECK_FALSE(tp::decode(b_type(8, 1, 1, 2), r));              // reserved branch funct3
  CHECK_FALSE(tp::decode(0x00000013u | (1u << 12) | (1u << 25), r));
  CHECK(std::string(tp::opcode_name(tp::Opcode::kNoop)) == "noop");
  CHECK(std::string(tp::opcode_name(tp::Opcode::kRemu)) == "remu");
  CHECK(std::string(tp::opcode_name(tp::Opcode::kVirtualAdvice)) == "virtual_advice");
  CHECK(std::string(tp::opcode_name(tp::Opcode::kVirtualAssertGeu)) == "virtual_assert_geu");
  CHECK(std::string(tp::opcode_name(tp::Opcode::kCount)) == "?");
}

TEST_CASE("recording with a cycle hint gives the same rows as counting first") {
  std::vector<u32> p;
  p.push_back(addi(kA, 0, 50));
  p.push_back(addi(kA, kA, -1));
  p.push_back(bne(kA, 0, -4));
  exit_(p);
  const auto elf = tp::load_elf(make_elf(p));
  const auto counted = tp::execute(elf, {}, {});
  for (std::uint64_t hint : {std::uint64_t{3}, counted.cycles, std::uint64_t{1000}}) {
    tp::ExecOptions opt;
    opt.expected_cycles = hint;
    const auto ex = tp::execute(elf, {}, opt);
    REQUIRE(ex.rows.size() == counted.rows.size());
    for (std::size_t i = 0; i < ex.rows.size(); ++i) {
      CHECK(ex.rows[i].pc == counted.rows[i].pc);
      CHECK(ex.rows[i].rd_post == counted.rows[i].rd_post);
    }
  }
  CHECK(counted.cycles == 1 + 50 * 2 + 2);
}

TEST_CASE("sub-word loads at the end of an input whose length is not a multiple of 4") {
  // Input of 5 bytes: the region is the 4-byte length word plus 5 bytes, so the last byte sits
  // alone in its aligned word. The recorded word (mem_pre/mem_post) must be that byte followed by
  // zeros on every run, never bytes from past the input buffer.
  for (std::uint8_t last : {std::uint8_t{0xee}, std::uint8_t{0x01}}) {
    std::vector<u32> p;
    li(p, kA, tp::kInputBase);
    p.push_back(lbu(kD, kA, 8));  // input[4], the last byte
    p.push_back(lhu(kB, kA, 6));  // input[2..3]
    exit_(p);
    const std::uint8_t input[] = {1, 2, 3, 4, last};
    const auto ex = run(p, input);
    // Each sub-word load runs as a virtual sequence whose word access is an LW row.
    std::vector<const tp::TraceRow*> words;
    for (const auto& r : ex.rows)
      if (r.mem == tp::MemAccess::kLoad) words.push_back(&r);
    REQUIRE(words.size() == 2);
    const auto& byte_row = *words[0];
    REQUIRE(byte_row.opcode == tp::Opcode::kLw);
    CHECK(byte_row.mem_word_addr == tp::kInputBase + 8);
    CHECK(byte_row.mem_pre == last);  // upper three bytes are zero padding
    CHECK(byte_row.mem_post == last);
    CHECK(ex.rows[ex.rows.size() - 3 - tp::virtual_sequence_length(tp::Opcode::kLhu)].rd_post ==
          last);  // the LBU's result, in its sequence's last row
    CHECK(words[1]->mem_pre == 0x04030201u);
  }
  // The padding is not readable: the input region still ends after the last input byte.
  std::vector<u32> p;
  li(p, kA, tp::kInputBase);
  p.push_back(lbu(kD, kA, 9));
  exit_(p);
  const std::uint8_t input[] = {1, 2, 3, 4, 5};
  CHECK_THROWS_AS(run(p, input), tp::GuestFault);
}

TEST_CASE("a segment with no file data (.bss only) loads as zeros") {
  std::vector<u32> p;
  li(p, kA, tp::kRamBase + 0x10000);
  p.push_back(lw(kD, kA, 0));
  p.push_back(addi(10, kD, 7));
  exit_(p);
  auto img = tp::load_elf(make_elf(p));
  tp::Segment bss;
  bss.vaddr = tp::kRamBase + 0x10000;
  bss.memsz = 4096;  // no data: what a .bss-only PT_LOAD becomes
  img.segments.push_back(bss);
  tp::ExecOptions opt;
  opt.max_cycles = 1000;
  const auto ex = tp::execute(img, {}, opt);
  CHECK(ex.exit_code == 7);
}

TEST_CASE("65,536 nested cycle markers pair innermost-first (linear, not a scan per end)") {
  constexpr u32 kN = 65536;
  const u32 label = tp::kRamBase + 0x20000;
  std::vector<u32> p;
  li(p, 8, label);
  p.push_back(addi(31, 0, 'n'));
  p.push_back(sb(31, 8, 0));
  li(p, kA, kN);
  p.push_back(addi(10, 8, 0));  // loop 1: start "n", kN times
  p.push_back(addi(17, 0, 1));
  p.push_back(ecall());
  p.push_back(addi(kA, kA, -1));
  p.push_back(bne(kA, 0, -16));
  li(p, kA, kN);
  p.push_back(addi(10, 8, 0));  // loop 2: end "n", kN times
  p.push_back(addi(17, 0, 2));
  p.push_back(ecall());
  p.push_back(addi(kA, kA, -1));
  p.push_back(bne(kA, 0, -16));
  p.push_back(addi(10, 0, 0));
  exit_(p);
  const auto elf = make_elf(p);
  tp::ExecOptions opt;
  opt.record = false;
  opt.max_cycles = 1'000'000;
  const auto ex = tp::execute(tp::load_elf(elf), {}, opt);
  REQUIRE(ex.markers.size() == kN);
  // The last started closes first: marker i (start order) ends at the (kN-1-i)-th end.
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{kN / 2}, std::size_t{kN - 1}}) {
    INFO(i);
    CHECK(ex.markers[i].closed);
    CHECK(ex.markers[i].label == "n");
  }
  CHECK(ex.markers[kN - 1].end_cycle < ex.markers[kN - 2].end_cycle);
  CHECK(ex.markers[0].end_cycle > ex.markers[1].end_cycle);
  // The innermost is closed by the first end: addi+bne, li (2), a0/a7 setup (2), the ECALL.
  CHECK(ex.markers[kN - 1].end_cycle - ex.markers[kN - 1].start_cycle == 7);
}
