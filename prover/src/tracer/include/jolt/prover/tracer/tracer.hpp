// The RV32IM tracer: loads an ELF32 RISC-V executable and runs it on an interpreter of the whole
// RV32I base + M extension, optionally recording one TraceRow per executed instruction.
//
//   auto image = jolt::prover::load_elf(elf_bytes);                  // throws ElfError
//   jolt::prover::ExecOptions opt{.record = true};
//   auto run = jolt::prover::execute(image, input_bytes, opt);       // throws GuestFault
//   jolt::prover::pad_trace(run.rows);  // to padded_trace_length(len) rows of TraceRow{}
//   use(run.output, run.exit_code, run.cycles, run.markers);
//
// Guest ABI (sdk/guest/jolt_guest.h mirrors these constants):
// - RAM at [kRamBase, kRamBase + kRamSize): code, data, bss, heap; the stack grows down from
//   the top.
// - Input at kInputBase: a u32 little-endian byte count, then the input bytes (read-only).
// - Output at kOutputBase (kOutputMax bytes): a u32 byte count, then the output bytes.
// - ECALL: a7 selects a GuestCall, a0 is its argument; ECALL writes no register. Its decoded
//   row names them as operands (rs1 = a7 = x17, rs2 = a0 = x10), so the trace records both.
// Code is fetched from the executable PT_LOAD segments, pre-decoded once; stores into them fault.
// Misaligned loads/stores, illegal words, EBREAK and accesses outside the regions are GuestFaults.
//
// Thread-safety: every function is pure with respect to its arguments (no global state), so
// concurrent calls on distinct or shared const arguments are safe. ElfImage is immutable.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <jolt/prover/tracer/trace_row.hpp>

namespace jolt::prover {

// Memory map shared with the guest runtime (sdk/guest/jolt_guest.h, sdk/guest/guest.ld).
inline constexpr std::uint32_t kRamBase = 0x80000000u;
inline constexpr std::uint32_t kRamSize = 0x04000000u;  // 64 MiB
inline constexpr std::uint32_t kInputBase = 0x20000000u;
inline constexpr std::uint32_t kInputMax = 0x01000000u;  // 16 MiB including the length word
inline constexpr std::uint32_t kOutputBase = 0x30000000u;
inline constexpr std::uint32_t kOutputMax = 0x00100000u;  // 1 MiB including the length word
// The reset state: every register 0 except sp (x2) at the top of RAM. The prover's register
// checking starts from this state too.
inline constexpr std::uint32_t kInitialStackPointer = kRamBase + kRamSize;

// ECALL services, selected by a7 (argument in a0).
enum class GuestCall : std::uint32_t {
  kExit = 0,        // a0 = exit status; ends execution
  kCycleStart = 1,  // a0 = address of a NUL-terminated label (at most 255 bytes)
  kCycleEnd = 2,    // a0 = address of the label given to the matching kCycleStart
};

// A malformed or foreign ELF; what() names the field that is wrong and what to do.
class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A guest fault: illegal instruction, misaligned or out-of-range access, cycle limit, EBREAK.
// what() includes the PC (hex) and the cycle; both are also available as fields.
class GuestFault : public std::runtime_error {
 public:
  GuestFault(const std::string& what, std::uint32_t pc, std::uint64_t cycle);
  std::uint32_t pc() const noexcept { return pc_; }
  std::uint64_t cycle() const noexcept { return cycle_; }

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
  std::vector<Segment> segments;  // PT_LOAD segments with memsz > 0
};

// Checks magic, class (ELF32), data (little-endian), machine (RISC-V), type (EXEC), entry inside
// an executable segment and aligned, and every PT_LOAD segment's bounds (check_image). Throws
// ElfError.
ElfImage load_elf(std::span<const std::uint8_t> bytes);

// The checks every image must pass before it is executed or proved about: every segment inside
// guest RAM [kRamBase, kRamBase + kRamSize), no two segments overlapping (so every address has
// one meaning for the tracer and for the prover's bytecode table). Throws ElfError naming the
// segments.
void check_image(const ElfImage& image);

struct ExecOptions {
  bool record = true;                     // record one TraceRow per executed instruction
  std::uint64_t max_cycles = 1ull << 32;  // GuestFault when the guest has not exited by then
  // Recording reserves the row buffer exactly: with 0 it first counts the cycles in fast mode
  // (about a tenth of the recording time); pass a known cycle count to skip that pass.
  std::uint64_t expected_cycles = 0;
};

// One start_cycle_tracking/end_cycle_tracking pair: cycles [start_cycle, end_cycle).
struct CycleMarker {
  std::string label;
  std::uint64_t start_cycle = 0;
  std::uint64_t end_cycle = 0;
  bool closed = false;  // false when the guest exited before end_cycle_tracking
};

struct Execution {
  // One per executed instruction (including the exit ECALL); an instruction with a virtual
  // sequence (virtual_sequences.hpp) records that sequence's rows instead.
  std::vector<TraceRow> rows;
  std::uint64_t cycles = 0;      // executed instructions, recorded or not
  std::uint64_t trace_rows = 0;  // rows a recording holds (cycles plus virtual-sequence rows)
  std::uint32_t exit_code = 0;
  std::vector<std::uint8_t> output;
  std::vector<CycleMarker> markers;  // in start order
};

// Runs the guest from image.entry until it calls kExit. Throws GuestFault (guest bug) or
// ElfError (a segment outside RAM, or input larger than kInputMax - 4).
Execution execute(const ElfImage& image, std::span<const std::uint8_t> input,
                  const ExecOptions& options);

// padded_trace_length(cycles) (pipeline/padding.hpp, the one padding rule).
std::uint64_t padded_length(std::uint64_t cycles);
// Resizes rows to padded_length(rows.size()) with TraceRow{} padding.
void pad_trace(std::vector<TraceRow>& rows);

// Decodes one instruction word into row.opcode/rd/rs1/rs2/imm/word; false for an illegal word
// (kNoop never results from a legal word).
bool decode(std::uint32_t word, TraceRow& row);

// Lower-case mnemonic, e.g. "mulhsu"; "noop" for padding.
const char* opcode_name(Opcode op);

}  // namespace jolt::prover
