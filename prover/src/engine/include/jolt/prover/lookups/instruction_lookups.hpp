// Instruction lookups as the original proves them (Shout): every cycle's lookup output and
// operands are read from the RV32IM tables of instruction_tables.hpp at the cycle's key, with
// the key committed as 2·W bit columns (one-hot chunks of width 1).
//
//   InstructionLookupWitness w{32, keys, tables, raf};          // one entry per cycle, T = 2^ℓ
//   InstructionLookupClaims c = lookup_claims(w, r_cycle);     // the claims the R1CS side makes
//   InstructionLookupProof p = prove_instruction_lookups(w, r_cycle, c, transcript);
//   InstructionLookupOpenings o;
//   if (auto e = verify_instruction_lookups(32, ℓ, r_cycle, c, p, transcript, o)) reject(*e);
//   // o.key_bits at o.bit_point: openings of the committed key-bit columns;
//   // o.flags, o.raf at o.read_raf_point: the bytecode's table and RAF flags.
//
// Two sumchecks:
//  1. **Read-raf** (2·W + ℓ rounds). With ra(k, j) = [key(j) = k] and c(k, j) =
//     Σ_t flag_t(j)·Val_t(k) + (1 − raf(j))·(γ·Left(k) + γ²·Right(k)) + raf(j)·γ²·Identity(k):
//       output(r) + γ·left(r) + γ²·right(r) = Σ_{k, j} eq(r, j)·ra(k, j)·c(k, j).
//     The address variables are bound first, in phases of 8 (`kPhaseBits`): in each phase the
//     prover builds, from one pass over the T cycles, the tables Q_{t,i}(chunk) = Σ over the cycles
//     of table t whose key has that chunk of weight(j)·S_{t,i}(suffix of the key), weight(j) =
//     eq(r, j)·eq(bound chunks, key's chunks), and runs 8 rounds of Σ P_{t,i}·Q_{t,i} over the
//     256 chunk values (P_{t,i}: the table's prefix states; instruction_tables.hpp). Each phase
//     costs Θ(T) plus a constant. Then ℓ cycle rounds over
//       eq(r, j)·Π_{v < n_virt} ra_v(r_addr_v, j)·c(r_addr, j),
//     ra_v the one-hot chunk of 16 key bits (`kVirtualChunkBits`), degree n_virt + 2. Outputs:
//     ra_v(r_addr_v, r5) for each v, flag_t(r5) for the 19 instruction tables, raf(r5).
//  2. **Key bits** (ℓ rounds): RA virtualization — each ra_v(r_addr_v, r5) is
//     Σ_j eq(r5, j)·Π_{b in chunk v} (r_b·bit_b(j) + (1 − r_b)(1 − bit_b(j))) — batched by β^v,
//     plus booleanity Σ_j eq(ρ, j)·Σ_b ζ^(b+1)·(bit_b(j)² − bit_b(j)) = 0 for fresh ρ, ζ, in one
//     member of degree 17. Outputs: bit_b(r6) for every key bit b.
// So an accepting proof, with the openings checked by the caller, shows: every committed key
// bit is 0 or 1, and for every cycle the claimed output is Val_t(key) of its table t (0 when no
// flag is set) and the claimed operands are the key's halves (RAF flag 0) or 0 and the whole
// key (RAF flag 1), except with probability (degree·rounds + T·2^(2W)-term)/|F| as written out
// in docs/prover-design.md §12.
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

inline constexpr unsigned kPhaseBits = 8;
inline constexpr unsigned kVirtualChunkBits = 16;
inline constexpr std::uint8_t kNoTable = 0xff;

struct InstructionLookupWitness {
  unsigned word_bits = 32;          // W: keys have 2·W bits
  std::vector<std::uint64_t> keys;  // per cycle
  std::vector<std::uint8_t>
      tables;                     // per cycle: a LookupTable < kNumInstructionTables, or kNoTable
  std::vector<std::uint8_t> raf;  // per cycle: 1 = one-operand key, 0 = interleaved operands

  std::size_t cycles() const { return keys.size(); }
  // Throws std::invalid_argument naming the first malformed entry.
  void validate() const;
};

// The claims the R1CS side makes at r_cycle: the lookup output and the two operands.
struct InstructionLookupClaims {
  Fr output, left, right;
};
InstructionLookupClaims lookup_claims(const InstructionLookupWitness& w,
                                      std::span<const Fr> r_cycle);

