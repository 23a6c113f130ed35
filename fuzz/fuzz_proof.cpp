// libFuzzer: the proof decoder. decode_proof must never crash or read out of bounds; whatever it
// accepts must re-encode to exactly the input bytes (the encoding is canonical) and decode again.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include <jolt/prover/pipeline/proof.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace tp = jolt::prover;
  tp::Proof proof;
  if (const auto e = tp::decode_proof(std::span<const std::uint8_t>(data, size), proof)) {
    if (e->check.empty() || e->message.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::vector<std::uint8_t> again = tp::encode_proof(proof);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  tp::Proof back;
  if (tp::decode_proof(again, back)) std::abort();
  return 0;
}
