// Basefold PCS: honest batched openings verify at every size 2^1..2^20; proofs are byte-identical
// at 1 and 2 threads; each verifier check rejects a prover that breaks exactly that check (the
// honest prover with one thing altered), and the rejection names the check.
#include <doctest/doctest.h>
#include <tbb/global_control.h>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>
#include <jolt/prover/pcs/reed_solomon.hpp>
#include <jolt/prover/pcs/scheme.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ntt_lanes.hpp"
#include "test_util.hpp"

using jolt::prover::Fr;
using jolt::prover::Transcript;
using jolt::prover::VerifyError;
namespace bf = jolt::prover::basefold;

using pcs_test::Instance;
using pcs_test::make_instance;

namespace {

struct Run {
  bf::Committed com;
  std::vector<std::uint8_t> proof;
};

Run prove(const bf::Basefold& pcs, const Instance& in, const bf::Tamper* tamper = nullptr,
          std::span<const Fr> claimed = {}) {
  const auto spans = in.spans();
  Run r;
  r.com = pcs.commit(spans);
  Transcript t("basefold-test");
  t.absorb_bytes("commitment", r.com.root);
  r.proof = pcs.open(*r.com.data, spans, in.point, claimed.empty() ? in.evals : claimed, t, tamper);
  return r;
}

std::optional<VerifyError> check(const bf::Basefold& pcs, const bf::Committed& com,
                                 const Instance& in, std::span<const std::uint8_t> proof,
                                 std::span<const Fr> claimed = {}) {
  Transcript t("basefold-test");
  t.absorb_bytes("commitment", com.root);
  return pcs.verify(com.root, com.num_vars, com.num_polys, in.point,
                    claimed.empty() ? in.evals : claimed, proof, t);
}

std::string check_name(const std::optional<VerifyError>& e) {
  return e ? e->check : std::string("(accepted)");
}

// The rejection tests run at 2^12 × 3: one coset layer, a final message of 2^7.
const Instance& reject_instance() {
  static const Instance in = make_instance(12, 3, 99);
  return in;
}

std::string rejected_by(const bf::Tamper& tamper) {
  const bf::Basefold pcs;
  const Instance& in = reject_instance();
  const Run r = prove(pcs, in, &tamper);
  return check_name(check(pcs, r.com, in, r.proof));
}

}  // namespace

TEST_CASE(
    "basefold: parameters give at least 100 bits in the Johnson and unique-decoding regimes") {
  const bf::Params p;
  CHECK(p.regime == bf::Regime::kJohnson);
  CHECK(p.johnson_m == 16);
  CHECK(p.num_queries() == 88);
  // δ = 1 − √ρ·(1 + 1/32): 0.9556 bits per query (−log2(0.515625)) plus the grinding bits.
  CHECK(p.decoding_radius() == doctest::Approx(1.0 - 0.5 * (1.0 + 1.0 / 32)));
  CHECK(p.num_queries() * -std::log2(1 - p.decoding_radius()) + p.pow_bits >= 100.0);
  CHECK((p.num_queries() - 1) * -std::log2(1 - p.decoding_radius()) + p.pow_bits < 100.0);
  bf::Params unique;
  unique.regime = bf::Regime::kUniqueDecoding;
  CHECK(unique.num_queries() == 124);
  CHECK(unique.decoding_radius() == doctest::Approx(0.375));
  // 0.678 bits per query (−log2(5/8)) plus the grinding bits.
  CHECK(unique.num_queries() * -std::log2(1 - unique.decoding_radius()) + unique.pow_bits >= 100.0);
  unique.pow_bits = 0;
  CHECK(unique.num_queries() == 148);
  bf::Params bad;
  bad.log_fold = 0;
  CHECK_THROWS_AS(bf::Basefold{bad}, std::invalid_argument);
  bf::Params bad_m;
  bad_m.johnson_m = 2;
  CHECK_THROWS_AS(bf::Basefold{bad_m}, std::invalid_argument);
  CHECK(bf::Basefold{}.parameters().find("Johnson m=16") != std::string::npos);
}

TEST_CASE("basefold: the twiddles hold every power of ω in half a table") {
  for (unsigned log : {0u, 1u, 2u, 3u, 4u, 10u, 14u, 15u}) {
    CAPTURE(log);
    const bf::Twiddles tw = bf::twiddles(log);
    const std::size_t n = std::size_t{1} << log;
    // Even powers (n/4) and the low ones (up to kLow): beyond 2^14, half of n/2 entries.
    CHECK(tw.log_size() == log);
    CHECK(tw.heap_bytes() == (std::max<std::size_t>(n / 4, 1) +
                              std::max<std::size_t>(std::min(n / 2, bf::Twiddles::kLow), 1)) *
                                 sizeof(Fr));
    const Fr w = Fr::root_of_unity(log);
    Fr x = Fr::one();
    bool all = true;
    for (std::size_t e = 0; e < std::max<std::size_t>(n / 2, 1); ++e, x *= w)
      all = all && tw.at(e) == x;
    CHECK(all);
  }
}

