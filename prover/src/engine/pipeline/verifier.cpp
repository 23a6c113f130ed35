// The M1 verifier: replays the prover's transcript, checks every sumcheck, every stage's final
// claim against the opened evaluations (evaluating Ã, B̃, eq, eq+1 and the padding indicator
// itself), and the stage-8 PCS opening of every committed column at the joint point.
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/poly/eq.hpp>

#include "pipeline/m1_protocol.hpp"

namespace jolt::prover {

namespace {

VerifyResult reject(std::string check, std::string message) {
  return VerifyResult{false, std::move(check), std::move(message)};
}

}  // namespace

static VerifyResult verify_impl(const Statement& st, std::span<const std::uint8_t> bytes) {
  using m1::kNumColumns;
  DecodeResult d = decode_proof(bytes);
  if (!d.proof) return reject("decode", d.error);
  const Proof& p = *d.proof;
  if (p.num_columns != kNumColumns)
    return reject("shape", "proof commits " + std::to_string(p.num_columns) + " columns, M1 has " +
                               std::to_string(kNumColumns));
  if (p.log_t < 2 || p.log_t > 40) return reject("shape", "log_T out of range");
  const std::size_t log_t = p.log_t;
  if (st.trace_length > (std::uint64_t{1} << log_t))
    return reject("shape", "trace_length exceeds the padded trace length");
  std::unique_ptr<CommitmentScheme> pcs;
  try {
    pcs = make_commitment_scheme(static_cast<PcsKind>(p.pcs_kind));
  } catch (const std::exception& e) {
    return reject("shape", e.what());
  }
  const auto& factors = m1proto::product_factor_columns();
  if (p.stage1_openings.size() != kNumColumns || p.stage2_openings.size() != factors.size() ||
      p.stage3_openings.size() != kNumColumns)
    return reject("shape", "wrong number of opening claims");

  Transcript t(m1proto::kDomain);
  m1proto::absorb_statement(t, st, p.log_t, p.pcs_kind, p.num_columns);
  t.absorb_bytes("commitment", p.commitment);

  // Stage 1: outer Spartan, claim 0, degree 3, kRowBits + log T rounds.
  const std::vector<Fr> tau = t.challenges("tau", m1::kRowBits + log_t);
  auto b1 = verify_batch({Fr::zero()}, {m1::kRowBits + log_t}, 3, p.stage1, t);
  if (!b1.ok) return reject("stage1.sumcheck", b1.error);
  const std::vector<Fr>& v1 = p.stage1_openings;
  if (b1.final_claim != b1.coefficients[0] * m1proto::outer_expected(tau, b1.challenges, v1))
    return reject("stage1.final_claim",
                  "outer Spartan: eq·Az·Bz at the opened column values != final sumcheck claim "
                  "(a uniform constraint fails on some cycle)");
  const std::vector<Fr> r1(b1.challenges.begin() + m1::kRowBits, b1.challenges.end());
  t.absorb_frs("opening_claim", v1);

  // Stage 2: products.
  const Fr gamma2 = t.challenge("product_gamma");
  const Expr pexpr = m1proto::product_expr(gamma2);
  auto b2 =
      verify_batch({m1proto::product_input(gamma2, v1)}, {log_t}, pexpr.degree(), p.stage2, t);
  if (!b2.ok) return reject("stage2.sumcheck", b2.error);
  const std::vector<Fr>& r2 = b2.challenges;
  const std::vector<Fr>& v2 = p.stage2_openings;
  {
    std::vector<Fr> leaves = {EqPolynomial::evaluate(r1, r2)};
    leaves.insert(leaves.end(), v2.begin(), v2.end());
    if (b2.final_claim != b2.coefficients[0] * pexpr.evaluate(leaves))
      return reject("stage2.final_claim", "product constraints do not hold at the opened values");
  }
  t.absorb_frs("opening_claim", v2);

  // Stage 3: shift + claim reduction, one batch, both log T rounds → one point r3.
  const Fr gamma3 = t.challenge("shift_gamma");
  const Fr beta = t.challenge("reduction_gamma");
  const Expr shift = m1proto::shift_expr(gamma3);
  const Expr red = m1proto::reduction_expr();
  const std::vector<Fr> weights = m1proto::reduction_weights(beta);
  auto b3 =
      verify_batch({m1proto::shift_input(gamma3, v1), m1proto::reduction_input(weights, v1, v2)},
                   {log_t, log_t}, std::max(shift.degree(), red.degree()), p.stage3, t);
  if (!b3.ok) return reject("stage3.sumcheck", b3.error);
  const std::vector<Fr>& r3 = b3.challenges;
  const std::vector<Fr>& v3 = p.stage3_openings;
  {
    const auto [f1, f2] = m1proto::reduction_folds(weights, v3);
    const std::vector<Fr> sl = {EqPlusOnePolynomial::evaluate(r1, r3), v3[m1::kUnexpandedPC],
                                v3[m1::kIsNoop]};
    const std::vector<Fr> rl = {EqPolynomial::evaluate(r1, r3), EqPolynomial::evaluate(r2, r3), f1,
                                f2};
    if (b3.final_claim !=
        b3.coefficients[0] * shift.evaluate(sl) + b3.coefficients[1] * red.evaluate(rl))
      return reject("stage3.final_claim",
                    "shift (Next* = next row) or column claim reduction does not hold");
  }
  if (v3[m1::kIsNoop] != m1proto::padding_indicator(st.trace_length, r3))
    return reject("stage3.padding", "IsNoop does not match the public trace_length");
  t.absorb_frs("opening_claim", v3);

  // Stage 8: every committed column at r3.
  Commitment com;
  com.bytes = p.commitment;
  com.num_vars = static_cast<std::uint32_t>(log_t);
  com.num_polys = kNumColumns;
  if (auto err = pcs->verify(com, r3, v3, p.pcs_opening, t))
    return reject(err->check, err->message);
  return VerifyResult{true, "", ""};
}

VerifyResult verify(const Statement& st, std::span<const std::uint8_t> bytes) {
  // A malformed proof must never escape as an exception (e.g. an allocation failure).
  try {
    return verify_impl(st, bytes);
  } catch (const std::exception& e) {
    return reject("internal", std::string("verifier error: ") + e.what());
  }
}

}  // namespace jolt::prover
