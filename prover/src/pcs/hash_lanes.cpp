#include "hash_lanes.hpp"

// GCC 12's AVX-512 rotate and gather intrinsics start from an undefined vector, which its
// -W(maybe-)uninitialized reports as a use of an uninitialised value.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstring>
#include <stdexcept>

namespace jolt::prover::pcs::lanes {
namespace {

#define JOLT_HASH_LANES_FN __attribute__((target("avx512f")))
#define JOLT_HASH_LANES_INLINE __attribute__((target("avx512f"), always_inline)) inline

constexpr std::uint64_t kIV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
// The message schedule of BLAKE2b's twelve rounds (rounds 10 and 11 repeat 0 and 1).
constexpr std::uint8_t kSigma[12][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                         {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                         {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                         {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                         {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                         {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                         {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                         {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                         {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                         {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
                                         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                         {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

JOLT_HASH_LANES_INLINE void mix(__m512i& a, __m512i& b, __m512i& c, __m512i& d, __m512i x,
                                __m512i y) {
  a = _mm512_add_epi64(_mm512_add_epi64(a, b), x);
  d = _mm512_ror_epi64(_mm512_xor_si512(d, a), 32);
  c = _mm512_add_epi64(c, d);
  b = _mm512_ror_epi64(_mm512_xor_si512(b, c), 24);
  a = _mm512_add_epi64(_mm512_add_epi64(a, b), y);
  d = _mm512_ror_epi64(_mm512_xor_si512(d, a), 16);
  c = _mm512_add_epi64(c, d);
  b = _mm512_ror_epi64(_mm512_xor_si512(b, c), 63);
}

// BLAKE2b-256 (no key) of eight single-block messages of `length` ≤ 128 bytes: block e is
// blocks[16·e .. 16·e + 16) as little-endian words, zero past length; salt ‖ personal of message e
// chain[e] (zero without chain); digest e to out[e].
JOLT_HASH_LANES_FN void blake2b_256_x8_impl(const std::uint64_t* blocks, std::uint64_t length,
                                            const Digest* chain, Digest* out) {
  const __m512i lane_words = _mm512_set_epi64(112, 96, 80, 64, 48, 32, 16, 0);
  __m512i m[16];
  for (int i = 0; i < 16; ++i)
    m[i] = _mm512_i64gather_epi64(lane_words, reinterpret_cast<const long long*>(blocks + i), 8);
  // Parameter block: digest length 32, no key, fanout 1, depth 1; words 4..7 (salt, personal)
  // from chain[e], as little-endian words.
  const std::uint64_t h0 = kIV[0] ^ 0x01010000ULL ^ 32ULL;
  __m512i v[16];
  v[0] = _mm512_set1_epi64(static_cast<long long>(h0));
  for (int i = 1; i < 8; ++i) v[i] = _mm512_set1_epi64(static_cast<long long>(kIV[i]));
  if (chain != nullptr) {
    const __m512i lane_digests = _mm512_set_epi64(28, 24, 20, 16, 12, 8, 4, 0);
    const auto* words = reinterpret_cast<const long long*>(chain->data());
    for (int i = 0; i < 4; ++i)
      v[4 + i] = _mm512_xor_si512(v[4 + i], _mm512_i64gather_epi64(lane_digests, words + i, 8));
  }
  // (The digest is h[0..3], which the salt and personal do not enter.)
  for (int i = 0; i < 8; ++i) v[8 + i] = _mm512_set1_epi64(static_cast<long long>(kIV[i]));
  v[12] = _mm512_set1_epi64(static_cast<long long>(kIV[4] ^ length));  // t0 = length, t1 = 0
  v[14] = _mm512_set1_epi64(static_cast<long long>(~kIV[6]));          // last block
  for (const auto& s : kSigma) {
    mix(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
    mix(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
    mix(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
    mix(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
    mix(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
    mix(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
    mix(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
    mix(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
  }
  alignas(64) std::uint64_t h[4][8];
  for (int i = 0; i < 4; ++i) {
    const __m512i init = i == 0 ? _mm512_set1_epi64(static_cast<long long>(h0))
                                : _mm512_set1_epi64(static_cast<long long>(kIV[i]));
    _mm512_store_si512(h[i], _mm512_xor_si512(init, _mm512_xor_si512(v[i], v[i + 8])));
  }
  // out may alias chain: every lane's chain words were read above.
  for (int e = 0; e < 8; ++e)
    for (int i = 0; i < 4; ++i) std::memcpy(out[e].data() + 8 * i, &h[i][e], 8);
}

// The same on AVX2: four 64-bit lanes, the rotations by byte shuffles (32: dword swap; 24 and
// 16: byte rotations; 63: shift and add).
#define JOLT_HASH_LANES4_FN __attribute__((target("avx2")))
#define JOLT_HASH_LANES4_INLINE __attribute__((target("avx2"), always_inline)) inline

JOLT_HASH_LANES4_INLINE __m256i ror24(__m256i x) {
  const __m256i r = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, 3, 4, 5,
                                     6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
  return _mm256_shuffle_epi8(x, r);
}
JOLT_HASH_LANES4_INLINE __m256i ror16(__m256i x) {
  const __m256i r = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4,
                                     5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9);
  return _mm256_shuffle_epi8(x, r);
}

JOLT_HASH_LANES4_INLINE void mix4(__m256i& a, __m256i& b, __m256i& c, __m256i& d, __m256i x,
                                  __m256i y) {
  a = _mm256_add_epi64(_mm256_add_epi64(a, b), x);
  d = _mm256_shuffle_epi32(_mm256_xor_si256(d, a), _MM_SHUFFLE(2, 3, 0, 1));
  c = _mm256_add_epi64(c, d);
  b = ror24(_mm256_xor_si256(b, c));
  a = _mm256_add_epi64(_mm256_add_epi64(a, b), y);
  d = ror16(_mm256_xor_si256(d, a));
  c = _mm256_add_epi64(c, d);
  b = _mm256_xor_si256(b, c);
  b = _mm256_or_si256(_mm256_srli_epi64(b, 63), _mm256_add_epi64(b, b));
}

// blake2b_256_x8_impl for four messages: block e is blocks[16·e .. 16·e + 16).
JOLT_HASH_LANES4_FN void blake2b_256_x4_impl(const std::uint64_t* blocks, std::uint64_t length,
                                             const Digest* chain, Digest* out) {
  const __m256i lane_words = _mm256_setr_epi64x(0, 16, 32, 48);
  __m256i m[16];
  for (int i = 0; i < 16; ++i)
    m[i] = _mm256_i64gather_epi64(reinterpret_cast<const long long*>(blocks + i), lane_words, 8);
  const std::uint64_t h0 = kIV[0] ^ 0x01010000ULL ^ 32ULL;
  __m256i v[16];
  v[0] = _mm256_set1_epi64x(static_cast<long long>(h0));
  for (int i = 1; i < 8; ++i) v[i] = _mm256_set1_epi64x(static_cast<long long>(kIV[i]));
  if (chain != nullptr) {
    const __m256i lane_digests = _mm256_setr_epi64x(0, 4, 8, 12);
    const auto* words = reinterpret_cast<const long long*>(chain->data());
    for (int i = 0; i < 4; ++i)
      v[4 + i] = _mm256_xor_si256(v[4 + i], _mm256_i64gather_epi64(words + i, lane_digests, 8));
  }
  for (int i = 0; i < 8; ++i) v[8 + i] = _mm256_set1_epi64x(static_cast<long long>(kIV[i]));
  v[12] = _mm256_set1_epi64x(static_cast<long long>(kIV[4] ^ length));
  v[14] = _mm256_set1_epi64x(static_cast<long long>(~kIV[6]));
  for (const auto& s : kSigma) {
    mix4(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
    mix4(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
    mix4(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
    mix4(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
    mix4(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
    mix4(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
    mix4(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
    mix4(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
  }
  alignas(32) std::uint64_t h[4][4];
  for (int i = 0; i < 4; ++i) {
    const __m256i init = _mm256_set1_epi64x(static_cast<long long>(i == 0 ? h0 : kIV[i]));
    _mm256_store_si256(reinterpret_cast<__m256i*>(h[i]),
                       _mm256_xor_si256(init, _mm256_xor_si256(v[i], v[i + 8])));
  }
  for (int e = 0; e < 4; ++e)
    for (int i = 0; i < 4; ++i) std::memcpy(out[e].data() + 8 * i, &h[i][e], 8);
}

bool has_avx512f() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return has;
}

}  // namespace

bool avx2_available() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
}

bool available() {
  return has_avx512f() || avx2_available();
}

void blake2b_256_x8(const std::uint64_t* blocks, std::uint64_t length, const Digest* chain,
                    Digest* out) {
  if (length > 128) throw std::invalid_argument("pcs::lanes::blake2b_256_x8: more than one block");
  if (has_avx512f()) {
    blake2b_256_x8_impl(blocks, length, chain, out);
    return;
  }
  if (!avx2_available())
    throw std::logic_error("pcs::lanes::blake2b_256_x8 without AVX-512 F or AVX2");
  // out may alias chain: each half reads its own four chain digests before writing them.
  blake2b_256_x4_impl(blocks, length, chain, out);
  blake2b_256_x4_impl(blocks + 64, length, chain == nullptr ? nullptr : chain + 4, out + 4);
}

void blake2b_256_x4(const std::uint64_t* blocks, std::uint64_t length, const Digest* chain,
                    Digest* out) {
  if (!avx2_available()) throw std::logic_error("pcs::lanes::blake2b_256_x4 without AVX2");
  if (length > 128) throw std::invalid_argument("pcs::lanes::blake2b_256_x4: more than one block");
  blake2b_256_x4_impl(blocks, length, chain, out);
}

}  // namespace jolt::prover::pcs::lanes
