// The commitment-scheme factory: every PcsKind, its name, the default (scheme.hpp).
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/scheme.hpp>

namespace jolt::prover {

std::unique_ptr<CommitmentScheme> make_reveal_commitment();  // reveal.cpp

void PolynomialBatch::accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                                 std::span<Fr> acc) const {
  std::vector<Fr> block(acc.size());
  read(i, begin, block);
  for (std::size_t j = 0; j < acc.size(); ++j) acc[j] += coeff * block[j];
}

std::span<const Fr> PolynomialBatch::view(std::size_t) const {
  return {};
}

bool PolynomialBatch::read_bits(std::size_t, std::size_t, std::span<std::uint8_t>) const {
  return false;
}

void PolynomialBatch::accumulate_many(std::span<const std::uint32_t> tables,
                                      std::span<const Fr> coeffs, std::size_t begin,
                                      std::span<Fr> acc) const {
  if (tables.size() != coeffs.size())
    throw std::invalid_argument(
        "PolynomialBatch::accumulate_many: " + std::to_string(tables.size()) + " tables, " +
        std::to_string(coeffs.size()) + " coefficients");
  // Below this many entries the 255 additions of a subset-sum table do not pay.
  constexpr std::size_t kMinEntries = 256;
  const std::size_t n = acc.size();
  std::vector<std::uint8_t> bits, pattern;
  if (n >= kMinEntries) {
    bits.resize(n);
    pattern.assign(n, 0);
  }
  std::array<Fr, 8> group{};  // the coefficients of the bit tables gathered so far
  unsigned grouped = 0;
  std::array<Fr, 256> sums;
  auto flush = [&] {
    sums[0] = Fr::zero();
    for (unsigned b = 0; b < grouped; ++b)
      for (std::size_t s = 0; s < (std::size_t{1} << b); ++s)
        sums[s | (std::size_t{1} << b)] = sums[s] + group[b];
    for (std::size_t j = 0; j < n; ++j) acc[j] += sums[pattern[j]];
    std::fill(pattern.begin(), pattern.end(), std::uint8_t{0});
    grouped = 0;
  };
  for (std::size_t q = 0; q < tables.size(); ++q) {
    if (n >= kMinEntries && read_bits(tables[q], begin, bits)) {
      for (std::size_t j = 0; j < n; ++j)
        pattern[j] |= static_cast<std::uint8_t>(bits[j] << grouped);
      group[grouped++] = coeffs[q];
      if (grouped == group.size()) flush();
    } else {
      accumulate(tables[q], begin, coeffs[q], acc);
    }
  }
  if (grouped > 0) flush();
}

void SpanBatch::read(std::size_t i, std::size_t begin, std::span<Fr> out) const {
  std::copy_n(polys_[i].begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
}

void SpanBatch::accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                           std::span<Fr> acc) const {
  const Fr* p = polys_[i].data() + begin;
  for (std::size_t j = 0; j < acc.size(); ++j) acc[j] += coeff * p[j];
}

BatchTables::BatchTables(const PolynomialBatch& batch, const char* who) {
  const std::size_t k = batch.num_polys(), len = batch.table_size();
  spans_.resize(k);
  for (std::size_t i = 0; i < k; ++i) {
    spans_[i] = batch.view(i);
    if (!spans_[i].data() && len != 0) {
      copies_.emplace_back(len);
      batch.read(i, 0, copies_.back());
      spans_[i] = copies_.back();
    }
    if (spans_[i].size() != len)
      throw std::invalid_argument(std::string(who) + ": table " + std::to_string(i) + " has " +
                                  std::to_string(spans_[i].size()) + " entries, table 0 has " +
                                  std::to_string(len));
  }
}

PcsKind default_pcs_kind() {
  return PcsKind::kBasefold;
}

std::string_view pcs_name(PcsKind kind) {
  switch (kind) {
    case PcsKind::kReveal:
      return "reveal";
    case PcsKind::kLigero:
      return "ligero";
    case PcsKind::kBasefold:
      return "basefold";
  }
  return "unknown";
}

std::optional<PcsKind> parse_pcs_kind(std::string_view name) {
  for (PcsKind k : {PcsKind::kReveal, PcsKind::kLigero, PcsKind::kBasefold})
    if (name == pcs_name(k)) return k;
  return std::nullopt;
}

std::unique_ptr<CommitmentScheme> make_commitment_scheme(PcsKind kind) {
  switch (kind) {
    case PcsKind::kReveal:
      return make_reveal_commitment();
    case PcsKind::kLigero:
      return std::make_unique<pcs::LigeroPCS>();
    case PcsKind::kBasefold:
      return make_basefold_commitment();
  }
  throw std::invalid_argument("unknown commitment scheme kind " +
                              std::to_string(static_cast<int>(kind)) +
                              " (known: reveal, ligero, basefold)");
}

}  // namespace jolt::prover
