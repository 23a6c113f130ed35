// BLAKE2b-256 digests (libsodium) and the leaf/node domain separation.
#include <sodium.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>

#include <jolt/prover/pcs/hash.hpp>

#include "hash_lanes.hpp"

namespace jolt::prover::pcs {
namespace {

void ensure_sodium() {
  static const int rc = sodium_init();  // thread-safe static init; sodium_init is idempotent
  if (rc < 0) throw std::runtime_error("libsodium: sodium_init failed");
}

}  // namespace

Digest blake2b_256(std::span<const std::uint8_t> bytes) {
  ensure_sodium();
  Digest d;
  crypto_generichash(d.data(), d.size(), bytes.data(), bytes.size(), nullptr, 0);
  return d;
}

namespace {
// BLAKE2b-256 of an optional tag byte then the elements' Montgomery limbs, salt ‖ personal =
// *chain (zero when null).
Digest hash_elements(const std::uint8_t* tag, const Digest* chain, std::span<const Fr> values) {
  ensure_sodium();
  static_assert(crypto_generichash_blake2b_SALTBYTES + crypto_generichash_blake2b_PERSONALBYTES ==
                sizeof(Digest));
  Digest sp{};
  if (chain != nullptr) sp = *chain;
  crypto_generichash_blake2b_state st;
  crypto_generichash_blake2b_init_salt_personal(&st, nullptr, 0, 32, sp.data(),
                                                sp.data() + crypto_generichash_blake2b_SALTBYTES);
  if (tag != nullptr) crypto_generichash_blake2b_update(&st, tag, 1);
  // Stream through a small buffer of little-endian Montgomery limbs.
  constexpr std::size_t kChunk = 64;
  std::uint8_t buf[kChunk * 32];
  for (std::size_t base = 0; base < values.size(); base += kChunk) {
    const std::size_t n = std::min(kChunk, values.size() - base);
    for (std::size_t e = 0; e < n; ++e) {
      const std::uint64_t* l = values[base + e].mont_limbs();
      for (int w = 0; w < 4; ++w)
        for (int b = 0; b < 8; ++b)
          buf[e * 32 + static_cast<std::size_t>(w) * 8 + static_cast<std::size_t>(b)] =
              static_cast<std::uint8_t>(l[w] >> (8 * b));
    }
    crypto_generichash_blake2b_update(&st, buf, n * 32);
  }
  Digest d;
  crypto_generichash_blake2b_final(&st, d.data(), d.size());
  return d;
}
}  // namespace

Digest hash_leaf_step(const Digest* prev, std::span<const Fr> values) {
  return hash_elements(nullptr, prev, values);
}

Digest hash_leaf(std::span<const Fr> values) {
  const std::uint8_t tag = 0x00;
  return hash_elements(&tag, nullptr, values);
}

Digest hash_node(const Digest& left, const Digest& right) {
  std::uint8_t buf[65];
  buf[0] = 0x01;
  std::memcpy(buf + 1, left.data(), 32);
  std::memcpy(buf + 33, right.data(), 32);
  return blake2b_256(buf);
}

std::string to_hex(const Digest& d) {
  static const char* k = "0123456789abcdef";
  std::string s;
  s.reserve(64);
  for (std::uint8_t b : d) {
    s.push_back(k[b >> 4]);
    s.push_back(k[b & 15]);
  }
  return s;
}

void write_fr_canonical(const Fr& v, std::uint8_t* out) {
  auto b = v.to_bytes();
  std::memcpy(out, b.data(), b.size());
}

// ---- eight messages at a time on the AVX-512 F or AVX2 lanes (hash_lanes.hpp) ----

namespace {
std::atomic<bool> g_hash_lanes{lanes::available()};
}  // namespace

bool hash_lanes_enabled() {
  return g_hash_lanes.load(std::memory_order_relaxed);
}
void set_hash_lanes_enabled(bool on) {
  g_hash_lanes.store(on && lanes::available(), std::memory_order_relaxed);
}

static_assert(sizeof(Digest) == 32, "children[2i], children[2i + 1] are 64 contiguous bytes");

void hash_node_pairs(const Digest* children, Digest* out, std::size_t n) {
  std::size_t i = 0;
  if (hash_lanes_enabled()) {
    // hash_node's bytes: 0x01, left, right (65 bytes, one block).
    alignas(64) std::uint64_t blocks[8 * 16] = {};
    auto* bytes = reinterpret_cast<std::uint8_t*>(blocks);
    for (int e = 0; e < 8; ++e) bytes[128 * e] = 0x01;
    for (; i + 8 <= n; i += 8) {
      for (std::size_t e = 0; e < 8; ++e)
        std::memcpy(bytes + 128 * e + 1, children[2 * (i + e)].data(), 64);
      lanes::blake2b_256_x8(blocks, 65, nullptr, out + i);
    }
  }
  for (; i < n; ++i) out[i] = hash_node(children[2 * i], children[2 * i + 1]);
}

void hash_leaf_steps(const Digest* prev, std::span<const Fr* const> columns, Digest* out,
                     std::size_t n) {
  const std::size_t nc = columns.size();
  if (nc < 1 || nc > 4)
    throw std::invalid_argument("pcs::hash_leaf_steps: " + std::to_string(nc) +
                                " columns (one to four make a BLAKE2b block)");
  std::size_t i = 0;
  if (hash_lanes_enabled()) {
    // The step's bytes, as hash_leaf_step writes them: each value's four Montgomery limbs
    // little-endian (x86's byte order in memory); the chaining value goes to the lanes' salt and
    // personal.
    alignas(64) std::uint64_t blocks[8 * 16] = {};
    auto* bytes = reinterpret_cast<std::uint8_t*>(blocks);
    for (; i + 8 <= n; i += 8) {
      for (std::size_t e = 0; e < 8; ++e)
        for (std::size_t c = 0; c < nc; ++c)
          std::memcpy(bytes + 128 * e + 32 * c, columns[c][i + e].mont_limbs(), 32);
      lanes::blake2b_256_x8(blocks, 32 * nc, prev == nullptr ? nullptr : prev + i, out + i);
    }
  }
  Fr vals[4];
  for (; i < n; ++i) {
    for (std::size_t c = 0; c < nc; ++c) vals[c] = columns[c][i];
    out[i] = hash_leaf_step(prev == nullptr ? nullptr : &prev[i], std::span<const Fr>(vals, nc));
  }
}

}  // namespace jolt::prover::pcs
