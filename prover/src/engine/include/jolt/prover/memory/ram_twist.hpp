// RAM as the original proves it (Twist, read/write memory with one access per cycle): every load
// returns the word last stored at its address, every store changes only its word, memory starts
// as the public image and ends holding the claimed output.
//
// Addresses. The guest's words live in a few regions (code/data/heap, the stack, the input, the
// output). RamLayout packs each region a run touches into an aligned block of 2^n words of a
// compact address space of K = 2^ℓK words, so the memory the sumchecks range over is as small as
// the run; unmap(k) is the guest address of compact word k (2^32, which no 32-bit address
// equals, for a word of no block). A cycle either accesses one compact word a(j) (a load or a
// store, h(j) = 1) or none (h(j) = 0), so ra(k, j) = h(j)·[a(j) = k].
//
// Committed per cycle: Inc(j) = the value written − the value read (0 without a store in an
// honest witness; on a cycle without an access it only ever meets ra = 0, so nothing constrains
// it there), and the ℓK bits of a(j); h comes from the bytecode (the Load and Store flags). Virtual: ra,
// Val(k, j) = Init(k) + Σ_{j' < j} Inc(j')·ra(k, j') (the word k before cycle j), and
// Val_final(k) = Init(k) + Σ_j Inc(j)·ra(k, j).
//
// Members (each a sumcheck member a caller may batch with others; `final` functions are the
// verifier's expected summand at the member's point, to be multiplied by its batch coefficient):
//  1. ReadWrite (ℓT + ℓK rounds, degree 3): for the R1CS claims rv(r) = RamReadValue(r),
//     wv(r) = RamWriteValue(r) at a cycle point r,
//       rv(r) + γ·wv(r) = Σ_{j,k} eq(r, j)·ra(k, j)·[(1 + γ)·Val(k, j) + γ·Inc(j)].
//     The cycle variables are bound first, least significant first (the prover keeps one sparse
//     entry per access and merges neighbouring time blocks, Θ(accesses) per round), then the
//     address variables, most significant first, over dense K-entry tables. Outputs
//     ra(r_addr, r_c), Val(r_addr, r_c), Inc(r_c), r_c the cycle challenges in reverse order
//     (read_write_points).
//  2. Raf (ℓK rounds, degree 2): RamAddress(r) = Σ_k unmap(k)·ra(k, r), RamAddress(j) the R1CS
//     address column (0 without an access). Output ra(r_addr, r).
//  3. OutputCheck (ℓK rounds, degree 3): 0 = Σ_k eq(r', k)·io_mask(k)·(Val_final(k) − io(k))
//     for fresh r', io the public words the final memory must hold (the output region).
//     Output Val_final(r_addr).
//  Members 2 and 3, batched tail-aligned with 1, share its address point r_addr.
//  4. ValCheck (ℓT rounds, degree 3):
//       [Val(r_addr, r_c) − Init(r_addr)] + γ·[Val_final(r_addr) − Init(r_addr)]
//         = Σ_j Inc(j)·ra(r_addr, j)·(LT(j, r_c) + γ),
//     LT(j, y) = [j < y]; the verifier evaluates Init(r_addr) from the public image. Outputs
//     Inc(r4), ra(r_addr, r4).
//  5. RaVirtualization (ℓT rounds, degree ℓK + 2; lookups/ra_virtualization.hpp with a gate):
//     the claims ra(r_addr, r_i) at the three cycle points, β-combined, are
//     Σ_j Σ_i β^i eq(r_i, j)·h(j)·Π_b eq(r_addr_b, bit_b(j)), plus booleanity of the bits.
//     Outputs bit_b(r6), h(r6).
// prove_ram / verify_ram run 1–3, 4 and 5 as three batches on one transcript; the verifier
// leaves to the caller the openings the commitment and the bytecode must confirm
// (RamOpenings) — the input claims rv, wv and RamAddress at r are the caller's too.
//
// Variable order: big-endian (poly/multilinear.hpp); compact addresses' MSB first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/sumcheck/batch.hpp>
#include <jolt/prover/sumcheck/kernel.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover::memory {

// An aligned block of compact words: compact indices [compact_base, compact_base + 2^log_words)
// hold the guest words at address, address + 4, ...
struct RamSegment {
  std::uint32_t address = 0;  // word-aligned guest address of the block's first word
  std::uint32_t compact_base = 0;
  unsigned log_words = 0;
};

// A guest region a layout must cover: `words` words from `address` on (word-aligned).
struct RamRegion {
  std::uint32_t address = 0;
  std::uint32_t words = 0;
};

class RamLayout {
 public:
  // Packs each non-empty region into a block of the next power of two words (largest first, so
  // every block is aligned) and K into the next power of two (at least 2). Throws
  // std::invalid_argument for a misaligned region, a block that runs past 2^32, or two blocks
  // that share a guest address (blocks cover whole powers of two words, so regions that do not
  // overlap may still have overlapping blocks: merge them).
  static RamLayout pack(std::span<const RamRegion> regions);

