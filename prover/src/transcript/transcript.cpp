// BLAKE2b-chained Fiat–Shamir transcript (see transcript.hpp for the exact framing).
#include <sodium.h>

#include <jolt/prover/transcript/transcript.hpp>
#include <stdexcept>

namespace jolt::prover {

namespace {
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
}  // namespace

Transcript::Transcript(std::string_view domain) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium initialisation failed");
  update('D', domain, {});
}

void Transcript::update(char tag, std::string_view label, std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> buf;
  buf.reserve(32 + 1 + 16 + label.size() + payload.size());
  buf.insert(buf.end(), state_.begin(), state_.end());
  buf.push_back(static_cast<std::uint8_t>(tag));
  put_u64(buf, label.size());
  buf.insert(buf.end(), label.begin(), label.end());
  put_u64(buf, payload.size());
  buf.insert(buf.end(), payload.begin(), payload.end());
  crypto_generichash(state_.data(), state_.size(), buf.data(), buf.size(), nullptr, 0);
  ++ops_;
}

void Transcript::absorb_bytes(std::string_view label, std::span<const std::uint8_t> payload) {
  update('A', label, payload);
}

void Transcript::absorb_u64(std::string_view label, std::uint64_t v) {
  std::array<std::uint8_t, 8> b{};
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
  update('A', label, b);
}

void Transcript::absorb_fr(std::string_view label, const Fr& v) {
  auto b = v.to_bytes();
  update('A', label, b);
}

void Transcript::absorb_frs(std::string_view label, std::span<const Fr> v) {
  std::vector<std::uint8_t> b;
  b.reserve(8 + v.size() * Fr::kBytes);
  put_u64(b, v.size());
  for (const Fr& x : v) {
    auto e = x.to_bytes();
    b.insert(b.end(), e.begin(), e.end());
  }
  update('A', label, b);
}

Fr Transcript::challenge(std::string_view label) {
  update('C', label, {});
  std::array<std::uint8_t, 64> wide{};
  static constexpr std::uint8_t kSqueeze[] = {'s', 'q', 'u', 'e', 'e', 'z', 'e'};
  std::vector<std::uint8_t> buf(state_.begin(), state_.end());
  buf.insert(buf.end(), std::begin(kSqueeze), std::end(kSqueeze));
  crypto_generichash(wide.data(), wide.size(), buf.data(), buf.size(), nullptr, 0);
  return Fr::from_bytes_wide(wide);
}

std::vector<Fr> Transcript::challenges(std::string_view label, std::size_t n) {
  std::vector<Fr> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(challenge(label));
  return out;
}

std::array<std::uint8_t, 32> Transcript::challenge_bytes(std::string_view label) {
  update('C', label, {});
  std::array<std::uint8_t, 32> out{};
  static constexpr std::uint8_t kSqueeze[] = {'b', 'y', 't', 'e', 's'};
  std::vector<std::uint8_t> buf(state_.begin(), state_.end());
  buf.insert(buf.end(), std::begin(kSqueeze), std::end(kSqueeze));
  crypto_generichash(out.data(), out.size(), buf.data(), buf.size(), nullptr, 0);
  return out;
}

std::uint64_t Transcript::challenge_u64(std::string_view label) {
  const std::array<std::uint8_t, 32> b = challenge_bytes(label);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<std::size_t>(i)];
  return v;
}

}  // namespace jolt::prover
