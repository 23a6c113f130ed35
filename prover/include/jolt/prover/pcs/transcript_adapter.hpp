// Adapts any engine transcript with absorb_bytes / challenge / challenge_bytes (such as
// jolt::prover::Transcript) to the PCS's minimal pcs::Transcript interface. Header-only.
//
//   jolt::prover::Transcript engine_t("jolt-run/M1");
//   jolt::prover::pcs::TranscriptAdapter t(engine_t);
//   auto proof = pcs.open(*data, point, evals, t);   // draws go through engine_t
//   // challenge_u64 = first 8 bytes (little-endian) of engine_t.challenge_bytes(label)
//
// Not thread-safe (neither is the wrapped transcript); the adapter holds a reference only.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include <jolt/prover/pcs/commitment_scheme.hpp>

namespace jolt::prover::pcs {

template <class EngineTranscript>
class TranscriptAdapter final : public Transcript {
 public:
  explicit TranscriptAdapter(EngineTranscript& inner) : inner_(inner) {}
  void absorb(std::string_view label, std::span<const std::uint8_t> payload) override {
    inner_.absorb_bytes(label, payload);
  }
  Fr challenge_fr(std::string_view label) override { return inner_.challenge(label); }
  std::uint64_t challenge_u64(std::string_view label) override {
    auto bytes = inner_.challenge_bytes(label);
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | bytes[static_cast<std::size_t>(i)];
    return v;
  }

 private:
  EngineTranscript& inner_;
};

}  // namespace jolt::prover::pcs
