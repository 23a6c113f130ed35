// Basefold: a multilinear polynomial commitment over BN254 Fr with polylogarithmic proofs —
// Reed–Solomon codewords under BLAKE2b Merkle trees, opened by a sumcheck interleaved with
// FRI-style folding. Opens a batch of committed polynomials together at one point.
//
//   auto pcs = jolt::prover::make_basefold_commitment();        // the CommitmentScheme seam, or
//   jolt::prover::basefold::Basefold bf;                        // rate 1/4, 100 bits (see below)
//   std::vector<std::span<const Fr>> polys = {a, b};            // each 2^n entries, n >= 1
//   basefold::Committed c = bf.commit(polys);                   // caller absorbs c.root
//   std::vector<std::uint8_t> pi = bf.open(*c.data, polys, point, evals, prover_transcript);
//   std::optional<VerifyError> e =
//       bf.verify(c.root, n, k, point, evals, pi, verifier_transcript);   // nullopt: accepted
//
// Variable order (big-endian, as EqPolynomial::evals): entry x of a table is f at the boolean
// point whose coordinate 0 is the MOST significant bit of x; point[0] ↔ MSB, point[n-1] ↔ LSB.
//
// Code. A table f of 2^n entries is read as the coefficients of P(X) = Σ_x f[x]·X^x (degree
// < 2^n) and encoded as C[j] = P(ω^j) on the natural-order domain of size M = 2^(n+R), ω a
// primitive M-th root of unity, R = log_inv_rate (rate ρ = 2^-R; the default R = 2).
// Writing P(X) = Pe(X²) + X·Po(X²) (Pe: the even-indexed entries, Po: the odd ones), folding the
// LSB variable with α, f'[y] = (1−α)·f[2y] + α·f[2y+1], has the codeword
//   C'[j] = (1−α)·(C[j] + C[j+M/2])/2 + α·(C[j] − C[j+M/2])/(2ω^j),   j < M/2,
// because ω^(j+M/2) = −ω^j; C' is the RS codeword of f' on the domain of size M/2 (generator ω²),
// again at rate ρ. So a fold step reads the pair (j, j+M/2) of one layer and lands on position j
// of the next; 2^a steps read the coset {ℓ + t·M/2^a : t < 2^a} and land on position ℓ.
//
// Commit. The k tables are encoded G = leaf_group at a time, one coset at a time (CosetEncoder:
// the entries ℓ ≡ r mod R of each codeword, N of its M, so a buffer of G cosets is reused and no
// codeword is ever held whole), and ONE Merkle tree is built over M/2 leaves: leaf ℓ holds the
// pairs (C_i[ℓ], C_i[ℓ+M/2]) of every polynomial i, so one path opens the pair that the first fold
// step combines, for every polynomial. Its digest is chained over the groups of G polynomials: d_0
// = hash_leaf_step(none, C_0[ℓ], C_0[ℓ+M/2], …, C_{G−1}[ℓ+M/2]), d_g = hash_leaf_step(d_{g−1},
// group g's pairs) (hash.hpp: BLAKE2b of the values, the chaining value in its salt and
// personal; one compression per step for G ≤ 2), leaf digest = the last d_g; so each group's cosets
// are hashed into the leaves (C_i[ℓ] and C_i[ℓ+M/2] lie in one coset) and dropped before the next
// coset is encoded. The commitment is the root (32 bytes). The tree holds leaf ℓ at position
// 4·(ℓ mod M/8) + ℓ/(M/8): level-2 node m covers the leaves m, m + M/8, m + M/4, m + 3M/8. Prover
// data = that tree only, from level 2 up (M/8 digests at its bottom, a quarter of the digests of
// the whole tree): no codeword, no leaf digest and no copy of the tables is kept (open() is handed
// the tables again and answers the layer-0 queries with rs_encode_at: each table's codeword at
// the pairs of the four leaves under each opened leaf's level-2 node — at most 8q positions, the
// eight of a node all ≡ m mod M/8, so one Horner base of rs_encode_at serves them — from which it
// also recomputes the level-0 and level-1 siblings).
//
// Open (open and verify run the same transcript sequence):
//   absorb "basefold/statement" (parameters(), root, n, k), "basefold/point", "basefold/evals";
//   γ ← challenge.  f = Σ γ^i f_i (tables combined: k·2^n mult-adds, no codeword is combined
//   or re-encoded), claim = Σ γ^i v_i; E = eq(point, ·) over 2^n entries.
//   Round i = 0, 1, …, n_f − 1 (n_f = 1 + a·L folds, a = log_fold, L coset layers), binding the
//   LSB variable of what remains (point[n−1−i]):
//     if i = 1 + a·l (l < L): encode the current table (2^(n−i) entries) → oracle O_{l+1} on a
//       domain of M_{l+1} = 2^(n−i+R); Merkle tree whose leaf ℓ < M_{l+1}/2^a holds the coset
//       O[ℓ + t·M_{l+1}/2^a], t < 2^a; absorb its root;
//     send g_i(0), g_i(2) of g_i(t) = Σ_y (E[2y] + t(E[2y+1]−E[2y]))·(f[2y] + t(f[2y+1]−f[2y]))
//       (degree 2; the verifier sets g_i(1) = claim − g_i(0)); α_i ← challenge;
//       claim ← g_i(α_i); f, E ← folded with α_i.
//   L = ⌈(n − 1 − s)/a⌉ if n − 1 > s else 0 (s = final_log_max), so the final table has
//   2^(n−n_f) ≤ 2^s entries: it is sent in the clear and absorbed. Grinding: the prover finds the
//   smallest nonce with the low pow_bits bits of BLAKE2b-256(state ‖ "basefold/pow" ‖ nonce) zero
//   (state: the transcript state after the final message), absorbs it. Then q query indices
//   j ∈ [0, M/2) are drawn from challenge_bytes (uniform: M/2 is a power of two).
//   Layer-0 leaves (2k values each) are hashed as at commit: chained over groups of G tables.
//   The proof lists the q indices (u32 each); per layer it holds the leaves at the distinct sorted
//   query positions and ONE batch of Merkle siblings for all of them (multi-proof: a sibling is
//   sent only when the verifier cannot compute it), level by level from the leaves, in increasing
//   node order (at layer 0, of the leaves' tree positions above).
// Verify: decode; the parameters written in the proof must equal the verifier's own (they are
//   never read from it); every count must match the shape the verifier derives from n, k and its
//   parameters; replay the transcript; at the indices the proof lists (each < M/2) rebuild per
//   layer the root from the opened leaves and the siblings; per query fold layer 0's pair (combined
//   with γ^i), then each coset a times, checking each landing value against the next layer's opened
//   coset and the last one against Enc(final message); finally claim = Σ_y E_f[y]·final[y] with
//   E_f[y] = eq(point[0..n−n_f), y)·Π_i eq(point[n−1−i], α_i); last, the grinding nonce and that
//   the listed indices are exactly the drawn ones (checked last so that a proof for another
//   commitment is rejected at its Merkle roots, not at the first transcript divergence). Checks
//   (VerifyError::check): pcs.basefold.statement, .decode, .params, .proof_shape, .query_range,
//   .leaf_count, .sibling_count, .merkle, .fold, .final_codeword, .final_sum, .pow, .query_index.
//
// Soundness (defaults: ρ = 1/4, Johnson regime with m = 16, q = 88 queries, 16 bits of grinding,
//   a = 4, s = 8). Both regimes rest on proven results; the composition below follows them and
//   is written out as a sketch, not as a theorem of its own.
//   Johnson regime (the default): δ = 1 − √ρ·(1 + 1/(2m)) = 0.4844 for m = 16, below the Johnson
//   radius 1 − √ρ = 1/2. The error of the interactive protocol is at most
//     ε = ε_pg + ε_list + (1 − δ)^q,
//   where ε_pg bounds the proximity-gap failures: the batching combination (γ-powers, a
//   degree-(k−1) curve) and each of the n_f folds (an affine line in the two halves) keep a word
//   far from the code far from it except with probability ≤ (k−1)·(m + 1/2)^7·M²/(3·ρ^{3/2}·|Fr|)
//   per application (correlated agreement up to the Johnson bound, and FRI-style soundness in
//   the list-decoding regime: the papers are named in docs/prover-design.md §11, "Soundness
//   error"). ε_list bounds the evaluation claim: within δ a word has at most L ≤ m/ρ = 64 codewords
//   (Johnson bound), and a false claim survives the sumcheck rounds and the final check for one
//   of them only if two distinct multilinear candidates agree at the verifier's random point:
//   ≤ L²·2·n_f/|Fr| (the list-decoding analysis of Basefold, named there too). Otherwise some
//   fold/final value disagrees with every listed codeword on more than a δ fraction of
//   positions and each uniform query passes with probability
//   ≤ 1 − δ = √ρ·(1 + 1/(2m)) = 0.5156. With |Fr| > 2^253, M ≤ 2^28, k < 2^16, n_f ≤ 28 < 2^5,
//   m = 16: (m + 1/2)^7 < 2^28.4, ρ^{-3/2} = 8, so ε_pg < 2^(5 + 16 + 28.4 + 3 + 56 − 253) <
//   2^-144 and ε_list < 2^-230; ε ≤ 0.5156^q + 2^-144 = 2^-(0.9556·q) = 2^-84.09 for q = 88
//   (statistical).
//   Behind the seam (stacked_params: ρ = 1/2, the rest as above): δ = 1 − √(1/2)·(1 + 1/32) =
//   0.2708, each query passes with probability ≤ 0.7292 (0.4556 bits), so q = 185;
//   ρ^{-3/2} = 2^1.5 gives ε_pg < 2^-146, L ≤ m/ρ = 32 gives ε_list < 2^-237, and
//   ε ≤ 0.7292^185 + 2^-146 = 2^-84.29 (statistical), 2^-100.29 with the 16 bits of grinding.
//   Unique-decoding regime (Regime::kUniqueDecoding): δ = (1 − ρ)/2 = 3/8 < d/2 with d > 1 − ρ
//   the code's relative distance; each δ-close word decodes uniquely, the proximity-gap terms
//   are ≤ (k−1)·M/|Fr| and n_f·M/|Fr| (the same proximity-gap paper's unique-decoding case),
//   the sumcheck term 2·n_f/|Fr|, and each query passes with probability ≤ 1 − δ = 5/8: 0.678 bits
//   per query, q = 124 with 16 bits of grinding, 148 without. Grinding is counted as in the
//   Fiat–Shamir setting: each fresh draw of the query indices costs the prover 2^pow_bits BLAKE2b
//   evaluations in expectation, so a prover making at most 2^t hash calls succeeds with probability
//   ≤ 2^t·2^-(84.09+16) = 2^(t − 100.09), i.e. λ = −log2(1 − δ)·q + pow_bits ≥ 100 (counted
//   bits: 84.09 statistical + 16 grinding; the collision resistance of BLAKE2b-256, 128 bits,
//   bounds the Merkle binding). q = ⌈(λ − pow_bits) / −log2(1 − δ)⌉ (Params::num_queries); the
//   proof records q and the verifier compares it with its own, so a proof made under another regime
//   is rejected (pcs.basefold.params). Hash: BLAKE2b-256, leaves (0x00 ‖ values) and nodes (0x01 ‖
//   left ‖ right) domain-separated (hash.hpp). Not hiding: the proof reveals codeword values.
//
// Thread-safety: Basefold is immutable; commit/open/verify are const, parallelise with TBB and
// produce byte-identical results at any thread count (exact field arithmetic; the grinding
// search is sequential). CommitmentTree is immutable after commit.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <jolt/heap.hpp>
#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>
#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {
// Basefold with its default parameters behind the CommitmentScheme seam (PcsKind::kBasefold),
// committing the tables stacked basefold::kDefaultLogStack at a time (stacked.hpp).
std::unique_ptr<CommitmentScheme> make_basefold_commitment();
}  // namespace jolt::prover

