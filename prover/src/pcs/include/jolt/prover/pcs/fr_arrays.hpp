// Field products over arrays: out[i] = a[i]·b[i], eight at a time with the AVX-512 IFMA lanes of
// the commitment's encoder (ntt_lanes.hpp) where the CPU has them and they are enabled
// (JOLT_IFMA=0 turns them off), with Fr's operator* otherwise and for the last n mod 8. The
// results are Fr's products either way, so callers get identical values on every CPU.
//
//   multiply_arrays(a.data(), b.data(), out.data(), n);   // out may alias a or b
//   Fr s = dot_arrays(a.data(), b.data(), n);   // Σ a[i]·b[i]
//   bind_arrays(lo, hi, r, out, n);   // out[i] = lo[i] + r·(hi[i] − lo[i]), out may alias lo or hi
//   multiply_rows(rows, stride, k, out, n);   // out[i] = Π_{g<k} rows[g·stride + i]
//   chunk_product_sums(vals, m, stride, leaves, chunk, at, out, out_stride, n);
//     // at each point t with at[t] (the k-th such): out[k·out_stride + i] =
//     //   Σ_v Π_{ℓ in chunk v} leaf_ℓ(t), chunks of `chunk` leaves, each leaf a polynomial of
//     //   degree < m given by its values at t = 0 .. m − 1: vals[(ℓ·m + t)·stride + i]
// The last three keep each running sum or product in the lanes (no store between its factors).
// chunk_product_sums (the RA virtualization's rounds: every bit's factor is affine in the
// round's variable) multiplies each chunk's leaves in pairs up a tree, each node formed at the
// points its degree needs and extended by finite differences (additions only) to the points its
// parent needs: 16 linear leaves at the 16 points of a split degree-17 round take 78 products
// per pair instead of the 240 of one running product per point.
//
// zero_table(n): a vector of n zeros whose pages are first touched by the TBB workers (and
// zero_tables(count, n): count such vectors, shared out together). A
// vector's own constructor zeroes its storage on the calling thread, and for a large table the
// page faults (and the kernel zeroing each page) are most of that time: serial work in an
// otherwise parallel prover. The storage is allocated by the calling thread (its malloc arena),
// only the first touch is shared out.
//
// eq_table(r, scale): eq(r, x)·scale for x ∈ {0,1}^|r|, r[0] on the most significant bit of x —
// the one equality table of the prover (EqPolynomial::evals, Basefold's and Ligero's openings).
// Up to kEqSerialVars variables by doubling on the calling thread; above, eq(r_hi, ·) ⊗
// eq(r_lo, ·): two small tables by doubling, then every entry written once (one product, over
// arrays) by the workers. The same field elements either way, whatever the thread count.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

void multiply_arrays(const Fr* a, const Fr* b, Fr* out, std::size_t n);
Fr dot_arrays(const Fr* a, const Fr* b, std::size_t n);
void bind_arrays(const Fr* lo, const Fr* hi, const Fr& r, Fr* out, std::size_t n);
void multiply_rows(const Fr* rows, std::size_t row_stride, std::size_t k, Fr* out, std::size_t n);
void chunk_product_sums(const Fr* vals, std::size_t m, std::size_t stride, std::size_t leaves,
                        std::size_t chunk, std::span<const char> at, Fr* out,
                        std::size_t out_stride, std::size_t n);

std::vector<Fr> zero_table(std::size_t n);
std::vector<std::vector<Fr>> zero_tables(std::size_t count, std::size_t n);

inline constexpr std::size_t kEqSerialVars = 14;
std::vector<Fr> eq_table(std::span<const Fr> r, const Fr& scale = Fr::one());

}  // namespace jolt::prover
