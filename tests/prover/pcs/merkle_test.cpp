// Merkle trees: paths verify for every leaf; a changed leaf, sibling, index, root or path length
// is rejected; BLAKE2b-256 matches a known answer.
#include <doctest/doctest.h>

#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>
#include <string>

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

// hash_leaf_pair_steps (eight BLAKE2b compressions at a time on AVX-512 lanes where the CPU has
// them) must give hash_leaf_step's digest at every position: unchained and chained, batches that
// are and are not multiples of eight, in place, with the lanes on and off.
TEST_CASE("batched leaf steps equal hash_leaf_step, with the lanes on and off") {
  std::mt19937_64 rng(29);
  const bool lanes = hash_lanes_enabled();
  const std::string lanes_note =
      std::string("AVX-512 hash lanes on this CPU: ") + (lanes ? "yes" : "no");
  MESSAGE(lanes_note);
  for (const bool on : {true, false}) {
    set_hash_lanes_enabled(on);
    CHECK(hash_lanes_enabled() == (on && lanes));
    for (const std::size_t n : {0u, 1u, 7u, 8u, 9u, 16u, 31u, 64u}) {
      CAPTURE(on);
      CAPTURE(n);
      std::vector<Fr> lo(n), hi(n);
      for (std::size_t i = 0; i < n; ++i) {
        lo[i] = i % 5 == 0 ? -Fr::one() : pcs_test::random_fr(rng);
        hi[i] = i % 7 == 0 ? Fr::zero() : pcs_test::random_fr(rng);
      }
      std::vector<Digest> first(n), want_first(n);
      hash_leaf_pair_steps(nullptr, lo.data(), hi.data(), first.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        const Fr v[2] = {lo[i], hi[i]};
        want_first[i] = hash_leaf_step(nullptr, v);
      }
      CHECK(first == want_first);
      // Chained, in place: out is prev.
      std::vector<Digest> chained = first, want(n);
      hash_leaf_pair_steps(chained.data(), hi.data(), lo.data(), chained.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        const Fr v[2] = {hi[i], lo[i]};
        want[i] = hash_leaf_step(&first[i], v);
      }
      CHECK(chained == want);
    }
  }
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
