// The proof object and its stable binary encoding (through the shared codec, codec.hpp).
//
//   std::vector<std::uint8_t> bytes = encode_proof(proof);
//   Proof p;
//   if (auto e = decode_proof(bytes, p)) report(*e);   // never throws, never reads out of bounds
//                                                       // e.g. {"decode.truncated", "... in
//                                                       //  stage2.sumcheck at byte 812"}
//
// Layout, version 11 (all integers little-endian; Fr = 32 canonical little-endian bytes, < r):
//   magic "JRPF" | u16 version | u8 pcs kind | u8 reserved (=0) | u32 log_T | u32 columns
//   bytes  pcs parameters          (u32 length + the scheme's parameters() string)
//   u32 count, per RAM region: u32 address, u32 words   — the RAM layout
//   u32 output tail                                     — the output's last word after it
//   bytes  commitment              (u32 length + bytes)
//   stage1 sumcheck | frs openings (u32 count + Fr...)   — every column at the outer cycle point
//   stage2 sumcheck | frs openings                        — product factors at r2
//          sumcheck | frs (ra, Val, Inc, ra at r1, Val_final)  — RAM read/write, RAF, output
//   stage3 sumcheck | frs openings                        — UnexpandedPC, IsNoop, IsEcall,
//                                                           SequenceIndex at r3
//   stage4: frs final register values (40) | frs final register timestamps (40)
//           frs root children | u32 layer count, per layer: sumcheck | frs claims
//           frs openings                                  — the register columns at r4
//           sumcheck | frs (Inc, ra)                      — RAM's Val check
//   stage5: frs root children (P1[0], P1[1], Q1[0], Q1[1])
//           u32 layer count, per layer: sumcheck | frs claims (P0, P1, Q0, Q1 or, last, Q0, Q1)
//           frs openings                                  — the range columns at r5
//           sumcheck | frs outputs (ra_v ×4, the 19 table flags, the RAF flag)
//                                                         — the instruction read-raf
//           sumcheck | frs (address bits, h) | frs (Load, Store)  — RAM's RA virtualization
//   stage6a: sumcheck | frs F_g(r_addr)                  — the bytecode read-raf's address rounds
//   stage6b: sumcheck | frs index bits at r6b            — its RA virtualization + booleanity
//           sumcheck | frs key bits (64)                  — the instruction lookups' RA
//                                                           virtualization + booleanity
//   stage7 sumcheck | frs openings                        — every committed column at r7
//   bytes  stage-8 PCS opening
// sumcheck = u32 rounds, then per round u32 coefficient count + Fr coefficients.
// Nothing may follow the last field. The encoded size is the reported proof_size.
// Version history: 1 had no parameters field; 2 adds it (the verifier's configuration fixes the
// scheme, its parameters and log_T, and rejects a header that differs); 3 adds the bytecode
// lookup (stage 6a), the entry PC and exit, register checking (stages 4, 5), moves the claim
// reduction to stage 7, and stage 3 opens only UnexpandedPC, IsNoop and IsEcall; 4 adds the byte
// lookup and the shift lookup (stage 6b) and the instruction-result columns; 5 adds virtual
// sequences (40 registers, ExpandedPC), RAM checking in stage 4 (the final RAM state) and the
// RAM timestamp range check in stage 5; 9 makes the 41 bytecode columns virtual (the bytecode
// read-raf of stages 6a/6b replaces stage 6a's logUp lookup, `columns` counts the committed
// columns: the other 57 and the entry index's bits) and moves the byte and shift lookups from
// stage 6b to stage 5; 10 proves instruction results by the instruction read-raf (stage 5) and
// its key bits' RA virtualization (stage 6b) in place of the byte and shift lookups and the
// word columns: `columns` counts the committed trace columns, the 64 key bits, the index bits;
// 11 proves RAM by Twist (memory/ram_twist.hpp; the layout and output tail in the header, no
// final RAM state, RamInc in place of RamReadTs, the ℓK address bits committed after the index
// bits).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <jolt/prover/lookups/bytecode_read_raf.hpp>
#include <jolt/prover/lookups/instruction_lookups.hpp>
#include <jolt/prover/memory/ram_twist.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/sumcheck/batch.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

