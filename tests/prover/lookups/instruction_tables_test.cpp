// The RV32IM lookup tables: the automaton of each table equals its semantics (exhaustively at
// reduced word widths, on random and edge operands at W = 32), the semantics are RV32IM's (shifts,
// comparisons, the multiply high word, division checks), the automaton's extension is the table's
// multilinear extension, and the prefix–suffix split reproduces it.
#include <doctest/doctest.h>

#include <bit>
#include <jolt/prover/lookups/instruction_tables.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <random>
#include <string>
#include <vector>

using namespace jolt::prover;
using namespace jolt::prover::lookups;

namespace {

Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng() >> 2);
}

std::vector<LookupTable> all_tables() {
  std::vector<LookupTable> t;
  for (std::size_t i = 0; i < kNumTables; ++i) t.push_back(static_cast<LookupTable>(i));
  return t;
}

// The key's bits as field elements, most significant first.
std::vector<Fr> key_point(std::uint64_t key, unsigned w) {
  std::vector<Fr> p(2 * w);
  for (unsigned i = 0; i < 2 * w; ++i)
    p[i] = ((key >> (2 * w - 1 - i)) & 1) ? Fr::one() : Fr::zero();
  return p;
}

const std::uint32_t kEdges[] = {0u,          1u,          2u,          31u,         32u,
                                0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};

}  // namespace

TEST_CASE("every table's automaton equals its semantics on every key at W = 2, 4 and 8") {
  for (unsigned w : {2u, 4u, 8u})
    for (LookupTable t : all_tables()) {
      const TableSpec spec = TableSpec::make(t, w);
      std::size_t wrong = 0;
      for (std::uint64_t key = 0; key < (std::uint64_t{1} << (2 * w)); ++key)
        wrong += static_cast<std::uint64_t>(spec.evaluate_key(key)) != table_value(t, w, key);
      INFO(table_name(t), " W = ", w);
      CHECK(wrong == 0);
    }
}

TEST_CASE("every table's automaton equals its semantics at W = 32 on edge and random keys") {
  std::mt19937_64 rng(7);
  for (LookupTable t : all_tables()) {
    const TableSpec spec = TableSpec::make(t, 32);
    std::vector<std::uint64_t> keys;
    for (std::uint32_t x : kEdges)
      for (std::uint32_t y : kEdges) keys.push_back(interleave(x, y));
    for (int i = 0; i < 3000; ++i) keys.push_back(rng());
    for (int i = 0; i < 500; ++i) keys.push_back(rng() >> (rng() % 64));
    std::size_t wrong = 0;
    for (std::uint64_t key : keys)
      wrong += static_cast<std::uint64_t>(spec.evaluate_key(key)) != table_value(t, 32, key);
    INFO(table_name(t));
    CHECK(wrong == 0);
  }
}

TEST_CASE("the tables compute RV32IM's results") {
  std::mt19937_64 rng(11);
  std::vector<std::uint32_t> xs(std::begin(kEdges), std::end(kEdges));
  for (int i = 0; i < 200; ++i) xs.push_back(static_cast<std::uint32_t>(rng()));
  for (std::uint32_t x : xs)
    for (std::uint32_t y : xs) {
      const std::uint64_t k = interleave(x, y);
      const auto sx = static_cast<std::int32_t>(x), sy = static_cast<std::int32_t>(y);
      REQUIRE(table_value(LookupTable::RangeCheck, 32, std::uint64_t{x} + y) ==
              static_cast<std::uint32_t>(x + y));  // ADD
      REQUIRE(table_value(LookupTable::RangeCheck, 32, std::uint64_t{x} + (0x100000000ull - y)) ==
              static_cast<std::uint32_t>(x - y));  // SUB as x + (2^32 − y)
      REQUIRE(table_value(LookupTable::UpperWord, 32, std::uint64_t{x} * y) ==
              ((std::uint64_t{x} * y) >> 32));                                          // MULHU
      REQUIRE(table_value(LookupTable::LessThan, 32, k) == (sx < sy ? 1u : 0u));        // SLT, BLT
      REQUIRE(table_value(LookupTable::LessThanUnsigned, 32, k) == (x < y ? 1u : 0u));  // SLTU
      REQUIRE(table_value(LookupTable::GreaterEqual, 32, k) == (sx >= sy ? 1u : 0u));   // BGE
      REQUIRE(table_value(LookupTable::Equal, 32, k) == (x == y ? 1u : 0u));            // BEQ
      REQUIRE(table_value(LookupTable::Xor, 32, k) == (x ^ y));
      const unsigned s = y % 32;
      const std::uint64_t mask = table_value(LookupTable::ShiftRightBitmask, 32, y);
      REQUIRE(table_value(LookupTable::Pow2, 32, y) == (std::uint64_t{1} << s));  // SLL = x·2^s
      REQUIRE(table_value(LookupTable::VirtualSRL, 32,
                          interleave(x, static_cast<std::uint32_t>(mask))) == (x >> s));  // SRL
      REQUIRE(table_value(LookupTable::VirtualSRA, 32,
                          interleave(x, static_cast<std::uint32_t>(mask))) ==
              static_cast<std::uint32_t>(sx >> s));  // SRA
      if (y != 0) {  // DIVU / REMU checks on the honest quotient and remainder
        REQUIRE(table_value(LookupTable::ValidDiv0, 32, interleave(y, x / y)) == 1);
        REQUIRE(table_value(LookupTable::ValidUnsignedRemainder, 32, interleave(x % y, y)) == 1);
        REQUIRE(table_value(LookupTable::ValidUnsignedRemainder, 32, interleave(y, y)) == 0);
      }
    }
  CHECK(table_value(LookupTable::ValidDiv0, 32, interleave(0, 0xffffffffu)) == 1);  // x / 0
  CHECK(table_value(LookupTable::ValidDiv0, 32, interleave(0, 5)) == 0);
  CHECK(table_value(LookupTable::ValidUnsignedRemainder, 32, interleave(7, 0)) == 1);
  CHECK(table_value(LookupTable::MulUNoOverflow, 32, 0xffffffffull) == 1);
  CHECK(table_value(LookupTable::MulUNoOverflow, 32, 0x100000000ull) == 0);
}

