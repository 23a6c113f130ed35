// Shared helpers of the PCS tests: deterministic random field elements, a reference multilinear
// evaluation, random instances (tables, a point, their evaluations) and the failing check's name.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/pcs/scheme.hpp>
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

// Tables of small integers, each stored as bits (PolynomialBatch::read_bits gives them; their
// entries must be 0 or 1) or not (read_bits refuses), as the witness columns are.
class BitsBatch final : public jolt::prover::PolynomialBatch {
 public:
  BitsBatch(std::vector<std::vector<std::uint8_t>> tables, std::vector<bool> as_bits)
      : tables_(std::move(tables)), as_bits_(std::move(as_bits)) {}
  std::size_t num_polys() const override { return tables_.size(); }
  std::size_t table_size() const override { return tables_.empty() ? 0 : tables_[0].size(); }
  void read(std::size_t i, std::size_t begin, std::span<jolt::prover::Fr> out) const override {
    for (std::size_t j = 0; j < out.size(); ++j)
      out[j] = jolt::prover::Fr::from_u64(tables_[i][begin + j]);
  }
  bool read_bits(std::size_t i, std::size_t begin, std::span<std::uint8_t> out) const override {
    if (!as_bits_[i]) return false;
    std::copy_n(tables_[i].begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
    return true;
  }
  // The same tables as field elements.
  std::vector<std::vector<jolt::prover::Fr>> dense() const {
    std::vector<std::vector<jolt::prover::Fr>> d;
    for (const auto& t : tables_) {
      d.emplace_back(t.size());
      read(d.size() - 1, 0, d.back());
    }
    return d;
  }

 private:
  std::vector<std::vector<std::uint8_t>> tables_;
  std::vector<bool> as_bits_;
};

// The name of the check that rejected, or "" when accepted.
inline std::string check_of(const std::optional<jolt::prover::VerifyError>& e) {
  return e ? e->check : std::string();
}

}  // namespace pcs_test
