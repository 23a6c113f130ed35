// Merkle trees: paths verify for every leaf; a changed leaf, sibling, index, root or path length
// is rejected; BLAKE2b-256 matches a known answer.
#include <doctest/doctest.h>
#include <sodium.h>

#include <cstring>
#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>
#include <string>

#include "hash_lanes.hpp"
#include "test_util.hpp"

using jolt::prover::Fr;
using namespace jolt::prover::pcs;

TEST_CASE("BLAKE2b-256 of the empty string matches the RFC 7693 family known answer") {
  CHECK(to_hex(blake2b_256({})) ==
        "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8");
}

TEST_CASE("leaf and node hashes are domain-separated and bind every element") {
  std::vector<Fr> a = {Fr::from_u64(1), Fr::from_u64(2)};
  auto b = a;
  b[1] = Fr::from_u64(3);
  CHECK(hash_leaf(a) != hash_leaf(b));
  CHECK(hash_leaf(a) != hash_leaf(std::span<const Fr>(a).first(1)));
  const Digest x = hash_leaf(a), y = hash_leaf(b);
  CHECK(hash_node(x, y) != hash_node(y, x));
}

TEST_CASE("Merkle paths verify for every leaf and reject tampering") {
  std::mt19937_64 rng(7);
  for (std::size_t n : {1u, 2u, 8u, 64u, 1024u}) {
    std::vector<Digest> leaves(n);
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<Fr> v = {pcs_test::random_fr(rng)};
      leaves[j] = hash_leaf(v);
    }
    const MerkleTree t = MerkleTree::from_leaves(leaves);
    REQUIRE(t.num_leaves() == n);
    // Parallel build agrees with a sequential recomputation of the root.
    std::vector<Digest> level = leaves;
    while (level.size() > 1) {
      std::vector<Digest> up(level.size() / 2);
      for (std::size_t k = 0; k < up.size(); ++k) up[k] = hash_node(level[2 * k], level[2 * k + 1]);
      level = up;
    }
    CHECK(level[0] == t.root());
    for (std::size_t j = 0; j < n; ++j) {
      auto p = t.path(j);
      REQUIRE(MerkleTree::verify(t.root(), n, j, leaves[j], p));
      Digest bad_leaf = leaves[j];
      bad_leaf[0] ^= 1;
      CHECK_FALSE(MerkleTree::verify(t.root(), n, j, bad_leaf, p));
      if (!p.empty()) {
        auto bad_path = p;
        bad_path[bad_path.size() / 2][31] ^= 0x80;
        CHECK_FALSE(MerkleTree::verify(t.root(), n, j, leaves[j], bad_path));
        CHECK_FALSE(MerkleTree::verify(t.root(), n, j ^ 1, leaves[j], p));
        auto short_path = p;
        short_path.pop_back();
        CHECK_FALSE(MerkleTree::verify(t.root(), n, j, leaves[j], short_path));
      }
      Digest bad_root = t.root();
      bad_root[5] ^= 4;
      CHECK_FALSE(MerkleTree::verify(bad_root, n, j, leaves[j], p));
    }
    CHECK_FALSE(MerkleTree::verify(t.root(), n, n, leaves[0], t.path(0)));
  }
}

TEST_CASE("Merkle tree rejects a non-power-of-two leaf count") {
  std::vector<Digest> leaves(3);
  CHECK_THROWS_AS(MerkleTree::from_leaves(leaves), std::invalid_argument);
}

// A leaf step is plain BLAKE2b-256 of the elements' Montgomery limbs (32 bytes each, little-endian)
// with salt ‖ personal = the previous digest (zero for the first step): an independent consumer can
// recompute it with any BLAKE2b that takes a salt and a personalization (here libsodium's).
TEST_CASE("a leaf step is BLAKE2b-256 salted and personalised by the previous digest") {
  std::mt19937_64 rng(23);
  const std::vector<Fr> v = {pcs_test::random_fr(rng), -Fr::one(), Fr::zero()};
  std::vector<std::uint8_t> bytes;
  for (const Fr& x : v)
    for (int w = 0; w < 4; ++w)
      for (int b = 0; b < 8; ++b)
        bytes.push_back(static_cast<std::uint8_t>(x.mont_limbs()[w] >> (8 * b)));
  auto blake = [&](const Digest& sp) {
    Digest d;
    crypto_generichash_blake2b_salt_personal(d.data(), d.size(), bytes.data(), bytes.size(),
                                             nullptr, 0, sp.data(), sp.data() + 16);
    return d;
  };
  const Digest first = hash_leaf_step(nullptr, v);
  CHECK(first == blake(Digest{}));
  const Digest second = hash_leaf_step(&first, v);
  CHECK(second == blake(first));
  CHECK(second != first);
  // Domain separation from the tagged one-step leaf hash.
  CHECK(first != hash_leaf(v));
}

