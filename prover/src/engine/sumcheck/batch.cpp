// prove_batch / verify_batch: the batched sumcheck round loop and its replay.
#include <jolt/instrument.hpp>
#include <jolt/prover/sumcheck/batch.hpp>
#include <jolt/prover/verify_check.hpp>
#include <stdexcept>
#include <string>

namespace jolt::prover {

namespace {

struct Prelude {
  std::vector<Fr> coefficients;
  std::vector<Fr> scaled_claims;  // claim_i · 2^(M − m_i)
  Fr combined;
};

Prelude begin_batch(const std::vector<Fr>& claims, const std::vector<std::size_t>& rounds,
                    std::size_t max_rounds, Transcript& t) {
  Prelude p;
  for (const Fr& c : claims) t.absorb_fr("sumcheck_claim", c);
  p.coefficients = t.challenges("batching_coeff", claims.size());
  p.combined = Fr::zero();
  for (std::size_t i = 0; i < claims.size(); ++i) {
    Fr s = claims[i];
    for (std::size_t k = rounds[i]; k < max_rounds; ++k) s = s.dbl();
    p.scaled_claims.push_back(s);
    p.combined += p.coefficients[i] * s;
  }
  return p;
}

}  // namespace

BatchProverOutput prove_batch(const std::vector<BatchMember>& members, Transcript& transcript,
                              bool self_check) {
  if (members.empty()) throw std::invalid_argument("prove_batch: no members");
  std::size_t max_rounds = 0, max_degree = 0;
  std::vector<Fr> claims;
  std::vector<std::size_t> rounds;
  for (const auto& m : members) {
    max_rounds = std::max(max_rounds, m.kernel->num_rounds());
    max_degree = std::max(max_degree, m.kernel->degree());
    claims.push_back(m.input_claim);
    rounds.push_back(m.kernel->num_rounds());
  }
  JOLT_SPAN("prove_batch", jolt::arg("num_rounds", max_rounds),
            jolt::arg("members", members.size()));
  Prelude pre = begin_batch(claims, rounds, max_rounds, transcript);
  BatchProverOutput out;
  out.coefficients = pre.coefficients;
  std::vector<Fr> member_claim = pre.scaled_claims;
  std::vector<std::optional<Fr>> pending(members.size());
  Fr running = pre.combined;
  const Fr half = Fr::from_u64(2).inverse();

  for (std::size_t j = 0; j < max_rounds; ++j) {
    JOLT_SPAN("sumcheck_round", jolt::arg("round", j));
    std::vector<Fr> combined(max_degree + 1, Fr::zero());
    std::vector<UniPoly> member_polys(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      SumcheckKernel& k = *members[i].kernel;
      const std::size_t start = max_rounds - k.num_rounds();
      UniPoly p;
      if (j < start) {
        p.coeffs = {member_claim[i] * half};
      } else {
        std::vector<Fr> evals;
        {
          JOLT_SPAN(k.labels().prove_round);
          evals = k.prove_round(pending[i], j - start, member_claim[i]);
        }
        if (evals.size() != k.degree() + 1)
          throw std::logic_error(std::string(k.labels().prove_round) + ": wrong evaluation count");
        p = UniPoly::from_evals(evals);
      }
      if (self_check && p.at_zero_plus_one() != member_claim[i])
        throw std::logic_error(std::string("prove_batch: member self-check s(0)+s(1) failed in ") +
                               k.labels().prove_round + " round " + std::to_string(j));
      for (std::size_t c = 0; c < p.coeffs.size(); ++c)
        combined[c] += pre.coefficients[i] * p.coeffs[c];
      member_polys[i] = std::move(p);
    }
    UniPoly s{combined};
    if (self_check && s.at_zero_plus_one() != running)
      throw std::logic_error("prove_batch: s(0)+s(1) != running claim in round " +
                             std::to_string(j));
    transcript.absorb_frs("sumcheck_poly", s.coeffs);
    const Fr r = transcript.challenge("sumcheck_challenge");
    running = s.evaluate(r);
    for (std::size_t i = 0; i < members.size(); ++i) {
      member_claim[i] = member_polys[i].evaluate(r);
      if (j >= max_rounds - members[i].kernel->num_rounds()) pending[i] = r;
    }
    out.challenges.push_back(r);
    out.proof.round_polys.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    SumcheckKernel& k = *members[i].kernel;
    if (k.num_rounds() > 0) {
      JOLT_SPAN(k.labels().finish_rounds);
      k.finish_rounds(out.challenges.back());
    }
    out.member_outputs.push_back(k.output_claims());
  }
  out.final_claim = running;
  return out;
}

std::optional<VerifyError> verify_batch(const std::vector<Fr>& input_claims,
                                        const std::vector<std::size_t>& member_rounds,
                                        std::size_t max_degree, const SumcheckProof& proof,
                                        Transcript& transcript, SumcheckVerified& v) {
  v = SumcheckVerified{};
  std::size_t max_rounds = 0;
  for (std::size_t r : member_rounds) max_rounds = std::max(max_rounds, r);
  if (proof.round_polys.size() != max_rounds)
    return VerifyError{"sumcheck.shape", "sumcheck has " +
                                             std::to_string(proof.round_polys.size()) +
                                             " rounds, expected " + std::to_string(max_rounds)};
  Prelude pre = begin_batch(input_claims, member_rounds, max_rounds, transcript);
  v.coefficients = pre.coefficients;
  Fr running = pre.combined;
  for (std::size_t j = 0; j < max_rounds; ++j) {
    const UniPoly& s = proof.round_polys[j];
    if (s.coeffs.size() != max_degree + 1)
      return VerifyError{"sumcheck.shape", "round " + std::to_string(j) + " polynomial has " +
                                               std::to_string(s.coeffs.size()) +
                                               " coefficients, expected " +
                                               std::to_string(max_degree + 1)};
    JOLT_VERIFY("sumcheck.round_sum", s.at_zero_plus_one() == running,
                "round " + std::to_string(j) + ": s(0)+s(1) != running claim");
    transcript.absorb_frs("sumcheck_poly", s.coeffs);
    const Fr r = transcript.challenge("sumcheck_challenge");
    running = s.evaluate(r);
    v.challenges.push_back(r);
  }
  v.final_claim = running;
  return std::nullopt;
}

}  // namespace jolt::prover
