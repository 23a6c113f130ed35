// sha2-chain workload: h = seed, then n times h = SHA-256(h), on the RV32IM guest (guest.c).
// Input: the 32-byte seed [5u8; 32], then u32 little-endian n (= ops). Output: the final h.
#include <jolt/plugin.hpp>

#include "hash_workloads.hpp"

namespace {

// Measured with bench/tracer/guest_cycles (fast-mode tracer, clang 14 -O2 guest) in trace rows
// (cycles plus the rows of virtual sequences: byte loads and stores, shifts by a register):
// rows(0) = 192, (rows(n) - rows(0)) / n = 7559.00 for n from 2 to 7989 (one 32-byte message =
// one compression per hash; 5487 cycles of it). Per-op rounded up by one row, fixed to 256.
constexpr jolt::workloads::CycleModel kModel{7560.0, 256};

class Sha2Chain final : public jolt::workloads::HashChain<&jolt::workloads::host_sha256> {
 public:
  Sha2Chain() : HashChain("sha2-chain", kModel) {}
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Sha2Chain, "sha2-chain",
                            "SHA-256 hash chain from a 32-byte seed (RV32IM guest)")
