#include <jolt/prover/lookups/bytecode_read_raf.hpp>

#include <tbb/parallel_for.h>

#include <bit>
#include <memory>
#include <stdexcept>
#include <string>

#include <jolt/instrument.hpp>
#include <jolt/prover/lookups/ra_virtualization.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover::lookups {

namespace {

std::size_t field_count(const std::vector<std::vector<Fr>>& entries) {
  if (entries.empty()) throw std::invalid_argument("bytecode read-raf: the table has no entry");
  const std::size_t f = entries[0].size();
  for (std::size_t k = 1; k < entries.size(); ++k)
    if (entries[k].size() != f)
      throw std::invalid_argument("bytecode read-raf: entry " + std::to_string(k) + " has " +
                                  std::to_string(entries[k].size()) + " fields, entry 0 has " +
                                  std::to_string(f));
  return f;
}

// The entry index k reads: entry k, or entry 0 for the padding k ≥ K.
const std::vector<Fr>& padded_entry(const std::vector<std::vector<Fr>>& entries, std::size_t k) {
  return k < entries.size() ? entries[k] : entries[0];
}

// Shapes the caller controls (the verifier reports them as bytecode.shape instead).
bool groups_well_formed(std::span<const BytecodeClaimGroup> groups, std::size_t log_cycles,
                        std::size_t fields) {
  if (groups.empty()) return false;
  for (const BytecodeClaimGroup& g : groups) {
    if (g.point.size() != log_cycles || g.fields.size() != g.claims.size() || g.fields.empty())
      return false;
    for (std::uint32_t f : g.fields)
      if (f >= fields) return false;
  }
  return true;
}

// Absorbs every claim, draws γ, and returns the coefficients c_{g,i} = γ^n, flattened.
std::vector<Fr> absorb_claims_and_draw_coefficients(std::span<const BytecodeClaimGroup> groups,
                                                    Transcript& t) {
  std::vector<Fr> all;
  for (const BytecodeClaimGroup& g : groups)
    all.insert(all.end(), g.claims.begin(), g.claims.end());
  t.absorb_frs("bytecode_claims", all);
  const Fr gamma = t.challenge("bytecode_gamma");
  std::vector<Fr> c(all.size());
  Fr p = Fr::one();
  for (Fr& x : c) x = p, p = p * gamma;
  return c;
}

Fr weighted_claims(std::span<const BytecodeClaimGroup> groups, std::span<const Fr> coef) {
  Fr s;
  std::size_t n = 0;
  for (const BytecodeClaimGroup& g : groups)
    for (const Fr& v : g.claims) s += coef[n++] * v;
  return s;
}

// Σ_g μ^g·x_g and the powers of μ.
std::vector<Fr> powers_of(const Fr& mu, std::size_t n) {
  std::vector<Fr> p(n);
  Fr x = Fr::one();
  for (std::size_t i = 0; i < n; ++i, x = x * mu) p[i] = x;
  return p;
}

const KernelLabels kAddressLabels{"BytecodeReadRaf::prepare", "BytecodeReadRaf::prove_round",
                                  "BytecodeReadRaf::finish_rounds"};
const KernelLabels kRaLabels{"BytecodeRaVirtualization::prepare",
                             "BytecodeRaVirtualization::prove_round",
                             "BytecodeRaVirtualization::finish_rounds"};

}  // namespace

unsigned bytecode_index_bits(std::size_t entries) {
  return entries <= 2 ? 1u : static_cast<unsigned>(std::bit_width(entries - 1));
}

std::vector<Fr> bytecode_claims(const std::vector<std::vector<Fr>>& entries,
                                std::span<const std::uint32_t> index, std::span<const Fr> point,
                                std::span<const std::uint32_t> fields) {
  const std::vector<Fr> e = EqPolynomial::evals(point);
  if (e.size() != index.size())
    throw std::invalid_argument("bytecode_claims: the point does not match the cycle count");
  std::vector<Fr> out(fields.size());
  for (std::size_t j = 0; j < index.size(); ++j) {
    const std::vector<Fr>& entry = padded_entry(entries, index[j]);
    for (std::size_t i = 0; i < fields.size(); ++i) out[i] += e[j] * entry.at(fields[i]);
  }
  return out;
}

