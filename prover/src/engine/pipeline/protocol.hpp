// Private: the protocol description shared by prover and verifier — transcript preamble,
// per-stage relation expressions, input claims and the verifier's derived evaluations. Using the
// same functions on both sides makes the Fiat–Shamir order and final-claim formulas identical by
// construction.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/prover/lookups/bytecode_read_raf.hpp>
#include <jolt/prover/lookups/instruction_lookups.hpp>
#include <jolt/prover/memory/ram_twist.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/sumcheck/expression.hpp>
#include <jolt/prover/transcript/transcript.hpp>

namespace jolt::prover::protocol {

inline constexpr const char* kDomain = "jolt-run/uniform-rv32im/v8";

// The preamble: the statement (program digest, entry, every bytecode entry, inputs, outputs,
// trace length), the padded length, the commitment scheme and its parameters.
void absorb_statement(Transcript& t, const Statement& st, std::uint32_t log_t,
                      std::uint8_t pcs_kind, std::string_view pcs_parameters,
                      std::uint32_t num_columns);

// Columns appearing in the product constraints' factors (stage-2 openings), ascending.
const std::vector<std::uint32_t>& product_factor_columns();

// Stage 1 (outer Spartan): naive-oracle expression over leaves {eq, Az, Bz}.
Expr outer_expr();
// eq(τ, point) · A(point_rows, v1) · B(point_rows, v1); point = row bits ‖ cycle bits.
Fr outer_expected(std::span<const Fr> tau, std::span<const Fr> point, std::span<const Fr> v1);

// Stage 2 (products): leaves {eq(r1,·), factor columns in product_factor_columns() order}.
Expr product_expr(const Fr& gamma);
Fr product_input(const Fr& gamma, std::span<const Fr> v1);

// Stage 3 shift: leaves {eq+1(r1,·), UnexpandedPC, IsNoop, SequenceIndex}:
// Σ_t eq+1(r1,t)·[ExpandedPC + γ(1 − IsNoop)](t) = NextExpandedPC(r1) + γ(1 − NextIsNoop(r1)),
// ExpandedPC = 64·UnexpandedPC + SequenceIndex.
Expr shift_expr(const Fr& gamma);
Fr shift_input(const Fr& gamma, std::span<const Fr> v1);
// Stage 3 point claims: Σ_t eq(0,t)·ExpandedPC(t) = 64 × the program's entry (leaves {eq(0,·),
// UnexpandedPC, SequenceIndex}: entry_expr) and Σ_t eq(L−1,t)·IsEcall(t) = 1 (the last real
// cycle is an ECALL; leaves {eq(L−1,·), IsEcall}: point_expr).
Expr entry_expr();
Fr entry_input(std::uint32_t entry);
Expr point_expr();
// The index bits of cycle c (big-endian, n variables) as field elements.
std::vector<Fr> cycle_point(std::uint64_t c, std::size_t n);
// The columns stage 3 opens at its point: UnexpandedPC, IsNoop, IsEcall, SequenceIndex.
const std::vector<std::uint32_t>& shift_columns();

// Stage 4, register read/write checking (r1cs.hpp, "Register memory checking"): the multiset
// identity Σ_writes 1/(α − fp) − Σ_reads 1/(α − fp) + Σ_init − Σ_final = 0 over tuples
// fp = register + γ·value + γ²·timestamp, as a fraction tree of 8T leaves: leaf j·T + t is
// cycle t's access j: writes j = 0 rs1, 1 rs2, 2 rd (numerator +1, timestamp 4t+j+1), reads
// j = 3 rs1, 4 rs2, 5 rd (numerator −1, timestamp ReadTs); j = 6, 7 are empty (numerator 0,
// denominator 1). Columns opened at the leaf point's low log T variables, in this order:
const std::vector<std::uint32_t>& register_columns();
// The leaves' P and Q at the point (r_top: 3 variables, r_low: log T) from register_columns()
// values v at r_low.
Fr register_leaf_p(std::span<const Fr> r_top, std::span<const Fr> v);
Fr register_leaf_q(const Fr& alpha, const Fr& gamma, std::span<const Fr> r_top,
                   std::span<const Fr> r_low, std::span<const Fr> v);
// fp of a register tuple.
Fr register_fingerprint(const Fr& gamma, const Fr& reg, const Fr& value, const Fr& timestamp);

// RAM (memory/ram_twist.hpp), its public side. The memory map: the RAM, input and output
// regions (tracer.hpp). A word's initial value: the ELF's segments; the input region: the
// input's length as a u32, then its bytes; zero elsewhere. Read-only words: executable
// segments and the input region.
std::uint32_t initial_ram_word(const Program& program, std::span<const std::uint8_t> inputs,
                               std::uint32_t address);
bool ram_word_read_only(const Program& program, std::uint32_t address);
// At most this many regions in a proof's RAM layout.
inline constexpr std::size_t kMaxRamRegions = 8;
// The prover's layout: the words the run accesses (`accessed`, word addresses) and the words
// of the image, the input and the claimed output, grouped by memory-map region; RAM in a low
// block from its base and a high block ending at its top (the stack), merged when their blocks
// would overlap.
std::vector<memory::RamRegion> ram_regions(const Program& program,
                                           std::span<const std::uint8_t> inputs,
                                           std::span<const std::uint8_t> outputs,
                                           std::span<const std::uint32_t> accessed);
// The verifier's check of a proof's regions: at most kMaxRamRegions, each non-empty, aligned,
// and its whole block (the next power of two of words) inside one memory-map region.
bool ram_regions_in_map(std::span<const memory::RamRegion> regions);
// The bytes of the output region's last word that follow the output (the output's length word
// and bytes end inside a word): a guest that wrote a longer output earlier may leave anything
// there, so the proof names them (`output_tail`, zero outside this mask).
std::uint32_t output_tail_mask(std::size_t output_bytes);
void absorb_ram_layout(Transcript& t, std::span<const memory::RamRegion> regions,
                       std::uint32_t output_tail);
// The image and the final words the statement fixes, in the layout's compact indices: init =
// every non-zero initial word inside a block; io = the output region's words (its length word,
// then the output's bytes, the last word completed by output_tail) and every read-only word,
// inside a block.
// `unmapped_output_zero` is false when an output word no block holds would have to be non-zero
// (a word no access touched keeps its initial value 0).
struct RamPublic {
  memory::RamWords init, io;
  bool unmapped_output_zero = true;
};
RamPublic ram_public(const memory::RamLayout& layout, const Program& program,
                     std::span<const std::uint8_t> inputs, std::span<const std::uint8_t> outputs,
                     std::uint32_t output_tail);
// The R1CS side's claims at r1 (RamReadValue, RamWriteValue, RamAddress).
memory::RamCycleClaims ram_cycle_claims(std::span<const Fr> v1);

// Stage 5, the timestamp range check: Σ_{t,j<3} 1/(α − (4t + j − ReadTs_j(t))) −
// Σ_{k<4T} m_k/(α − k) = 0 as a fraction tree of 8T leaves: j·T + t for j < 3 (numerator 1),
// j = 3 empty (numerator 0, denominator 1), 4·T + k the table (numerator −m_k:
// kRangeCount<k/T> row k mod T).
const std::vector<std::uint32_t>& range_columns();  // ReadTs ×3, RangeCount ×4
Fr range_leaf_p(std::span<const Fr> r_top, std::span<const Fr> v);
Fr range_leaf_q(const Fr& alpha, std::span<const Fr> r_top, std::span<const Fr> r_low,
                std::span<const Fr> v);
// The multilinear extension of t ↦ t over n big-endian variables.
Fr cycle_index(std::span<const Fr> r_low);

std::vector<Fr> powers(const Fr& g, std::size_t n);
// Fraction-tree layers (stages 4, 5).
// Inner layer leaves {eq(r,·), P0, P1, Q0, Q1}; the leaf layer (P ≡ 1) leaves {eq(r,·), Q0, Q1}.
// Summand: eq·(P0·Q1 + P1·Q0 + λ·Q0·Q1).
Expr fraction_layer_expr(const Fr& lambda, bool leaf_layer);

// Stage 5, the instruction lookups (r1cs.hpp, "Instruction results";
// lookups/instruction_lookups.hpp): the read-raf's input claims are stage 1's claims about
// LookupOutput, LeftLookupOperand and RightLookupOperand at r1's cycle variables; it leaves the
// table flags and the RAF flag at its cycle point (bytecode columns: claims for the bytecode
// read-raf, in lookup_flag_columns() order) and the 64 key bits at the key-bit sumcheck's point
// (committed columns).
const std::vector<std::uint32_t>& lookup_flag_columns();  // Table* ×19, LookupIsOneOperand
lookups::InstructionLookupClaims lookup_input_claims(std::span<const Fr> v1);

// Σ n_i/d_i kept as one fraction (no inversions).
struct Fraction {
  Fr num = Fr::zero();
  Fr den = Fr::one();
  void add(const Fr& n, const Fr& d) {
    num = num * d + n * den;
    den *= d;
  }
  void add_fraction(const Fraction& o) { add(o.num, o.den); }
};
// True when P/Q + extra = 0 with Q and extra's denominator non-zero: the root identity of every
// fraction tree (extra is what the verifier adds from public data).
bool fraction_root_vanishes(const Fr& p_root, const Fr& q_root, const Fraction& extra);
// Σ_init 1/(α − fp) − Σ_final 1/(α − fp): the stage-4 identity's boundary terms (the reset state
// at timestamp 0, the claimed final state).
Fraction register_boundary_side(std::span<const Fr> final_values,
                                std::span<const Fr> final_timestamps, const Fr& gamma,
                                const Fr& alpha);

// The committed columns: the trace columns no bytecode entry fixes and the instruction read-raf
// does not prove (committed_trace_columns(), ascending), then each cycle's 64 lookup key bits
// (MSB first; column lists below name key bit b kNumColumns + b), then the m bits of each
// cycle's bytecode table index, MSB first (index bit b: kNumColumns + 64 + b), then the ℓK bits
// of each cycle's compact RAM address, MSB first (ram_bit_column). The bytecode
// columns (r1cs::kBytecodeColumns) are virtual: their claims are proved by the bytecode
// read-raf of stages 6a/6b; so are LookupOutput and the two lookup operands (r1cs::kLookupColumns),
// by the instruction read-raf of stage 5.
const std::vector<std::uint32_t>& committed_trace_columns();
std::size_t num_committed_columns(unsigned index_bits, unsigned ram_bits);
bool is_bytecode_column(std::uint32_t c);
// The field of a bytecode entry that column c is (its position in r1cs::kBytecodeColumns), or
// kNumBytecodeColumns.
std::uint32_t bytecode_field(std::uint32_t c);
// The fields of every table entry (r1cs::bytecode_values), the read-raf's table.
std::vector<std::vector<Fr>> bytecode_entries(const std::vector<TraceRow>& table);

// Opening claims at one point: columns (r1cs ids, kNumColumns + b for key bit b, kNumColumns +
// 64 + b for index bit b) and their values. The stages' claims, in order: every column at r1,
// the product factors at r2, shift_columns() at r3, register_columns() at r4, range_columns() at
// r5, lookup_flag_columns() at the instruction read-raf's point (stage 5); then, appended by
// stage 6b, the index bits and the key bits at their sumchecks' points.
struct ClaimSet {
  std::vector<Fr> point;
  std::vector<std::uint32_t> columns;
  std::vector<Fr> values;
};
struct StageOpenings {
  std::span<const Fr> r1, v1, r2, v2, r3, v3, r4, v4, r5, v5, r_lookup, v_lookup;
};
std::vector<ClaimSet> stage_claim_sets(const StageOpenings& o);
// The index bits' claims at the bytecode RA rounds' point.
inline constexpr std::uint32_t kKeyBitColumn = r1cs::kNumColumns;  // key bit b: + b
inline constexpr std::uint32_t kIndexBitColumn = r1cs::kNumColumns + r1cs::kKeyBits;
ClaimSet index_bit_claims(std::span<const Fr> point, std::span<const Fr> bits);
// The 64 key bits' claims at the key-bit sumcheck's point.
ClaimSet key_bit_claims(std::span<const Fr> point, std::span<const Fr> bits);
// RAM: the address bits after the m index bits, RamInc at a point, and the bytecode's Load and
// Store flags at the RA virtualization's point (their sum is its access gate).
inline std::uint32_t ram_bit_column(unsigned index_bits, unsigned b) {
  return kIndexBitColumn + index_bits + b;
}
ClaimSet ram_bit_claims(unsigned index_bits, std::span<const Fr> point, std::span<const Fr> bits);
ClaimSet ram_inc_claim(std::span<const Fr> point, const Fr& value);
ClaimSet ram_access_flag_claims(std::span<const Fr> point, std::span<const Fr> load_store);
// Stage 6a/6b: the bytecode columns' claims of each set, as the read-raf's groups (sets without
// one dropped).
std::vector<lookups::BytecodeClaimGroup> bytecode_claim_groups(std::span<const ClaimSet> sets);
// Stage 7: the committed columns' claims of each set (sets without one dropped), columns renamed
// to their positions in the committed order. Leaves {eq(r_g,·) for each group g, then F_g =
// Σ_{c in g} w·col_c}.
std::vector<ClaimSet> reduction_groups(std::span<const ClaimSet> sets);
Expr reduction_expr(std::size_t groups);
std::vector<Fr> reduction_weights(const Fr& beta, std::span<const ClaimSet> groups);
Fr reduction_input(std::span<const Fr> weights, std::span<const ClaimSet> groups);
// F_g for every group from the committed columns' values at one point.
std::vector<Fr> reduction_folds(std::span<const Fr> weights, std::span<const ClaimSet> groups,
                                std::span<const Fr> v);

// Σ_{t ≥ L} eq(r, t): the multilinear extension of the public padding indicator [t ≥ L].
Fr padding_indicator(std::uint64_t trace_length, std::span<const Fr> r);

}  // namespace jolt::prover::protocol
