// The RV32IM instruction lookup tables, each with a prefix–suffix structure.
//
//   TableSpec t = TableSpec::make(LookupTable::LessThanUnsigned, 32);
//   std::uint64_t v = table_value(LookupTable::LessThanUnsigned, 32, interleave(3, 5));  // 1
//   Fr m = t.evaluate_mle(point);          // the verifier's Val(r), point of 2·W variables
//
// A table maps a key of 2·W bits (W = the word width, 32 for RV32IM) to a value below 2^(W+1).
// The key is either two operands x, y of W bits interleaved (x's bit i at key bit 2i + 1, y's at
// key bit 2i; `takes_operand_pair`) or one operand of 2·W bits (the field sum or product the
// constraints computed, which the table truncates or inspects).
//
// Structure. Every table is a small weighted automaton that reads the key one bit pair at a
// time, most significant pair first: the state s ∈ Z^m starts at `init`, pair i (key bits
// 2i + 1 and 2i, called a and b) maps it to M_i(a, b)·s, and the value is out·s after pair 0.
// Each entry of M_i(a, b) is given on the four Boolean (a, b) and extended bilinearly, so the
// product over all pairs is multilinear in every key bit: it *is* the table's multilinear
// extension (it agrees with the table on Boolean keys, and the extension is unique). Split the
// key after any number of pairs into a prefix (high pairs) and a suffix (low pairs):
//   Val(prefix, suffix) = Σ_i P_i(prefix)·S_i(suffix),
//   P = M_prefix·init (a state vector),  S = outᵀ·M_suffix (a row vector),
// the prefix–suffix decomposition the read-raf sumcheck's address phases use
// (instruction_read_raf.hpp): P over field challenges, S over the Boolean bits of each cycle's
// key, as integers.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover::lookups {

enum class LookupTable : std::uint8_t {
  // Selected per cycle by the instruction's table flag.
  RangeCheck,              // one operand k: k mod 2^W (ADD, SUB, MUL, … whose sum the R1CS forms)
  RangeCheckAligned,       // one operand k: k mod 2^W with bit 0 cleared (JALR's target)
  UpperWord,               // one operand k: k >> W (MULHU of the 2W-bit product)
  And,                     // x & y
  Or,                      // x | y
  Xor,                     // x ^ y
  Equal,                   // [x == y]
  NotEqual,                // [x != y]
  LessThan,                // [x < y], signed
  LessThanUnsigned,        // [x < y]
  GreaterEqual,            // [x >= y], signed
  GreaterEqualUnsigned,    // [x >= y]
  Pow2,                    // one operand k: 2^(k mod W)                      (W a power of two)
  ShiftRightBitmask,       // one operand k: 2^W − 2^(k mod W), ones at [k mod W, W)   (idem)
  VirtualSRL,              // pext(x, y): the bits of x where y has ones, packed (x >> s for a
                           // ShiftRightBitmask y)
  VirtualSRA,              // pext(x, y) + x_{W−1}·(2^W − 2^popcount(y)) (x >>s s for such a y)
  ValidDiv0,               // x = divisor, y = quotient: [x != 0 or y == 2^W − 1]
  ValidUnsignedRemainder,  // x = remainder, y = divisor: [y == 0 or x < y]
  MulUNoOverflow,          // one operand k: [k >> W == 0]
  // The read-raf's operand tables (selected by the RAF flag, not by a table flag).
  LeftOperand,   // x
  RightOperand,  // y
  Identity,      // one operand k: k
};

inline constexpr std::size_t kNumInstructionTables = 19;  // RangeCheck .. MulUNoOverflow
inline constexpr std::size_t kNumTables = 22;
inline constexpr std::size_t kMaxStates = 5;

std::string_view table_name(LookupTable t);
bool takes_operand_pair(LookupTable t);
// Tables whose definition reads k mod W need W to be a power of two.
bool needs_power_of_two_width(LookupTable t);

// Key helpers: interleave(x, y) puts x's bit i at key bit 2i + 1 and y's at 2i.
std::uint64_t interleave(std::uint32_t x, std::uint32_t y);
std::uint32_t left_of(std::uint64_t key);   // the x of interleave(x, y)
std::uint32_t right_of(std::uint64_t key);  // the y

// The table's value at a Boolean key, from the RV32IM semantics written out directly (the oracle
// the automaton is tested against). W ∈ [2, 32] even; key < 2^(2W).
std::uint64_t table_value(LookupTable t, unsigned word_bits, std::uint64_t key);

using StateMatrix = std::array<std::array<std::int64_t, kMaxStates>, kMaxStates>;

class TableSpec {
 public:
  static TableSpec make(LookupTable t, unsigned word_bits);

  LookupTable table() const { return table_; }
  unsigned word_bits() const { return word_bits_; }
  std::size_t states() const { return m_; }

  // M_i(a, b) for a, b ∈ {0, 1}.
  const StateMatrix& step(unsigned pair, unsigned a, unsigned b) const {
    return steps_[pair][2 * a + b];
  }
  const std::array<std::int64_t, kMaxStates>& init() const { return init_; }
  const std::array<std::int64_t, kMaxStates>& out() const { return out_; }

  // The automaton on a Boolean key (equals table_value; tests check it).
  std::int64_t evaluate_key(std::uint64_t key) const;
  // The multilinear extension at a point of 2·W field elements, point[0] ↔ key bit 2W − 1.
  Fr evaluate_mle(std::span<const Fr> point) const;

  // Prefix side: the state after the pairs W−1 .. W−n, from `state` after the pairs above them,
  // for field values (a, b) of each pair's bits; n = pairs.size() / 2, pairs[0] = the higher
  // pair's a.
  void advance_state(std::span<Fr> state, unsigned first_pair, std::span<const Fr> bits) const;
  // The same for Boolean bits of `chunk` (2n bits, most significant first).
  void advance_state_bits(std::span<Fr> state, unsigned first_pair, unsigned n_pairs,
                          std::uint64_t chunk) const;
  // Suffix side: S = outᵀ·M_0·…·M_{n−1} over the low n pairs of `key` (Boolean), as integers
  // (computed mod 2^64: exact when S fits in 64 bits, as for every split the read-raf makes):
  // four pairs at a time by the product matrix of the key's byte there, the rest pair by pair.
  void suffix(std::uint64_t key, unsigned n_pairs, std::span<std::int64_t> s) const;
  // The same one pair at a time (the oracle suffix() is tested against).
  void suffix_by_pairs(std::uint64_t key, unsigned n_pairs, std::span<std::int64_t> s) const;

 private:
  // v ← vᵀ·M_from·…·M_(to−1) for the key's pairs from .. to − 1, mod 2^64.
  void apply_pairs(std::array<std::uint64_t, kMaxStates>& v, std::uint64_t key, unsigned from,
                   unsigned to) const;

  LookupTable table_{};
  unsigned word_bits_ = 0;
  std::size_t m_ = 0;
  std::array<std::int64_t, kMaxStates> init_{};
  std::array<std::int64_t, kMaxStates> out_{};
  std::vector<std::array<StateMatrix, 4>> steps_;  // per pair, per 2a + b
  // M_4q·M_(4q+1)·M_(4q+2)·M_(4q+3) for the byte y of the key at pairs 4q .. 4q + 3, as m × m
  // entries mod 2^64 at ((q·256 + y)·m + r)·m + c: the suffix's integers fit in 64 bits, and
  // sums and products mod 2^64 give them exactly whatever the entries of a product are.
  std::vector<std::uint64_t> byte_steps_;
};

}  // namespace jolt::prover::lookups
