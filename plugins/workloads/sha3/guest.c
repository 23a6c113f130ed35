/* sha3 guest: one keccak256 of the whole input (the input region's bytes); output the 32-byte digest. */
#include "jolt_guest.h"
#include "keccak256.h"

int main(void) {
  uint8_t digest[32];
  start_cycle_tracking("keccak256");
  keccak256(jolt_input(), jolt_input_len(), digest);
  end_cycle_tracking("keccak256");
  jolt_write_output(digest, 32);
  return 0;
}
