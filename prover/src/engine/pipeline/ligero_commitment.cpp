// Adapter from the pipeline's CommitmentScheme seam to jolt_pcs's LigeroPCS. The engine's
// tables are big-endian (point[0] ↔ MSB) and the PCS is little-endian, so points are reversed.
#include <algorithm>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/transcript_adapter.hpp>
#include <jolt/prover/pipeline/commitment.hpp>
#include <stdexcept>

namespace jolt::prover {

namespace {

std::vector<Fr> reversed(std::span<const Fr> p) {
  return std::vector<Fr>(p.rbegin(), p.rend());
}

class LigeroCommitment final : public CommitmentScheme {
 public:
  PcsKind kind() const override { return PcsKind::kLigero; }
  const jolt::HeapReportable* prover_data() const override { return data_.get(); }

  std::vector<std::uint8_t> commit(const std::vector<std::vector<Fr>>& polys) override {
    std::vector<std::span<const Fr>> spans(polys.begin(), polys.end());
    pcs::CommitOutput out = pcs_.commit(spans);
    data_ = std::move(out.data);
    return out.commitment.bytes;
  }

  std::vector<std::uint8_t> open(const std::vector<std::vector<Fr>>&, std::span<const Fr> point,
                                 std::span<const Fr> evals, Transcript& transcript) override {
    if (!data_) throw std::logic_error("LigeroCommitment::open before commit");
    pcs::TranscriptAdapter<Transcript> t(transcript);
    return pcs_.open(*data_, reversed(point), evals, t);
  }

  std::optional<std::string> verify(std::span<const std::uint8_t> commitment, std::size_t num_polys,
                                    std::size_t num_vars, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript& transcript) const override {
    pcs::Commitment c;
    c.bytes.assign(commitment.begin(), commitment.end());
    c.num_vars = static_cast<std::uint32_t>(num_vars);
    c.num_polys = static_cast<std::uint32_t>(num_polys);
    pcs::TranscriptAdapter<Transcript> t(transcript);
    try {
      jolt::Status s = pcs_.verify(c, reversed(point), evals, proof, t);
      if (!s.ok) return "ligero: " + s.message;
    } catch (const std::exception& e) {
      return std::string("ligero: ") + e.what();
    }
    return std::nullopt;
  }

 private:
  pcs::LigeroPCS pcs_;
  std::unique_ptr<pcs::ProverData> data_;
};

}  // namespace

std::unique_ptr<CommitmentScheme> make_ligero_commitment() {
  return std::make_unique<LigeroCommitment>();
}

}  // namespace jolt::prover
