// Fiat–Shamir transcript: labelled absorbs chained through BLAKE2b (libsodium).
//
//   Transcript t("jolt-run/example");
//   t.absorb_u64("trace_length", 1024);
//   t.absorb_bytes("commitment", root);
//   Fr tau = t.challenge("tau");                 // every draw depends on all prior absorbs
//   t.absorb_frs("sumcheck_poly", coeffs);
//
// State update: state ← BLAKE2b-256(state ‖ tag ‖ len(label) ‖ label ‖ len(payload) ‖ payload)
// with tag 'A' for absorbs and 'C' for challenges; a challenge is BLAKE2b-512 of the updated
// state reduced mod r (bias < 2^-250). All lengths are little-endian u64, so absorb boundaries
// are unambiguous. A Transcript is a value type; not thread-safe (use one per proof).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

class Transcript {
 public:
  explicit Transcript(std::string_view domain);

  void absorb_bytes(std::string_view label, std::span<const std::uint8_t> payload);
  void absorb_u64(std::string_view label, std::uint64_t v);
  void absorb_fr(std::string_view label, const Fr& v);
  void absorb_frs(std::string_view label, std::span<const Fr> v);

  Fr challenge(std::string_view label);
  std::vector<Fr> challenges(std::string_view label, std::size_t n);
  // 32 uniformly random bytes (e.g. for sampling column indices in a PCS).
  std::array<std::uint8_t, 32> challenge_bytes(std::string_view label);
  // 64 uniformly random bits: the first 8 bytes (little-endian) of challenge_bytes(label).
  std::uint64_t challenge_u64(std::string_view label);

  const std::array<std::uint8_t, 32>& state() const { return state_; }
  std::uint64_t num_operations() const { return ops_; }

 private:
  void update(char tag, std::string_view label, std::span<const std::uint8_t> payload);
  std::array<std::uint8_t, 32> state_{};
  std::uint64_t ops_ = 0;
};

}  // namespace jolt::prover