namespace jolt::prover::basefold {

using pcs::Digest;

// Tables per committed polynomial behind the seam: 2^2 = 4 (docs/prover-design.md §1).
inline constexpr unsigned kDefaultLogStack = 2;

// Which proximity bound sets the query count (the soundness note above).
enum class Regime : std::uint8_t {
  kUniqueDecoding,  // δ = (1 − ρ)/2, per-query error 1 − δ = (1 + ρ)/2
  kJohnson,         // δ = 1 − √ρ·(1 + 1/(2m)), per-query error √ρ·(1 + 1/(2m))
};

struct Params {
  unsigned log_inv_rate = 2;     // R: rate ρ = 2^-R
  unsigned security_bits = 100;  // λ, grinding included
  unsigned pow_bits = 16;        // grinding on the query seed
  Regime regime = Regime::kJohnson;
  unsigned johnson_m = 16;  // m ≥ 3: the Johnson regime's distance from √ρ (list size ≤ m/ρ)
  unsigned log_fold = 4;    // a: variables folded per committed oracle after the first
  unsigned final_log_max = 8;  // s: the final message has ≤ 2^s entries
  unsigned leaf_group = 2;     // G: polynomials per step of a layer-0 leaf digest (and per
                               // encoding pass: the prover holds G codewords at a time). A
                               // step hashes 64·G bytes (the chaining value rides in the
                               // parameter block, hash.hpp): G = 2 fills one BLAKE2b block
                               // (0.5 compressions per polynomial; G = 1: 1, G = 3: 0.67)
                               // with a buffer of 2 codewords.
  // q = ⌈(λ − pow_bits) / −log2(1 − δ)⌉ with δ = decoding_radius(): 88 for the defaults
  // (Johnson, m = 16), 124 in the unique-decoding regime.
  unsigned num_queries() const;
  double decoding_radius() const;
  // "Johnson m=16" or "unique decoding", as parameters() prints it.
  std::string regime_name() const;
  // Throws std::invalid_argument naming the parameter if the set is unusable.
  void validate() const;
  friend bool operator==(const Params&, const Params&) = default;
};

// The parameters behind the seam, where the tables are stacked 2^kDefaultLogStack at a time: the
// defaults (leaf_group = 2) with rate 1/2 (185 queries instead of 88 at the same security).
// The prover holds leaf_group cosets of codewords while committing, each 2^kDefaultLogStack times
// a column's (docs/performance.md, "leaf digests two tables per BLAKE2b block", has the cost). Rate
// 1/2 halves the encoding and the leaf hashing of the commitment, which dominate the prover, for a
// proof about 1.7 times as large (docs/performance.md, "Basefold at rate 1/2").
Params stacked_params();

// The layer geometry shared by prover and verifier for n variables.
struct Shape {
  unsigned num_vars = 0;
  unsigned num_polys = 0;
  unsigned log_inv_rate = 2;
  unsigned log_fold = 4;
  unsigned leaf_group = 2;    // G
  unsigned coset_layers = 0;  // L
  unsigned num_rounds = 0;    // n_f = 1 + a·L
  static Shape make(unsigned num_vars, unsigned num_polys, const Params& p);
  unsigned log_domain(unsigned layer) const;  // layer 0: n+R; layer l ≥ 1: n − 1 − a(l−1) + R
  unsigned final_log_len() const { return num_vars - num_rounds; }
  std::size_t leaves(unsigned layer) const;      // M/2 for layer 0, M_l / 2^a otherwise
  std::size_t leaf_width(unsigned layer) const;  // 2k for layer 0, 2^a otherwise
};

// What the prover keeps between commit and open: the layer-0 Merkle tree (the ProverData of the
// CommitmentScheme seam). The codewords are not kept: open() re-encodes the tables.
class CommitmentTree final : public ProverData {
 public:
  std::uint32_t num_vars() const override { return shape.num_vars; }
  std::uint32_t num_polys() const override { return shape.num_polys; }
  void visit_heap(jolt::HeapVisitor& v) const override;
  std::size_t heap_bytes() const;
  Shape shape;
  // The layer-0 Merkle tree from level 2 up: its leaves are the M/8 grandparents of the M/2
  // leaf digests (pairs of every polynomial, chained per group), which the opening recomputes.
  pcs::MerkleTree tree;
};

struct Committed {
  Digest root{};
  unsigned num_vars = 0;
  unsigned num_polys = 0;
  std::unique_ptr<CommitmentTree> data;
};

// A dishonest prover for the rejection tests: the honest prover run with one thing altered.
struct Tamper {
  bool skip_eval_check = false;     // prove false claims instead of throwing
  unsigned corrupt_layer = 0;       // ≥ 1: add one to every entry of that coset oracle
  bool perturb_final = false;       // add a vector orthogonal to the final eq weights
  bool corrupt_sibling = false;     // flip a bit of layer 0's first sibling digest
  bool extra_sibling = false;       // append an unused digest to layer 0's siblings
  bool bad_pow = false;             // send a nonce that fails the grinding check
  bool extra_final = false;         // append an element to the final message after absorbing it
  bool drop_leaf = false;           // leave out the last opened leaf of layer 0
  bool shift_query = false;         // open the first query at the next index instead
  bool query_out_of_range = false;  // name the first query as its index + the leaf count
};

// Where a proof's bytes go (for benchmarks).
struct ProofBreakdown {
  std::size_t total = 0;
  std::size_t rounds_and_final = 0;  // sumcheck messages, roots, final message, nonce, header
  std::size_t first_layer_values = 0;
  std::size_t coset_values = 0;
  std::size_t siblings = 0;                  // multi-proof digests actually sent
  std::size_t siblings_without_sharing = 0;  // one full path per distinct opened leaf
};

// The twiddle factors ω^e (e < N/2) of the domain of N = 2^log_size entries, ω =
// Fr::root_of_unity(log_size), held as the even powers (N/4 entries: ω^(2i)) and the first
// min(N/2, kLow) powers — half the memory of a table of every power. The encoder's layers read
// the even powers, except the last layer of a transform over the whole domain, whose twiddle
// ω^(r·kLow' + j) is one product of an even power and a low one (kLow' = its block, ≤ kLow).
class Twiddles {
 public:
  static constexpr std::size_t kLow = std::size_t{1} << 13;
  Twiddles() = default;
  explicit Twiddles(unsigned log_size);  // built in parallel
  bool empty() const { return even_.empty(); }
  unsigned log_size() const { return log_size_; }
  const Fr* even() const { return even_.data(); }  // even()[i] = ω^(2i), i < max(N/4, 1)
  const Fr* low() const { return low_.data(); }    // low()[j] = ω^j, j < low_size()
  std::size_t low_size() const { return low_.size(); }
  Fr at(std::uint64_t e) const;  // ω^e for e < max(N/2, 1)
  std::size_t heap_bytes() const { return (even_.capacity() + low_.capacity()) * sizeof(Fr); }

