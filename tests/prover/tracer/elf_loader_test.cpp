// ELF loader tests: every malformed or foreign ELF raises ElfError naming what is wrong.
#include <doctest/doctest.h>

#include <string>

#include "rv32_asm.hpp"

using namespace rv32;
namespace tp = jolt::prover;

namespace {

std::string elf_error(std::vector<std::uint8_t> b) {
  try {
    tp::load_elf(b);
  } catch (const tp::ElfError& e) {
    return e.what();
  }
  FAIL("expected an ElfError");
  return {};
}

const std::vector<u32> kProg = {addi(10, 0, 0), addi(17, 0, 0), ecall()};

}  // namespace

TEST_CASE("a well-formed RV32 executable loads") {
  const auto img = tp::load_elf(make_elf(kProg));
  CHECK(img.entry == tp::kRamBase);
  REQUIRE(img.segments.size() == 1);
  CHECK(img.segments[0].executable);
  CHECK_FALSE(img.segments[0].writable);
  CHECK(img.segments[0].data.size() == 12);
}

TEST_CASE("foreign and malformed ELFs are rejected with a clear message") {
  CHECK(elf_error({1, 2, 3}).find("shorter than an ELF32 header") != std::string::npos);
  auto bad_magic = make_elf(kProg);
  bad_magic[1] = 'X';
  CHECK(elf_error(bad_magic).find("magic") != std::string::npos);
  ElfSpec s;
  s.elf_class = 2;
  CHECK(elf_error(make_elf(kProg, s)).find("not ELF32") != std::string::npos);
  s = {};
  s.data = 2;
  CHECK(elf_error(make_elf(kProg, s)).find("big-endian") != std::string::npos);
  s = {};
  s.machine = 62;  // x86-64
  CHECK(elf_error(make_elf(kProg, s)).find("not RISC-V") != std::string::npos);
  s = {};
  s.type = 3;  // ET_DYN
  CHECK(elf_error(make_elf(kProg, s)).find("ET_EXEC") != std::string::npos);
  s = {};
  s.entry = tp::kRamBase + 0x1000;
  CHECK(elf_error(make_elf(kProg, s)).find("entry point") != std::string::npos);
  s = {};
  s.entry = tp::kRamBase + 2;
  CHECK(elf_error(make_elf(kProg, s)).find("aligned") != std::string::npos);
  s = {};
  s.flags = 6;  // R+W, no X: the entry is not in an executable segment
  CHECK(elf_error(make_elf(kProg, s)).find("executable segment") != std::string::npos);
  auto truncated = make_elf(kProg);
  truncated.resize(90);
  CHECK(elf_error(truncated).find("truncated") != std::string::npos);
  auto no_load = make_elf(kProg);
  no_load[52] = 6;  // PT_PHDR instead of PT_LOAD
  CHECK(elf_error(no_load).find("no loadable segments") != std::string::npos);
}

TEST_CASE("a segment outside guest RAM is refused at load time and at execute time") {
  ElfSpec s;
  s.vaddr = s.entry = 0x10000;
  CHECK(elf_error(make_elf(kProg, s)).find("lies outside guest RAM") != std::string::npos);
  // A hand-built image never went through load_elf: execute refuses it too.
  tp::ElfImage img = tp::load_elf(make_elf(kProg));
  img.segments[0].vaddr = 0x10000;
  img.entry = 0x10000;
  CHECK_THROWS_AS(tp::execute(img, {}, {}), tp::ElfError);
}

TEST_CASE("overlapping segments are refused: an address has one meaning for tracer and prover") {
  // Two executable copies of the program at the same address (the later one would shadow the
  // earlier one in the tracer, while a bytecode table would hold both).
  tp::ElfImage img = tp::load_elf(make_elf(kProg));
  tp::Segment shadow = img.segments[0];
  shadow.vaddr += 4;
  img.segments.push_back(shadow);
  try {
    tp::check_image(img);
    FAIL("overlap accepted");
  } catch (const tp::ElfError& e) {
    CHECK(std::string(e.what()).find("overlap") != std::string::npos);
  }
}
