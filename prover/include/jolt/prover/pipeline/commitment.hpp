// The commitment-scheme seam of the pipeline: commit many multilinear polynomials (one shared
// number of variables), open all of them at ONE point with batched evaluations, verify.
//
//   auto pcs = make_commitment_scheme(PcsKind::kLigero);
//   std::vector<std::uint8_t> c = pcs->commit(polys);        // absorbed into the transcript
//   std::vector<std::uint8_t> pi = pcs->open(polys, point, evals, transcript);
//   std::optional<std::string> err = verifier_pcs->verify(c, polys.size(), n, point, evals, pi, t);
//
// Prover objects are stateful (they keep what commit built for open) and single-threaded from
// the caller's view. Verification is const. Every scheme absorbs what it needs into the
// transcript itself between commit and open (e.g. its batching coefficients' inputs).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <jolt/heap.hpp>
#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/transcript/transcript.hpp>

namespace jolt::prover {

enum class PcsKind : std::uint8_t {
  kClear = 1,   // evaluations in the clear under a BLAKE2b hash: sound, proof size linear in N
  kLigero = 2,  // hash-based tensor code (prover/src/pcs, jolt_pcs)
};

class CommitmentScheme {
 public:
  virtual ~CommitmentScheme() = default;
  virtual PcsKind kind() const = 0;
  virtual std::vector<std::uint8_t> commit(const std::vector<std::vector<Fr>>& polys) = 0;
  virtual std::vector<std::uint8_t> open(const std::vector<std::vector<Fr>>& polys,
                                         std::span<const Fr> point, std::span<const Fr> evals,
                                         Transcript& transcript) = 0;
  // What the prover side keeps between commit and open, for heap snapshots (null if nothing).
  virtual const jolt::HeapReportable* prover_data() const { return nullptr; }
  // nullopt when the opening is valid; otherwise what failed.
  virtual std::optional<std::string> verify(std::span<const std::uint8_t> commitment,
                                            std::size_t num_polys, std::size_t num_vars,
                                            std::span<const Fr> point, std::span<const Fr> evals,
                                            std::span<const std::uint8_t> proof,
                                            Transcript& transcript) const = 0;
};

// Throws std::invalid_argument for a kind this build does not provide.
std::unique_ptr<CommitmentScheme> make_commitment_scheme(PcsKind kind);
PcsKind default_pcs_kind();
std::string_view pcs_name(PcsKind kind);

}  // namespace jolt::prover
