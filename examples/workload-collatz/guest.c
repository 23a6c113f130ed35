/* collatz guest: input u32 n (LE); output u32 (LE) = total Collatz steps of 1..n. */
#include <jolt_guest.h>

int main(void) {
  const uint8_t* in = jolt_input();
  if (jolt_input_len() != 4) return 2;
  const uint32_t n = (uint32_t)in[0] | ((uint32_t)in[1] << 8) | ((uint32_t)in[2] << 16) | ((uint32_t)in[3] << 24);
  uint32_t total = 0;
  start_cycle_tracking("collatz");
  for (uint32_t i = 1; i <= n; ++i) {
    uint64_t x = i;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x >> 1;
      ++total;
    }
  }
  end_cycle_tracking("collatz");
  const uint8_t out[4] = {(uint8_t)total, (uint8_t)(total >> 8), (uint8_t)(total >> 16), (uint8_t)(total >> 24)};
  jolt_write_output(out, 4);
  return 0;
}
