// libFuzzer: the .folded parser ("stack BYTES" lines) behind summary.json's heap section.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <jolt/summary.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const jolt::HeapSnapshot h =
      jolt::parse_folded(std::string_view(reinterpret_cast<const char*>(data), size));
  std::uint64_t sum = 0;
  for (const auto& [root, bytes] : h.roots) sum += bytes;
  if (sum != h.total_bytes) std::abort();  // total is the sum of the roots, whatever the input
  return 0;
}
