// BLAKE2b-256 (libsodium crypto_generichash) digests for Merkle trees, domain-separated
// between leaves and internal nodes.
//
//   using namespace jolt::prover::pcs;
//   Digest leaf = hash_leaf(column_values);           // H(0x00 ‖ elements)
//   Digest d = hash_leaf_step(nullptr, group0);       // H_{salt‖personal = 0}(elements)
//   d = hash_leaf_step(&d, group1);                   // H_{salt‖personal = d}(elements): chained
//   Digest node = hash_node(leaf, other);             // H(0x01 ‖ left ‖ right)
//   Digest raw  = blake2b_256(bytes);                 // plain BLAKE2b-256
//   std::string hex = to_hex(node);
//
// Leaf encoding: each Fr contributes its four Montgomery limbs, little-endian (32 bytes). The
// Montgomery map x ↦ xR mod r is a bijection on Fr, so this binds the values exactly like the
// canonical encoding while sparing one multiplication per element. All functions are pure and
// thread-safe (libsodium is initialised once, thread-safely, on first use).
//
// Domain separation: hash_leaf and hash_node prefix a tag byte (their messages are 1 + 32·m bytes
// long, odd); a leaf step's message is its elements alone (32·m bytes, even) and its chaining
// value rides in BLAKE2b's parameter block (salt ‖ personal), so no leaf step input equals a leaf
// or node input, and two chains of the same number of steps collide only through a BLAKE2b
// collision in some step. A step of up to four elements is one BLAKE2b compression.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover::pcs {

using Digest = std::array<std::uint8_t, 32>;

Digest blake2b_256(std::span<const std::uint8_t> bytes);
Digest hash_leaf(std::span<const Fr> values);
// One step of a leaf digest chained over groups of values: BLAKE2b-256 of the elements with
// salt ‖ personal = *prev (its first 16 bytes the salt), 32 zero bytes for the first step
// (prev == nullptr). Every step input has a fixed length for a fixed group shape.
Digest hash_leaf_step(const Digest* prev, std::span<const Fr> values);
Digest hash_node(const Digest& left, const Digest& right);
std::string to_hex(const Digest& d);

// hash_leaf_step over the values columns[0][i], columns[1][i], … (one to four columns) for n
// positions at once: out[i] = hash_leaf_step(prev ? &prev[i] : nullptr, {columns[c][i] …}); out
// may be prev. Each step is one BLAKE2b block, so where the CPU has AVX-512 F eight positions
// share one compression (a 64-bit lane each), where it has AVX2 four; the rest, and CPUs with
// neither, go through hash_leaf_step.
void hash_leaf_steps(const Digest* prev, std::span<const Fr* const> columns, Digest* out,
                     std::size_t n);
// hash_node of consecutive children for n parents at once: out[i] = hash_node(children[2i],
// children[2i + 1]), eight per compression on the same lanes; out must not overlap children.
void hash_node_pairs(const Digest* children, Digest* out, std::size_t n);
// Whether hash_leaf_steps and hash_node_pairs use the lanes (AVX-512 F or AVX2); the switch is for
// tests and benchmarks that compare both paths (not thread-safe against a running call).
bool hash_lanes_enabled();
void set_hash_lanes_enabled(bool on);

// Writes v's 32-byte canonical little-endian encoding (as Fr::to_bytes) to out.
void write_fr_canonical(const Fr& v, std::uint8_t* out);

}  // namespace jolt::prover::pcs