// The four-lane AVX2 BLAKE2b (blake2b_256_x8's path on CPUs without AVX-512 F) called on its own,
// so it is checked on every CPU with AVX2: each lane's digest is libsodium's BLAKE2b-256 of its
// message (every length a leaf step or a node hash uses, and the longest block), unsalted and
// salted ‖ personalised by a chain digest, also with out on chain.
TEST_CASE("the four-lane AVX2 BLAKE2b equals libsodium's per message") {
  if (!lanes::avx2_available()) {
    MESSAGE("no AVX2 on this CPU: the four-lane BLAKE2b is not run");
    return;
  }
  std::mt19937_64 rng(37);
  for (const std::uint64_t length : {32u, 64u, 65u, 96u, 128u})
    for (const bool chained : {false, true}) {
      CAPTURE(length);
      CAPTURE(chained);
      alignas(32) std::uint64_t blocks[4 * 16] = {};
      auto* bytes = reinterpret_cast<std::uint8_t*>(blocks);
      for (std::size_t e = 0; e < 4; ++e)
        for (std::size_t b = 0; b < length; ++b)
          bytes[128 * e + b] = static_cast<std::uint8_t>(rng());
      Digest chain[4];
      for (auto& d : chain)
        for (auto& b : d) b = static_cast<std::uint8_t>(rng());
      Digest want[4];
      for (std::size_t e = 0; e < 4; ++e) {
        crypto_generichash_blake2b_state st;
        const std::uint8_t zero[32] = {};
        const std::uint8_t* sp = chained ? chain[e].data() : zero;
        crypto_generichash_blake2b_init_salt_personal(&st, nullptr, 0, 32, sp, sp + 16);
        crypto_generichash_blake2b_update(&st, bytes + 128 * e, length);
        crypto_generichash_blake2b_final(&st, want[e].data(), 32);
      }
      Digest got[4];
      lanes::blake2b_256_x4(blocks, length, chained ? chain : nullptr, got);
      for (std::size_t e = 0; e < 4; ++e) CHECK(got[e] == want[e]);
      if (chained) {
        lanes::blake2b_256_x4(blocks, length, chain, chain);  // out on chain
        for (std::size_t e = 0; e < 4; ++e) CHECK(chain[e] == want[e]);
      }
    }
  CHECK_THROWS_AS(lanes::blake2b_256_x4(nullptr, 129, nullptr, nullptr), std::invalid_argument);
}

// hash_leaf_steps (eight BLAKE2b compressions at a time on AVX-512 F, or two of four on AVX2)
// must give hash_leaf_step's digest at every position: one to four columns, unchained and chained,
// batches that are and are not multiples of eight, in place, with the lanes on and off.
TEST_CASE("batched leaf steps equal hash_leaf_step, with the lanes on and off") {
  std::mt19937_64 rng(29);
  const bool lanes = hash_lanes_enabled();
  const std::string lanes_note =
      std::string("hash lanes (AVX-512 F or AVX2) on this CPU: ") + (lanes ? "yes" : "no");
  MESSAGE(lanes_note);
  for (const bool on : {true, false}) {
    set_hash_lanes_enabled(on);
    CHECK(hash_lanes_enabled() == (on && lanes));
    for (const std::size_t nc : {1u, 2u, 3u, 4u})
      for (const std::size_t n : {0u, 1u, 7u, 8u, 9u, 16u, 31u, 64u}) {
        CAPTURE(on);
        CAPTURE(nc);
        CAPTURE(n);
        std::vector<std::vector<Fr>> cols(nc, std::vector<Fr>(n));
        for (std::size_t c = 0; c < nc; ++c)
          for (std::size_t i = 0; i < n; ++i)
            cols[c][i] = (i + c) % 5 == 0   ? -Fr::one()
                         : (i + c) % 7 == 0 ? Fr::zero()
                                            : pcs_test::random_fr(rng);
        std::vector<const Fr*> ptr, rev;
        for (std::size_t c = 0; c < nc; ++c) {
          ptr.push_back(cols[c].data());
          rev.push_back(cols[nc - 1 - c].data());
        }
        auto values = [&](const std::vector<const Fr*>& p, std::size_t i) {
          std::vector<Fr> v;
          for (const Fr* col : p) v.push_back(col[i]);
          return v;
        };
        std::vector<Digest> first(n), want_first(n);
        hash_leaf_steps(nullptr, ptr, first.data(), n);
        for (std::size_t i = 0; i < n; ++i) want_first[i] = hash_leaf_step(nullptr, values(ptr, i));
        CHECK(first == want_first);
        // Chained, in place: out is prev.
        std::vector<Digest> chained = first, want(n);
        hash_leaf_steps(chained.data(), rev, chained.data(), n);
        for (std::size_t i = 0; i < n; ++i) want[i] = hash_leaf_step(&first[i], values(rev, i));
        CHECK(chained == want);
      }
  }
  std::vector<const Fr*> five(5, nullptr);
  CHECK_THROWS_AS(hash_leaf_steps(nullptr, five, nullptr, 0), std::invalid_argument);
  set_hash_lanes_enabled(true);
}

TEST_CASE("batched node hashes equal hash_node, with the lanes on and off") {
  std::mt19937_64 rng(31);
  for (const bool on : {true, false}) {
    set_hash_lanes_enabled(on);
    for (const std::size_t n : {0u, 1u, 8u, 13u, 32u}) {
      CAPTURE(on);
      CAPTURE(n);
      std::vector<Digest> children(2 * n);
      for (auto& d : children)
        for (auto& b : d) b = static_cast<std::uint8_t>(rng());
      std::vector<Digest> got(n), want(n);
      hash_node_pairs(children.data(), got.data(), n);
      for (std::size_t i = 0; i < n; ++i) want[i] = hash_node(children[2 * i], children[2 * i + 1]);
      CHECK(got == want);
    }
  }
  set_hash_lanes_enabled(true);
}
