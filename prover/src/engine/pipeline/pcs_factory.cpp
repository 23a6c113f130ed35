// Chooses the commitment scheme behind the pipeline's CommitmentScheme seam.
#include <jolt/prover/pipeline/commitment.hpp>
#include <stdexcept>

namespace jolt::prover {

std::unique_ptr<CommitmentScheme> make_clear_commitment();   // clear_commitment.cpp
std::unique_ptr<CommitmentScheme> make_ligero_commitment();  // ligero_commitment.cpp

PcsKind default_pcs_kind() {
  return PcsKind::kLigero;
}

std::string_view pcs_name(PcsKind kind) {
  switch (kind) {
    case PcsKind::kClear:
      return "clear";
    case PcsKind::kLigero:
      return "ligero";
  }
  return "unknown";
}

std::unique_ptr<CommitmentScheme> make_commitment_scheme(PcsKind kind) {
  switch (kind) {
    case PcsKind::kClear:
      return make_clear_commitment();
    case PcsKind::kLigero:
      return make_ligero_commitment();
  }
  throw std::invalid_argument("commitment scheme " + std::to_string(static_cast<int>(kind)) + " (" +
                              std::string(pcs_name(kind)) + ") is not available in this build");
}

}  // namespace jolt::prover
