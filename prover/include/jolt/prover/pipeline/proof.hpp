// The M1 proof object and its stable binary encoding.
//
//   std::vector<std::uint8_t> bytes = encode_proof(proof);
//   DecodeResult d = decode_proof(bytes);        // never throws, never reads out of bounds
//   if (!d.proof) report(d.error);               // e.g. "truncated: stage2.sumcheck at byte 812"
//
// Layout (all integers little-endian; Fr = 32 canonical little-endian bytes, must be < r):
//   magic "JRPF" | u16 version (=1) | u8 pcs kind | u8 reserved (=0) | u32 log_T | u32 columns
//   bytes  commitment              (u32 length + bytes)
//   stage1 sumcheck | frs openings (u32 count + Fr...)   — every column at the outer cycle point
//   stage2 sumcheck | frs openings                        — product factors at r2
//   stage3 sumcheck | frs openings                        — every column at the joint point r3
//   bytes  stage-8 PCS opening
// sumcheck = u32 rounds, then per round u32 coefficient count + Fr coefficients.
// Nothing may follow the last field. The encoded size is the reported proof_size.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <jolt/prover/sumcheck/batch.hpp>

namespace jolt::prover {

inline constexpr std::uint16_t kProofVersion = 1;

struct Proof {
  std::uint8_t pcs_kind = 0;
  std::uint32_t log_t = 0;
  std::uint32_t num_columns = 0;
  std::vector<std::uint8_t> commitment;
  SumcheckProof stage1;
  std::vector<Fr> stage1_openings;
  SumcheckProof stage2;
  std::vector<Fr> stage2_openings;
  SumcheckProof stage3;
  std::vector<Fr> stage3_openings;
  std::vector<std::uint8_t> pcs_opening;
};

std::vector<std::uint8_t> encode_proof(const Proof& proof);

struct DecodeResult {
  std::optional<Proof> proof;
  std::string error;
};
DecodeResult decode_proof(std::span<const std::uint8_t> bytes);

}  // namespace jolt::prover