 private:
  unsigned log_size_ = 0;
  std::vector<Fr> even_, low_;
};
Twiddles twiddles(unsigned log_size);
// out = the RS codeword of msg at rate 2^-log_inv_rate on the natural-order domain (as
// pcs::ReedSolomonCode::encode, which the verifier uses), by a cache-blocked radix-2 NTT.
// tw: twiddles(log M) (M = out.size()) with stride 1, or a larger domain's with stride (its size /
// M). Parallel inside; byte-identical at any thread count.
void rs_encode(std::span<const Fr> msg, unsigned log_inv_rate, std::span<Fr> out,
               const Twiddles& tw, std::size_t tw_stride);
// The twiddles CosetEncoder's cosets read. With R = 2^log_inv_rate cosets of N = 2^log_n
// entries, M = R·N and ω = Fr::root_of_unity(log M): where the encoder's layers are the portable
// scalar ones (no AVX-512 IFMA), every power ω^e with e < M/2, held coset-major —
// table(s)[i] = ω^(s + i·R) for s < R, i < N/2 (M/2 entries: four times twiddles(log_n)'s at rate
// 1/2). Coset r's transform of t ↦ table[t]·ω^(r·t) is then a transform of the table itself whose
// layer of length len (step = N/len) has the twiddles (ω^r)^step·ω_len^J = ω^((r + J·R)·step) for
// J < len/2 — at(r, step, J), contiguous in J at stride `step` (run) — so the coset's factor
// ω^(r·t) costs no product per entry and no layer forms a twiddle by a product. Where the lane
// layers run, when `compact` asks for a quarter of the memory, or for codewords longer than
// 2^kMaxTablesLog (the last layer would stream a table as long as half the coset: at 2^25 the
// encoding measured slower with the tables, docs/performance.md), twiddles(log_n) (domain()),
// whose even and low powers the layers read: each coset but the first then takes its factor by
// one product per entry, and the last layer one product per butterfly. Built in parallel.
class CosetTwiddles {
 public:
  static constexpr unsigned kMaxTablesLog = 23;  // codewords of up to 2^23 entries (128 MiB)
  CosetTwiddles(unsigned log_n, unsigned log_inv_rate, bool compact = false);
  // Whether CosetTwiddles(log_n, log_inv_rate, compact) holds the coset tables on this CPU.
  static bool tables_for(unsigned log_n, unsigned log_inv_rate, bool compact);
  unsigned log_n() const { return log_n_; }
  unsigned log_inv_rate() const { return log_inv_rate_; }
  // Whether the coset tables are held (the portable layers), else domain().
  bool per_coset() const { return tables_.size() != 0; }
  const Twiddles& domain() const { return domain_; }
  // ω^((r + J·R)·step) for r < R, step = N/len a power of two, J < len/2 (per_coset() only).
  Fr at(std::size_t r, std::size_t step, std::size_t J) const { return *run(r, step, J); }
  // Where that twiddle is: J + 1's is `step` entries on.
  const Fr* run(std::size_t r, std::size_t step, std::size_t J) const {
    const std::size_t e = r * step;
    return tables_.data() + (e & (R_ - 1)) * half_ + (e >> log_inv_rate_) + J * step;
  }
  std::size_t heap_bytes() const { return tables_.size() * sizeof(Fr) + domain_.heap_bytes(); }

