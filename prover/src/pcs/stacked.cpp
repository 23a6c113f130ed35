// Stacking decorator (stacked.hpp).
#include <algorithm>
#include <jolt/prover/pcs/stacked.hpp>
#include <jolt/prover/verify_check.hpp>
#include <stdexcept>
#include <string>

namespace jolt::prover::pcs {

StackedBatch::StackedBatch(const PolynomialBatch& inner, unsigned log_stack)
    : inner_(inner), log_stack_(log_stack) {}

std::size_t StackedBatch::num_polys() const {
  const std::size_t s = std::size_t{1} << log_stack_;
  return (inner_.num_polys() + s - 1) / s;
}

std::size_t StackedBatch::table_size() const {
  return inner_.table_size() << log_stack_;
}

template <class F>
void StackedBatch::for_parts(std::size_t i, std::size_t begin, std::size_t n, F&& f) const {
  const std::size_t N = inner_.table_size();
  std::size_t done = 0;
  while (done < n) {
    const std::size_t pos = begin + done;
    const std::size_t table = (i << log_stack_) + pos / N, offset = pos % N;
    const std::size_t count = std::min(n - done, N - offset);
    f(table, offset, done, count);
    done += count;
  }
}

void StackedBatch::read(std::size_t i, std::size_t begin, std::span<Fr> out) const {
  for_parts(i, begin, out.size(),
            [&](std::size_t table, std::size_t offset, std::size_t first, std::size_t count) {
              const std::span<Fr> part = out.subspan(first, count);
              if (table < inner_.num_polys())
                inner_.read(table, offset, part);
              else
                std::fill(part.begin(), part.end(), Fr::zero());
            });
}

void StackedBatch::accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                              std::span<Fr> acc) const {
  for_parts(i, begin, acc.size(),
            [&](std::size_t table, std::size_t offset, std::size_t first, std::size_t count) {
              if (table < inner_.num_polys())
                inner_.accumulate(table, offset, coeff, acc.subspan(first, count));
            });
}

bool StackedBatch::read_bits(std::size_t i, std::size_t begin, std::span<std::uint8_t> out) const {
  bool bits = true;
  for_parts(i, begin, out.size(),
            [&](std::size_t table, std::size_t offset, std::size_t first, std::size_t count) {
              const std::span<std::uint8_t> part = out.subspan(first, count);
              if (!bits) return;
              if (table < inner_.num_polys())
                bits = inner_.read_bits(table, offset, part);
              else
                std::fill(part.begin(), part.end(), std::uint8_t{0});
            });
  return bits;
}

namespace {

// The inner scheme's prover data under the caller's shape.
class StackedProverData final : public ProverData {
 public:
  StackedProverData(std::unique_ptr<ProverData> inner, std::uint32_t n, std::uint32_t k)
      : inner_(std::move(inner)), n_(n), k_(k) {}
  std::uint32_t num_vars() const override { return n_; }
  std::uint32_t num_polys() const override { return k_; }
  const ProverData& inner() const { return *inner_; }
  void visit_heap(jolt::HeapVisitor& v) const override { inner_->visit_heap(v); }

 private:
  std::unique_ptr<ProverData> inner_;
  std::uint32_t n_, k_;
};

}  // namespace

StackedCommitment::StackedCommitment(std::unique_ptr<CommitmentScheme> inner, unsigned log_stack)
    : inner_(std::move(inner)), log_stack_(log_stack) {
  if (!inner_) throw std::invalid_argument("StackedCommitment: no inner scheme");
  if (log_stack_ > 8) throw std::invalid_argument("StackedCommitment: log_stack above 8");
}

std::string StackedCommitment::parameters() const {
  return inner_->parameters() + "; stacked " + std::to_string(1u << log_stack_) +
         " tables per committed polynomial (+" + std::to_string(log_stack_) +
         "/|Fr| soundness error)";
}

