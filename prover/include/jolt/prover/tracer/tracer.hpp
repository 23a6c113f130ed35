// The RV32IM tracer: loads an ELF32 RISC-V executable and runs it, optionally recording one
// TraceRow per executed instruction for the prover.
//
//   auto image = jolt::prover::load_elf(elf_bytes);              // throws ElfError
//   jolt::prover::ExecOptions opt{.record = true, .max_cycles = 1u << 20};
//   auto run = jolt::prover::execute(image, input_bytes, opt);   // throws GuestFault
//   run.rows.resize(jolt::prover::padded_length(run.cycles));    // TraceRow{} = no-op padding
//
// Guest ABI (sdk/guest/jolt_guest.h): the input bytes are mapped at kInputBase, the guest writes
// its output at kOutputBase, and ECALL with a7 selects a service (see GuestCall). Everything here
// is thread-safe for distinct arguments.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <jolt/prover/tracer/trace_row.hpp>

namespace jolt::prover {

// Memory map shared with the guest runtime.
inline constexpr std::uint32_t kInputBase = 0x20000000u;
inline constexpr std::uint32_t kInputMax = 0x01000000u;  // 16 MiB
inline constexpr std::uint32_t kOutputBase = 0x30000000u;
inline constexpr std::uint32_t kOutputMax = 0x00100000u;  // 1 MiB

// ECALL services (a7). Arguments in a0..a2.
enum class GuestCall : std::uint32_t {
  kExit = 0,          // a0 = exit status
  kCycleStart = 1,    // a0 = pointer to NUL-terminated label
  kCycleEnd = 2,      // a0 = pointer to NUL-terminated label
  kOutputLength = 3,  // a0 = number of output bytes written at kOutputBase
  kInputLength = 4,   // returns the input length in a0
};

class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A guest fault: illegal instruction, misaligned or out-of-range access. Never a host crash.
class GuestFault : public std::runtime_error {
 public:
  GuestFault(const std::string& what, std::uint32_t pc, std::uint64_t cycle);
  std::uint32_t pc() const { return pc_; }
  std::uint64_t cycle() const { return cycle_; }

 private:
  std::uint32_t pc_;
  std::uint64_t cycle_;
};

struct Segment {
  std::uint32_t vaddr = 0;
  std::uint32_t memsz = 0;
  std::vector<std::uint8_t> data;  // filesz bytes; the rest up to memsz is zero
  bool executable = false;
  bool writable = false;
};

struct ElfImage {
  std::uint32_t entry = 0;
  std::vector<Segment> segments;
};

// Checks class (ELF32), data (little-endian), machine (RISC-V), type (EXEC), entry inside an
// executable segment, and every PT_LOAD segment's bounds.
ElfImage load_elf(std::span<const std::uint8_t> bytes);

struct ExecOptions {
  bool record = true;                     // record TraceRows
  std::uint64_t max_cycles = 1ull << 32;  // fault when exceeded
};

struct CycleMarker {
  std::string label;
  std::uint64_t start_cycle = 0;
  std::uint64_t end_cycle = 0;  // == start_cycle while still open
};

struct Execution {
  std::vector<TraceRow> rows;  // one per executed instruction when recording
  std::uint64_t cycles = 0;
  std::uint32_t exit_code = 0;
  std::vector<std::uint8_t> output;
  std::vector<CycleMarker> markers;
};

Execution execute(const ElfImage& image, std::span<const std::uint8_t> input,
                  const ExecOptions& options);

// T = max(256, next_pow2(cycles + 1)): at least one padding row, as the original.
std::uint64_t padded_length(std::uint64_t cycles);

// Decodes one instruction word (kNoop never results; illegal words return false).
bool decode(std::uint32_t word, TraceRow& row);

const char* opcode_name(Opcode op);

}  // namespace jolt::prover