 private:
  unsigned log_n_, log_inv_rate_;
  std::size_t R_, half_;  // R, and max(N/2, 1) entries per coset table
  pcs::FrArray tables_;   // written whole by the workers (their first touch)
  Twiddles domain_;
};

// One coset of a table's codeword: with R = 2^log_inv_rate, N = 2^log_n entries and C =
// rs_encode(table) of M = N·R entries, encode(polys, i, out) writes out[j] = C[R·j + r] for j < N
// — the size-N transform of t ↦ table[t]·ω_M^(r·t) — so a whole codeword is never held: the
// commitment encodes a table R times, one coset (N entries) at a time, where one pass would hold
// M. The table is read a block at a time (no copy); groups of 8 entries that are all 0 or 1 take
// the transform's first three layers from a table of 256 rows. A table the batch stores as bits
// (PolynomialBatch::read_bits) is read once for all its cosets, as one byte per group — its row
// (bit_patterns) — and each coset's input is then written in order, group by group, from the
// rows (no field element of the table is read, no scattered store). tw = CosetTwiddles(log_n,
// log_inv_rate), kept alive by the caller. Parallel inside; byte-identical at any thread count.
class CosetEncoder {
 public:
  CosetEncoder(unsigned log_n, unsigned log_inv_rate, std::size_t r, const CosetTwiddles& tw);
  // encode(polys, i, bit_patterns(polys, i), out).
  void encode(const PolynomialBatch& polys, std::size_t i, std::span<Fr> out) const;
  // The same with table i's bit_patterns, computed once for all the cosets.
  void encode(const PolynomialBatch& polys, std::size_t i, std::span<const std::uint8_t> patterns,
              std::span<Fr> out) const;
  // When the batch stores all of table i as bits and it has N ≥ 8 entries: per group t0 < N/8
  // its row, bit m the entry t0 + bit_reverse3(m)·N/8; else empty (encode then reads the table).
  static std::vector<std::uint8_t> bit_patterns(const PolynomialBatch& polys, std::size_t i);