CommitOutput StackedCommitment::commit(const PolynomialBatch& polys) const {
  const StackedBatch stacked(polys, log_stack_);
  CommitOutput out = inner_->commit(stacked);
  out.commitment.num_vars -= log_stack_;
  out.commitment.num_polys = static_cast<std::uint32_t>(polys.num_polys());
  out.data = std::make_unique<StackedProverData>(std::move(out.data), out.commitment.num_vars,
                                                 out.commitment.num_polys);
  return out;
}

void StackedCommitment::stacked_claims(std::span<const Fr> point, std::span<const Fr> evals,
                                       Transcript& t, std::vector<Fr>& stacked_point,
                                       std::vector<Fr>& stacked_evals) const {
  t.absorb_frs("stacked/point", point);
  t.absorb_frs("stacked/evals", evals);
  const unsigned m = log_stack_;
  const std::size_t s = std::size_t{1} << m;
  stacked_point.clear();
  for (unsigned i = 0; i < m; ++i) stacked_point.push_back(t.challenge("stacked/rho"));
  stacked_point.insert(stacked_point.end(), point.begin(), point.end());
  // eq(ρ, b), ρ_0 ↔ the most significant bit of b.
  std::vector<Fr> eq(s, Fr::one());
  for (std::size_t b = 0; b < s; ++b)
    for (unsigned i = 0; i < m; ++i)
      eq[b] *= ((b >> (m - 1 - i)) & 1) ? stacked_point[i] : Fr::one() - stacked_point[i];
  stacked_evals.assign((evals.size() + s - 1) / s, Fr::zero());
  for (std::size_t c = 0; c < evals.size(); ++c) stacked_evals[c / s] += eq[c % s] * evals[c];
}

std::vector<std::uint8_t> StackedCommitment::open(const ProverData& data,
                                                  const PolynomialBatch& polys,
                                                  std::span<const Fr> point,
                                                  std::span<const Fr> evals,
                                                  Transcript& transcript) const {
  const auto* sd = dynamic_cast<const StackedProverData*>(&data);
  if (sd == nullptr)
    throw std::invalid_argument("stacked open: the prover data comes from another scheme");
  if (polys.num_polys() != sd->num_polys() || evals.size() != sd->num_polys() ||
      point.size() != sd->num_vars())
    throw std::invalid_argument("stacked open: " + std::to_string(polys.num_polys()) + " tables, " +
                                std::to_string(evals.size()) + " claims and " +
                                std::to_string(point.size()) + " coordinates for a commitment of " +
                                std::to_string(sd->num_polys()) + " tables of 2^" +
                                std::to_string(sd->num_vars()));
  std::vector<Fr> sp, se;
  stacked_claims(point, evals, transcript, sp, se);
  return inner_->open(sd->inner(), StackedBatch(polys, log_stack_), sp, se, transcript);
}

std::optional<VerifyError> StackedCommitment::verify(const Commitment& commitment,
                                                     std::span<const Fr> point,
                                                     std::span<const Fr> evals,
                                                     std::span<const std::uint8_t> proof,
                                                     Transcript& transcript) const {
  JOLT_VERIFY("pcs.stacked.shape",
              point.size() == commitment.num_vars && evals.size() == commitment.num_polys &&
                  commitment.num_polys > 0,
              "stacked: " + std::to_string(point.size()) + " coordinates and " +
                  std::to_string(evals.size()) + " claims for a commitment of " +
                  std::to_string(commitment.num_polys) + " tables of 2^" +
                  std::to_string(commitment.num_vars));
  std::vector<Fr> sp, se;
  stacked_claims(point, evals, transcript, sp, se);
  Commitment inner = commitment;
  inner.num_vars = commitment.num_vars + log_stack_;
  const std::size_t s = std::size_t{1} << log_stack_;
  inner.num_polys = static_cast<std::uint32_t>((commitment.num_polys + s - 1) / s);
  return inner_->verify(inner, sp, se, proof, transcript);
}

}  // namespace jolt::prover::pcs