  unsigned log_k() const { return log_k_; }
  std::size_t k() const { return std::size_t{1} << log_k_; }
  const std::vector<RamSegment>& segments() const { return segments_; }

  // The compact index of a word-aligned address inside a block, else nullopt.
  std::optional<std::uint32_t> compact_index(std::uint32_t address) const;
  // The guest address of compact word k, 2^32 for a word of no block.
  std::uint64_t unmap(std::uint32_t k) const;
  // The multilinear extension of unmap at r_addr (ℓK coordinates), O(segments·ℓK).
  Fr unmap_mle(std::span<const Fr> r_addr) const;

 private:
  unsigned log_k_ = 1;
  std::vector<RamSegment> segments_;
};

// Words of compact memory with their values (the initial image, or the words the final memory
// must hold); indices distinct, any order.
using RamWords = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
// Σ_w value_w·eq(r_addr, k_w): the MLE of the table that holds these words and 0 elsewhere.
Fr words_mle(const RamWords& words, std::span<const Fr> r_addr);
// Σ_w eq(r_addr, k_w): the MLE of their indicator.
Fr words_mask_mle(const RamWords& words, std::span<const Fr> r_addr);
// LT(x, y) = [int(x) < int(y)] as the multilinear extension in both arguments (big-endian),
// O(n).
Fr less_than_mle(std::span<const Fr> x, std::span<const Fr> y);

// One cycle's access; the prover's witness is one per cycle, T = 2^ℓT of them.
struct RamAccess {
  bool accessed = false;      // h(j): a load or a store
  bool store = false;         // a store (only replay reads it; a load writes back its read)
  std::uint32_t address = 0;  // compact index a(j) (kept for cycles without an access)
  std::uint32_t read = 0;     // the word before the access (0 without one)
  std::uint32_t written = 0;  // the word after it (the read value for a load; 0 without one)
};
struct RamWitness {
  unsigned log_k = 1;
  std::vector<RamAccess> cycles;
  // Throws std::invalid_argument naming the first cycle whose address is ≥ K, or that has an
  // access flag of 0 with non-zero values, or when the cycle count is not a power of two ≥ 2.
  void validate() const;
  Fr inc(std::size_t j) const {
    return Fr::from_u64(cycles[j].written) - Fr::from_u64(cycles[j].read);
  }
};

// The honest per-cycle values from an initial image: replays the accesses (`accessed`,
// `address`, `store`, and for stores `written`), fills every access's `read` and every load's
// `written` (= its read), zeroes both on cycles without an access, and returns the final
// memory as a dense K-entry table.
std::vector<Fr> replay(RamWitness& w, const RamWords& init);
// The dense K-entry table of an image (0 where no word is listed).
std::vector<Fr> dense_words(const RamWords& words, unsigned log_k);

// The claims the R1CS side makes at a cycle point r: RamReadValue(r), RamWriteValue(r),
// RamAddress(r) (the columns' MLEs; RamAddress(j) = unmap(a(j)) on accessing cycles, else 0).
struct RamCycleClaims {
  Fr read, written, address;
};
RamCycleClaims ram_cycle_claims(const RamWitness& w, const RamLayout& layout,
                                std::span<const Fr> r);

// ---- members -------------------------------------------------------------------------------
// Kernels hold spans/references to their arguments: the witness and tables outlive them.
std::unique_ptr<SumcheckKernel> make_read_write_kernel(const RamWitness& w,
                                                       std::span<const Fr> init_dense,
                                                       std::span<const Fr> r_cycle,
                                                       const Fr& gamma);
struct ReadWritePoints {
  std::vector<Fr> r_addr, r_cycle;  // both big-endian
};
ReadWritePoints read_write_points(std::span<const Fr> point, std::size_t log_t);
// outputs: {ra, val, inc} at the member's point
Fr read_write_final(std::span<const Fr> r_cycle, const Fr& gamma, std::span<const Fr> point,
                    std::size_t log_t, std::span<const Fr> outputs);

std::unique_ptr<SumcheckKernel> make_raf_kernel(const RamWitness& w, const RamLayout& layout,
                                                std::span<const Fr> r_cycle);
// outputs: {ra(r_addr, r)}; point = r_addr
Fr raf_final(const RamLayout& layout, std::span<const Fr> point, std::span<const Fr> outputs);

std::unique_ptr<SumcheckKernel> make_output_check_kernel(std::span<const Fr> final_dense,
                                                         const RamWords& io,
                                                         std::span<const Fr> r_prime);
// outputs: {Val_final(r_addr)}
Fr output_check_final(const RamWords& io, std::span<const Fr> r_prime, std::span<const Fr> point,
                      std::span<const Fr> outputs);

