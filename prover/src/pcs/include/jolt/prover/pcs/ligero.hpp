// Ligero-style hash-based multilinear PCS over Fr: Reed–Solomon-encoded rows, one Merkle tree
// over the columns of every committed polynomial, same-point batched opening.
//
//   jolt::prover::pcs::LigeroPCS pcs;                         // rate 1/4, 100-bit, q = 148
//   auto [com, data] = pcs.commit(polys);                     // polys: spans of 2^n Fr each
//   LigeroProof proof = pcs.prove(*data, polys, point, evals, prover_transcript);
//   std::vector<std::uint8_t> bytes = proof.encode();         // == pcs.open(...)
//   std::optional<VerifyError> e = pcs.verify(com, point, evals, bytes, verifier_transcript);
//
// Geometry. With n variables, c = ⌈n/2⌉ (+ LigeroParams::extra_log_cols, capped at n) low
// variables index the m = 2^c columns and the n − c high ones the R = 2^(n−c) rows:
// M_i[a][b] = f_i[a·m + b]. Variable order as scheme.hpp (big-endian): the first n − c
// coordinates r_hi = point[0..n−c) select the row, the last c, r_lo = point[n−c..n), the
// column. Each row is read as the
// coefficients of a polynomial of degree < m and encoded by evaluating it on the 4m-th roots of
// unity (NTT). Leaf j of the single Merkle tree is hash_leaf(Enc(M_0)[0][j], …, Enc(M_0)[R−1][j],
// Enc(M_1)[0][j], …): column j of every polynomial, so one path opens all k polynomials.
//
// Protocol (open and verify run the same transcript sequence):
//   absorb commitment (root, n, k, rate, c, q), point, evaluations
//   ρ ← challenge;  γ ← challenge
//   prover sends w = Σ_{i,a} ρ^(iR+a) · M_i[a]            (proximity row, m elements)
//               u = Σ_i γ^i Σ_a eq(r_hi, a) · M_i[a]       (evaluation row, m elements)
//   absorb w, u;  q column indices j ← challenge_u64 mod 4m (with replacement; duplicates are
//   opened once, so the proof holds the columns at the sorted distinct indices; the indices
//   themselves are not sent, the verifier draws them)
//   verifier: ⟨u, eq(r_lo)⟩ = Σ_i γ^i v_i, and at each opened column (Merkle path to the root)
//             Enc(w)[j] = Σ ρ^(iR+a) col_j[i,a] and Enc(u)[j] = Σ γ^i eq(r_hi,a) col_j[i,a].
//
// Soundness (why q = 148 for 100 bits at rate 1/4). The code C = RS[4m, m] has relative
// distance d = 1 − (m−1)/4m > 3/4; take δ = 3/8 < d/2, the unique-decoding radius (rounded down,
// which is conservative). Stack all kR committed rows (whatever the Merkle leaves bind, codeword
// or not) into one interleaved word U ∈ Fr^(kR × 4m).
//  (1) U is δ-far from the interleaved code C^(kR) (more than δ·4m columns would have to
//      change). By the correlated-agreement (proximity-gap) property of RS codes in the
//      unique-decoding regime, for combinations along a degree-(kR−1) curve (powers of one ρ),
//      Σ ρ^t U_t is δ-far from C except with probability ≤ (kR−1)·4m/|Fr| < 2^-200 for any
//      practical size. The
//      verifier encodes w itself, so Enc(w) ∈ C and it differs from the opened combination on >
//      δ·4m columns; every query hits one with probability ≥ δ.
//  (2) U is δ-close: each row has a unique nearest codeword, defining the polynomials f_i* the
//      prover is bound to; the corrupted columns form a set E with |E| ≤ δ·4m. If some claimed
//      v_i ≠ f_i*(r) then, except with probability (k−1)/|Fr| over γ, the check on ⟨u, eq(r_lo)⟩
//      forces u ≠ u*, the honest combination of the decoded rows; Enc(u) and Enc(u*) are
//      distinct codewords, agreeing on < 1/4 of the columns, while the opened combination equals
//      Enc(u*) outside E. So Enc(u) matches the opened combination on < (1/4 + 3/8)·4m columns
//      and each query catches it with probability ≥ 3/8.
//  Either way a cheating prover survives q independent uniform queries with probability
//  ≤ (1 − δ)^q = (5/8)^q; (5/8)^q ≤ 2^-λ ⇔ q ≥ λ / log2(8/5) = λ / 0.678: λ = 100 → q = 148.
//  At λ = 128 the same bound gives q = 189 (128 / 0.678 = 188.8); set
//  LigeroParams::security_bits = 128 for that. The leaves bind every polynomial and ρ
//  is drawn after the root is absorbed, as required. This is the interactive (statistical)
//  bound; after Fiat–Shamir a prover making 2^t transcript-hash queries can grind the query
//  draw, so the non-interactive bound is ≈ λ − t bits (hash collision resistance: 128 bits).
//  Not hiding: the proof reveals w, u and q columns of the encoded matrix.
//
// Memory: the prover data holds the encoded rows and the Merkle tree, never the tables; prove()
// reads the rows of the committed tables it is handed again.
//
// Thread-safety: LigeroPCS is immutable; commit/prove/verify are const, parallelise internally
// with TBB, and may be called concurrently. LigeroProverData is immutable after commit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>
#include <jolt/prover/pcs/scheme.hpp>