TEST_CASE("basefold: the coset twiddles are each coset's layer twiddles") {
  for (unsigned R : {1u, 2u})
    for (unsigned L : {0u, 1u, 3u, 6u}) {
      CAPTURE(R);
      CAPTURE(L);
      const bf::CosetTwiddles tw(L, R);
      CHECK(tw.log_n() == L);
      CHECK(tw.log_inv_rate() == R);
      if (!tw.per_coset()) {  // the lane layers read twiddles(log_n)
        CHECK(tw.domain().log_size() == L);
        continue;
      }
      const std::size_t N = std::size_t{1} << L, cosets = std::size_t{1} << R;
      CHECK(tw.heap_bytes() == cosets * std::max<std::size_t>(N / 2, 1) * sizeof(Fr));
      // Coset r's layer of length len: (ω^r)^(N/len)·ω_len^J = ω^((r + J·R)·N/len).
      const Fr w = Fr::root_of_unity(L + R);
      bool all = true;
      for (std::size_t r = 0; r < cosets; ++r)
        for (std::size_t len = 2; len <= N; len <<= 1)
          for (std::size_t J = 0; J < len / 2; ++J)
            all = all && tw.at(r, N / len, J) == w.pow((r + J * cosets) * (N / len)) &&
                  tw.run(r, N / len, 0) + J * (N / len) == tw.run(r, N / len, J);
      CHECK(all);
    }
  CHECK_THROWS_AS(bf::CosetTwiddles(Fr::two_adicity(), 1), std::invalid_argument);
  // The tables only for codewords of up to 2^kMaxTablesLog entries, never when compact.
  const bool portable = !bf::lanes::enabled();
  CHECK(bf::CosetTwiddles::tables_for(bf::CosetTwiddles::kMaxTablesLog - 1, 1, false) == portable);
  CHECK_FALSE(bf::CosetTwiddles::tables_for(bf::CosetTwiddles::kMaxTablesLog, 1, false));
  CHECK_FALSE(bf::CosetTwiddles::tables_for(10, 1, true));
  CHECK(bf::CosetTwiddles(6, 1).per_coset() == bf::CosetTwiddles::tables_for(6, 1, false));
  const bf::CosetTwiddles other(5, 1);
  CHECK_THROWS_AS(bf::CosetEncoder(5, 2, 0, other), std::invalid_argument);
  CHECK_THROWS_AS(bf::CosetEncoder(4, 1, 0, other), std::invalid_argument);
  CHECK_THROWS_AS(bf::CosetEncoder(5, 1, 2, other), std::invalid_argument);
}

TEST_CASE("basefold: the blocked encoder equals ReedSolomonCode::encode") {
  std::mt19937_64 rng(5);
  for (unsigned R : {1u, 2u, 3u})
    for (unsigned L : {0u, 1u, 2u, 5u, 9u, 11u, 12u, 15u}) {
      CAPTURE(R);
      CAPTURE(L);
      const auto msg = pcs_test::random_frs(rng, std::size_t{1} << L);
      const auto expect = jolt::prover::pcs::ReedSolomonCode(L, R).encode(msg);
      std::vector<Fr> got(expect.size());
      bf::rs_encode(msg, R, got, bf::twiddles(L + R), 1);
      CHECK(got == expect);
      // The same domain through a 4× larger table with stride 4.
      std::vector<Fr> strided(expect.size());
      bf::rs_encode(msg, R, strided, bf::twiddles(L + R + 2), 4);
      CHECK(strided == expect);
    }
}

