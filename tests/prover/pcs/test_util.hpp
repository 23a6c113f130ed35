// Shared helpers of the PCS tests: deterministic random field elements.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace pcs_test {

inline jolt::prover::Fr random_fr(std::mt19937_64& rng) {
  return jolt::prover::Fr::from_canonical_limbs({rng(), rng(), rng(), rng() >> 3})
      .value_or(jolt::prover::Fr::from_u64(rng()));
}

inline std::vector<jolt::prover::Fr> random_frs(std::mt19937_64& rng, std::size_t n) {
  std::vector<jolt::prover::Fr> v(n);
  for (auto& x : v) x = random_fr(rng);
  return v;
}

}  // namespace pcs_test
