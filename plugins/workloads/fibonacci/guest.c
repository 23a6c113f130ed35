/* fibonacci guest: input u32 n (little-endian); output u32 fib(n) mod 2^32 (fib(0)=0, fib(1)=1). */
#include "jolt_guest.h"

int main(void) {
  uint32_t n;
  if (jolt_read_u32(0, &n) != 0) return 1;
  start_cycle_tracking("fib");
  uint32_t a = 0, b = 1;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t t = a + b;
    a = b;
    b = t;
    __asm__ volatile("" : "+r"(a), "+r"(b)); /* keep the loop a loop */
  }
  end_cycle_tracking("fib");
  jolt_write_output(&a, 4);
  return 0;
}
