// A tiny RV32IM executor for tests: runs a hand-assembled program (one Instr per 4-byte slot
// from pc 0) and records TraceRows the way the tracer does, then pads with TraceRow{}.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/tracer/tracer.hpp>
#include <jolt/prover/tracer/virtual_sequences.hpp>

namespace testutil {

using jolt::prover::MemAccess;
using jolt::prover::Opcode;
using jolt::prover::TraceRow;

struct Instr {
  Opcode op;
  std::uint8_t rd = 0, rs1 = 0, rs2 = 0;
  std::int32_t imm = 0;
};

// Stops after the first ECALL unless `ecalls_to_skip` > 0 (a witness that runs past an exit).
// `input` fills the input region (its length word, then its bytes), as the tracer does.
inline std::vector<TraceRow> run(const std::vector<Instr>& prog, std::size_t max_cycles = 100000,
                                 std::uint32_t start_pc = 0, std::size_t ecalls_to_skip = 0,
                                 const std::vector<std::uint8_t>& input = {}) {
  std::uint32_t x[jolt::prover::kNumRegistersWithVirtual] = {};
  x[2] = jolt::prover::kInitialStackPointer;   // the reset state (tracer.hpp)
  std::map<std::uint32_t, std::uint32_t> mem;  // word address → word
  mem[jolt::prover::kInputBase] = static_cast<std::uint32_t>(input.size());
  for (std::size_t i = 0; i < input.size(); ++i)
    mem[static_cast<std::uint32_t>(jolt::prover::kInputBase + 4 + (i & ~std::size_t{3}))] |=
        std::uint32_t{input[i]} << (8 * (i & 3));
  std::vector<TraceRow> rows;
  std::uint32_t pc = start_pc;
  while (rows.size() < max_cycles) {
    const Instr& in = prog.at(pc / 4);
    TraceRow r;
    r.pc = pc;
    r.opcode = in.op;
    r.rd = in.rd;
    r.rs1 = in.rs1;
    r.rs2 = in.rs2;
    r.imm = in.imm;
    r.rs1_val = x[in.rs1];
    r.rs2_val = x[in.rs2];
    r.rd_pre = x[in.rd];
    std::uint32_t next = pc + 4;
    const std::uint32_t a = r.rs1_val, b = r.rs2_val, imm = static_cast<std::uint32_t>(in.imm);
    std::uint32_t rdv = 0;
    bool writes = false;
    auto cond = [&](Opcode o) {
      const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
      switch (o) {
        case Opcode::kBeq:
          return a == b;
        case Opcode::kBne:
          return a != b;
        case Opcode::kBlt:
          return sa < sb;
        case Opcode::kBge:
          return sa >= sb;
        case Opcode::kBltu:
          return a < b;
        default:
          return a >= b;
      }
    };
    switch (in.op) {
      case Opcode::kEcall:
        break;
      case Opcode::kJal:
        rdv = pc + 4, writes = true, next = pc + imm;
        break;
      case Opcode::kJalr:
        rdv = pc + 4, writes = true, next = (a + imm) & ~1u;
        break;
      case Opcode::kBeq:
      case Opcode::kBne:
      case Opcode::kBlt:
      case Opcode::kBge:
      case Opcode::kBltu:
      case Opcode::kBgeu:
        if (cond(in.op)) next = pc + imm;
        break;
      case Opcode::kLw:
      case Opcode::kLb:
      case Opcode::kLbu:
      case Opcode::kLh:
      case Opcode::kLhu: {
        r.mem = MemAccess::kLoad;
        r.mem_addr = a + imm;
        r.mem_word_addr = r.mem_addr & ~3u;
        r.mem_width = in.op == Opcode::kLw                              ? 4
                      : (in.op == Opcode::kLh || in.op == Opcode::kLhu) ? 2
                                                                        : 1;
        r.mem_pre = r.mem_post = mem[r.mem_word_addr];
        rdv = r.mem_pre, writes = true;  // LW (the sub-word loads run as sequences)
        break;
      }
      case Opcode::kSw:
      case Opcode::kSb:
      case Opcode::kSh: {
        r.mem = MemAccess::kStore;
        r.mem_addr = a + imm;
        r.mem_word_addr = r.mem_addr & ~3u;
        r.mem_pre = mem[r.mem_word_addr];
        const std::uint32_t sh = 8 * (r.mem_addr & 3);
        std::uint32_t w = r.mem_pre;
        if (in.op == Opcode::kSw) w = b, r.mem_width = 4;
        if (in.op == Opcode::kSb) w = (w & ~(0xffu << sh)) | ((b & 0xff) << sh), r.mem_width = 1;
        if (in.op == Opcode::kSh)
          w = (w & ~(0xffffu << sh)) | ((b & 0xffff) << sh), r.mem_width = 2;
        r.mem_post = mem[r.mem_word_addr] = w;
        break;
      }
      default:
        rdv = jolt::prover::r1cs::lookup_output(r), writes = true;
    }
    r.next_pc = next;
    if (jolt::prover::has_virtual_sequence(in.op)) {  // recorded as its sequence's rows
      for (const TraceRow& v : jolt::prover::execute_virtual_sequence(r, x)) rows.push_back(v);
      pc = next;
      continue;
    }
    if (writes && in.rd != 0) x[in.rd] = rdv;
    r.rd_post = x[in.rd];
    rows.push_back(r);
    if (in.op == Opcode::kEcall && ecalls_to_skip-- == 0) break;
    pc = next;
  }
  return rows;
}

// A loop with loads/stores, arithmetic, a taken/not-taken branch, jal/jalr and sub-word memory.
inline std::vector<Instr> sample_program(std::int32_t iterations) {
  using O = Opcode;
  return {
      {O::kAddi, 1, 0, 0, 0},                                      // 0: x1 = 0
      {O::kAddi, 2, 0, 0, 1},                                      // 4: x2 = 1
      {O::kAddi, 3, 0, 0, iterations},                             // 8: x3 = n
      {O::kLui, 5, 0, 0, static_cast<std::int32_t>(0x80010000u)},  // 12: x5 = a RAM address
      {O::kAdd, 4, 1, 2, 0},                                       // 16: loop: x4 = x1 + x2
      {O::kAddi, 1, 2, 0, 0},                                      // 20
      {O::kAddi, 2, 4, 0, 0},                                      // 24
      {O::kSw, 0, 5, 4, 0},                                        // 28: mem[x5] = x4
      {O::kLw, 6, 5, 0, 0},                                        // 32: x6 = mem[x5]
      {O::kAddi, 5, 5, 0, 4},                                      // 36
      {O::kMul, 7, 6, 3, 0},                                       // 40
      {O::kSub, 8, 7, 1, 0},                                       // 44
      {O::kAddi, 3, 3, 0, -1},                                     // 48
      {O::kBne, 0, 3, 0, -36},                                     // 52: → 16
      {O::kJal, 9, 0, 0, 8},                                       // 56: → 64, x9 = 60
      {O::kAddi, 0, 0, 0, 0},                                      // 60 (skipped)
      {O::kLb, 10, 5, 0, -3},                                      // 64
      {O::kSb, 0, 5, 10, 2},                                       // 68
      {O::kJalr, 11, 9, 0, 16},                                    // 72: → 76
      {O::kXor, 12, 10, 4, 0},                                     // 76
      {O::kSltu, 13, 12, 4, 0},                                    // 80
      {O::kAddi, 10, 0, 0, 0},                                     // 84: a0 = 0 (exit status)
      {O::kEcall, 0, 17, 10, 0},                                   // 88: exit (reads a7 = 0, a0)
  };
}

// The honest prover with its self-checks off: a malicious prover's proof of an altered witness.
inline jolt::prover::ProverOptions forging() {
  jolt::prover::ProverOptions o;
  o.self_check = false;
  return o;
}

// The name of the check that rejected, or "" when the proof verified.
inline std::string check_of(const std::optional<jolt::prover::VerifyError>& e) {
  return e ? e->check : std::string();
}

struct TestTrace {
  jolt::prover::Statement statement;
  std::vector<TraceRow> rows;  // padded
};

// The program as the verifier sees it: instruction i at pc 4·i, entry 0.
inline jolt::prover::Program program_of(const std::vector<Instr>& prog) {
  jolt::prover::Program p;
  p.digest = {1, 2, 3, 4};
  p.entry = 0;
  for (std::size_t i = 0; i < prog.size(); ++i) {
    TraceRow r;
    r.pc = static_cast<std::uint32_t>(4 * i);
    r.opcode = prog[i].op;
    r.rd = prog[i].rd;
    r.rs1 = prog[i].rs1;
    r.rs2 = prog[i].rs2;
    r.imm = prog[i].imm;
    p.instructions.push_back(r);
  }
  return p;
}

inline TestTrace sample_trace(std::int32_t iterations) {
  TestTrace t;
  t.rows = run(sample_program(iterations));
  t.statement.program = program_of(sample_program(iterations));
  t.statement.inputs = {static_cast<std::uint8_t>(iterations)};
  t.statement.outputs = {};  // the program writes no output
  t.statement.trace_length = t.rows.size();
  t.rows.resize(jolt::prover::padded_trace_length(t.rows.size()));
  return t;
}

}  // namespace testutil
