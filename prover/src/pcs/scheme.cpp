// The commitment-scheme factory: every PcsKind, its name, the default (scheme.hpp).
#include <stdexcept>
#include <string>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/scheme.hpp>

namespace jolt::prover {

std::unique_ptr<CommitmentScheme> make_reveal_commitment();  // reveal.cpp

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