TEST_CASE("basefold: the codeword at chosen positions equals the whole encoding there") {
  std::mt19937_64 rng(6);
  for (unsigned R : {1u, 2u, 3u})
    for (unsigned L : {0u, 1u, 3u, 8u, 12u, 14u})
      for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{248}}) {
        CAPTURE(R);
        CAPTURE(L);
        CAPTURE(count);
        const auto msg = pcs_test::random_frs(rng, std::size_t{1} << L);
        const std::size_t M = msg.size() << R;
        const auto tw = bf::twiddles(L + R);
        std::vector<Fr> full(M);
        bf::rs_encode(msg, R, full, tw, 1);
        std::vector<std::uint64_t> at(count);
        for (auto& p : at) p = rng() % M;
        at[0] = M - 1;
        // Partners p, p + M/2 (the pairs a layer-0 leaf opens share their Horner sums) and a
        // repeated position, as the opening asks for them.
        for (std::size_t i = 1; i + 1 < count; i += 3) at[i] = (at[i + 1] + M / 2) % M;
        if (count > 4) at[4] = at[3];
        std::vector<Fr> got(count);
        bf::rs_encode_at(msg, R, at, tw, got);
        bool same = true;
        for (std::size_t i = 0; i < count; ++i) same = same && got[i] == full[at[i]];
        CHECK(same);
        // Without a twiddle table (the opening's way: the powers of ω_M it reads are computed).
        std::vector<Fr> untabled(count);
        bf::rs_encode_at(msg, R, at, {}, untabled);
        CHECK(untabled == got);
      }
  std::vector<Fr> out(1);
  const std::vector<std::uint64_t> outside = {64};
  CHECK_THROWS_AS(bf::rs_encode_at(std::vector<Fr>(16), 2, outside, bf::twiddles(6), out),
                  std::invalid_argument);
}

// The opening builds one PositionEncoder and re-encodes every committed table with it: its plan
// must not keep anything of the message it encoded last.
TEST_CASE("basefold: one position encoder encodes many messages, each as the whole encoding") {
  std::mt19937_64 rng(16);
  for (unsigned R : {1u, 2u})
    for (unsigned L : {3u, 10u}) {
      CAPTURE(R);
      CAPTURE(L);
      const std::size_t M = std::size_t{1} << (L + R);
      std::vector<std::uint64_t> at(40);
      for (auto& p : at) p = rng() % M;
      const bf::PositionEncoder enc(L, R, at, {});
      for (int m = 0; m < 3; ++m) {
        // A random message, a 0/1 one (the bit rows) and a random one again.
        auto msg = pcs_test::random_frs(rng, std::size_t{1} << L);
        if (m == 1)
          for (Fr& x : msg) x = Fr::from_u64(rng() & 1);
        std::vector<Fr> full(M), got(at.size());
        bf::rs_encode(msg, R, full, bf::twiddles(L + R), 1);
        enc.encode(msg, got);
        bool same = true;
        for (std::size_t i = 0; i < at.size(); ++i) same = same && got[i] == full[at[i]];
        CHECK(same);
      }
      std::vector<Fr> out(at.size());
      CHECK_THROWS_AS(enc.encode(std::vector<Fr>(std::size_t{1} << (L + 1)), out),
                      std::invalid_argument);
    }
  const std::vector<std::uint64_t> outside = {64};
  CHECK_THROWS_AS(bf::PositionEncoder(4, 2, outside, {}), std::invalid_argument);
}

