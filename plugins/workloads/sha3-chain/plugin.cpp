// sha3-chain workload: h = seed, then n times h = Keccak-256(h), on the RV32IM guest (guest.c).
// Input: the 32-byte seed [5u8; 32], then u32 little-endian n (= ops). Output: the final h.
#include <jolt/plugin.hpp>

#include "hash_workloads.hpp"

namespace {

// Measured with bench/tracer/guest_cycles (fast-mode tracer, clang 14 -O2 guest) in trace rows
// (cycles plus the rows of virtual sequences: byte loads and stores, shifts by a register):
// rows(0) = 192, (rows(n) - rows(0)) / n = 25018.00 for n from 2 to 2414 (one 32-byte message =
// one Keccak-f[1600] per hash; 21536 cycles of it). Per-op rounded up by one row, fixed to 256.
constexpr jolt::workloads::CycleModel kModel{25019.0, 256};

class Sha3Chain final : public jolt::workloads::HashChain<&jolt::workloads::host_keccak256> {
 public:
  Sha3Chain() : HashChain("sha3-chain", kModel) {}
};

}  // namespace

JOLT_DEFINE_WORKLOAD_PLUGIN(Sha3Chain, "sha3-chain",
                            "Keccak-256 hash chain from a 32-byte seed (RV32IM guest)")
