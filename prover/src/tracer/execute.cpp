// The RV32IM interpreter: one loop templated on recording, over code pre-decoded from the
// executable segments, with bounds- and alignment-checked memory in three regions.
#include <bit>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>

#include <sys/mman.h>

#include "jolt/prover/pipeline/padding.hpp"
#include "jolt/prover/tracer/tracer.hpp"
#include "jolt/prover/tracer/virtual_sequences.hpp"

namespace jolt::prover {
namespace {

std::string hex(std::uint32_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 0; i < 8; ++i) s[9 - i] = kDigits[(v >> (4 * i)) & 15];
  return s;
}

struct Decoded {
  Opcode op = Opcode::kNoop;  // kNoop: illegal word
  std::uint8_t rd = 0, rs1 = 0, rs2 = 0;
  std::int32_t imm = 0;
  std::uint32_t word = 0;
};

struct FreeDeleter {
  void operator()(std::uint8_t* p) const noexcept { std::free(p); }
};

// Guest memory. RAM is calloc'ed so untouched pages stay lazily zero.
class Memory {
 public:
  Memory(const ElfImage& image, std::span<const std::uint8_t> input)
      : ram_(static_cast<std::uint8_t*>(std::calloc(kRamSize, 1))),
        input_len_(4 + input.size()),
        // Rounded up to whole words (zero-filled): a recorded sub-word load reads the whole
        // aligned word around it (mem_pre/mem_post), which must stay inside the buffer and be the
        // same bytes on every run, whatever the input length.
        input_((4 + input.size() + 3) & ~std::size_t{3}, 0),
        output_(static_cast<std::uint8_t*>(std::calloc(kOutputMax, 1))) {
    if (!ram_ || !output_) throw std::bad_alloc();
    if (input.size() > kInputMax - 4)
      throw ElfError("input of " + std::to_string(input.size()) + " bytes exceeds the " +
                     std::to_string(kInputMax - 4) + "-byte input region");
    const auto n = static_cast<std::uint32_t>(input.size());
    std::memcpy(input_.data(), &n, 4);
    if (!input.empty()) std::memcpy(input_.data() + 4, input.data(), input.size());
    for (const auto& s : image.segments) {
      if (s.vaddr < kRamBase || static_cast<std::uint64_t>(s.vaddr) + s.memsz >
                                    static_cast<std::uint64_t>(kRamBase) + kRamSize)
        throw ElfError("ELF segment at " + hex(s.vaddr) + " (+" + std::to_string(s.memsz) +
                       " bytes) lies outside guest RAM [" + hex(kRamBase) + ", " +
                       hex(kRamBase + kRamSize) + "): link with sdk/guest/guest.ld");
      // A segment with no file data (.bss only) has nothing to copy; memcpy from its empty
      // vector's null data() would be undefined behaviour even for 0 bytes.
      if (!s.data.empty())
        std::memcpy(ram_.get() + (s.vaddr - kRamBase), s.data.data(), s.data.size());
    }
  }

  // Host pointer to `width` bytes at addr, or nullptr when outside every region / not writable.
  std::uint8_t* at(std::uint32_t addr, std::uint32_t width, bool store) {
    if (addr - kRamBase <= kRamSize - width) {
      if (store && addr - code_lo_ < code_size_) return nullptr;
      return ram_.get() + (addr - kRamBase);
    }
    if (addr - kOutputBase <= kOutputMax - width) return output_.get() + (addr - kOutputBase);
    if (!store && addr - kInputBase < input_len_ && addr - kInputBase + width <= input_len_)
      return input_.data() + (addr - kInputBase);
    return nullptr;
  }

  void protect_code(std::uint32_t lo, std::uint32_t size) { code_lo_ = lo, code_size_ = size; }

  std::vector<std::uint8_t> output() const {
    std::uint32_t n = 0;
    std::memcpy(&n, output_.get(), 4);
    if (n > kOutputMax - 4) n = kOutputMax - 4;
    return {output_.get() + 4, output_.get() + 4 + n};
  }