// Messages mostly of 0 and 1, as the committed bit columns are: the encoder copies the first
// three layers of an all-0/1 group of 8 slots from a table of 256 rows and runs them on the other
// groups; whole codewords (rs_encode, CosetEncoder's cosets) and chosen positions (rs_encode_at)
// must still equal ReedSolomonCode::encode, with the IFMA lanes on and off.
TEST_CASE("basefold: messages of 0/1 values encode as ReedSolomonCode::encode does") {
  const bool lanes_were = bf::lanes::enabled();
  std::mt19937_64 rng(7);
  enum Kind { kAllBits, kZero, kOnes, kGroupsOfOthers, kSparseOthers, kRandom };
  for (bool lanes_on : {true, false})
    for (unsigned R : {1u, 2u, 3u})
      for (unsigned L : {0u, 2u, 3u, 5u, 8u, 11u, 13u})
        for (Kind kind : {kAllBits, kZero, kOnes, kGroupsOfOthers, kSparseOthers, kRandom}) {
          bf::lanes::set_enabled(lanes_on);
          CAPTURE(lanes_on);
          CAPTURE(R);
          CAPTURE(L);
          CAPTURE(static_cast<int>(kind));
          const std::size_t N = std::size_t{1} << L;
          std::vector<Fr> msg(N);
          for (std::size_t t = 0; t < N; ++t) {
            const Fr bit = (rng() & 1) != 0 ? Fr::one() : Fr::zero();
            switch (kind) {
              case kAllBits:
                msg[t] = bit;
                break;
              case kZero:
                msg[t] = Fr::zero();
                break;
              case kOnes:
                msg[t] = Fr::one();
                break;
              // Whole groups of other values: a group's 8 entries share t mod N/8.
              case kGroupsOfOthers:
                msg[t] = t % 8 == 3 ? pcs_test::random_fr(rng) : bit;
                break;
              case kSparseOthers:
                msg[t] = rng() % 50 == 0 ? Fr::from_u64(2 + rng() % 3) : bit;
                break;
              case kRandom:
                msg[t] = pcs_test::random_fr(rng);
                break;
            }
          }
          const auto expect = jolt::prover::pcs::ReedSolomonCode(L, R).encode(msg);
          const auto tw = bf::twiddles(L + R);
          std::vector<Fr> got(expect.size());
          bf::rs_encode(msg, R, got, tw, 1);
          CHECK(got == expect);
          // Coset r of the table's codeword is every 2^R-th entry from r.
          const std::vector<std::span<const Fr>> tables = {msg};
          // Both forms of the twiddles: the coset tables (portable layers) and the compact ones.
          for (bool compact : {false, true}) {
            CAPTURE(compact);
            const bf::CosetTwiddles tw_n(L, R, compact);
            std::vector<Fr> from_cosets(expect.size()), coset(N);
            for (std::size_t r = 0; r < (std::size_t{1} << R); ++r) {
              bf::CosetEncoder(L, R, r, tw_n).encode(jolt::prover::SpanBatch(tables), 0, coset);
              for (std::size_t j = 0; j < N; ++j) from_cosets[(j << R) + r] = coset[j];
            }
            CHECK(from_cosets == expect);
          }
          std::vector<std::uint64_t> at(176);
          for (auto& p : at) p = rng() % expect.size();
          std::vector<Fr> at_got(at.size());
          bf::rs_encode_at(msg, R, at, tw, at_got);
          bool same = true;
          for (std::size_t i = 0; i < at.size(); ++i) same = same && at_got[i] == expect[at[i]];
          CHECK(same);
          std::vector<Fr> at_untabled(at.size());
          bf::rs_encode_at(msg, R, at, {}, at_untabled);
          CHECK(at_untabled == at_got);
        }
  bf::lanes::set_enabled(lanes_were);
}

// Past one cache block (2^13 entries) the transform runs its strip layers; each coset must still
// be every 2^R-th entry of rs_encode's codeword, for bit columns and others, lanes on and off.
TEST_CASE("basefold: a codeword's cosets past one block are its every 2^R-th entries") {
  const bool lanes_were = bf::lanes::enabled();
  std::mt19937_64 rng(11);
  for (bool lanes_on : {true, false})
    for (unsigned R : {1u, 2u})
      for (unsigned L : {14u, 16u}) {
        bf::lanes::set_enabled(lanes_on);
        CAPTURE(lanes_on);
        CAPTURE(R);
        CAPTURE(L);
        const std::size_t N = std::size_t{1} << L;
        std::vector<Fr> msg(N);
        for (std::size_t t = 0; t < N; ++t)
          msg[t] = t % 97 == 5 ? pcs_test::random_fr(rng) : Fr::from_u64(rng() & 1);
        std::vector<Fr> expect(N << R);
        bf::rs_encode(msg, R, expect, bf::twiddles(L + R), 1);
        const std::vector<std::span<const Fr>> tables = {msg};
        for (bool compact : {false, true}) {
          CAPTURE(compact);
          const bf::CosetTwiddles tw_n(L, R, compact);
          std::vector<Fr> coset(N);
          for (std::size_t r = 0; r < (std::size_t{1} << R); ++r) {
            CAPTURE(r);
            bf::CosetEncoder(L, R, r, tw_n).encode(jolt::prover::SpanBatch(tables), 0, coset);
            bool same = true;
            for (std::size_t j = 0; j < N; ++j) same = same && coset[j] == expect[(j << R) + r];
            CHECK(same);
          }
        }
      }
  bf::lanes::set_enabled(lanes_were);
}