struct InstructionLookupProof {
  SumcheckProof read_raf;
  std::vector<Fr> read_raf_outputs;  // ra_v (n_virt), flag_t (19), raf
  SumcheckProof key_bits;
  std::vector<Fr> key_bit_claims;  // bit_b(r6), b = 2W − 1 .. 0 (key MSB first)
};

// What the verifier leaves to the caller: openings it must check against the commitment of the
// key bits and against the bytecode's flags.
struct InstructionLookupOpenings {
  std::vector<Fr> read_raf_point;  // r5 (ℓ)
  std::vector<Fr> address_point;   // r_addr (2W)
  std::vector<Fr> flags;           // flag_t(r5), t < kNumInstructionTables
  Fr raf;                          // raf(r5)
  std::vector<Fr> bit_point;       // r6 (ℓ)
  std::vector<Fr> key_bits;        // bit_b(r6), key MSB first
};

std::size_t virtual_chunks(unsigned word_bits);  // n_virt = 2W / 16 (at least 1)

InstructionLookupProof prove_instruction_lookups(const InstructionLookupWitness& w,
                                                 std::span<const Fr> r_cycle,
                                                 const InstructionLookupClaims& claims,
                                                 Transcript& transcript, bool self_check = true);

// The same in two steps, as the pipeline runs them (stage 5: the read-raf, stage 6b: the key
// bits, with other sumchecks between them on the same transcript).
struct InstructionReadRafProverOutput {
  SumcheckProof read_raf;
  std::vector<Fr> outputs;  // ra_v (n_virt), flag_t (19), raf
  std::vector<Fr> r_addr, r_cycle;
};
struct InstructionKeyBitsProverOutput {
  SumcheckProof key_bits;
  std::vector<Fr> key_bit_claims;
  std::vector<Fr> bit_point;
};
// on_prepared, if set, sees the sumcheck's kernel once its tables exist (heap snapshots).
using LookupKernelPrepared = std::function<void(const SumcheckKernel&)>;
InstructionReadRafProverOutput prove_instruction_read_raf(
    const InstructionLookupWitness& w, std::span<const Fr> r_cycle,
    const InstructionLookupClaims& claims, Transcript& transcript, bool self_check = true,
    const LookupKernelPrepared& on_prepared = {});
InstructionKeyBitsProverOutput prove_instruction_key_bits(
    const InstructionLookupWitness& w, const InstructionReadRafProverOutput& rr,
    Transcript& transcript, bool self_check = true, const LookupKernelPrepared& on_prepared = {});
// verify_instruction_read_raf fills read_raf_point, address_point, flags and raf;
// verify_instruction_key_bits (after it, `out` as it left it) bit_point and key_bits.
std::optional<VerifyError> verify_instruction_read_raf(unsigned word_bits, std::size_t log_cycles,
                                                       std::span<const Fr> r_cycle,
                                                       const InstructionLookupClaims& claims,
                                                       const InstructionLookupProof& proof,
                                                       Transcript& transcript,
                                                       InstructionLookupOpenings& out);
std::optional<VerifyError> verify_instruction_key_bits(unsigned word_bits, std::size_t log_cycles,
                                                       const InstructionLookupProof& proof,
                                                       Transcript& transcript,
                                                       InstructionLookupOpenings& out);
// Checks, each a named JOLT_VERIFY: lookups.shape, lookups.read_raf.sumcheck.*,
// lookups.read_raf.final, lookups.key_bits.sumcheck.*, lookups.key_bits.final.
std::optional<VerifyError> verify_instruction_lookups(unsigned word_bits, std::size_t log_cycles,
                                                      std::span<const Fr> r_cycle,
                                                      const InstructionLookupClaims& claims,
                                                      const InstructionLookupProof& proof,
                                                      Transcript& transcript,
                                                      InstructionLookupOpenings& out);

// Time spent in each part of the last prove_instruction_lookups on this thread (the benchmark
// reads it): one entry per address phase, then the cycle rounds, then the key-bit sumcheck.
struct ReadRafTimings {
  std::vector<double> phase_seconds;
  double cycle_seconds = 0;
  double key_bits_seconds = 0;
};
const ReadRafTimings& last_read_raf_timings();

}  // namespace jolt::prover::lookups
