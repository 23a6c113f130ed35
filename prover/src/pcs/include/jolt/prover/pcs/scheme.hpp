// The one multilinear commitment-scheme seam of the prover. Every scheme — Basefold (default),
// Ligero, and the reveal-all scheme (evaluations in the clear, for tests) — implements it.
//
//   std::unique_ptr<CommitmentScheme> pcs = make_commitment_scheme(PcsKind::kBasefold);
//   std::vector<std::span<const Fr>> polys = {a, b};            // each 2^n entries
//   CommitOutput c = pcs->commit(polys);                        // pipeline absorbs c.commitment
//   std::vector<std::uint8_t> pi = pcs->open(*c.data, polys, point, evals, transcript);
//   std::optional<VerifyError> e = pcs->verify(c.commitment, point, evals, pi, transcript2);
//
// Variable order (every scheme, the same as EqPolynomial::evals): entry x of a table of 2^n
// entries holds f at the boolean point whose coordinate 0 is the MOST significant bit of x
// (big-endian; point[0] ↔ MSB, point[n-1] ↔ LSB).
//
// Fiat–Shamir: the caller absorbs Commitment::bytes before drawing any challenge that the
// evaluation point depends on. open and verify absorb the point and the claimed evaluations
// themselves before their first challenge, and run the same transcript sequence.
//
// Memory: a scheme never keeps a copy of the committed tables. open() is handed the same tables
// again; ProverData holds only what the scheme derived (codewords, Merkle trees) and reports it
// to heap snapshots.
//
// Thread-safety: schemes are immutable after construction; commit/open/verify are const and
// parallelise internally with TBB; results are identical at any thread count.
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
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

enum class PcsKind : std::uint8_t {
  kReveal = 1,    // every evaluation in the clear: sound, proof linear in N; tests only
  kLigero = 2,    // tensor code, one Merkle tree over columns, O(sqrt N) proof
  kBasefold = 3,  // RS code + FRI-style folding interleaved with sumcheck, polylog proof
};

struct Commitment {
  std::vector<std::uint8_t> bytes;  // what the verifier holds (e.g. a Merkle root)
  std::uint32_t num_vars = 0;       // every committed table has 2^num_vars entries
  std::uint32_t num_polys = 0;
  friend bool operator==(const Commitment&, const Commitment&) = default;
};

// What the prover side keeps between commit and open (codewords, trees), never the tables.
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
  virtual PcsKind kind() const = 0;
  virtual std::string_view name() const = 0;  // "basefold", "ligero", "reveal"
  // One line naming every parameter that fixes the scheme (rate, queries, folding arity,
  // security bits and regime), recorded in summary.json and absorbed by the pipeline.
  virtual std::string parameters() const = 0;

  // All tables have the same length 2^n, n >= 1. Throws std::invalid_argument otherwise.
  virtual CommitOutput commit(std::span<const std::span<const Fr>> polys) const = 0;

  // Proves evals[i] = f_i(point) for the committed tables `polys` (the same ones, same order).
  // Throws std::invalid_argument on mismatched shapes or a wrong evaluation.
  virtual std::vector<std::uint8_t> open(const ProverData& data,
                                         std::span<const std::span<const Fr>> polys,
                                         std::span<const Fr> point, std::span<const Fr> evals,
                                         Transcript& transcript) const = 0;

  // nullopt when the opening is valid. Never throws and never reads out of bounds on a
  // malformed proof: the VerifyError names the check that failed (e.g. "pcs.basefold.merkle").
  virtual std::optional<VerifyError> verify(const Commitment& commitment,
                                            std::span<const Fr> point, std::span<const Fr> evals,
                                            std::span<const std::uint8_t> proof,
                                            Transcript& transcript) const = 0;
};

// Each kind with its default parameters. Throws std::invalid_argument for an unknown kind.
std::unique_ptr<CommitmentScheme> make_commitment_scheme(PcsKind kind);
PcsKind default_pcs_kind();
std::string_view pcs_name(PcsKind kind);
std::optional<PcsKind> parse_pcs_kind(std::string_view name);

}  // namespace jolt::prover
