/* sha256.h: SHA-256 (FIPS 180-4) for RV32IM guests. */
#ifndef JOLT_GUEST_SHA256_H
#define JOLT_GUEST_SHA256_H
#include <stddef.h>
#include <stdint.h>
void sha256(const uint8_t* data, size_t len, uint8_t out[32]);
#endif
