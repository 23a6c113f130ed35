// The proof file `jolt-run prove --proof FILE` writes and `jolt-run verify --proof FILE` reads: an
// envelope around the prover's proof bytes carrying the claims the verifier builds its statement
// from, so verifying never runs the guest. A public schema: any change to the layout bumps
// kProofFileVersion (tests/core/host/proof_file_test.cpp pins the bytes).
//
// Layout (all integers little-endian):
//   magic          8 bytes  "JRUNPROF"
//   version        u16      kProofFileVersion
//   workload       u32 length, then that many bytes (the workload's name, or the --elf file stem)
//   scale          u32      log2 of the maximum padded trace length the proof was made for
//   trace_length   u64      claimed real (unpadded) cycle count
//   output         u64 length, then that many bytes (the claimed public output of the guest)
//   proof          u64 length, then that many bytes (jolt::prover::prove's output)
// Nothing may follow the proof.
//
//   std::vector<std::uint8_t> bytes = encode_proof_file(ProofFile{"fibonacci", 13, n, out, proof});
//   ProofFileResult r = decode_proof_file(bytes);    // r.file, or r.error says what is wrong
//   ProofFileResult f = read_proof_file("fib.proof"); // errors start with "proof file fib.proof: "
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace jolt::host {

inline constexpr std::string_view kProofFileMagic = "JRUNPROF";
inline constexpr std::uint16_t kProofFileVersion = 1;

struct ProofFile {
  std::string workload;
  std::uint32_t scale = 0;
  std::uint64_t trace_length = 0;
  std::vector<std::uint8_t> output;
  std::vector<std::uint8_t> proof;

  bool operator==(const ProofFile&) const = default;
};

struct ProofFileResult {
  std::optional<ProofFile> file;
  std::string error;  // set when !file, e.g. "truncated in the output field (...)"
};

std::vector<std::uint8_t> encode_proof_file(const ProofFile& file);

// Never throws: a malformed envelope (bad magic, another version, a field cut short, bytes after
// the proof) is described in `error`. Field lengths are checked against the bytes present before
// anything is allocated.
ProofFileResult decode_proof_file(std::span<const std::uint8_t> bytes) noexcept;

// Reads and decodes `path`; every error message starts with "proof file <path>: ".
ProofFileResult read_proof_file(const std::string& path) noexcept;

}  // namespace jolt::host
