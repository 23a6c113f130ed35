/* sha3-chain guest: input = 32-byte seed, then u32 n (little-endian); h = seed, then n times
 * h = keccak256(h); output the final 32-byte h. */
#include "jolt_guest.h"
#include "keccak256.h"

int main(void) {
  uint32_t n;
  if (jolt_input_len() != 36 || jolt_read_u32(32, &n) != 0) return 1;
  uint8_t h[32];
  memcpy(h, jolt_input(), 32);
  start_cycle_tracking("sha3-chain");
  for (uint32_t i = 0; i < n; ++i) keccak256(h, 32, h);
  end_cycle_tracking("sha3-chain");
  jolt_write_output(h, 32);
  return 0;
}
