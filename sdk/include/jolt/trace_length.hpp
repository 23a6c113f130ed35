// The padding rule, the one definition: a run of n trace rows is proved over
// T = max(256, the smallest power of two >= n + 1) rows, so there is always at least one padding
// row. The prover, the verifier (jolt/prover/pipeline/padding.hpp re-exports it), the scale
// mapping of the workload plugins (a scale s admits runs with T <= 2^s) and the sinks (a profile
// recorded without its padded length) all compute T with this function. Changing it changes the
// proof system and what every workload's scale means: a plugin ABI major change.
//
// clang-format off
//   jolt::padded_trace_length(0)    == 256
//   jolt::padded_trace_length(256)  == 512
//   jolt::log_padded_trace_length(1000) == 10
// clang-format on
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>

namespace jolt {

inline constexpr std::uint64_t kMinPaddedTraceLength = 256;

constexpr std::uint64_t padded_trace_length(std::uint64_t rows) {
  return std::max<std::uint64_t>(kMinPaddedTraceLength, std::bit_ceil(rows + 1));
}

constexpr unsigned log_padded_trace_length(std::uint64_t rows) {
  return static_cast<unsigned>(std::countr_zero(padded_trace_length(rows)));
}

}  // namespace jolt
