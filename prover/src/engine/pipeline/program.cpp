// The program's bytecode from its ELF (program.hpp).
#include <algorithm>
#include <jolt/prover/pipeline/program.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/tracer/tracer.hpp>
#include <jolt/prover/tracer/virtual_sequences.hpp>

namespace jolt::prover {

Program program_from_image(const ElfImage& image, std::vector<std::uint8_t> digest) {
  check_image(image);  // one meaning per address, inside guest RAM (as the tracer runs it)
  Program p;
  p.digest = std::move(digest);
  p.entry = image.entry;
  p.image = image.segments;
  for (const Segment& s : image.segments) {
    if (!s.executable) continue;
    // The words the tracer pre-decodes: aligned, inside the segment's file bytes.
    const std::uint64_t end = static_cast<std::uint64_t>(s.vaddr) + s.data.size();
    for (std::uint64_t a = (s.vaddr + 3ull) & ~3ull; a + 4 <= end; a += 4) {
      const std::uint64_t off = a - s.vaddr;
      std::uint32_t word = 0;
      for (std::uint64_t b = 0; b < 4; ++b)
        word |= static_cast<std::uint32_t>(s.data[off + b]) << (8 * b);
      TraceRow r;
      // EBREAK always faults in the tracer: it is no entry, so no accepted trace executes it.
      if (!decode(word, r) || r.opcode == Opcode::kEbreak) continue;
      r.pc = static_cast<std::uint32_t>(a);
      p.instructions.push_back(r);
    }
  }
  std::sort(p.instructions.begin(), p.instructions.end(),
            [](const TraceRow& a, const TraceRow& b) { return a.pc < b.pc; });
  return p;
}

Program program_from_elf(std::span<const std::uint8_t> elf) {
  return program_from_image(load_elf(elf), program_digest(elf));
}

std::vector<TraceRow> bytecode_table(const Program& program) {
  std::vector<TraceRow> t;
  t.reserve(program.instructions.size() + 1);
  t.push_back(TraceRow{});
  for (const TraceRow& in : program.instructions) {
    if (!has_virtual_sequence(in.opcode)) {
      t.push_back(in);
      continue;
    }
    for (const TraceRow& r : virtual_sequence(in)) t.push_back(r);
  }
  return t;
}

}  // namespace jolt::prover
