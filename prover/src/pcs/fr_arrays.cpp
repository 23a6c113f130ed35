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

}  // namespace jolt::prover
