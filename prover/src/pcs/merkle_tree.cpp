// Merkle tree construction (parallel per level with TBB), authentication paths, verification.
#include <tbb/parallel_for.h>

#include <bit>
#include <stdexcept>

#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>

namespace jolt::prover::pcs {

MerkleTree MerkleTree::build(std::size_t num_leaves,
                             const std::function<Digest(std::size_t)>& leaf_digest) {
  if (num_leaves == 0 || !std::has_single_bit(num_leaves))
    throw std::invalid_argument("MerkleTree::build: number of leaves must be a power of two, got " +
                                std::to_string(num_leaves));
  JOLT_SPAN("MerkleTree::build", jolt::arg("num_leaves", num_leaves));
  MerkleTree t;
  t.nodes_.resize(2 * num_leaves);
  const std::size_t n = num_leaves;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t j = rg.begin(); j < rg.end(); ++j)
                        t.nodes_[n + j] = leaf_digest(j);
                    });
  for (std::size_t level = n / 2; level >= 1; level /= 2) {
    // Nodes [level, 2·level) from their children [2·level, 4·level).
    tbb::parallel_for(tbb::blocked_range<std::size_t>(level, 2 * level, 256),
                      [&](const tbb::blocked_range<std::size_t>& rg) {
                        hash_node_pairs(t.nodes_.data() + 2 * rg.begin(),
                                        t.nodes_.data() + rg.begin(), rg.size());
                      });
  }
  return t;
}

MerkleTree MerkleTree::from_leaves(std::span<const Digest> leaves) {
  return build(leaves.size(), [&](std::size_t j) { return leaves[j]; });
}

std::size_t MerkleTree::depth() const {
  return static_cast<std::size_t>(std::countr_zero(num_leaves()));
}

std::vector<Digest> MerkleTree::path(std::size_t leaf_index) const {
  if (leaf_index >= num_leaves())
    throw std::out_of_range("MerkleTree::path: leaf index out of range");
  std::vector<Digest> p;
  p.reserve(depth());
  for (std::size_t k = num_leaves() + leaf_index; k > 1; k /= 2) p.push_back(nodes_[k ^ 1]);
  return p;
}

bool MerkleTree::verify(const Digest& root, std::size_t num_leaves, std::size_t leaf_index,
                        const Digest& leaf_digest, std::span<const Digest> path) {
  if (num_leaves == 0 || !std::has_single_bit(num_leaves) || leaf_index >= num_leaves) return false;
  if (path.size() != static_cast<std::size_t>(std::countr_zero(num_leaves))) return false;
  Digest cur = leaf_digest;
  std::size_t k = num_leaves + leaf_index;
  for (const Digest& sib : path) {
    cur = (k & 1) ? hash_node(sib, cur) : hash_node(cur, sib);
    k /= 2;
  }
  return cur == root;
}

}  // namespace jolt::prover::pcs
