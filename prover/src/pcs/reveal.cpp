// The reveal-all scheme: commitment = BLAKE2b-256 over every evaluation; the opening reveals all
// evaluations; the verifier rehashes them and evaluates each multilinear itself. Binding by
// collision resistance, hides nothing; proof size = k·2^n·32 bytes. For tests and debugging.
#include <stdexcept>
#include <string>

#include <jolt/prover/codec.hpp>
#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover {

namespace {

class RevealProverData final : public ProverData {
 public:
  RevealProverData(std::uint32_t n, std::uint32_t k) : n_(n), k_(k) {}
  std::uint32_t num_vars() const override { return n_; }
  std::uint32_t num_polys() const override { return k_; }
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "RevealProverData");
    v.bytes("state", sizeof(*this));
  }

 private:
  std::uint32_t n_, k_;
};

std::vector<std::uint8_t> serialize(std::span<const std::span<const Fr>> polys) {
  ByteWriter w;
  for (const auto& p : polys) w.frs(p);
  return w.take();
}

// Multilinear extension at `point`, big-endian (point[0] ↔ the MSB of the table index).
Fr evaluate(std::vector<Fr> f, std::span<const Fr> point) {
  for (const Fr& r : point) {
    const std::size_t half = f.size() / 2;
    for (std::size_t y = 0; y < half; ++y) f[y] += r * (f[y + half] - f[y]);
    f.resize(half);
  }
  return f[0];
}

void absorb_claims(Transcript& t, std::span<const Fr> point, std::span<const Fr> evals) {
  t.absorb_frs("reveal/point", point);
  t.absorb_frs("reveal/evals", evals);
}

class RevealScheme final : public CommitmentScheme {
 public:
  PcsKind kind() const override { return PcsKind::kReveal; }
  std::string_view name() const override { return "reveal"; }
  std::string parameters() const override {
    return "evaluations in the clear, binding by BLAKE2b-256 (128-bit collision resistance)";
  }

  using CommitmentScheme::commit;
  using CommitmentScheme::open;

  CommitOutput commit(const PolynomialBatch& batch) const override {
    const BatchTables tables(batch, "reveal::commit");
    const std::span<const std::span<const Fr>> polys = tables.spans();
    const std::uint32_t n = check_tables(polys, "reveal::commit");
    CommitOutput out;
    const pcs::Digest d = pcs::blake2b_256(serialize(polys));
    out.commitment.bytes.assign(d.begin(), d.end());
    out.commitment.num_vars = n;
    out.commitment.num_polys = static_cast<std::uint32_t>(polys.size());
    out.data = std::make_unique<RevealProverData>(n, out.commitment.num_polys);
    return out;
  }

  std::vector<std::uint8_t> open(const ProverData& data, const PolynomialBatch& batch,
                                 std::span<const Fr> point, std::span<const Fr> evals,
                                 Transcript& transcript) const override {
    const BatchTables tables(batch, "reveal::open");
    const std::span<const std::span<const Fr>> polys = tables.spans();
    const std::uint32_t n = check_tables(polys, "reveal::open");
    if (n != data.num_vars() || polys.size() != data.num_polys())
      throw std::invalid_argument("reveal::open: tables differ in shape from the commitment");
    if (point.size() != n || evals.size() != polys.size())
      throw std::invalid_argument("reveal::open: point or evaluation count mismatch");
    for (std::size_t i = 0; i < polys.size(); ++i)
      if (evaluate(std::vector<Fr>(polys[i].begin(), polys[i].end()), point) != evals[i])
        throw std::invalid_argument("reveal::open: claimed evaluation " + std::to_string(i) +
                                    " is wrong");
    absorb_claims(transcript, point, evals);
    return serialize(polys);
  }

  std::optional<VerifyError> verify(const Commitment& commitment, std::span<const Fr> point,
                                    std::span<const Fr> evals, std::span<const std::uint8_t> proof,
                                    Transcript& transcript) const override {
    const std::size_t n = commitment.num_vars, k = commitment.num_polys;
    if (n < 1 || n > 40 || k == 0 || point.size() != n || evals.size() != k ||
        commitment.bytes.size() != 32)
      return VerifyError{"pcs.reveal.shape",
                         "reveal: commitment, point and evaluations disagree in shape"};
    const std::size_t len = std::size_t{1} << n;
    if (proof.size() / Fr::kBytes / k != len || proof.size() != k * len * Fr::kBytes)
      return VerifyError{"pcs.reveal.shape", "reveal: opening has " + std::to_string(proof.size()) +
                                                 " bytes, expected " +
                                                 std::to_string(k * len * Fr::kBytes)};
    const pcs::Digest d = pcs::blake2b_256(proof);
    JOLT_VERIFY("pcs.reveal.commitment", std::equal(d.begin(), d.end(), commitment.bytes.begin()),
                "reveal: opened evaluations do not match the commitment");
    absorb_claims(transcript, point, evals);
    ByteReader r(proof);
    r.section("reveal opening");
    for (std::size_t p = 0; p < k; ++p) {
      std::vector<Fr> table = r.frs(len);
      if (auto e = r.error()) return e;
      JOLT_VERIFY("pcs.reveal.evaluation", evaluate(std::move(table), point) == evals[p],
                  "reveal: polynomial " + std::to_string(p) + " does not evaluate to its claim");
    }
    return r.finish();
  }

 private:
  static std::uint32_t check_tables(std::span<const std::span<const Fr>> polys, const char* who) {
    if (polys.empty()) throw std::invalid_argument(std::string(who) + ": no polynomials");
    const std::size_t len = polys[0].size();
    if (len < 2 || (len & (len - 1)) != 0)
      throw std::invalid_argument(std::string(who) + ": table length " + std::to_string(len) +
                                  " is not a power of two >= 2");
    for (const auto& p : polys)
      if (p.size() != len)
        throw std::invalid_argument(std::string(who) + ": tables of different lengths");
    return static_cast<std::uint32_t>(std::countr_zero(len));
  }
};

}  // namespace

std::unique_ptr<CommitmentScheme> make_reveal_commitment() {
  return std::make_unique<RevealScheme>();
}

}  // namespace jolt::prover
