#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <jolt/prover/pcs/fr_arrays.hpp>

#include "ntt_lanes.hpp"

namespace jolt::prover {

void multiply_arrays(const Fr* a, const Fr* b, Fr* out, std::size_t n) {
  std::size_t i = 0;
  if (basefold::lanes::enabled()) {
    const std::size_t whole = n - n % 8;
    if (whole > 0) basefold::lanes::mul_arrays(a, b, out, whole);
    i = whole;
  }
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

std::vector<std::vector<Fr>> zero_tables(std::size_t count, std::size_t n) {
  // Below this many bytes in all the faults are few: plain vectors.
  constexpr std::size_t kSharedTouchBytes = std::size_t{1} << 20;
  constexpr std::size_t kChunk = std::size_t{1} << 18;
  std::vector<std::vector<Fr>> v(count);
  const std::size_t bytes = n * sizeof(Fr);
  if (count * bytes >= kSharedTouchBytes) {
    for (auto& t : v) t.reserve(n);
    // The reserved storage is raw bytes until resize constructs the entries: the workers write
    // zeros over it a chunk at a time (the faults), then resize zeroes it once more, now without
    // a fault.
    const std::size_t per = (bytes + kChunk - 1) / kChunk;
    tbb::parallel_for(std::size_t{0}, count * per, [&](std::size_t c) {
      auto* raw = reinterpret_cast<unsigned char*>(v[c / per].data());
      const std::size_t at = (c % per) * kChunk;
      std::memset(raw + at, 0, std::min(kChunk, bytes - at));
    });
  }
  for (auto& t : v) t.resize(n);
  return v;
}

std::vector<Fr> zero_table(std::size_t n) {
  return std::move(zero_tables(1, n)[0]);
}

}  // namespace jolt::prover