TEST_CASE("the automaton's extension is the multilinear extension of the table") {
  // At W = 4 the extension is Σ_k eq(r, k)·Val(k) over all 256 keys; at Boolean points of W = 32
  // it is the table.
  std::mt19937_64 rng(3);
  for (LookupTable t : all_tables()) {
    const TableSpec spec4 = TableSpec::make(t, 4);
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<Fr> r(8);
      for (auto& x : r) x = rand_fr(rng);
      const std::vector<Fr> e = EqPolynomial::evals(r);
      Fr brute;
      for (std::uint64_t k = 0; k < 256; ++k) brute += e[k] * Fr::from_u64(table_value(t, 4, k));
      INFO(table_name(t));
      CHECK(spec4.evaluate_mle(r) == brute);
    }
    const TableSpec spec32 = TableSpec::make(t, 32);
    for (int rep = 0; rep < 20; ++rep) {
      const std::uint64_t key = rng();
      CHECK(spec32.evaluate_mle(key_point(key, 32)) == Fr::from_u64(table_value(t, 32, key)));
    }
  }
}

TEST_CASE("prefix states times suffix rows give the extension at a split point") {
  // Val(r_prefix, suffix bits) = Σ_i P_i(r_prefix)·S_i(suffix) for every split on a phase
  // boundary, with the prefix states built in two steps (field chunks, then Boolean chunk bits).
  std::mt19937_64 rng(5);
  for (LookupTable t : all_tables()) {
    const TableSpec spec = TableSpec::make(t, 32);
    const std::size_t m = spec.states();
    for (unsigned prefix_bits = 8; prefix_bits < 64; prefix_bits += 8) {
      std::vector<Fr> point(64);
      for (unsigned i = 0; i < prefix_bits - 8; ++i) point[i] = rand_fr(rng);
      const std::uint64_t key = rng();
      for (unsigned i = prefix_bits - 8; i < 64; ++i)
        point[i] = ((key >> (63 - i)) & 1) ? Fr::one() : Fr::zero();
      std::vector<Fr> state(m);
      for (std::size_t i = 0; i < m; ++i) state[i] = Fr::from_i64(spec.init()[i]);
      spec.advance_state(state, 31, std::span<const Fr>(point.data(), prefix_bits - 8));
      const unsigned chunk_first_pair = 31 - (prefix_bits - 8) / 2;
      spec.advance_state_bits(state, chunk_first_pair, 4, (key >> (64 - prefix_bits)) & 0xff);
      std::vector<std::int64_t> s(m);
      spec.suffix(key, (64 - prefix_bits) / 2, s);
      Fr split;
      for (std::size_t i = 0; i < m; ++i) split += state[i] * Fr::from_i64(s[i]);
      INFO(table_name(t), " prefix bits ", prefix_bits);
      CHECK(split == spec.evaluate_mle(point));
    }
  }
}

// suffix() applies four pairs at a time by byte-block product matrices (mod 2^64) and the rest
// one pair at a time: every pair count, not only the read-raf's phase boundaries, and widths
// whose pair count is no multiple of 4 (a partial last block).
TEST_CASE("the suffix by byte blocks equals the suffix pair by pair") {
  std::mt19937_64 rng(17);
  for (unsigned w : {32u, 10u, 6u})
    for (LookupTable t : all_tables()) {
      if (needs_power_of_two_width(t) && !std::has_single_bit(w)) continue;
      const TableSpec spec = TableSpec::make(t, w);
      const std::size_t m = spec.states();
      bool same = true;
      for (unsigned n = 0; n <= w; ++n)
        for (int rep = 0; rep < 24; ++rep) {
          // Random keys and extremes (all ones, all zeros, alternating bits).
          std::uint64_t key = rep == 0   ? ~0ull
                              : rep == 1 ? 0
                              : rep == 2 ? 0xaaaaaaaaaaaaaaaaull
                                         : rng();
          if (w < 32) key &= (std::uint64_t{1} << (2 * w)) - 1;
          std::vector<std::int64_t> fast(m), slow(m);
          spec.suffix(key, n, fast);
          spec.suffix_by_pairs(key, n, slow);
          same = same && fast == slow;
        }
      INFO(table_name(t), " width ", w);
      CHECK(same);
    }
}

TEST_CASE("table widths that do not fit are refused with the width named") {
  CHECK_THROWS_WITH_AS(TableSpec::make(LookupTable::And, 33), doctest::Contains("33"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(TableSpec::make(LookupTable::Pow2, 6),
                       doctest::Contains("Pow2 needs a power-of-two word width"),
                       std::invalid_argument);
  CHECK_THROWS_AS(TableSpec::make(LookupTable::Pow2, 32).evaluate_mle(std::vector<Fr>(63)),
                  std::invalid_argument);
}