 private:
  static constexpr std::size_t kSlots = 8;
  // The bit-pattern path: the input groups from the rows in output order, times their c^t0
  // (with domain()'s twiddles; the coset tables' twiddles carry that factor).
  void encode_patterns(std::span<const std::uint8_t> patterns, std::span<Fr> out) const;
  // The layers after the first three (of length 16 … N) on out.
  void transform(std::span<Fr> out) const;
  unsigned log_n_;
  std::size_t r_;
  const CosetTwiddles* tw_;
  Fr c_;                                  // ω_M^r
  std::array<Fr, kSlots> slot_factor_{};  // (ω_M^r)^(N/8 · bit_reverse3(m)) for slot m
  // Block twiddles, small_[len/2 + J] for len ≤ min(N, 2^13): the first three layers' ω_len^J
  // (the slot factors carry the coset there), then the coset's (tw.at(r, N/len, J) with the
  // coset tables, else ω_len^J).
  std::vector<Fr> small_;
  std::vector<std::uint64_t> small_lanes_;  // their lane form, or empty
  std::vector<Fr> factors_;                 // slot_factor_ repeated, for products over arrays
  std::vector<Fr> rows_;                    // rows_[p·8 + m]: slot m after three layers, pattern p
  // The pattern path's blocks of 2^block_bits_ output groups g0 + v: v's table group is
  // t0(g0) + block_rev_[v]·2^(log_n − 3 − block_bits_), its factor c^t0(g0)·block_pow_[v].
  unsigned block_bits_ = 0;
  std::vector<std::uint32_t> block_rev_;  // bit_reverse(v, block_bits_)
  std::vector<Fr> block_pow_;             // c^(block_rev_[v]·2^(log_n − 3 − block_bits_))
};

// out[i] = C[positions[i]] for C = rs_encode(msg) at rate 2^-log_inv_rate (M = msg.size() << R
// positions, each < M), without the whole transform: the first log S layers run on blocks of S,
// then the M/S block outputs are summed by Horner — once per base q = p mod M/K for the K
// positions q + k·M/K that share it (K classes of blocks, b mod K, summed apart), so positions
// in a few classes mod M/K cost one Horner sum each — about (log S − R)·M/2 butterflies and
// |bases|·M/S multiplications instead of (log M − R)·M/2; K and S are planned from the positions.
// tw = twiddles(log M), or empty: then the few powers of ω_M it reads (the block's roots and
// ω_M^position) are computed, so no table is held. One PositionEncoder (below) used once, by
// encode_parallel (a single message: its blocks shared out to the TBB workers).
void rs_encode_at(std::span<const Fr> msg, unsigned log_inv_rate,
                  std::span<const std::uint64_t> positions, const Twiddles& tw, std::span<Fr> out);

// rs_encode_at's plan for messages of 2^log_n entries at fixed positions — the block size, the
// block twiddles and their 0/1 rows, and each position's Horner step ω_M^position (one power
// each without tw) — computed once for every message it encodes: the opening re-encodes every
// committed table at the same positions. encode() is const and serial, so threads may share one
// encoder (each with its own message and output). Throws std::invalid_argument as rs_encode_at.
class PositionEncoder {
 public:
  // block_size: 0 plans S; a power of two S ≥ 2·R forces it (ntt_bench's sweep).
  PositionEncoder(unsigned log_n, unsigned log_inv_rate, std::span<const std::uint64_t> positions,
                  const Twiddles& tw, std::size_t block_size = 0);
  ~PositionEncoder();
  PositionEncoder(PositionEncoder&&) noexcept;
  PositionEncoder& operator=(PositionEncoder&&) noexcept;
  // out[i] = C[positions[i]] for C = rs_encode(msg); msg has 2^log_n entries.
  void encode(std::span<const Fr> msg, std::span<Fr> out) const;
  // The same values, the blocks taken in runs on the TBB workers (each run's Horner sum from its
  // own first block, the runs joined by Horner): for one message, where encode's callers
  // parallelise over many.
  void encode_parallel(std::span<const Fr> msg, std::span<Fr> out) const;
  // The plan: K (classes) and S (block size).
  std::size_t classes() const;
  std::size_t block_size() const;

