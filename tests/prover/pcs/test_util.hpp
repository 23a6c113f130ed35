// Shared helpers of the PCS tests: deterministic random field elements, a reference multilinear
// evaluation, random instances (tables, a point, their evaluations) and the failing check's name.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/verify_error.hpp>

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

// Reference multilinear evaluation by folding variable 0 (the MSB, scheme.hpp) first:
// independent of every scheme's own eq tables.
inline jolt::prover::Fr evaluate(std::vector<jolt::prover::Fr> f,
                                 std::span<const jolt::prover::Fr> r) {
  for (const jolt::prover::Fr& rk : r) {
    const std::size_t h = f.size() / 2;
    for (std::size_t y = 0; y < h; ++y) f[y] = f[y] + rk * (f[y + h] - f[y]);
    f.resize(h);
  }
  return f[0];
}

// k random tables of 2^n entries, a random point and the tables' evaluations there.
struct Instance {
  std::vector<std::vector<jolt::prover::Fr>> tables;
  std::vector<jolt::prover::Fr> point, evals;
  std::vector<std::span<const jolt::prover::Fr>> spans() const {
    return std::vector<std::span<const jolt::prover::Fr>>(tables.begin(), tables.end());
  }
};

inline Instance make_instance(unsigned n, unsigned k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Instance in;
  for (unsigned i = 0; i < k; ++i) in.tables.push_back(random_frs(rng, std::size_t{1} << n));
  in.point = random_frs(rng, n);
  for (const auto& t : in.tables) in.evals.push_back(evaluate(t, in.point));
  return in;
}

// The name of the check that rejected, or "" when accepted.
inline std::string check_of(const std::optional<jolt::prover::VerifyError>& e) {
  return e ? e->check : std::string();
}

}  // namespace pcs_test
