// A binary Merkle tree over a power-of-two number of leaf digests, built level by level in
// parallel with TBB; authentication paths and their verification.
//
//   using namespace jolt::prover::pcs;
//   MerkleTree tree = MerkleTree::build(1024, [&](std::size_t j) { return hash_leaf(col(j)); });
//   std::vector<Digest> path = tree.path(17);         // siblings, leaf level first
//   bool ok = MerkleTree::verify(tree.root(), 1024, 17, tree.leaf(17), path);
//   std::size_t bytes = tree.heap_bytes();
//
// Node k's children are 2k and 2k+1 (root = node 1, leaf j = node num_leaves + j); internal
// nodes hash with hash_node. A built tree is immutable: all const members are thread-safe.
#pragma once
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include <jolt/prover/pcs/hash.hpp>

namespace jolt::prover::pcs {

class MerkleTree {
 public:
  MerkleTree() = default;
  // leaf_digest(j) is called once per leaf, concurrently from TBB workers.
  // Throws std::invalid_argument unless num_leaves is a power of two (≥ 1).
  static MerkleTree build(std::size_t num_leaves,
                          const std::function<Digest(std::size_t)>& leaf_digest);
  static MerkleTree from_leaves(std::span<const Digest> leaves);

  const Digest& root() const { return nodes_[1]; }
  std::size_t num_leaves() const { return nodes_.size() / 2; }
  const Digest& leaf(std::size_t j) const { return nodes_[num_leaves() + j]; }
  std::size_t depth() const;  // path length = log2(num_leaves)
  std::vector<Digest> path(std::size_t leaf_index) const;
  std::size_t heap_bytes() const { return nodes_.capacity() * sizeof(Digest); }

  // False on a wrong path length, an out-of-range index or a digest mismatch.
  static bool verify(const Digest& root, std::size_t num_leaves, std::size_t leaf_index,
                     const Digest& leaf_digest, std::span<const Digest> path);

 private:
  std::vector<Digest> nodes_;  // 2·num_leaves entries; index 0 unused
};

}  // namespace jolt::prover::pcs