// A table the batch stores as bits is encoded from its groups' rows (bit_patterns, read once for
// all cosets) in output order, block by block (2^9 groups a block from 2^12 entries on): each
// coset must equal the one encoded from the same table read as field elements, for random bits,
// all zeros and all ones, sizes below, at and past one block, lanes on and off; a batch that
// does not store the table as bits gives no patterns.
TEST_CASE("basefold: a table stored as bits encodes as the same table read as field elements") {
  const bool lanes_were = bf::lanes::enabled();
  std::mt19937_64 rng(23);
  for (bool lanes_on : {true, false})
    for (unsigned R : {1u, 2u})
      for (unsigned L : {3u, 4u, 6u, 11u, 12u, 13u, 15u})
        for (int kind = 0; kind < 3; ++kind) {
          bf::lanes::set_enabled(lanes_on);
          CAPTURE(lanes_on);
          CAPTURE(R);
          CAPTURE(L);
          CAPTURE(kind);
          const std::size_t N = std::size_t{1} << L;
          std::vector<std::uint8_t> bits(N);
          for (auto& b : bits)
            b = kind == 0 ? static_cast<std::uint8_t>(rng() & 1) : kind == 1 ? 0 : 1;
          const pcs_test::BitsBatch stored({bits}, {true}), unstored({bits}, {false});
          const std::vector<Fr> dense = stored.dense()[0];
          const std::vector<std::span<const Fr>> tables = {dense};
          const jolt::prover::SpanBatch fields(tables);
          const std::vector<std::uint8_t> patterns = bf::CosetEncoder::bit_patterns(stored, 0);
          REQUIRE(patterns.size() == N / 8);
          // Group t0's row: bit m is entry t0 + bit_reverse3(m)·N/8.
          bool rows = true;
          for (std::size_t t0 = 0; t0 < N / 8; ++t0)
            for (unsigned m = 0; m < 8; ++m)
              rows = rows && ((patterns[t0] >> m) & 1) ==
                                 bits[t0 + ((m & 1) << 2 | (m & 2) | (m >> 2)) * (N / 8)];
          CHECK(rows);
          CHECK(bf::CosetEncoder::bit_patterns(fields, 0).empty());
          CHECK(bf::CosetEncoder::bit_patterns(unstored, 0).empty());
          const bf::CosetTwiddles tw_n(L, R, /*compact=*/(L + R) % 2 == 1);
          std::vector<Fr> want(N), got(N);
          for (std::size_t r = 0; r < (std::size_t{1} << R); ++r) {
            CAPTURE(r);
            const bf::CosetEncoder enc(L, R, r, tw_n);
            enc.encode(fields, 0, want);
            enc.encode(stored, 0, patterns, got);
            CHECK(got == want);
            enc.encode(stored, 0, got);
            CHECK(got == want);
            std::vector<std::uint8_t> longer = patterns;
            longer.push_back(0);
            CHECK_THROWS_AS(enc.encode(stored, 0, longer, got), std::invalid_argument);
          }
        }
  bf::lanes::set_enabled(lanes_were);
}

// The commitment of tables stored as bits (and one that is not) is the commitment of the same
// tables as field elements.
TEST_CASE("basefold: tables stored as bits commit to the field elements' root") {
  std::mt19937_64 rng(29);
  for (unsigned n : {2u, 3u, 9u, 14u}) {
    CAPTURE(n);
    std::vector<std::vector<std::uint8_t>> t(3, std::vector<std::uint8_t>(std::size_t{1} << n));
    for (std::size_t i = 0; i < t.size(); ++i)
      for (auto& b : t[i]) b = static_cast<std::uint8_t>(i == 1 ? rng() % 200 : rng() & 1);
    const pcs_test::BitsBatch stored(t, {true, false, true});
    const auto dense = stored.dense();
    const std::vector<std::span<const Fr>> spans(dense.begin(), dense.end());
    const bf::Basefold pcs;
    CHECK(pcs.commit(stored).root == pcs.commit(spans).root);
  }
}

TEST_CASE("basefold: honest openings verify at every size 2^1..2^20") {
  const bf::Basefold pcs;
  for (unsigned n = 1; n <= 20; ++n) {
    const unsigned k = n <= 12 ? 3 : n <= 16 ? 2 : 1;
    CAPTURE(n);
    const Instance in = make_instance(n, k, 1000 + n);
    const Run r = prove(pcs, in);
    CHECK(r.com.num_vars == n);
    CHECK(r.com.num_polys == k);
    CHECK(check_name(check(pcs, r.com, in, r.proof)) == "(accepted)");
  }
}

TEST_CASE("basefold: batches of several polynomials, other folding parameters") {
  for (unsigned k : {1u, 2u, 5u, 9u}) {
    CAPTURE(k);
    const Instance in = make_instance(11, k, 7 + k);
    const bf::Basefold pcs;
    const Run r = prove(pcs, in);
    CHECK(check_name(check(pcs, r.com, in, r.proof)) == "(accepted)");
  }
  bf::Params p;
  p.log_fold = 2;
  p.final_log_max = 3;
  p.pow_bits = 0;
  p.log_inv_rate = 3;
  const bf::Basefold pcs(p);
  const Instance in = make_instance(13, 4, 5);
  const Run r = prove(pcs, in);
  CHECK(check_name(check(pcs, r.com, in, r.proof)) == "(accepted)");
}

