// A standalone BLAKE2b-256 chained Fiat–Shamir transcript implementing pcs::Transcript, for PCS
// tests and benchmarks (the engine uses its own transcript through TranscriptAdapter).
//
//   jolt::prover::pcs::Blake2bTranscript t("jolt-run/pcs-test");
//   t.absorb("root", root_bytes);
//   Fr gamma = t.challenge_fr("gamma");
//   std::uint64_t idx = t.challenge_u64("query");
//   // two transcripts with the same domain and the same call sequence draw the same values
//
// state ← BLAKE2b-256(state ‖ tag ‖ u64 len(label) ‖ label ‖ u64 len(payload) ‖ payload), tag 'A'
// for absorbs and 'C' for draws; a draw outputs BLAKE2b-512(state ‖ "out") (Fr: reduced mod r).
// A value type; not thread-safe.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <jolt/prover/pcs/commitment_scheme.hpp>

namespace jolt::prover::pcs {

class Blake2bTranscript final : public Transcript {
 public:
  explicit Blake2bTranscript(std::string_view domain);
  void absorb(std::string_view label, std::span<const std::uint8_t> payload) override;
  Fr challenge_fr(std::string_view label) override;
  std::uint64_t challenge_u64(std::string_view label) override;
  const std::array<std::uint8_t, 32>& state() const { return state_; }

 private:
  void update(char tag, std::string_view label, std::span<const std::uint8_t> payload);
  std::array<std::uint8_t, 64> draw(std::string_view label);
  std::array<std::uint8_t, 32> state_{};
};

}  // namespace jolt::prover::pcs
