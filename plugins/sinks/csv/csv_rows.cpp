// Timing CSV row formatting (2-decimal seconds and Hz, padded trace length).
#include "csv_rows.hpp"

#include <jolt/trace_length.hpp>

#include <cstdio>

namespace jolt::sinks {

std::string timings_csv_row(const Profile& p) {
  const std::uint64_t padded =
      p.padded_trace_length ? p.padded_trace_length : jolt::padded_trace_length(p.trace_length);
  const double secs = double(p.prove_time_ns) / 1e9;
  // A zero prove time has no meaningful rate; write 0.00 rather than inf.
  const double hz = secs > 0 ? double(padded) / secs : 0.0;
  char buf[96];
  std::snprintf(buf, sizeof buf, ",%u,%.2f,%llu,%.2f,%llu,%llu,", p.run.scale_log2, secs,
                static_cast<unsigned long long>(padded), hz,
                static_cast<unsigned long long>(p.proof_size_bytes),
                static_cast<unsigned long long>(p.proof_size_bytes));
  return p.run.workload + buf + p.run.backend + "\n";
}

}  // namespace jolt::sinks