TEST_CASE("basefold: the prover refuses a wrong evaluation and mismatched shapes") {
  const bf::Basefold pcs;
  Instance in = make_instance(8, 2, 3);
  in.evals[1] += Fr::one();
  CHECK_THROWS_AS(prove(pcs, in), std::invalid_argument);
  const std::vector<Fr> a(8), b(16);
  const std::vector<std::span<const Fr>> mixed = {a, b};
  CHECK_THROWS_AS(pcs.commit(mixed), std::invalid_argument);
  const std::vector<Fr> odd(12);
  const std::vector<std::span<const Fr>> not_pow2 = {odd};
  CHECK_THROWS_AS(pcs.commit(not_pow2), std::invalid_argument);
}

TEST_CASE("basefold: proofs are byte-identical with 1 and 2 threads") {
  const bf::Basefold pcs;
  const Instance in = make_instance(14, 4, 42);
  Run one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = prove(pcs, in);
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = prove(pcs, in);
  }
  CHECK(one.com.root == two.com.root);
  CHECK(one.proof == two.proof);
}

TEST_CASE("basefold: prover data is the layer-0 tree: no codeword, no copy of the tables") {
  const bf::Basefold pcs;
  const Instance in = make_instance(10, 3, 8);
  const auto spans = in.spans();
  const bf::Committed c = pcs.commit(spans);
  jolt::FoldedStackBuilder b;
  c.data->visit_heap(b);
  std::uint64_t total = 0;
  for (const auto& s : b.take()) total += s.bytes;
  // The tree over M/2 = 2^11 leaves from level 2 up: 2·2^9 digests; neither the leaf digests,
  // nor level 1, nor the 3 codewords of 4·2^10 Fr are kept.
  CHECK(total == 2 * 512 * 32);
  CHECK(c.data->heap_bytes() == total);
}

TEST_CASE("basefold: the commitment root is the Merkle tree of the layer-0 leaves in its order") {
  // Leaf ℓ (the pairs C_i[ℓ], C_i[ℓ + M/2], chained over groups of leaf_group tables) sits at tree
  // position 4·(ℓ mod Q) + ℓ/Q, Q = M/8: the four leaves under a level-2 node lie M/8 apart.
  // Rebuilt here from whole codewords (rs_encode), independently of the coset-at-a-time commit.
  const Instance in = make_instance(9, 3, 31);
  const bf::Basefold pcs;
  const bf::Params p;
  const auto spans = in.spans();
  const std::size_t N = spans[0].size(), M = N << p.log_inv_rate, half = M / 2, Q = half / 4;
  const bf::Twiddles tw = bf::twiddles(9 + p.log_inv_rate);
  std::vector<std::vector<Fr>> cw(spans.size(), std::vector<Fr>(M));
  for (std::size_t i = 0; i < spans.size(); ++i)
    bf::rs_encode(spans[i], p.log_inv_rate, cw[i], tw, 1);
  std::vector<jolt::prover::pcs::Digest> leaf(half);
  for (std::size_t l = 0; l < half; ++l) {
    std::optional<jolt::prover::pcs::Digest> d;
    for (std::size_t g = 0; g < spans.size(); g += p.leaf_group) {
      std::vector<Fr> vals;
      for (std::size_t i = g; i < std::min(spans.size(), g + p.leaf_group); ++i)
        vals.insert(vals.end(), {cw[i][l], cw[i][l + half]});
      d = jolt::prover::pcs::hash_leaf_step(d ? &*d : nullptr, vals);
    }
    leaf[l] = *d;
  }
  std::vector<jolt::prover::pcs::Digest> in_order(half);
  for (std::size_t l = 0; l < half; ++l) in_order[4 * (l % Q) + l / Q] = leaf[l];
  const auto root = pcs.commit(spans).root;
  const auto expect = jolt::prover::pcs::MerkleTree::from_leaves(in_order).root();
  CHECK(std::equal(root.begin(), root.end(), expect.begin(), expect.end()));
  // Not the leaves' natural order.
  const auto natural = jolt::prover::pcs::MerkleTree::from_leaves(leaf).root();
  CHECK_FALSE(std::equal(root.begin(), root.end(), natural.begin(), natural.end()));
  // And the commitment opens; the proof's version (u32 after the magic) names this layout.
  const Run r = prove(pcs, in);
  CHECK(check_name(check(pcs, r.com, in, r.proof)) == "(accepted)");
  REQUIRE(r.proof.size() > 8);
  CHECK(std::string(r.proof.begin(), r.proof.begin() + 4) == "JBFD");
  CHECK((r.proof[4] | r.proof[5] << 8 | r.proof[6] << 16 | r.proof[7] << 24) == 4);
  // A level-2 node needs four leaves: 2 entries at rate 1/2 give two, which commit refuses by
  // name (rate 1/4 gives four).
  const Instance tiny = make_instance(1, 2, 5);
  const auto tiny_spans = tiny.spans();
  CHECK_THROWS_WITH_AS(bf::Basefold(bf::stacked_params()).commit(tiny_spans),
                       doctest::Contains("fewer than the 4 under a level-2 node"),
                       std::invalid_argument);
  CHECK(pcs.commit(tiny_spans).num_vars == 1);
}

