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
  const tp::DecodeResult d = tp::decode_proof(std::span<const std::uint8_t>(data, size));
  if (!d.proof) {
    if (d.error.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::vector<std::uint8_t> again = tp::encode_proof(*d.proof);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  if (!tp::decode_proof(again).proof) std::abort();
  return 0;
}
