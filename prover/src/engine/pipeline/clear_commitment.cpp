// ClearCommitment: the fallback scheme. Commitment = BLAKE2b-256 over every evaluation; the
// opening reveals all evaluations; the verifier rehashes and evaluates each multilinear itself.
// Binding by collision resistance, trivially "hiding nothing"; proof size = N·32 bytes.
#include <sodium.h>

#include <jolt/prover/pipeline/commitment.hpp>
#include <jolt/prover/poly/multilinear.hpp>

namespace jolt::prover {

namespace {

std::vector<std::uint8_t> hash_polys(std::span<const std::uint8_t> body) {
  std::vector<std::uint8_t> h(32);
  crypto_generichash(h.data(), h.size(), body.data(), body.size(), nullptr, 0);
  return h;
}

std::vector<std::uint8_t> serialize(const std::vector<std::vector<Fr>>& polys) {
  std::vector<std::uint8_t> out;
  for (const auto& p : polys)
    for (const Fr& x : p) {
      auto b = x.to_bytes();
      out.insert(out.end(), b.begin(), b.end());
    }
  return out;
}

class ClearCommitment final : public CommitmentScheme {
 public:
  PcsKind kind() const override { return PcsKind::kClear; }
  std::vector<std::uint8_t> commit(const std::vector<std::vector<Fr>>& polys) override {
    return hash_polys(serialize(polys));
  }
  std::vector<std::uint8_t> open(const std::vector<std::vector<Fr>>& polys, std::span<const Fr>,
                                 std::span<const Fr>, Transcript&) override {
    return serialize(polys);
  }
  std::optional<std::string> verify(std::span<const std::uint8_t> commitment, std::size_t num_polys,
                                    std::size_t num_vars, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript&) const override {
    const std::size_t n = std::size_t{1} << num_vars;
    if (point.size() != num_vars || evals.size() != num_polys)
      return "clear PCS: point/evaluation count mismatch";
    if (proof.size() != num_polys * n * Fr::kBytes) return "clear PCS: opening has the wrong size";
    if (commitment.size() != 32 ||
        !std::equal(commitment.begin(), commitment.end(), hash_polys(proof).begin()))
      return "clear PCS: opened evaluations do not match the commitment";
    std::vector<Fr> table(n);
    for (std::size_t p = 0; p < num_polys; ++p) {
      for (std::size_t i = 0; i < n; ++i) {
        auto f = Fr::from_bytes(proof.subspan((p * n + i) * Fr::kBytes, Fr::kBytes));
        if (!f) return "clear PCS: non-canonical field element";
        table[i] = *f;
      }
      if (DenseMultilinear::evaluate(table, point) != evals[p])
        return "clear PCS: polynomial " + std::to_string(p) + " does not evaluate to its claim";
    }
    return std::nullopt;
  }
};

}  // namespace

std::unique_ptr<CommitmentScheme> make_clear_commitment() {
  return std::make_unique<ClearCommitment>();
}

}  // namespace jolt::prover
