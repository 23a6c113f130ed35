// Workload: a plugin that supplies one RV32IM guest program, its input for a requested scale,
// and a check of the guest's output against a host computation of the same thing.
//
//   jolt::WorkloadInput in;
//   if (auto st = workload.make_input(scale, &in); !st) fail(st.message);  // names min_scale()
//   auto run = jolt::prover::execute(jolt::prover::load_elf(workload.guest_elf()), in.bytes, {});
//   if (auto st = workload.check_output(in, run.output); !st) fail(st.message);
//   JOLT_DEFINE_WORKLOAD_PLUGIN(Fibonacci, "fibonacci", "fib(n) mod 2^32 in a loop")  // export
//
// Build a workload with jolt_add_guest_workload (sdk/cmake/JoltGuest.cmake): the guest is
// freestanding C on the sdk/guest runtime, compiled with clang for rv32im and embedded in the
// plugin. The guest reads `in.bytes` from its input region and writes its output region
// (sdk/guest/jolt_guest.h); each plugin documents its input/output encoding in its source.
//
// Scale mapping (as the original): target = floor(0.9 * 2^scale) trace rows,
// ops = max(1, floor(target / cycles_per_op)); the padded trace of make_input(scale) never
// exceeds 2^scale. All methods are const, noexcept and thread-safe.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <jolt/status.hpp>

namespace jolt {

struct WorkloadInput {
  std::vector<std::uint8_t> bytes;  // what the guest reads from its input region
  std::uint64_t ops = 0;            // operations the scale mapped to (iterations, hashes, ...)
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::uint32_t default_scale() const noexcept = 0;
  // Smallest scale whose padded trace fits in 2^scale.
  virtual std::uint32_t min_scale() const noexcept = 0;
  // Measured trace rows per operation, used by the scale mapping (written down per workload):
  // RV32IM cycles plus the rows of the virtual sequences the prover runs some instructions as
  // (SRA, MULH, MULHSU, DIV, REM, and byte and half-word loads and stores; bench/tracer/
  // guest_cycles measures both).
  virtual double cycles_per_op() const noexcept = 0;
  // The guest ELF image (RV32IM, built from the plugin's C source at build time).
  virtual std::span<const std::uint8_t> guest_elf() const noexcept = 0;
  // Input bytes for a requested scale; an error names the smallest scale that works.
  virtual Status make_input(std::uint32_t scale, WorkloadInput* out) const noexcept = 0;
  // Checks the guest's output bytes; a mismatch says what was expected.
  virtual Status check_output(const WorkloadInput& in,
                              std::span<const std::uint8_t> output) const noexcept = 0;
};

}  // namespace jolt
