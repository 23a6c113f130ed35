/* keccak256.c: Keccak-f[1600] on 64-bit lanes (two 32-bit halves on RV32) and Keccak-256. */
#include "keccak256.h"

static const uint64_t RC[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};
static const unsigned ROT[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                 25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

static inline uint64_t rotl(uint64_t x, unsigned n) { return n ? (x << n) | (x >> (64u - n)) : x; }

static void keccak_f(uint64_t s[25]) {
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5], b[25];
    for (int x = 0; x < 5; ++x) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (int x = 0; x < 5; ++x) {
      const uint64_t d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) s[y + x] ^= d;
    }
    /* rho + pi: lane (x, y) moves to (y, 2x + 3y). */
    for (int x = 0; x < 5; ++x)
      for (int y = 0; y < 5; ++y) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], ROT[x + 5 * y]);
    for (int y = 0; y < 25; y += 5)
      for (int x = 0; x < 5; ++x) s[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
    s[0] ^= RC[round];
  }
}

void keccak256(const uint8_t* data, size_t len, uint8_t out[32]) {
  enum { kRate = 136 };
  uint64_t s[25];
  for (int i = 0; i < 25; ++i) s[i] = 0;
  uint8_t block[kRate];
  size_t off = 0;
  for (;;) {
    const size_t take = len - off < kRate ? len - off : kRate;
    for (size_t i = 0; i < take; ++i) block[i] = data[off + i];
    const int last = take < kRate;
    if (last) {
      for (size_t i = take; i < kRate; ++i) block[i] = 0;
      block[take] ^= 0x01;
      block[kRate - 1] ^= 0x80;
    }
    for (int i = 0; i < kRate / 8; ++i) {
      uint64_t lane = 0;
      for (int j = 7; j >= 0; --j) lane = (lane << 8) | block[8 * i + j];
      s[i] ^= lane;
    }
    keccak_f(s);
    off += take;
    if (last) break;
  }
  for (int i = 0; i < 32; ++i) out[i] = (uint8_t)(s[i / 8] >> (8 * (i % 8)));
}
