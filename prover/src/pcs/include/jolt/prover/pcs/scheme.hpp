// The one multilinear commitment-scheme seam of the prover. Every scheme — Basefold (default),
// Ligero, and the reveal-all scheme (evaluations in the clear, for tests) — implements it.
//
//   std::unique_ptr<CommitmentScheme> pcs = make_commitment_scheme(PcsKind::kBasefold);
//   std::vector<std::span<const Fr>> polys = {a, b};            // each 2^n entries
//   CommitOutput c = pcs->commit(polys);                        // pipeline absorbs c.commitment
//   std::vector<std::uint8_t> pi = pcs->open(*c.data, polys, point, evals, transcript);
//   std::optional<VerifyError> e = pcs->verify(c.commitment, point, evals, pi, transcript2);
//
// The tables reach a scheme as a PolynomialBatch, read a block at a time, so the caller may keep
// them in any form: the prover stores its witness columns as small integers where they fit
// (jolt/prover/pipeline/witness_columns.hpp). Spans of Fr are adapted by SpanBatch (the
// span overloads of commit and open do that).
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
#include <cstddef>
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

// k tables of the same length, read a block at a time.
class PolynomialBatch {
 public:
  virtual ~PolynomialBatch() = default;
  virtual std::size_t num_polys() const = 0;
  virtual std::size_t table_size() const = 0;  // entries of every table
  // out[j] = entry begin + j of table i (begin + out.size() <= table_size()).
  virtual void read(std::size_t i, std::size_t begin, std::span<Fr> out) const = 0;
  // acc[j] += coeff · (entry begin + j of table i). The default reads the block first.
  virtual void accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                          std::span<Fr> acc) const;
  // acc[j] += Σ_q coeffs[q] · (entry begin + j of table tables[q]). Tables the batch gives as
  // bits over the range (read_bits) are taken eight at a time: each entry then adds the one sum
  // of the coefficients its eight bits select (from a table of 256 subset sums) instead of eight
  // coefficients; the others by accumulate. The same field elements as accumulate per table.
  void accumulate_many(std::span<const std::uint32_t> tables, std::span<const Fr> coeffs,
                       std::size_t begin, std::span<Fr> acc) const;
  // Table i itself when it is stored as Fr entries, else an empty span (callers then read).
  virtual std::span<const Fr> view(std::size_t i) const;
  // When the batch stores entries begin .. begin + out.size() − 1 of table i as bits (so each is
  // 0 or 1), out[j] = entry begin + j and true; else false (out unspecified). The default: false.
  virtual bool read_bits(std::size_t i, std::size_t begin, std::span<std::uint8_t> out) const;
};

// A batch over spans of Fr (no copy; the spans must outlive it).
class SpanBatch final : public PolynomialBatch {
 public:
  explicit SpanBatch(std::span<const std::span<const Fr>> polys) : polys_(polys) {}
  std::size_t num_polys() const override { return polys_.size(); }
  std::size_t table_size() const override { return polys_.empty() ? 0 : polys_[0].size(); }
  void read(std::size_t i, std::size_t begin, std::span<Fr> out) const override;
  void accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                  std::span<Fr> acc) const override;
  std::span<const Fr> view(std::size_t i) const override { return polys_[i]; }

 private:
  std::span<const std::span<const Fr>> polys_;
};

// Every table of a batch as a span of Fr: the batch's own storage where view() gives it, else a
// copy held here (for schemes that read whole tables, e.g. Ligero's row layout). Throws
// std::invalid_argument when the tables differ in length (the message names `who`).
class BatchTables {
 public:
  BatchTables(const PolynomialBatch& batch, const char* who);
  std::span<const std::span<const Fr>> spans() const { return spans_; }

 private:
  std::vector<std::vector<Fr>> copies_;
  std::vector<std::span<const Fr>> spans_;
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

  // The largest n for which tables of 2^n entries can be committed (the prover refuses longer
  // traces before extracting a witness).
  virtual unsigned max_num_vars() const { return 40; }

  // All tables have the same length 2^n, n >= 1. Throws std::invalid_argument otherwise.
  virtual CommitOutput commit(const PolynomialBatch& polys) const = 0;
  CommitOutput commit(std::span<const std::span<const Fr>> polys) const {
    return commit(SpanBatch(polys));
  }

  // Proves evals[i] = f_i(point) for the committed tables `polys` (the same ones, same order).
  // Throws std::invalid_argument on mismatched shapes or a wrong evaluation.
  virtual std::vector<std::uint8_t> open(const ProverData& data, const PolynomialBatch& polys,
                                         std::span<const Fr> point, std::span<const Fr> evals,
                                         Transcript& transcript) const = 0;
  std::vector<std::uint8_t> open(const ProverData& data, std::span<const std::span<const Fr>> polys,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript) const {
    return open(data, SpanBatch(polys), point, evals, transcript);
  }

  // nullopt when the opening is valid. Never throws and never reads out of bounds on a
  // malformed proof: the VerifyError names the check that failed (e.g. "pcs.basefold.merkle").
  virtual std::optional<VerifyError> verify(const Commitment& commitment, std::span<const Fr> point,
                                            std::span<const Fr> evals,
                                            std::span<const std::uint8_t> proof,
                                            Transcript& transcript) const = 0;
};

// Each kind with its default parameters. Throws std::invalid_argument for an unknown kind.
std::unique_ptr<CommitmentScheme> make_commitment_scheme(PcsKind kind);
PcsKind default_pcs_kind();
std::string_view pcs_name(PcsKind kind);
std::optional<PcsKind> parse_pcs_kind(std::string_view name);

}  // namespace jolt::prover