TEST_CASE("basefold: leaf digests chained over groups of polynomials") {
  // k = 7 with G = 2: groups of 2, 2, 2, 1 (one BLAKE2b block per step, eight leaves per
  // compression on the AVX-512 lanes); G = 3: 3, 3, 1; G = 7 and G = 8: one step.
  const Instance in = make_instance(9, 7, 21);
  std::vector<std::vector<std::uint8_t>> roots;
  for (unsigned G : {1u, 2u, 3u, 7u, 8u}) {
    CAPTURE(G);
    bf::Params p;
    p.leaf_group = G;
    const bf::Basefold pcs(p);
    const Run r = prove(pcs, in);
    CHECK(check_name(check(pcs, r.com, in, r.proof)) == "(accepted)");
    roots.emplace_back(r.com.root.begin(), r.com.root.end());
    CHECK(pcs.parameters().find("leaf_group=" + std::to_string(G)) != std::string::npos);
    // A verifier with another group size rejects: its parameters differ.
    bf::Params other = p;
    other.leaf_group = G + 1;
    CHECK(check_name(check(bf::Basefold(other), r.com, in, r.proof)) == "pcs.basefold.params");
  }
  CHECK(roots[0] != roots[1]);
  CHECK(roots[1] != roots[2]);
  CHECK(roots[2] != roots[3]);
  CHECK(roots[3] == roots[4]);  // one group either way
  // The chained digest of the last group binds it: a value changed in group 3 of G = 3 fails.
  bf::Params p;
  p.leaf_group = 3;
  const bf::Basefold pcs(p);
  Instance forged = in;
  forged.tables[6][5] += Fr::one();
  forged.evals[6] = pcs_test::evaluate(forged.tables[6], forged.point);
  const Run honest = prove(pcs, in);
  const Run other = prove(pcs, forged);
  CHECK(honest.com.root != other.com.root);
  CHECK(check_name(check(pcs, honest.com, in, other.proof)) == "pcs.basefold.merkle");
}

