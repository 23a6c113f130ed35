// BLAKE2b-256 of eight single-block messages at a time on AVX-512 F (a 64-bit lane per message),
// or four at a time on AVX2 where the CPU has no AVX-512 F, for hash.cpp's hash_leaf_steps and
// hash_node_pairs; libsodium's crypto_generichash is the reference both are tested against
// (tests/prover/pcs/merkle_test.cpp).
#pragma once
#include <cstdint>

#include <jolt/prover/pcs/hash.hpp>

namespace jolt::prover::pcs::lanes {

// True when this CPU runs AVX-512 F or AVX2 (blake2b_256_x8 may be called).
bool available();
// True when this CPU runs AVX2 (blake2b_256_x4 may be called).
bool avx2_available();
// BLAKE2b-256 (no key) of eight messages of `length` ≤ 128 bytes, one block each: message e is
// blocks[16·e .. 16·e + 16) as little-endian 64-bit words, zero past length; its salt ‖ personal
// (the parameter block's last 32 bytes) is chain[e] (all zero when chain is null); its digest goes
// to out[e], which may be chain[e].
// On AVX-512 F when the CPU has it, else as two blake2b_256_x4.
void blake2b_256_x8(const std::uint64_t* blocks, std::uint64_t length, const Digest* chain,
                    Digest* out);
// The same for four messages on AVX2 (blocks[16·e .. 16·e + 16) for e < 4); the fallback of
// blake2b_256_x8, callable on its own so tests cover it on CPUs with AVX-512 F too.
void blake2b_256_x4(const std::uint64_t* blocks, std::uint64_t length, const Digest* chain,
                    Digest* out);

}  // namespace jolt::prover::pcs::lanes