  std::string label(std::uint32_t addr) {
    std::string s;
    for (std::uint32_t i = 0; i < 256; ++i) {
      const std::uint8_t* p = at(addr + i, 1, false);
      if (!p || *p == 0) return s;
      s.push_back(static_cast<char>(*p));
    }
    return s;
  }

 private:
  std::unique_ptr<std::uint8_t, FreeDeleter> ram_;
  std::size_t input_len_;  // bytes a guest may read: the length word and the input
  std::vector<std::uint8_t> input_;
  std::unique_ptr<std::uint8_t, FreeDeleter> output_;
  std::uint32_t code_lo_ = 0, code_size_ = 0;
};

struct Code {
  std::uint32_t base = 0;
  std::vector<Decoded> ops;  // ops[(pc - base) / 4]
};

Code predecode(const ElfImage& image) {
  std::uint64_t lo = ~0ull, hi = 0;
  for (const auto& s : image.segments)
    if (s.executable)
      lo = std::min<std::uint64_t>(lo, s.vaddr),
      hi = std::max<std::uint64_t>(hi, s.vaddr + s.memsz);
  Code code;
  if (lo >= hi) return code;
  lo &= ~3ull;
  code.base = static_cast<std::uint32_t>(lo);
  code.ops.resize((hi - lo + 3) / 4);
  for (const auto& s : image.segments) {
    if (!s.executable) continue;
    for (std::uint64_t a = (s.vaddr + 3ull) & ~3ull; a + 4 <= s.vaddr + s.data.size(); a += 4) {
      std::uint32_t w;
      std::memcpy(&w, s.data.data() + (a - s.vaddr), 4);
      TraceRow r;
      Decoded& d = code.ops[(a - lo) / 4];
      if (decode(w, r))
        d = Decoded{r.opcode, r.rd, r.rs1, r.rs2, r.imm, w};
      else
        d.word = w;
    }
  }
  return code;
}

template <class T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <bool kRecord>
void run(const Code& code, Memory& mem, std::uint32_t entry, const ExecOptions& opt,
         Execution& ex) {
  std::uint32_t x[kNumRegistersWithVirtual] = {};  // x32 .. x39: virtual-sequence registers
  x[2] = kInitialStackPointer;  // crt0 sets sp too; this keeps hand-made test ELFs simple
  std::uint32_t pc = entry;
  std::uint64_t cycle = 0, sequence_rows = 0;
  const std::uint64_t max_cycles = opt.max_cycles;
  const Decoded* ops = code.ops.data();
  const std::uint32_t nops = static_cast<std::uint32_t>(code.ops.size());
  auto fault = [&](const std::string& what) -> GuestFault { return GuestFault(what, pc, cycle); };
  std::unordered_map<std::string, std::vector<std::size_t>> open_markers;  // label -> indices

  for (;;) {
    if (cycle >= max_cycles)
      throw fault("cycle limit of " + std::to_string(max_cycles) + " reached");
    const std::uint32_t idx = (pc - code.base) >> 2;
    if ((pc & 3) != 0) throw fault("misaligned instruction fetch");
    if (idx >= nops) throw fault("instruction fetch outside the executable segments");
    const Decoded& d = ops[idx];
    const std::uint32_t a = x[d.rs1], b = x[d.rs2];
    const std::uint32_t imm = static_cast<std::uint32_t>(d.imm);
    std::uint32_t next = pc + 4;
    std::uint32_t rd_val = x[d.rd];
    [[maybe_unused]] TraceRow* row = nullptr;
    if constexpr (kRecord) {
      row = &ex.rows.emplace_back();
      row->pc = pc;
      row->word = d.word;
      row->opcode = d.op;
      row->rd = d.rd, row->rs1 = d.rs1, row->rs2 = d.rs2, row->imm = d.imm;
      row->rs1_val = a, row->rs2_val = b;
      row->rd_pre = rd_val;
    }
    auto do_load = [&](std::uint32_t width) -> const std::uint8_t* {
      const std::uint32_t addr = a + imm;
      if (addr & (width - 1))
        throw fault("misaligned " + std::to_string(width) + "-byte load at " + hex(addr));
      const std::uint8_t* p = mem.at(addr, width, false);
      if (!p) throw fault(std::to_string(width) + "-byte load from unmapped address " + hex(addr));
      if constexpr (kRecord) {
        row->mem = MemAccess::kLoad, row->mem_width = static_cast<std::uint8_t>(width);
        row->mem_addr = addr, row->mem_word_addr = addr & ~3u;
        const std::uint8_t* wp = p - (addr & 3);
        row->mem_pre = row->mem_post = load<std::uint32_t>(wp);
      }
      return p;
    };
    auto do_store = [&](std::uint32_t width) {
      const std::uint32_t addr = a + imm;
      if (addr & (width - 1))
        throw fault("misaligned " + std::to_string(width) + "-byte store at " + hex(addr));
      std::uint8_t* p = mem.at(addr, width, true);
      if (!p)
        throw fault(std::to_string(width) + "-byte store to unmapped or read-only address " +
                    hex(addr));
      [[maybe_unused]] std::uint8_t* wp = p - (addr & 3);
      if constexpr (kRecord) {
        row->mem = MemAccess::kStore, row->mem_width = static_cast<std::uint8_t>(width);
        row->mem_addr = addr, row->mem_word_addr = addr & ~3u;
        row->mem_pre = load<std::uint32_t>(wp);
      }
      std::memcpy(p, &b, width);  // little-endian host: the low `width` bytes of rs2
      if constexpr (kRecord) row->mem_post = load<std::uint32_t>(wp);
    };
    bool exited = false;
    switch (d.op) {
      case Opcode::kNoop:
        throw fault("illegal instruction " + hex(d.word));
      case Opcode::kLui:
        rd_val = imm;
        break;
      case Opcode::kAuipc:
        rd_val = pc + imm;
        break;
      case Opcode::kJal:
        rd_val = pc + 4, next = pc + imm;
        break;
      case Opcode::kJalr:
        rd_val = pc + 4, next = (a + imm) & ~1u;
        break;
      case Opcode::kBeq:
        if (a == b) next = pc + imm;
        break;
      case Opcode::kBne:
        if (a != b) next = pc + imm;
        break;
      case Opcode::kBlt:
        if (static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b)) next = pc + imm;
        break;
      case Opcode::kBge:
        if (static_cast<std::int32_t>(a) >= static_cast<std::int32_t>(b)) next = pc + imm;
        break;
      case Opcode::kBltu:
        if (a < b) next = pc + imm;
        break;
      case Opcode::kBgeu:
        if (a >= b) next = pc + imm;
        break;
      case Opcode::kLb:
        rd_val =
            static_cast<std::uint32_t>(static_cast<std::int32_t>(load<std::int8_t>(do_load(1))));
        break;
      case Opcode::kLh:
        rd_val =
            static_cast<std::uint32_t>(static_cast<std::int32_t>(load<std::int16_t>(do_load(2))));
        break;
      case Opcode::kLw:
        rd_val = load<std::uint32_t>(do_load(4));
        break;
      case Opcode::kLbu:
        rd_val = load<std::uint8_t>(do_load(1));
        break;
      case Opcode::kLhu:
        rd_val = load<std::uint16_t>(do_load(2));
        break;
      case Opcode::kSb:
        do_store(1);
        break;
      case Opcode::kSh:
        do_store(2);
        break;
      case Opcode::kSw:
        do_store(4);
        break;
      case Opcode::kAddi:
        rd_val = a + imm;
        break;
      case Opcode::kSlti:
        rd_val = static_cast<std::int32_t>(a) < d.imm;
        break;
      case Opcode::kSltiu:
        rd_val = a < imm;
        break;
      case Opcode::kXori:
        rd_val = a ^ imm;
        break;
      case Opcode::kOri:
        rd_val = a | imm;
        break;
      case Opcode::kAndi:
        rd_val = a & imm;
        break;
      case Opcode::kSlli:
        rd_val = a << (imm & 31);
        break;
      case Opcode::kSrli:
        rd_val = a >> (imm & 31);
        break;
      case Opcode::kSrai:
        rd_val = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (imm & 31));
        break;
      case Opcode::kAdd:
        rd_val = a + b;
        break;
      case Opcode::kSub:
        rd_val = a - b;
        break;
      case Opcode::kSll:
        rd_val = a << (b & 31);
        break;
      case Opcode::kSlt:
        rd_val = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
        break;
      case Opcode::kSltu:
        rd_val = a < b;
        break;
      case Opcode::kXor:
        rd_val = a ^ b;
        break;
      case Opcode::kSrl:
        rd_val = a >> (b & 31);
        break;
      case Opcode::kSra:
        rd_val = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (b & 31));
        break;
      case Opcode::kOr:
        rd_val = a | b;
        break;
      case Opcode::kAnd:
        rd_val = a & b;
        break;
      case Opcode::kFence:
        break;
      case Opcode::kEcall: {
        const std::uint32_t call = x[17], arg = x[10];
        if (call == static_cast<std::uint32_t>(GuestCall::kExit)) {
          ex.exit_code = arg;
          exited = true;
        } else if (call == static_cast<std::uint32_t>(GuestCall::kCycleStart)) {
          ex.markers.push_back(CycleMarker{mem.label(arg), cycle, cycle, false});
          open_markers[ex.markers.back().label].push_back(ex.markers.size() - 1);
        } else if (call == static_cast<std::uint32_t>(GuestCall::kCycleEnd)) {
          // Closes the most recently started open marker of that label: a stack per label
          // keeps this O(1), where scanning the markers made deep nesting quadratic.
          const std::string label = mem.label(arg);
          auto open = open_markers.find(label);
          if (open == open_markers.end() || open->second.empty())
            throw fault("end_cycle_tracking(\"" + label + "\") without a matching start");
          CycleMarker& m = ex.markers[open->second.back()];
          open->second.pop_back();
          m.end_cycle = cycle, m.closed = true;
        } else {
          throw fault("unknown ECALL service a7=" + std::to_string(call));
        }
        break;
      }
      case Opcode::kEbreak:
        throw fault("EBREAK");
      case Opcode::kMul:
        rd_val = a * b;
        break;
      case Opcode::kMulh:
        rd_val =
            static_cast<std::uint32_t>((static_cast<std::int64_t>(static_cast<std::int32_t>(a)) *
                                        static_cast<std::int64_t>(static_cast<std::int32_t>(b))) >>
                                       32);
        break;
      case Opcode::kMulhsu:
        rd_val =
            static_cast<std::uint32_t>((static_cast<std::int64_t>(static_cast<std::int32_t>(a)) *
                                        static_cast<std::int64_t>(b)) >>
                                       32);
        break;
      case Opcode::kMulhu:
        rd_val = static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
        break;
      case Opcode::kDiv: {
        const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
        if (b == 0)
          rd_val = ~0u;
        else if (a == 0x80000000u && sb == -1)
          rd_val = a;
        else
          rd_val = static_cast<std::uint32_t>(sa / sb);
        break;
      }
      case Opcode::kDivu:
        rd_val = b == 0 ? ~0u : a / b;
        break;
      case Opcode::kRem: {
        const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
        if (b == 0)
          rd_val = a;
        else if (a == 0x80000000u && sb == -1)
          rd_val = 0;
        else
          rd_val = static_cast<std::uint32_t>(sa % sb);
        break;
      }
      case Opcode::kRemu:
        rd_val = b == 0 ? a : a % b;
        break;
      case Opcode::kVirtualAdvice:
      case Opcode::kVirtualPow2:
      case Opcode::kVirtualShiftRightBitmask:
      case Opcode::kVirtualSrl:
      case Opcode::kVirtualSra:
      case Opcode::kVirtualAssertValidUnsignedRemainder:
      case Opcode::kVirtualAssertValidDiv0:
      case Opcode::kVirtualAssertMulUNoOverflow:
      case Opcode::kVirtualAssertEq:
      case Opcode::kVirtualAssertGeu:
      case Opcode::kCount:  // never decoded: virtual instructions occur only inside sequences
        throw fault("illegal instruction " + hex(d.word));
    }
    if (has_virtual_sequence(d.op)) [[unlikely]] {
      sequence_rows += virtual_sequence_length(d.op) - 1;
      if constexpr (kRecord) {
        // The sequence's rows replace the instruction's; it computes the same rd (and keeps
        // the virtual registers' values for the next sequence's reads).
        TraceRow executed = *row;
        executed.next_pc = next;
        ex.rows.pop_back();
        for (const TraceRow& r : execute_virtual_sequence(executed, x)) ex.rows.push_back(r);
        if (x[d.rd] != (d.rd == 0 ? 0 : rd_val))
          throw std::logic_error("virtual sequence of " + std::string(opcode_name(d.op)) +
                                 " computed another result than the instruction");
      }
    }
    x[d.rd] = rd_val;
    x[0] = 0;
    if constexpr (kRecord) {
      if (!has_virtual_sequence(d.op)) {
        row->rd_post = x[d.rd];
        row->next_pc = exited ? 0 : next;
      }
    }
    ++cycle;
    if (exited) break;
    pc = next;
  }
  ex.cycles = cycle;
  ex.trace_rows = cycle + sequence_rows;
}

