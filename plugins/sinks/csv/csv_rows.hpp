// Timing CSV rows of the `csv` sink, in the original's format (reference note §1.6):
//   benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,proof_size_compressed,backend
// trace_length is the padded (power-of-two) length; proving_hz = padded / prover_time_s; the
// compressed size duplicates proof_size. Pure functions; thread-safe.
#pragma once
#include <string>

#include <jolt/profile.hpp>

namespace jolt::sinks {

inline constexpr const char* kTimingsCsvHeader =
    "benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,proof_size_compressed,"
    "backend\n";

// One row, '\n'-terminated.
std::string timings_csv_row(const Profile& profile);

}  // namespace jolt::sinks