namespace jolt::prover::pcs {

struct LigeroParams {
  unsigned log_inv_rate = 2;     // rate 1/4
  unsigned security_bits = 100;  // λ of the query phase
  // Columns get c = min(n, ⌈n/2⌉ + extra_log_cols) variables. 0 is the square matrix;
  // the proof (2m + q·kR field elements) is smallest near m ≈ √(q·k·2^n / 2), i.e. 2–3 extra
  // column bits at 2^20, at the price of longer NTTs. Absorbed into the transcript.
  unsigned extra_log_cols = 0;
  // q = ⌈λ / −log2(1 − δ)⌉ with δ = (1 − rate)/2 (unique decoding). 148 for the defaults.
  unsigned num_queries() const;
  double decoding_radius() const;
  // One line naming every parameter (CommitmentScheme::parameters()).
  std::string describe() const;
};

// The matrix geometry shared by prover and verifier.
struct LigeroShape {
  std::uint32_t num_vars = 0;
  std::uint32_t num_polys = 0;
  unsigned log_cols = 0;  // c = min(n, ⌈n/2⌉ + extra_log_cols)
  unsigned log_rows = 0;  // n − c
  unsigned log_inv_rate = 2;
  static LigeroShape make(std::uint32_t num_vars, std::uint32_t num_polys,
                          const LigeroParams& params);
  // False if the codeword length exceeds the NTT domains of Fr (2^28).
  bool supported() const { return log_cols + log_inv_rate <= Fr::two_adicity(); }
  std::size_t cols() const { return std::size_t{1} << log_cols; }
  std::size_t rows() const { return std::size_t{1} << log_rows; }
  std::size_t codeword_len() const { return cols() << log_inv_rate; }
  std::size_t column_height() const { return rows() * num_polys; }  // Fr per opened column
};

// Opened column s is at the s-th smallest distinct query index the transcript draws.
struct LigeroColumnOpening {
  std::vector<Fr> values;    // column_height() entries, polynomial-major then row
  std::vector<Digest> path;  // log2(codeword_len) siblings, leaf level first
};

struct LigeroProof {
  std::vector<Fr> eval_row;       // u
  std::vector<Fr> proximity_row;  // w
  std::vector<LigeroColumnOpening> columns;

  // Layout (codec.hpp, all little-endian): "JLGR" | u32 version=2 | u64 row_len |
  // u64 column_height | u64 path_len | u64 num_columns | u (row_len × 32) | w (row_len × 32) |
  // per column: values (column_height × 32) | path (path_len × 32). Field elements canonical.
  std::vector<std::uint8_t> encode() const;
  std::size_t encoded_size() const;
  // Never throws: truncation, trailing bytes, counts beyond the input, non-canonical field
  // elements and a bad magic/version give a VerifyError ("decode.*", "pcs.ligero.magic",
  // "pcs.ligero.version"), never a crash or a huge allocation.
  static std::optional<VerifyError> decode(std::span<const std::uint8_t> bytes, LigeroProof& out);
};

// A fixed-size Fr array whose storage is not zero-filled on allocation: commit writes every
// entry from TBB workers, so the pages are first touched in parallel instead of by a serial
// memset. Move-only.
class FrArray {
 public:
  FrArray() = default;
  explicit FrArray(std::size_t n);
  std::size_t size() const { return n_; }
  Fr* data() { return p_.get(); }
  const Fr* data() const { return p_.get(); }
  Fr& operator[](std::size_t i) { return p_[i]; }
  const Fr& operator[](std::size_t i) const { return p_[i]; }
  std::span<Fr> span() { return {p_.get(), n_}; }
  std::span<const Fr> span() const { return {p_.get(), n_}; }

 private:
  struct Free {
    void operator()(Fr* p) const noexcept;
  };
  std::unique_ptr<Fr[], Free> p_;
  std::size_t n_ = 0;
};

class LigeroProverData final : public ProverData {
 public:
  std::uint32_t num_vars() const override { return shape.num_vars; }
  std::uint32_t num_polys() const override { return shape.num_polys; }
  void visit_heap(jolt::HeapVisitor& v) const override;

  LigeroShape shape;
  FrArray encoded;  // k·R·4m: poly-major, then row, then codeword position
  MerkleTree tree;
};

class LigeroPCS final : public CommitmentScheme {
 public:
  explicit LigeroPCS(LigeroParams params = {});
  PcsKind kind() const override { return PcsKind::kLigero; }
  std::string_view name() const override { return "ligero"; }
  std::string parameters() const override;
  const LigeroParams& params() const { return params_; }

  using CommitmentScheme::commit;
  using CommitmentScheme::open;
  CommitOutput commit(const PolynomialBatch& polys) const override;
  std::vector<std::uint8_t> open(const ProverData& data, const PolynomialBatch& polys,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript) const override;
  std::optional<VerifyError> verify(const Commitment& commitment, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript& transcript) const override;

  // Typed variants of open/verify.
  //
  // Testing seam (a malicious prover): `alter_rows`, when set, edits the evaluation row u and
  // the proximity row w after the honest prover computes them and before they are absorbed, and
  // replaces the prover's claim self-check; the opened columns then follow the altered
  // transcript exactly as a cheating prover's would.
  using AlterRows = std::function<void(std::vector<Fr>& eval_row, std::vector<Fr>& proximity_row)>;
  LigeroProof prove(const LigeroProverData& data, std::span<const std::span<const Fr>> polys,
                    std::span<const Fr> point, std::span<const Fr> evals, Transcript& transcript,
                    const AlterRows& alter_rows = {}) const;
  std::optional<VerifyError> verify_proof(const Commitment& commitment, std::span<const Fr> point,
                                          std::span<const Fr> evals, const LigeroProof& proof,
                                          Transcript& transcript) const;

  // Upper bound of the encoded proof size for a shape (exact when no query index repeats).
  std::size_t max_proof_size(std::uint32_t num_vars, std::uint32_t num_polys) const;

 private:
  LigeroParams params_;
};

}  // namespace jolt::prover::pcs