inline constexpr std::uint16_t kProofVersion = 14;  // 14: Basefold's layer-0 tree holds leaf
                                                    // ℓ at position 4·(ℓ mod M/8) + ℓ/(M/8)
                                                    // (Basefold proof version 4; the same
                                                    // layout); 13: Basefold's layer-0 leaf digests
                                                    // two tables per BLAKE2b block (leaf_group
                                                    // 2, steps chained through salt and
                                                    // personal; the same layout); 12: Basefold
                                                    // at rate 1/2 behind the
                                                    // seam (185 queries; the same layout);
                                                    // 11: RAM by Twist (the RAM layout's
                                                    // regions, read/write checking in stage 2,
                                                    // the Val check in stage 4, the RA
                                                    // virtualization in stage 5; RamInc and the
                                                    // address bits committed; no final RAM
                                                    // state); 10: the instruction read-raf (the
                                                    // byte and shift lookups and the word columns
                                                    // gone, the 64 key bits committed);
                                                    // 9: the bytecode read-raf (the static
                                                    // columns virtual, the entry index's bits
                                                    // committed), the byte and shift lookups in
                                                    // stage 5; 8: Basefold's query count from the
                                                    // Johnson regime (88 instead of 124); 7: the
                                                    // columns opened stacked 4 per Basefold
                                                    // polynomial (pcs/stacked.hpp); 6: Basefold
                                                    // leaf digests chained per group

// One layer of a fraction-tree sumcheck and the child-layer values at its point.
struct FractionLayerProof {
  SumcheckProof sumcheck;
  std::vector<Fr> claims;
};

struct Proof {
  std::uint8_t pcs_kind = 0;
  std::uint32_t log_t = 0;
  std::uint32_t num_columns = 0;
  std::string pcs_parameters;
  std::vector<memory::RamRegion> ram_regions;  // the RAM layout (memory/ram_twist.hpp)
  std::uint32_t ram_output_tail = 0;  // the output's last word after the output (protocol.hpp)
  std::vector<std::uint8_t> commitment;
  SumcheckProof stage1;
  std::vector<Fr> stage1_openings;
  SumcheckProof stage2;
  std::vector<Fr> stage2_openings;
  SumcheckProof stage3;
  std::vector<Fr> stage3_openings;
  std::vector<Fr> register_final_values;
  std::vector<Fr> register_final_timestamps;
  std::vector<Fr> register_root_children;
  std::vector<FractionLayerProof> register_layers;
  std::vector<Fr> stage4_openings;
  std::vector<Fr> range_root_children;
  std::vector<FractionLayerProof> range_layers;
  std::vector<Fr> stage5_openings;
  // RAM (memory/ram_twist.hpp): read/write checking, RAF and output check (stage 2), the Val
  // check (stage 4), the RA virtualization (stage 5), and Load, Store at its point.
  memory::RamProof ram;
  std::vector<Fr> ram_access_flags;
  // The instruction lookups: the read-raf (stage 5) and the key bits' RA virtualization
  // (stage 6b, after the bytecode's RA rounds).
  lookups::InstructionLookupProof instruction_lookups;
  lookups::BytecodeReadRafProof bytecode;  // stage 6a (address rounds) and 6b (RA rounds)
  SumcheckProof stage7;
  std::vector<Fr> stage7_openings;
  std::vector<std::uint8_t> pcs_opening;
};

std::vector<std::uint8_t> encode_proof(const Proof& proof);

// Fills `out` and returns nullopt, or names the failure: "decode.*" (codec: truncation, counts
// beyond the input, non-canonical elements, trailing bytes), "proof.magic", "proof.version",
// "proof.reserved".
std::optional<VerifyError> decode_proof(std::span<const std::uint8_t> bytes, Proof& out);

}  // namespace jolt::prover
