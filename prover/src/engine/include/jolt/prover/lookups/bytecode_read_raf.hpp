// The bytecode read-raf (Shout over the program's table): claims about a cycle's static
// columns — each a field of the bytecode table entry the cycle executes — at several points are
// proved from the committed bits of each cycle's entry index, so the static columns themselves
// need no commitment.
//
//   std::vector<std::vector<Fr>> entries = ...;   // K entries × F fields (the verifier's table)
//   std::vector<BytecodeClaimGroup> g = {{r1, {0, 3, 7}, {v0, v3, v7}}, {r3, {0}, {w0}}};
//   BytecodeReadRafProof p = prove_bytecode_read_raf(entries, index, g, transcript);
//   BytecodeReadRafOpenings o;
//   if (auto e = verify_bytecode_read_raf(entries, ℓ, g, p, transcript, o)) reject(*e);
//   // o.index_bits at o.bit_point: openings the caller checks against the committed bits
//
// With m = bytecode_index_bits(K), the table is padded to 2^m entries with copies of entry 0 (so
// an index ≥ K reads entry 0's fields), ra(k, j) = [index(j) = k] and coefficients c_{g,i} =
// γ^n over the flattened (group, field) list:
//  1. **Address** (m rounds, degree 2): Σ_{g,i} c_{g,i}·claim_{g,i} = Σ_k Σ_g F_g(k)·Val_g(k),
//     F_g(k) = Σ_j eq(r_g, j)·ra(k, j) (built in one pass over the cycles), Val_g(k) =
//     Σ_i c_{g,i}·field_{g,i}(k). Outputs F_g(r_addr); the verifier evaluates Val_g(r_addr)
//     from the table itself.
//  2. **RA** (ℓ rounds, degree max(m + 1, 3); ra_virtualization.hpp, one chunk of m bits): for a
//     fresh μ, Σ_g μ^g F_g(r_addr) = Σ_j Σ_g μ^g eq(r_g, j)·Π_b (r_b·bit_b(j) + (1 − r_b)(1 −
//     bit_b(j))), plus booleanity of the m bits. Outputs bit_b(r_ra), the index's MSB first.
// So an accepting proof, with the bit openings checked against their commitment, shows: every
// committed bit is 0 or 1, and each claim is the multilinear extension, at its group's point, of
// the field of the entry each cycle's bits name (docs/prover-design.md §12 gives the error).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/sumcheck/batch.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover::lookups {

struct BytecodeClaimGroup {
  std::vector<Fr> point;              // ℓ coordinates (big-endian cycle variables)
  std::vector<std::uint32_t> fields;  // which fields of an entry, each < F
  std::vector<Fr> claims;             // field(point), one per field
};

struct BytecodeReadRafProof {
  SumcheckProof address;
  std::vector<Fr> address_outputs;  // F_g(r_addr), one per group
  SumcheckProof ra;
  std::vector<Fr> index_bits;  // bit_b(r_ra), b = 0 .. m − 1 (the index's MSB first)
};

struct BytecodeReadRafOpenings {
  std::vector<Fr> bit_point;   // r_ra (ℓ)
  std::vector<Fr> index_bits;  // the committed bits' claimed values there
};

// m: the committed bits per cycle for a table of `entries` entries (at least 1).
unsigned bytecode_index_bits(std::size_t entries);

// Each claim_{g,i} = Σ_j eq(r_g, j)·entries[index(j)][field] (the honest claims; tests and the
// prover's self-check).
std::vector<Fr> bytecode_claims(const std::vector<std::vector<Fr>>& entries,
                                std::span<const std::uint32_t> index, std::span<const Fr> point,
                                std::span<const std::uint32_t> fields);

// index: one entry index per cycle (2^ℓ cycles), each < 2^m. Throws std::invalid_argument on
// malformed shapes.
BytecodeReadRafProof prove_bytecode_read_raf(const std::vector<std::vector<Fr>>& entries,
                                             std::span<const std::uint32_t> index,
                                             std::span<const BytecodeClaimGroup> groups,
                                             Transcript& transcript, bool self_check = true);

// The same in the two stages it spans: the address rounds (proof.address, address_outputs;
// returns r_addr), then the RA rounds (proof.ra, index_bits; returns the bits' point).
// on_prepared, if set, sees each sumcheck's kernel once its tables exist (heap snapshots).
using KernelPrepared = std::function<void(const SumcheckKernel&)>;
std::vector<Fr> prove_bytecode_address(const std::vector<std::vector<Fr>>& entries,
                                       std::span<const std::uint32_t> index,
                                       std::span<const BytecodeClaimGroup> groups,
                                       Transcript& transcript, BytecodeReadRafProof& proof,
                                       bool self_check = true,
                                       const KernelPrepared& on_prepared = {});
std::vector<Fr> prove_bytecode_ra(std::span<const std::uint32_t> index, unsigned index_bits,
                                  std::span<const BytecodeClaimGroup> groups,
                                  std::span<const Fr> r_addr, Transcript& transcript,
                                  BytecodeReadRafProof& proof, bool self_check = true,
                                  const KernelPrepared& on_prepared = {});

// Checks, each a named JOLT_VERIFY: bytecode.shape, bytecode.address.sumcheck.*,
// bytecode.address.final, bytecode.ra.sumcheck.*, bytecode.ra.final.
std::optional<VerifyError> verify_bytecode_read_raf(const std::vector<std::vector<Fr>>& entries,
                                                    std::size_t log_cycles,
                                                    std::span<const BytecodeClaimGroup> groups,
                                                    const BytecodeReadRafProof& proof,
                                                    Transcript& transcript,
                                                    BytecodeReadRafOpenings& out);

}  // namespace jolt::prover::lookups
