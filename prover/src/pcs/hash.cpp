// BLAKE2b-256 digests (libsodium), the leaf/node domain separation, and the reference
// Blake2bTranscript plus the Transcript convenience absorbs.
#include <sodium.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include <jolt/prover/pcs/blake2b_transcript.hpp>
#include <jolt/prover/pcs/hash.hpp>

namespace jolt::prover::pcs {
namespace {

void ensure_sodium() {
  static const int rc = sodium_init();  // thread-safe static init; sodium_init is idempotent
  if (rc < 0) throw std::runtime_error("libsodium: sodium_init failed");
}

void put_u64(crypto_generichash_state& st, std::uint64_t v) {
  std::uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
  crypto_generichash_update(&st, b, 8);
}

}  // namespace

Digest blake2b_256(std::span<const std::uint8_t> bytes) {
  ensure_sodium();
  Digest d;
  crypto_generichash(d.data(), d.size(), bytes.data(), bytes.size(), nullptr, 0);
  return d;
}

Digest hash_leaf(std::span<const Fr> values) {
  ensure_sodium();
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 32);
  const std::uint8_t tag = 0x00;
  crypto_generichash_update(&st, &tag, 1);
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
    crypto_generichash_update(&st, buf, n * 32);
  }
  Digest d;
  crypto_generichash_final(&st, d.data(), d.size());
  return d;
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

void Transcript::absorb_frs(std::string_view label, std::span<const Fr> values) {
  std::vector<std::uint8_t> bytes(values.size() * Fr::kBytes);
  for (std::size_t i = 0; i < values.size(); ++i)
    write_fr_canonical(values[i], bytes.data() + i * Fr::kBytes);
  absorb(label, bytes);
}

void Transcript::absorb_u64(std::string_view label, std::uint64_t v) {
  std::uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
  absorb(label, b);
}

Blake2bTranscript::Blake2bTranscript(std::string_view domain) {
  update('D', "domain",
         std::span(reinterpret_cast<const std::uint8_t*>(domain.data()), domain.size()));
}

void Blake2bTranscript::update(char tag, std::string_view label,
                               std::span<const std::uint8_t> payload) {
  ensure_sodium();
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 32);
  crypto_generichash_update(&st, state_.data(), state_.size());
  const auto t = static_cast<std::uint8_t>(tag);
  crypto_generichash_update(&st, &t, 1);
  put_u64(st, label.size());
  crypto_generichash_update(&st, reinterpret_cast<const std::uint8_t*>(label.data()), label.size());
  put_u64(st, payload.size());
  crypto_generichash_update(&st, payload.data(), payload.size());
  crypto_generichash_final(&st, state_.data(), state_.size());
}

void Blake2bTranscript::absorb(std::string_view label, std::span<const std::uint8_t> payload) {
  update('A', label, payload);
}

std::array<std::uint8_t, 64> Blake2bTranscript::draw(std::string_view label) {
  update('C', label, {});
  std::array<std::uint8_t, 64> out;
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, out.size());
  crypto_generichash_update(&st, state_.data(), state_.size());
  crypto_generichash_update(&st, reinterpret_cast<const std::uint8_t*>("out"), 3);
  crypto_generichash_final(&st, out.data(), out.size());
  return out;
}

Fr Blake2bTranscript::challenge_fr(std::string_view label) {
  auto b = draw(label);
  return Fr::from_bytes_wide(std::span<const std::uint8_t, 64>(b));
}

std::uint64_t Blake2bTranscript::challenge_u64(std::string_view label) {
  auto b = draw(label);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<std::size_t>(i)];
  return v;
}

}  // namespace jolt::prover::pcs
