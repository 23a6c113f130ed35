// The padding rule of the proof system, one definition for the tracer, the prover, the verifier,
// the workloads and the sinks: a trace of n real cycles is proved over T rows, T = max(256, the
// smallest power of two ≥ n + 1), so there is always at least one padding row (TraceRow{}, kNoop).
// The verifier derives log2 T from the statement's trace_length with the same function.
//
//   padded_trace_length(0) == 256;  padded_trace_length(256) == 512;
//   log_padded_trace_length(1000) == 10;
#pragma once
#include <cstdint>

#include <jolt/trace_length.hpp>

namespace jolt::prover {

// The rule itself is the SDK's (jolt/trace_length.hpp): workload plugins, which see only the
// SDK, map scales with it.
using jolt::kMinPaddedTraceLength;
using jolt::log_padded_trace_length;
using jolt::padded_trace_length;

// Largest trace_length a proof may claim (T ≤ 2^40): far above any traceable run, and small
// enough that every derived size fits in 64 bits.
inline constexpr std::uint64_t kMaxTraceLength = (std::uint64_t{1} << 40) - 1;

}  // namespace jolt::prover
