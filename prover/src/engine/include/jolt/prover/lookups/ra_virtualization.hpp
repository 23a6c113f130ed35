// RA virtualization over committed bit columns, with their booleanity, as one sumcheck member.
// A lookup's read address is committed as its bits (one-hot chunks of width 1); the one-hot
// chunk of `chunk_bits` address bits at the address point r_addr is then the virtual polynomial
// ra_v(r_addr, j) = Π_{b ∈ chunk v} (r_b·bit_b(j) + (1 − r_b)(1 − bit_b(j))), and one member of
// degree chunk_bits + 1 proves
//
//   Σ_v β^v·claim_v = Σ_j W(j)·Σ_v β^v·ra_v(r_addr, j) + Σ_j eq(ρ, j)·Σ_b ζ^(b+1) (bit_b(j)² −
//   bit_b(j))
//
// for a multilinear weight table W (eq(r, ·) for one point, Σ_g μ^g eq(r_g, ·) for several) and
// fresh ρ, ζ drawn after the claims: the claims are the chunks' values and every committed bit
// is 0 or 1. (The booleanity sum is a polynomial in ζ without a constant term, so it vanishes
// identically only if Σ_j eq(ρ, j)(bit_b² − bit_b) = 0 for every b; with a weight of 1 on one
// bit, a deviation bit² − bit that is the same in every cycle sums to that constant for every
// ρ and could be absorbed into the claims.)
//
//   RaVirtualizationInput in{keys, key_bits, chunk_bits, weights, r_addr, beta_powers, rho, zeta};
//   auto k = make_ra_virtualization_kernel(std::move(in), labels);  // prove_batch member
//   // outputs: bit_b at the sumcheck's point, b = 0 .. key_bits − 1 (the key's MSB first),
//   // then the gate's value there if the input has one
//   Fr want = ra_virtualization_final(r_addr, chunk_bits, beta_powers, weight_at_point, rho,
//                                     zeta, point, bits);             // the verifier's side
//
// Bit b of cycle j is bit key_bits − 1 − b of keys[j] (r_addr's order, MSB first). The first
// rounds read the bits from the keys; field tables exist only from T/16 entries on. The first
// three rounds group each chunk's bits into sub-chunks (4, 2, then 1 bit) and look each
// sub-chunk's product up in a table indexed by the bits' patterns at the pair's two halves. A
// chunk's product of affine factors is formed by a product tree whose nodes are extended to
// more points by finite differences (fr_arrays.hpp's chunk_product_sums), not by one running
// product per point. A round that reads the bits from the keys without sub-chunk tables takes
// each bit's factor and booleanity terms from tables by bit and pattern value.
// When W is one eq polynomial, eq(r, ·), given as its point, each round keeps the eq factor of
// the variable it binds apart (Gruen's split): s_ra(X) = eq(r_j, X)·q(X) with q of one degree
// less, evaluated directly at 0, 2, 3, …, d − 1 and at 1 from the round's claim (less the
// booleanity part), so the chunk products run at two points fewer; the round polynomials are
// the same as with W as a table.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/sumcheck/kernel.hpp>

namespace jolt::prover::lookups {

struct RaVirtualizationInput {
  std::span<const std::uint64_t> keys;  // one per cycle (outlives the kernel)
  unsigned key_bits = 0;                // committed bits per key (≤ 64)
  unsigned chunk_bits = 0;              // bits per virtual chunk (divides key_bits)
  std::vector<Fr> weights;              // W, one per cycle (empty with weight_point)
  std::vector<Fr> r_addr;               // key_bits coordinates, MSB first
  std::vector<Fr> beta_powers;          // key_bits / chunk_bits
  std::vector<Fr> rho;                  // log T coordinates
  Fr zeta;
  // Optional 0/1 gate per cycle (empty: none). With a gate g the RA part is
  // Σ_j W(j)·g(j)·Σ_v β^v·ra_v(r_addr, j) (a lookup some cycles do not make: RAM's accesses),
  // the degree grows by one and g at the sumcheck's point is the last output.
  std::span<const std::uint8_t> gate;
  // The first rounds (while each bit is still one of a few values: 0/1, then the 2^(2^k)
  // patterns of k bound variables) take each chunk's factor products from pattern tables built
  // per round (about 4× fewer products than the direct path); false runs every round by the
  // direct products (tests compare the two; the proof is the same).
  bool pattern_tables = true;
  // W = eq(weight_point, ·) (log T coordinates, the first bound first) instead of `weights`
  // (which is then empty): the rounds split off W's factor of the variable they bind.
  std::vector<Fr> weight_point = {};
};

// The member's degree: chunk_bits + 1 (the RA product with the weight; + 1 with a gate), at
// least 3 (booleanity with eq(ρ, ·)).
inline unsigned ra_virtualization_degree(unsigned chunk_bits, bool gated = false) {
  const unsigned d = chunk_bits + 1 + (gated ? 1 : 0);
  return d > 3 ? d : 3;
}

std::unique_ptr<SumcheckKernel> make_ra_virtualization_kernel(RaVirtualizationInput in,
                                                              const KernelLabels& labels);

// The member's summand at the sumcheck's final point from the claimed bit openings (the
// verifier's final check; multiply by the batch coefficient). For a gated member pass the
// weight times the gate's claimed value at the point.
Fr ra_virtualization_final(std::span<const Fr> r_addr, unsigned chunk_bits,
                           std::span<const Fr> beta_powers, const Fr& weight_at_point,
                           std::span<const Fr> rho, const Fr& zeta, std::span<const Fr> point,
                           std::span<const Fr> bits);

}  // namespace jolt::prover::lookups
