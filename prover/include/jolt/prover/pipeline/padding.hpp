// The padding rule of the proof system, defined once for the tracer, the prover and the
// verifier: a trace of n real cycles is proved over T rows, T = max(256, the smallest power of
// two ≥ n + 1), so there is always at least one padding row (TraceRow{}, kNoop). The verifier
// derives log2 T from the statement's trace_length with the same function.
//
//   padded_trace_length(0) == 256;  padded_trace_length(256) == 512;
//   log_padded_trace_length(1000) == 10;
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>

namespace jolt::prover {

inline constexpr std::uint64_t kMinPaddedTraceLength = 256;
// Largest trace_length a proof may claim (T ≤ 2^40): far above any traceable run, and small
// enough that every derived size fits in 64 bits.
inline constexpr std::uint64_t kMaxTraceLength = (std::uint64_t{1} << 40) - 1;

constexpr std::uint64_t padded_trace_length(std::uint64_t n) {
  return std::max<std::uint64_t>(kMinPaddedTraceLength, std::bit_ceil(n + 1));
}

constexpr unsigned log_padded_trace_length(std::uint64_t n) {
  return static_cast<unsigned>(std::countr_zero(padded_trace_length(n)));
}

}  // namespace jolt::prover
