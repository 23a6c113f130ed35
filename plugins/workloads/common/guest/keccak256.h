/* keccak256.h: Keccak-256 (original Keccak padding 0x01, rate 136, as Ethereum) for guests. */
#ifndef JOLT_GUEST_KECCAK256_H
#define JOLT_GUEST_KECCAK256_H
#include <stddef.h>
#include <stdint.h>
void keccak256(const uint8_t* data, size_t len, uint8_t out[32]);
#endif