// Page faults on first touch of a multi-GB trace dominate recording on VMs; transparent huge
// pages cut their number 512-fold. Advisory only: failure is harmless.
void advise_huge_pages(void* p, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = 2u << 20;
  const auto lo = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const auto hi = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}

}  // namespace

GuestFault::GuestFault(const std::string& what, std::uint32_t pc, std::uint64_t cycle)
    : std::runtime_error("guest fault at pc " + hex(pc) + ", cycle " + std::to_string(cycle) +
                         ": " + what),
      pc_(pc),
      cycle_(cycle) {}

Execution execute(const ElfImage& image, std::span<const std::uint8_t> input,
                  const ExecOptions& options) {
  Memory mem(image, input);
  const Code code = predecode(image);
  mem.protect_code(code.base, static_cast<std::uint32_t>(code.ops.size() * 4));
  Execution ex;
  if (options.record) {
    // Reserve the exact row count (counted first in fast mode unless the caller knows it): no
    // reallocation copies of a multi-GB trace. Execution is deterministic.
    std::uint64_t rows = options.expected_cycles;
    if (rows == 0) {
      Memory counting_mem(image, input);
      counting_mem.protect_code(code.base, static_cast<std::uint32_t>(code.ops.size() * 4));
      Execution counted;
      run<false>(code, counting_mem, image.entry, options, counted);
      rows = counted.trace_rows;
    }
    ex.rows.reserve(std::min(rows, options.max_cycles));
    advise_huge_pages(ex.rows.data(), ex.rows.capacity() * sizeof(TraceRow));
    run<true>(code, mem, image.entry, options, ex);
  } else {
    run<false>(code, mem, image.entry, options, ex);
  }
  ex.output = mem.output();
  return ex;
}

std::uint64_t padded_length(std::uint64_t cycles) {
  return padded_trace_length(cycles);
}

void pad_trace(std::vector<TraceRow>& rows) {
  rows.resize(padded_length(rows.size()));
}

}  // namespace jolt::prover
