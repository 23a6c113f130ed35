// The program a proof is about, as the verifier sees it: the ELF's digest, its entry point and
// its bytecode (every decodable word of the executable segments). Built from the ELF alone — the
// verifier never runs the guest.
//
//   Program p = program_from_elf(elf_bytes);        // throws ElfError for a malformed ELF
//   Statement st{p, input, claimed_output, claimed_trace_length};
//
// The bytecode table the proof checks every fetched instruction against (bytecode_table) is the
// padding row TraceRow{} followed by p.instructions, each instruction with a virtual sequence
// (tracer/virtual_sequences.hpp) replaced by its sequence's rows; a trace row's static fields
// (PC, immediate, circuit flags, sequence position: r1cs::bytecode_values) must equal one table
// entry's.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include <jolt/prover/tracer/trace_row.hpp>
#include <jolt/prover/tracer/tracer.hpp>

namespace jolt::prover {

struct Program {
  std::vector<std::uint8_t> digest;    // BLAKE2b-256 of the ELF (absorbed by the transcript)
  std::uint32_t entry = 0;             // PC of cycle 0
  std::vector<TraceRow> instructions;  // pc, word, opcode, rd, rs1, rs2, imm; ascending pc
  std::vector<Segment> image;          // the ELF's loadable segments: RAM's initial contents
};

// Both throw ElfError for an image check_image (tracer.hpp) refuses: segments outside guest RAM
// or overlapping. Decodes every 4-byte-aligned word of the executable segments that is a legal
// RV32IM instruction the tracer can execute without faulting; illegal words and EBREAK are left
// out.
Program program_from_elf(std::span<const std::uint8_t> elf);
Program program_from_image(const ElfImage& image, std::vector<std::uint8_t> digest);

// The table: the padding row TraceRow{}, then instructions[i] in order (a virtual sequence's rows
// in its instruction's place).
std::vector<TraceRow> bytecode_table(const Program& program);

}  // namespace jolt::prover
