// The Reed–Solomon encoder's butterfly layers on eight field elements at a time with AVX-512 IFMA
// (52-bit multiply-add), used by basefold.cpp when the CPU has it; the portable layers in
// basefold.cpp are the reference and the fallback, and tests/prover/pcs/basefold_test.cpp checks
// both against ReedSolomonCode::encode.
//
// Representation: eight Fr values as five vectors of 52-bit limbs (limb k of lane e holds bits
// 52k.. of element e's raw Montgomery integer). The multiply is Montgomery's with R = 2^256 (four
// 52-bit reduction rounds and a last 48-bit one), so it computes exactly what Fr's operator*
// computes on the raw integers, and the strip layers' twiddle tables need no conversion of
// domain. The block layers' twiddles are fixed per block size, so lane_twiddles converts them
// once for Shoup's multiply (the plain twiddle w and ⌊w·2^260/r⌋: an integer < 3r congruent to a·w
// from 84 multiply-adds instead of 105; x·R times the plain w is (x·w)·R, the same domain). Values
// are not reduced between layers: each layer's bound (a multiple of r) is tracked, a multiple of r
// larger than the multiplier's output bound keeps each difference non-negative, and everything is
// reduced below r before it is written back. Nor are the limbs carried after each sum: only the
// value entering a multiply, and each value before its reduction. Five 52-bit limbs hold values
// < 2^260 > 84·r, and the tracked bound never passes 80·r (ntt_lanes.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <jolt/prover/field/fr.hpp>

namespace jolt::prover::basefold::lanes {

// The largest tracked bound, in multiples of r, before the values are reduced below r (< 2^260 / r
// ≈ 85). Tests pass a smaller one to run the reduction between layers, which the encoder's sizes
// (at most 13 layers in a phase below 2^27 entries) do not reach.
inline constexpr unsigned kMaxBound = 80;

// True when this CPU runs AVX-512 F + IFMA (the lane functions below may be called).
bool available();
// True when available() and the lanes have not been switched off (by
// set_enabled, or by JOLT_IFMA=0 in the environment at start-up).
bool enabled();
// Switches the lanes off (false) or back on where the CPU has them; for tests and benchmarks that
// compare both paths. Not thread-safe against a running encode.
void set_enabled(bool on);

// The block twiddles (basefold.cpp's block_twiddles: small[len/2 + j] = ω_len^j) in the block
// layers' Shoup form, eight per group: lane_twiddles(small, B) holds groups for indices 0..B-1
// (index i in group i/8), each the plain values and their quotients ⌊w·2^260/r⌋ as limbs.
std::vector<std::uint64_t> lane_twiddles(const Fr* small, std::size_t B);

// Layers len = first_len, 2·first_len, …, last_len (powers of two, 16 ≤ first_len ≤ last_len) of
// the radix-2 decimation-in-time NTT on B entries in place (B a multiple of last_len: B /
// last_len independent sub-blocks), as basefold.cpp's butterfly_layers, with twiddles from
// lane_twiddles (built for a block of at least last_len). Each layer adds 3r to the tracked
// bound, so max_bound ≥ 4.
void block_layers(Fr* blk, std::size_t B, std::size_t first_len, std::size_t last_len,
                  const std::uint64_t* small_lanes, unsigned max_bound = kMaxBound);

// The long layers len = 2B, 4B, …, M of rs_transform for the strip of W consecutive columns
// j0..j0+W-1 (W a multiple of 8) of the M/B × B array v, with ω_M^i = ω^(i·tw_stride) of the
// domain of N = M·tw_stride entries given as even[i] = ω^(2i) (i < N/4) and low[j] = ω^j
// (j < B): basefold.hpp's Twiddles. The last layer at stride 1 multiplies the two.
void strip_layers(Fr* v, std::size_t M, std::size_t B, std::size_t j0, std::size_t W,
                  const Fr* even, const Fr* low, std::size_t tw_stride,
                  unsigned max_bound = kMaxBound);

// out[i] = a[i]·b[i] for i < n (n a multiple of 8), eight products at a time; out may alias a or
// b. For benchmarks of the lane multiply against Fr's operator* over independent streams.
void mul_arrays(const Fr* a, const Fr* b, Fr* out, std::size_t n);

// out[i] = lo[i] + r·(hi[i] − lo[i]) for i < n (n a multiple of 8): a table's variable bound to
// r, the difference, product and sum in the lanes; out may alias lo or hi.
void bind_arrays(const Fr* lo, const Fr* hi, const Fr& r, Fr* out, std::size_t n);

// Σ_{i < n} a[i]·b[i] (n a multiple of 8): the products summed in the lanes without a carry or
// a reduction per product (each < 2r; reduced below r every few dozen), one store at the end.
Fr dot_arrays(const Fr* a, const Fr* b, std::size_t n);

// out[i] = Π_{g < k} rows[g·row_stride + i] for i < n (n a multiple of 8, k ≥ 1), the running
// product kept in the lanes; out may alias the first row.
void multiply_rows(const Fr* rows, std::size_t row_stride, std::size_t k, Fr* out, std::size_t n);

}  // namespace jolt::prover::basefold::lanes
