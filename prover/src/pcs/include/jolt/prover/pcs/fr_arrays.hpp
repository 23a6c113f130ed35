// Field products over arrays: out[i] = a[i]·b[i], eight at a time with the AVX-512 IFMA lanes of
// the commitment's encoder (ntt_lanes.hpp) where the CPU has them and they are enabled
// (JOLT_IFMA=0 turns them off), with Fr's operator* otherwise and for the last n mod 8. The
// results are Fr's products either way, so callers get identical values on every CPU.
//
//   multiply_arrays(a.data(), b.data(), out.data(), n);   // out may alias a or b
#pragma once
#include <cstddef>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

void multiply_arrays(const Fr* a, const Fr* b, Fr* out, std::size_t n);

}  // namespace jolt::prover