std::vector<Fr> prove_bytecode_address(const std::vector<std::vector<Fr>>& entries,
                                       std::span<const std::uint32_t> index,
                                       std::span<const BytecodeClaimGroup> groups,
                                       Transcript& transcript, BytecodeReadRafProof& proof,
                                       bool self_check, const KernelPrepared& on_prepared) {
  const std::size_t nf = field_count(entries);
  const unsigned m = bytecode_index_bits(entries.size());
  const std::size_t T = index.size();
  if (T < 2 || !std::has_single_bit(T))
    throw std::invalid_argument("bytecode read-raf: " + std::to_string(T) +
                                " cycles; need a power of two ≥ 2");
  const std::size_t log_t = static_cast<std::size_t>(std::countr_zero(T));
  if (!groups_well_formed(groups, log_t, nf))
    throw std::invalid_argument(
        "bytecode read-raf: a claim group's point, fields or claims do not match the table and "
        "the cycle count");
  const std::size_t K = std::size_t{1} << m;
  for (std::size_t j = 0; j < T; ++j)
    if (index[j] >= K)
      throw std::invalid_argument("bytecode read-raf: cycle " + std::to_string(j) +
                                  " names entry " + std::to_string(index[j]) + " of " +
                                  std::to_string(K));
  const std::vector<Fr> coef = absorb_claims_and_draw_coefficients(groups, transcript);
  const std::size_t G = groups.size();

  // 1. Address rounds: leaves F_0 .. F_{G−1}, Val_0 .. Val_{G−1}.
  std::vector<Fr> r_addr;
  {
    std::unique_ptr<NaiveKernel> k;
    {
      JOLT_SPAN(kAddressLabels.prepare, jolt::arg("entries", K), jolt::arg("groups", G));
      std::vector<std::vector<Fr>> leaves(2 * G, std::vector<Fr>(K));
      std::vector<std::size_t> first(G);
      for (std::size_t g = 0, n = 0; g < G; n += groups[g].fields.size(), ++g) first[g] = n;
      tbb::parallel_for(std::size_t{0}, G, [&](std::size_t g) {
        const std::vector<Fr> e = EqPolynomial::evals(groups[g].point);
        std::vector<Fr>& f = leaves[g];
        for (std::size_t j = 0; j < T; ++j) f[index[j]] += e[j];
        std::vector<Fr>& val = leaves[G + g];
        for (std::size_t k = 0; k < K; ++k) {
          const std::vector<Fr>& entry = padded_entry(entries, k);
          Fr v;
          for (std::size_t i = 0; i < groups[g].fields.size(); ++i)
            v += coef[first[g] + i] * entry[groups[g].fields[i]];
          val[k] = v;
        }
      });
      Expr expr;
      for (std::uint32_t g = 0; g < G; ++g)
        expr.add_product(Fr::one(),
                         {Linear::leaf(g), Linear::leaf(static_cast<std::uint32_t>(G + g))});
      k = std::make_unique<NaiveKernel>(kAddressLabels, std::move(leaves), std::move(expr));
    }
    if (on_prepared) on_prepared(*k);
    BatchProverOutput out =
        prove_batch({{k.get(), weighted_claims(groups, coef)}}, transcript, self_check);
    proof.address = std::move(out.proof);
    proof.address_outputs.assign(out.member_outputs[0].begin(),
                                 out.member_outputs[0].begin() + static_cast<std::ptrdiff_t>(G));
    r_addr = std::move(out.challenges);
  }
  transcript.absorb_frs("bytecode_address_outputs", proof.address_outputs);
  return r_addr;
}

std::vector<Fr> prove_bytecode_ra(std::span<const std::uint32_t> index, unsigned m,
                                  std::span<const BytecodeClaimGroup> groups,
                                  std::span<const Fr> r_addr, Transcript& transcript,
                                  BytecodeReadRafProof& proof, bool self_check,
                                  const KernelPrepared& on_prepared) {
  // 2. RA virtualization over the index bits, weights W = Σ_g μ^g eq(r_g, ·).
  const std::size_t T = index.size(), G = groups.size();
  if (r_addr.size() != m || proof.address_outputs.size() != G || T < 2 || !std::has_single_bit(T))
    throw std::invalid_argument("bytecode read-raf: the RA rounds need the address rounds' point");
  const std::size_t log_t = static_cast<std::size_t>(std::countr_zero(T));
  const Fr mu = transcript.challenge("bytecode_mu");
  const Fr zeta = transcript.challenge("bytecode_zeta");
  const std::vector<Fr> rho = transcript.challenges("bytecode_rho", log_t);
  const std::vector<Fr> mu_pow = powers_of(mu, G);
  const std::vector<std::uint64_t> keys(index.begin(), index.end());  // outlives the kernel
  std::unique_ptr<SumcheckKernel> ra;
  Fr input;
  {
    JOLT_SPAN(kRaLabels.prepare, jolt::arg("index_bits", m));
    std::vector<Fr> weights = zero_table(T);
    for (std::size_t g = 0; g < G; ++g) {
      const std::vector<Fr> e = EqPolynomial::evals(groups[g].point);
      tbb::parallel_for(std::size_t{0}, T, [&](std::size_t j) { weights[j] += mu_pow[g] * e[j]; });
      input += mu_pow[g] * proof.address_outputs[g];
    }
    RaVirtualizationInput in{keys,
                             m,
                             m,
                             std::move(weights),
                             std::vector<Fr>(r_addr.begin(), r_addr.end()),
                             {Fr::one()},
                             rho,
                             zeta,
                             {}};
    ra = make_ra_virtualization_kernel(std::move(in), kRaLabels);
  }
  if (on_prepared) on_prepared(*ra);
  BatchProverOutput out = prove_batch({{ra.get(), input}}, transcript, self_check);
  proof.ra = std::move(out.proof);
  proof.index_bits = out.member_outputs[0];
  transcript.absorb_frs("bytecode_index_bits", proof.index_bits);
  return out.challenges;
}

