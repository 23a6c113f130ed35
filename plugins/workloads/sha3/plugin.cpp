// sha3 workload: one Keccak-256 of a natural-size message (the 32 bytes [5u8; 32]) on the
// RV32IM guest (guest.c). Input: the message bytes. Output: the 32-byte digest.
// The work does not grow with the scale: any scale >= min_scale() gives the same input.
#include <jolt/plugin.hpp>

#include "hash_workloads.hpp"

namespace {

// Measured with bench/tracer/guest_cycles: the whole run (startup, hash, output, exit) of the
// 32-byte message is 21630 cycles, 25112 trace rows (byte loads and stores and shifts by a
// register run as virtual sequences); rounded up to 25200.
constexpr double kCycles = 25200.0;

class Sha3 final : public jolt::workloads::SingleHash<&jolt::workloads::host_keccak256> {
 public:
  Sha3() : SingleHash("sha3", kCycles) {}
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Sha3, "sha3", "one Keccak-256 of a 32-byte message (RV32IM guest)")