TEST_CASE("basefold: each verifier check rejects the prover that breaks it") {
  const bf::Basefold pcs;
  const Instance& in = reject_instance();

  SUBCASE("honest baseline") {
    CHECK(rejected_by(bf::Tamper{}) == "(accepted)");
  }
  SUBCASE("statement shape: a point of the wrong length") {
    const Run r = prove(pcs, in);
    Instance other = in;
    other.point.pop_back();
    CHECK(check_name(check(pcs, r.com, other, r.proof)) == "pcs.basefold.statement");
  }
  SUBCASE("decode: a truncated proof") {
    Run r = prove(pcs, in);
    r.proof.resize(r.proof.size() - 5);
    CHECK(check_name(check(pcs, r.com, in, r.proof)) == "pcs.basefold.decode");
  }
  SUBCASE("params: a proof made with other parameters") {
    bf::Params weaker;
    weaker.pow_bits = 8;  // more queries but less grinding: still not the verifier's choice
    const Run r = prove(bf::Basefold(weaker), in);
    CHECK(check_name(check(pcs, r.com, in, r.proof)) == "pcs.basefold.params");
    bf::Params fewer;
    fewer.security_bits = 60;  // 47 queries
    const Run r2 = prove(bf::Basefold(fewer), in);
    CHECK(check_name(check(pcs, r2.com, in, r2.proof)) == "pcs.basefold.params");
    bf::Params smaller_m;  // farther inside the Johnson radius: 102 queries
    smaller_m.johnson_m = 4;
    const Run r3 = prove(bf::Basefold(smaller_m), in);
    CHECK(check_name(check(pcs, r3.com, in, r3.proof)) == "pcs.basefold.params");
    // A verifier configured for the unique-decoding regime rejects a Johnson-regime proof.
    bf::Params unique;
    unique.regime = bf::Regime::kUniqueDecoding;
    const Run h = prove(pcs, in);
    CHECK(check_name(check(bf::Basefold(unique), h.com, in, h.proof)) == "pcs.basefold.params");
  }
  SUBCASE("proof shape: a final message longer than the shape") {
    bf::Tamper t;
    t.extra_final = true;
    CHECK(rejected_by(t) == "pcs.basefold.proof_shape");
  }
  SUBCASE("grinding: a nonce without the required zero bits") {
    bf::Tamper t;
    t.bad_pow = true;
    CHECK(rejected_by(t) == "pcs.basefold.pow");
  }
  SUBCASE("query range: a query index beyond the leaves") {
    bf::Tamper t;
    t.query_out_of_range = true;
    CHECK(rejected_by(t) == "pcs.basefold.query_range");
  }
  SUBCASE("query index: openings at an index that was not drawn") {
    bf::Tamper t;
    t.shift_query = true;
    CHECK(rejected_by(t) == "pcs.basefold.query_index");
  }
  SUBCASE("leaf count: an opened leaf left out") {
    bf::Tamper t;
    t.drop_leaf = true;
    CHECK(rejected_by(t) == "pcs.basefold.leaf_count");
  }
  SUBCASE("sibling count: an unused Merkle sibling") {
    bf::Tamper t;
    t.extra_sibling = true;
    CHECK(rejected_by(t) == "pcs.basefold.sibling_count");
  }
  SUBCASE("merkle: a wrong Merkle path") {
    bf::Tamper t;
    t.corrupt_sibling = true;
    CHECK(rejected_by(t) == "pcs.basefold.merkle");
  }
  SUBCASE("merkle: an opening from another commitment") {
    const Instance other = make_instance(12, 3, 100);
    const Run mine = prove(pcs, in);
    const Run theirs = prove(pcs, other);
    // The other commitment's proof for its own (true) claims, checked against my commitment.
    Transcript t("basefold-test");
    t.absorb_bytes("commitment", mine.com.root);
    const auto e = pcs.verify(mine.com.root, 12, 3, other.point, other.evals, theirs.proof, t);
    CHECK(check_name(e) == "pcs.basefold.merkle");
  }
  SUBCASE("fold: a committed oracle that is not the fold of the layer below") {
    bf::Tamper t;
    t.corrupt_layer = 1;
    CHECK(rejected_by(t) == "pcs.basefold.fold");
  }
  SUBCASE("final codeword: a final message that keeps the sumcheck but not the folds") {
    bf::Tamper t;
    t.perturb_final = true;
    CHECK(rejected_by(t) == "pcs.basefold.final_codeword");
  }
  SUBCASE("final sum: a wrong evaluation claim") {
    bf::Tamper t;
    t.skip_eval_check = true;
    std::vector<Fr> wrong = in.evals;
    wrong[2] += Fr::one();
    const Run r = prove(pcs, in, &t, wrong);
    CHECK(check_name(check(pcs, r.com, in, r.proof, wrong)) == "pcs.basefold.final_sum");
    // The honest proof checked against a wrong claim is rejected too.
    const Run h = prove(pcs, in);
    CHECK(check_name(check(pcs, h.com, in, h.proof, wrong)) != "(accepted)");
  }
}

TEST_CASE("basefold: behind the CommitmentScheme seam (factory, heap report, verify)") {
  const auto pcs = jolt::prover::make_commitment_scheme(jolt::prover::PcsKind::kBasefold);
  CHECK(pcs->kind() == jolt::prover::PcsKind::kBasefold);
  CHECK(pcs->name() == "basefold");
  CHECK(pcs->parameters().find("rate=1/2 queries=185") != std::string::npos);
  CHECK(jolt::prover::parse_pcs_kind("basefold") == jolt::prover::PcsKind::kBasefold);
  const Instance in = make_instance(9, 3, 77);
  const auto spans = in.spans();
  const jolt::prover::CommitOutput c = pcs->commit(spans);
  CHECK(c.commitment.bytes.size() == 32);
  CHECK(c.data->num_vars() == 9);
  CHECK(c.data->num_polys() == 3);
  Transcript tp("seam"), tv("seam");
  tp.absorb_bytes("commitment", c.commitment.bytes);
  tv.absorb_bytes("commitment", c.commitment.bytes);
  const auto proof = pcs->open(*c.data, spans, in.point, in.evals, tp);
  CHECK(check_name(pcs->verify(c.commitment, in.point, in.evals, proof, tv)) == "(accepted)");
  // Prover data from another scheme is refused.
  const auto lig = jolt::prover::make_commitment_scheme(jolt::prover::PcsKind::kLigero);
  const jolt::prover::CommitOutput lc = lig->commit(spans);
  Transcript t2("seam");
  CHECK_THROWS_AS(pcs->open(*lc.data, spans, in.point, in.evals, t2), std::invalid_argument);
}
