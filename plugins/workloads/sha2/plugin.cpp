// sha2 workload: one SHA-256 of a natural-size message (the 32 bytes [5u8; 32]) on the
// RV32IM guest (guest.c). Input: the message bytes. Output: the 32-byte digest.
// The work does not grow with the scale: any scale >= min_scale() gives the same input.
#include <jolt/plugin.hpp>

#include "hash_workloads.hpp"

namespace {

// Measured with bench/tracer/guest_cycles: the whole run (startup, hash, output, exit) of the
// 32-byte message is 5581 cycles, 7653 trace rows (its byte loads and stores and its shifts by
// a register run as virtual sequences); rounded up to 7700.
constexpr double kCycles = 7700.0;

class Sha2 final : public jolt::workloads::SingleHash<&jolt::workloads::host_sha256> {
 public:
  Sha2() : SingleHash("sha2", kCycles) {}
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Sha2, "sha2", "one SHA-256 of a 32-byte message (RV32IM guest)")
