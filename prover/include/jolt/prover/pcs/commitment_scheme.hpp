// The multilinear polynomial commitment interface of the prover: commit a batch of polynomials
// given by their hypercube evaluation tables, open them all at one shared point under a
// Fiat–Shamir transcript, verify. Ligero (ligero.hpp) is the first implementation.
//
//   jolt::prover::pcs::LigeroPCS pcs;                        // any CommitmentScheme
//   std::vector<std::span<const Fr>> polys = {a, b};         // each of length 2^n
//   auto [commitment, data] = pcs.commit(polys);
//   std::vector<std::uint8_t> proof = pcs.open(*data, r, evals, prover_transcript);
//   jolt::Status ok = pcs.verify(commitment, r, evals, proof, verifier_transcript);
//
// Variable / index order (every scheme): entry x of a table holds f at the boolean point whose
// coordinate i is bit i of x, i.e. point[i] ↔ bit i (LITTLE-endian; point[0] ↔ the LSB). The
// engine's EqPolynomial::evals is big-endian (r[0] ↔ MSB): pass the reversed point to the PCS.
//
// Fiat–Shamir: open and verify absorb the commitment, the point and the claimed evaluations
// themselves before drawing any challenge, so the caller only has to keep both transcripts in the
// same state before the call. Absorbing the commitment earlier (e.g. before drawing the point) is
// recommended and harmless.
//
// Thread-safety: schemes are stateless after construction; commit/open/verify are const and may
// run concurrently on different arguments (each parallelises internally with TBB). A Transcript
// is not thread-safe; ProverData is immutable after commit and may be shared for reading.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/heap.hpp>
#include <jolt/prover/field/fr.hpp>
#include <jolt/status.hpp>

namespace jolt::prover::pcs {

// The minimal Fiat–Shamir transcript a PCS needs. Implementations must make every challenge a
// function of all prior absorbs (labels included) and of the number of prior draws.
// See transcript_adapter.hpp to wrap the engine's jolt::prover::Transcript, and
// blake2b_transcript.hpp for a standalone reference implementation.
class Transcript {
 public:
  virtual ~Transcript() = default;
  virtual void absorb(std::string_view label, std::span<const std::uint8_t> payload) = 0;
  // A uniformly random field element (bias ≤ 2^-128 is acceptable).
  virtual Fr challenge_fr(std::string_view label) = 0;
  // 64 uniformly random bits.
  virtual std::uint64_t challenge_u64(std::string_view label) = 0;

  // Convenience: canonical 32-byte little-endian encodings, concatenated.
  void absorb_frs(std::string_view label, std::span<const Fr> values);
  void absorb_u64(std::string_view label, std::uint64_t v);
};

// What the verifier holds: scheme-specific bytes (Ligero: the 32-byte Merkle root) plus the shape.
struct Commitment {
  std::vector<std::uint8_t> bytes;
  std::uint32_t num_vars = 0;   // every committed polynomial has 2^num_vars evaluations
  std::uint32_t num_polys = 0;  // batch size
  friend bool operator==(const Commitment&, const Commitment&) = default;
};

// Prover-side state kept between commit and open (encoded matrix, Merkle tree, ...).
class ProverData : public jolt::HeapReportable {
 public:
  virtual std::uint32_t num_vars() const = 0;
  virtual std::uint32_t num_polys() const = 0;
};

struct CommitOutput {
  Commitment commitment;
  std::unique_ptr<ProverData> data;
};

class CommitmentScheme {
 public:
  virtual ~CommitmentScheme() = default;
  virtual std::string_view name() const = 0;

  // All tables must have the same power-of-two length 2^n. Throws std::invalid_argument otherwise.
  virtual CommitOutput commit(std::span<const std::span<const Fr>> polys) const = 0;

  // Proves evals[i] = f_i(point) for every committed f_i; returns the encoded proof.
  // Throws std::invalid_argument on mismatched sizes or if an evaluation is wrong.
  virtual std::vector<std::uint8_t> open(const ProverData& data, std::span<const Fr> point,
                                         std::span<const Fr> evals,
                                         Transcript& transcript) const = 0;

  // Never throws on malformed proofs: returns an error Status saying what failed.
  virtual jolt::Status verify(const Commitment& commitment, std::span<const Fr> point,
                              std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                              Transcript& transcript) const = 0;
};

}  // namespace jolt::prover::pcs