 private:
  struct Plan;
  void check(std::span<const Fr> msg, std::span<Fr> out) const;
  // For every class c < K and base q (Plan): H_c(q), the Horner sum in steps of ω_M^(K·q) of
  // (block b's transform)[q mod S] over the blocks b ≡ c mod K in [b0, b1) (b0 a multiple of
  // K), from its first block; class-major.
  std::vector<Fr> horner(std::span<const Fr> msg, std::size_t b0, std::size_t b1) const;
  // out[i] from the bases' sums over all blocks: Σ_c ω_M^(p·c)·H_c(q) for position p.
  void finish(const std::vector<Fr>& sums, std::span<Fr> out) const;
  std::unique_ptr<const Plan> plan_;
};

class Basefold {
 public:
  explicit Basefold(Params params = {});
  const Params& params() const { return params_; }
  // One line naming every parameter and the regime, e.g. for summary.json.
  std::string parameters() const;

  // All tables 2^n entries, 1 ≤ n ≤ 28 − R, k ≥ 1. Throws std::invalid_argument otherwise.
  Committed commit(const PolynomialBatch& polys) const;
  Committed commit(std::span<const std::span<const Fr>> polys) const {
    return commit(SpanBatch(polys));
  }

  // Proves evals[i] = f_i(point). Throws std::invalid_argument on mismatched shapes or a wrong
  // evaluation (caught by the first sumcheck round with high probability over γ).
  std::vector<std::uint8_t> open(const CommitmentTree& data, const PolynomialBatch& polys,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript, const Tamper* tamper = nullptr) const;
  std::vector<std::uint8_t> open(const CommitmentTree& data,
                                 std::span<const std::span<const Fr>> polys,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript, const Tamper* tamper = nullptr) const {
    return open(data, SpanBatch(polys), point, evals, transcript, tamper);
  }

  // nullopt when accepted. Never throws, never reads out of bounds on malformed proofs.
  std::optional<VerifyError> verify(std::span<const std::uint8_t> root, unsigned num_vars,
                                    unsigned num_polys, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript& transcript) const;

  // Decodes a proof made by this scheme for 2^num_vars × num_polys; nullopt if malformed.
  std::optional<ProofBreakdown> breakdown(std::span<const std::uint8_t> proof, unsigned num_vars,
                                          unsigned num_polys) const;

 private:
  Params params_;
};

}  // namespace jolt::prover::basefold
