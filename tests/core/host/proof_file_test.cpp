// The proof-file envelope of `jolt-run prove|verify` (core/host/include/jolt/host/proof_file.hpp):
// its bytes are pinned, and every malformed file is described, never thrown.
#include "jolt/host/proof_file.hpp"

#include <doctest/doctest.h>

#include <boost/filesystem.hpp>
#include <fstream>

using namespace jolt::host;
namespace fs = boost::filesystem;

namespace {

std::vector<std::uint8_t> bytes_of(std::string_view s) {
  return {s.begin(), s.end()};
}

jolt::host::ProofFile sample() {
  return jolt::host::ProofFile{"fib", 13, 0x0102030405, {0xaa, 0xbb}, {1, 2, 3}};
}

std::string decode_error(const std::vector<std::uint8_t>& bytes) {
  jolt::host::ProofFileResult r = jolt::host::decode_proof_file(bytes);
  CHECK_FALSE(r.file);
  return r.error;
}

}  // namespace

TEST_CASE("proof file format 1: the encoded bytes are pinned (a layout change bumps the version)") {
  CHECK(jolt::host::kProofFileVersion == 1);
  // clang-format off
  const std::vector<std::uint8_t> expected = {
      'J', 'R', 'U', 'N', 'P', 'R', 'O', 'F',          // magic
      1, 0,                                            // version u16
      3, 0, 0, 0, 'f', 'i', 'b',                       // workload: u32 length, bytes
      13, 0, 0, 0,                                     // scale u32
      0x05, 0x04, 0x03, 0x02, 0x01, 0, 0, 0,           // trace length u64
      2, 0, 0, 0, 0, 0, 0, 0, 0xaa, 0xbb,              // output: u64 length, bytes
      3, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3};                // proof: u64 length, bytes
  // clang-format on
  CHECK(jolt::host::encode_proof_file(sample()) == expected);
  jolt::host::ProofFileResult r = jolt::host::decode_proof_file(expected);
  REQUIRE(r.file);
  CHECK(*r.file == sample());
}

TEST_CASE("proof file: empty output and proof round-trip") {
  const jolt::host::ProofFile f{"w", 1, 0, {}, {}};
  jolt::host::ProofFileResult r = jolt::host::decode_proof_file(jolt::host::encode_proof_file(f));
  REQUIRE(r.file);
  CHECK(*r.file == f);
}

TEST_CASE("proof file: a malformed envelope names what is wrong") {
  const std::vector<std::uint8_t> good = jolt::host::encode_proof_file(sample());

  CHECK(decode_error({}).find("not a jolt-run proof file (bad magic") == 0);
  CHECK(decode_error(bytes_of("JRUNPRO")).find("bad magic") != std::string::npos);
  CHECK(decode_error(bytes_of("\x01\x02 a bare proof from before")).find("bad magic") !=
        std::string::npos);

  std::vector<std::uint8_t> v2 = good;
  v2[8] = 2;
  CHECK(decode_error(v2) ==
        "file format version 2, this jolt-run reads 1 (prove again with this "
        "jolt-run, or verify with the one that wrote it)");

  // Every cut names the field it falls in.
  const std::pair<std::size_t, const char*> cuts[] = {
      {9, "version"}, {12, "workload"},     {16, "workload"},
      {19, "scale"},  {25, "trace length"}, {30, "output"},
      {38, "output"}, {45, "proof"},        {good.size() - 1, "proof"}};
  for (const auto& cut : cuts) {
    const std::size_t size = cut.first;  // a plain variable: clang 14 cannot capture bindings
    CAPTURE(size);
    const std::string e = decode_error(
        std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size)));
    CHECK(e.find(std::string("truncated in the ") + cut.second + " field") == 0);
  }

  // A length prefix larger than the file is caught before anything is allocated.
  std::vector<std::uint8_t> huge = good;
  for (std::size_t i = 0; i < 8; ++i) huge[29 + i] = 0xff;  // output length = 2^64 - 1
  CHECK(decode_error(huge) ==
        "truncated in the output field (needs 18446744073709551615 bytes at "
        "offset 37, the file has 50)");

  // A damaged header is reported as one, not echoed back as a workload or a scale to pass.
  std::vector<std::uint8_t> control = good;
  control[15] = 0x07;  // "fib" → "f\ab"
  CHECK(decode_error(control) ==
        "corrupt header: the workload name is empty or holds control characters");
  CHECK(decode_error(jolt::host::encode_proof_file({"", 13, 1, {}, {}})) ==
        "corrupt header: the workload name is empty or holds control characters");
  CHECK(jolt::host::decode_proof_file(jolt::host::encode_proof_file({"my guest ü", 40, 1, {}, {}}))
            .file);
  for (std::uint32_t scale : {0u, 41u, 0xffffffffu}) {
    CAPTURE(scale);
    CHECK(decode_error(jolt::host::encode_proof_file({"fib", scale, 1, {}, {}})) ==
          "corrupt header: scale " + std::to_string(scale) + " is outside 1..=40");
  }

  std::vector<std::uint8_t> trailing = good;
  trailing.push_back(0);
  CHECK(decode_error(trailing) ==
        "1 unexpected bytes after the proof field (a corrupt or concatenated file)");
}

TEST_CASE("read_proof_file prefixes every error with the file's path") {
  const fs::path dir = fs::temp_directory_path() / fs::unique_path("jolt-prooffile-%%%%%%");
  fs::create_directories(dir);
  const std::string missing = (dir / "missing.proof").string();
  jolt::host::ProofFileResult r = jolt::host::read_proof_file(missing);
  CHECK_FALSE(r.file);
  CHECK(r.error == "proof file " + missing + ": cannot open the file (does it exist?)");

  const std::string junk = (dir / "junk.proof").string();
  std::ofstream(junk, std::ios::binary) << "garbage";
  r = jolt::host::read_proof_file(junk);
  CHECK_FALSE(r.file);
  CHECK(r.error.find("proof file " + junk + ": not a jolt-run proof file (bad magic") == 0);

  const std::string ok = (dir / "ok.proof").string();
  const std::vector<std::uint8_t> bytes = jolt::host::encode_proof_file(sample());
  std::ofstream(ok, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  r = jolt::host::read_proof_file(ok);
  REQUIRE(r.file);
  CHECK(*r.file == sample());
  fs::remove_all(dir);
}
