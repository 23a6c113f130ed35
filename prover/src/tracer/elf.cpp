// ELF32 RISC-V executable loader with checks that name what is wrong.
#include <cstdio>
#include <cstring>

#include "jolt/prover/tracer/tracer.hpp"

namespace jolt::prover {
namespace {

template <class T>
T read_le(std::span<const std::uint8_t> b, std::size_t off) {
  T v{};
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

}  // namespace

ElfImage load_elf(std::span<const std::uint8_t> b) {
  if (b.size() < 52)
    throw ElfError("not an ELF file: " + std::to_string(b.size()) +
                   " bytes is shorter than an ELF32 header");
  if (!(b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F'))
    throw ElfError("not an ELF file (bad magic)");
  if (b[4] != 1)
    throw ElfError("ELF class " + std::to_string(b[4]) +
                   " is not ELF32: build the guest for rv32 (-march=rv32im -mabi=ilp32)");
  if (b[5] != 1) throw ElfError("ELF is big-endian; RISC-V guests are little-endian");
  const auto type = read_le<std::uint16_t>(b, 16);
  const auto machine = read_le<std::uint16_t>(b, 18);
  if (machine != 243)
    throw ElfError("ELF machine " + std::to_string(machine) + " is not RISC-V (243)");
  if (type != 2)
    throw ElfError("ELF type " + std::to_string(type) +
                   " is not an executable (ET_EXEC); link the guest statically");
  ElfImage img;
  img.entry = read_le<std::uint32_t>(b, 24);
  const auto phoff = read_le<std::uint32_t>(b, 28);
  const auto phentsize = read_le<std::uint16_t>(b, 42);
  const auto phnum = read_le<std::uint16_t>(b, 44);
  if (phentsize < 32)
    throw ElfError("ELF program header entries of " + std::to_string(phentsize) +
                   " bytes are too small");
  if (static_cast<std::uint64_t>(phoff) + static_cast<std::uint64_t>(phnum) * phentsize > b.size())
    throw ElfError("ELF program headers run past the end of the file (truncated?)");
  for (std::uint16_t i = 0; i < phnum; ++i) {
    const std::size_t ph = phoff + static_cast<std::size_t>(i) * phentsize;
    if (read_le<std::uint32_t>(b, ph) != 1) continue;  // PT_LOAD only
    Segment s;
    const auto offset = read_le<std::uint32_t>(b, ph + 4);
    s.vaddr = read_le<std::uint32_t>(b, ph + 8);
    const auto filesz = read_le<std::uint32_t>(b, ph + 16);
    s.memsz = read_le<std::uint32_t>(b, ph + 20);
    const auto flags = read_le<std::uint32_t>(b, ph + 24);
    if (filesz > s.memsz)
      throw ElfError("ELF segment " + std::to_string(i) + " has filesz > memsz");
    if (static_cast<std::uint64_t>(offset) + filesz > b.size())
      throw ElfError("ELF segment " + std::to_string(i) +
                     " runs past the end of the file (truncated?)");
    if (static_cast<std::uint64_t>(s.vaddr) + s.memsz > 0x100000000ull)
      throw ElfError("ELF segment " + std::to_string(i) +
                     " does not fit in the 32-bit address space");
    s.data.assign(b.begin() + offset, b.begin() + offset + filesz);
    s.executable = flags & 1;
    s.writable = flags & 2;
    if (s.memsz) img.segments.push_back(std::move(s));
  }
  if (img.segments.empty()) throw ElfError("ELF has no loadable segments");
  check_image(img);
  bool entry_ok = false;
  for (const auto& s : img.segments)
    if (s.executable && img.entry >= s.vaddr && img.entry < s.vaddr + s.memsz) entry_ok = true;
  if (!entry_ok) throw ElfError("ELF entry point is not inside an executable segment");
  if (img.entry % 4)
    throw ElfError(
        "ELF entry point is not 4-byte aligned (compressed code is not supported: use "
        "-march=rv32im)");
  return img;
}

void check_image(const ElfImage& img) {
  auto hex = [](std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return std::string(buf);
  };
  const std::uint64_t ram_end = static_cast<std::uint64_t>(kRamBase) + kRamSize;
  for (std::size_t i = 0; i < img.segments.size(); ++i) {
    const Segment& s = img.segments[i];
    const std::uint64_t lo = s.vaddr, hi = lo + s.memsz;
    if (lo < kRamBase || hi > ram_end)
      throw ElfError("ELF segment at " + hex(lo) + " (+" + std::to_string(s.memsz) +
                     " bytes) lies outside guest RAM [" + hex(kRamBase) + ", " + hex(ram_end) +
                     "): link with sdk/guest/guest.ld");
    for (std::size_t j = 0; j < i; ++j) {
      const Segment& o = img.segments[j];
      if (lo < static_cast<std::uint64_t>(o.vaddr) + o.memsz && o.vaddr < hi)
        throw ElfError("ELF segments at " + hex(o.vaddr) + " (+" + std::to_string(o.memsz) +
                       " bytes) and " + hex(lo) + " (+" + std::to_string(s.memsz) +
                       " bytes) overlap: an address must have one meaning");
    }
  }
}

}  // namespace jolt::prover