std::unique_ptr<SumcheckKernel> make_val_check_kernel(const RamWitness& w,
                                                      std::span<const Fr> r_addr,
                                                      std::span<const Fr> r_cycle, const Fr& gamma);
Fr val_check_input(const Fr& val, const Fr& val_final, const Fr& init_at_addr, const Fr& gamma);
// outputs: {Inc(r4), ra(r_addr, r4)}
Fr val_check_final(std::span<const Fr> r_cycle, const Fr& gamma, std::span<const Fr> point,
                   std::span<const Fr> outputs);

// ---- the three batches as one argument -------------------------------------------------------
struct RamProof {
  SumcheckProof read_write;            // batch [ReadWrite, Raf, OutputCheck]
  std::vector<Fr> read_write_outputs;  // ra, val, inc, ra_raf, val_final
  SumcheckProof val_check;
  std::vector<Fr> val_check_outputs;  // inc, ra
  SumcheckProof ra;
  std::vector<Fr> ra_outputs;  // bit_b(r6) (ℓK, MSB first), h(r6)
};

// What the verifier leaves to the caller.
struct RamOpenings {
  std::vector<Fr> address_point;     // r_addr
  std::vector<Fr> read_write_cycle;  // r_c (stage 2's cycle point)
  Fr inc_at_read_write;              // Inc(r_c)
  std::vector<Fr> val_check_cycle;   // r4
  Fr inc_at_val_check;               // Inc(r4)
  std::vector<Fr> bit_point;         // r6
  std::vector<Fr> address_bits;      // bit_b(r6), MSB first: the committed address bits
  Fr accessed;                       // h(r6): Load + Store of the bytecode
};

struct RamStatement {
  const RamLayout* layout = nullptr;
  const RamWords* init = nullptr;  // the public initial image
  const RamWords* io = nullptr;    // the words the final memory must hold
  std::size_t log_t = 0;
};

RamProof prove_ram(const RamWitness& w, const RamStatement& s, std::span<const Fr> r_cycle,
                   const RamCycleClaims& claims, Transcript& transcript, bool self_check = true);
// Checks, each a named JOLT_VERIFY: ram.shape, ram.read_write.sumcheck.*, ram.read_write.final,
// ram.val_check.sumcheck.*, ram.val_check.final, ram.ra.sumcheck.*, ram.ra.final.
std::optional<VerifyError> verify_ram(const RamStatement& s, std::span<const Fr> r_cycle,
                                      const RamCycleClaims& claims, const RamProof& proof,
                                      Transcript& transcript, RamOpenings& out);

// The same in three steps, as the pipeline runs them (stage 2: read/write, RAF and output check;
// stage 4: the Val check; stage 5: the RA virtualization), other sumchecks between them on the
// same transcript. on_prepared, if set, sees each step's kernels once their tables exist.
struct RamReadWriteStep {
  std::vector<Fr> r_addr, r_cycle;  // the read/write member's point (read_write_points)
};
using RamKernelPrepared = std::function<void(std::vector<const SumcheckKernel*>)>;
RamReadWriteStep prove_ram_read_write(const RamWitness& w, const RamStatement& s,
                                      std::span<const Fr> r_cycle, const RamCycleClaims& claims,
                                      Transcript& transcript, RamProof& proof,
                                      bool self_check = true,
                                      const RamKernelPrepared& on_prepared = {});
// Returns the Val check's cycle point r4.
std::vector<Fr> prove_ram_val_check(const RamWitness& w, const RamStatement& s,
                                    const RamReadWriteStep& rw, Transcript& transcript,
                                    RamProof& proof, bool self_check = true,
                                    const RamKernelPrepared& on_prepared = {});
// Returns the bits' point r6.
std::vector<Fr> prove_ram_ra(const RamWitness& w, std::span<const Fr> r_cycle,
                             const RamReadWriteStep& rw, std::span<const Fr> r_val_check,
                             Transcript& transcript, RamProof& proof, bool self_check = true,
                             const RamKernelPrepared& on_prepared = {});
// Each fills its part of `out` (the later ones read what the earlier ones left there).
std::optional<VerifyError> verify_ram_read_write(const RamStatement& s, std::span<const Fr> r_cycle,
                                                 const RamCycleClaims& claims,
                                                 const RamProof& proof, Transcript& transcript,
                                                 RamOpenings& out);
std::optional<VerifyError> verify_ram_val_check(const RamStatement& s, const RamProof& proof,
                                                Transcript& transcript, RamOpenings& out);
std::optional<VerifyError> verify_ram_ra(const RamStatement& s, std::span<const Fr> r_cycle,
                                         const RamProof& proof, Transcript& transcript,
                                         RamOpenings& out);

}  // namespace jolt::prover::memory