BytecodeReadRafProof prove_bytecode_read_raf(const std::vector<std::vector<Fr>>& entries,
                                             std::span<const std::uint32_t> index,
                                             std::span<const BytecodeClaimGroup> groups,
                                             Transcript& transcript, bool self_check) {
  BytecodeReadRafProof proof;
  const std::vector<Fr> r_addr =
      prove_bytecode_address(entries, index, groups, transcript, proof, self_check);
  prove_bytecode_ra(index, bytecode_index_bits(entries.size()), groups, r_addr, transcript, proof,
                    self_check);
  return proof;
}

std::optional<VerifyError> verify_bytecode_read_raf(const std::vector<std::vector<Fr>>& entries,
                                                    std::size_t log_cycles,
                                                    std::span<const BytecodeClaimGroup> groups,
                                                    const BytecodeReadRafProof& proof,
                                                    Transcript& transcript,
                                                    BytecodeReadRafOpenings& out) {
  const std::size_t nf = field_count(entries);
  const unsigned m = bytecode_index_bits(entries.size());
  const std::size_t G = groups.size();
  JOLT_VERIFY("bytecode.shape",
              groups_well_formed(groups, log_cycles, nf) && proof.address_outputs.size() == G &&
                  proof.index_bits.size() == m,
              "the bytecode read-raf's claim counts do not match the statement");
  const std::vector<Fr> coef = absorb_claims_and_draw_coefficients(groups, transcript);
  SumcheckVerified v;
  if (auto e = verify_batch({weighted_claims(groups, coef)}, {m}, 2, proof.address, transcript, v))
    return VerifyError{"bytecode.address." + e->check, e->message};
  const std::vector<Fr>& r_addr = v.challenges;
  {
    // Every field's extension at r_addr over the padded table, then Val_g from them.
    const std::vector<Fr> ea = EqPolynomial::evals(r_addr);
    std::vector<Fr> field_at(nf);
    for (std::size_t k = 0; k < ea.size(); ++k) {
      const std::vector<Fr>& entry = padded_entry(entries, k);
      for (std::size_t f = 0; f < nf; ++f) field_at[f] += ea[k] * entry[f];
    }
    Fr sum;
    for (std::size_t g = 0, n = 0; g < G; ++g) {
      Fr val;
      for (std::uint32_t f : groups[g].fields) val += coef[n++] * field_at[f];
      sum += proof.address_outputs[g] * val;
    }
    JOLT_VERIFY("bytecode.address.final", v.coefficients[0] * sum == v.final_claim,
                "the bytecode address sumcheck's last claim is not Σ_g F_g·Val_g at the read "
                "address for the claimed F_g");
  }
  transcript.absorb_frs("bytecode_address_outputs", proof.address_outputs);
  const Fr mu = transcript.challenge("bytecode_mu");
  const Fr zeta = transcript.challenge("bytecode_zeta");
  const std::vector<Fr> rho = transcript.challenges("bytecode_rho", log_cycles);
  const std::vector<Fr> mu_pow = powers_of(mu, G);
  Fr input;
  for (std::size_t g = 0; g < G; ++g) input += mu_pow[g] * proof.address_outputs[g];
  SumcheckVerified v2;
  if (auto e = verify_batch({input}, {log_cycles}, ra_virtualization_degree(m), proof.ra,
                            transcript, v2))
    return VerifyError{"bytecode.ra." + e->check, e->message};
  {
    Fr w;
    for (std::size_t g = 0; g < G; ++g)
      w += mu_pow[g] * EqPolynomial::evaluate(groups[g].point, v2.challenges);
    const std::vector<Fr> one{Fr::one()};
    const Fr expected =
        v2.coefficients[0] *
        ra_virtualization_final(r_addr, m, one, w, rho, zeta, v2.challenges, proof.index_bits);
    JOLT_VERIFY("bytecode.ra.final", expected == v2.final_claim,
                "the bytecode RA sumcheck's last claim is not the weighted one-hot index plus "
                "booleanity at the claimed index-bit openings");
  }
  transcript.absorb_frs("bytecode_index_bits", proof.index_bits);
  out.bit_point = v2.challenges;
  out.index_bits = proof.index_bits;
  return std::nullopt;
}

}  // namespace jolt::prover::lookups
