// The RV32IM interpreter: a flat 4 GiB reserved guest address space with per-page permissions,
// predecoded code, and an optional TraceRow per executed instruction.
#include <sys/mman.h>

#include <cstring>
#include <memory>

#include "jolt/prover/tracer/tracer.hpp"

namespace jolt::prover {

GuestFault::GuestFault(const std::string& what, std::uint32_t pc, std::uint64_t cycle)
    : std::runtime_error("guest fault at pc 0x" +
                         [pc] {
                           char b[16];
                           std::snprintf(b, sizeof(b), "%08x", pc);
                           return std::string(b);
                         }() +
                         ", cycle " + std::to_string(cycle) + ": " + what),
      pc_(pc),
      cycle_(cycle) {}

std::uint64_t padded_length(std::uint64_t cycles) {
  std::uint64_t t = 256;
  while (t < cycles + 1) t <<= 1;
  return t;
}

namespace {

constexpr std::uint8_t kRead = 1, kWrite = 2;
constexpr unsigned kPageBits = 12;

class GuestMemory {
 public:
  GuestMemory() {
    base_ = static_cast<std::uint8_t*>(::mmap(nullptr, 1ull << 32, PROT_READ | PROT_WRITE,
                                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (base_ == MAP_FAILED)
      throw std::runtime_error("cannot reserve 4 GiB of address space for the guest");
    perms_ = std::make_unique<std::uint8_t[]>(1u << (32 - kPageBits));
  }
  ~GuestMemory() { ::munmap(base_, 1ull << 32); }
  GuestMemory(const GuestMemory&) = delete;
  GuestMemory& operator=(const GuestMemory&) = delete;

  void map(std::uint32_t addr, std::uint64_t len, std::uint8_t perm) {
    if (len == 0) return;
    const std::uint64_t first = addr >> kPageBits, last = (addr + len - 1) >> kPageBits;
    for (std::uint64_t p = first; p <= last; ++p) perms_[p] |= perm;
  }
  bool allowed(std::uint32_t addr, std::uint8_t perm) const {
    return (perms_[addr >> kPageBits] & perm) == perm;
  }
  std::uint8_t* at(std::uint32_t addr) { return base_ + addr; }

 private:
  std::uint8_t* base_;
  std::unique_ptr<std::uint8_t[]> perms_;
};

struct Code {
  std::uint32_t base = 0;
  std::vector<TraceRow> rows;  // predecoded; opcode kNoop marks an illegal word
};

template <bool kRecord>
void run(const ElfImage& image, std::span<const std::uint8_t> input, const ExecOptions& opt,
         Execution& ex) {
  GuestMemory mem;
  std::vector<Code> code;
  for (const auto& s : image.segments) {
    const std::uint64_t end = static_cast<std::uint64_t>(s.vaddr) + s.memsz;
    auto overlaps = [&](std::uint32_t b, std::uint32_t n) {
      return s.vaddr < b + static_cast<std::uint64_t>(n) && end > b;
    };
    if (overlaps(kInputBase, kInputMax) || overlaps(kOutputBase, kOutputMax))
      throw ElfError("ELF segment at 0x" + std::to_string(s.vaddr) +
                     " overlaps the input/output regions");
    std::memcpy(mem.at(s.vaddr), s.data.data(), s.data.size());
    mem.map(s.vaddr, s.memsz, s.writable ? (kRead | kWrite) : kRead);
    if (s.executable) {
      Code c;
      c.base = s.vaddr;
      c.rows.resize(s.memsz / 4);
      for (std::size_t i = 0; i < c.rows.size(); ++i) {
        std::uint32_t w = 0;
        std::memcpy(&w, mem.at(s.vaddr + static_cast<std::uint32_t>(4 * i)), 4);
        if (!decode(w, c.rows[i])) c.rows[i] = TraceRow{}, c.rows[i].word = w;
      }
      code.push_back(std::move(c));
    }
  }
  if (input.size() > kInputMax)
    throw std::invalid_argument("guest input of " + std::to_string(input.size()) +
                                " bytes exceeds the 16 MiB input region");
  std::memcpy(mem.at(kInputBase), input.data(), input.size());
  mem.map(kInputBase, kInputMax, kRead);
  mem.map(kOutputBase, kOutputMax, kRead | kWrite);

  std::uint32_t x[32] = {};
  std::uint32_t pc = image.entry;
  std::uint32_t output_len = 0;
  std::uint64_t cycle = 0;
  const Code* cur = code.empty() ? nullptr : &code[0];

  auto fault = [&](const std::string& what) { throw GuestFault(what, pc, cycle); };
  for (;;) {
    if (cycle >= opt.max_cycles)
      fault("cycle limit of " + std::to_string(opt.max_cycles) + " reached");
    if (!cur || pc - cur->base >= cur->rows.size() * 4) {
      cur = nullptr;
      for (const auto& c : code)
        if (pc - c.base < c.rows.size() * 4) cur = &c;
      if (!cur) fault("instruction fetch outside executable memory");
    }
    if (pc & 3) fault("misaligned instruction fetch");
    const TraceRow& d = cur->rows[(pc - cur->base) >> 2];
    if (d.opcode == Opcode::kNoop) {
      char b[32];
      std::snprintf(b, sizeof(b), "0x%08x", d.word);
      fault(std::string("illegal instruction ") + b);
    }
    TraceRow row = d;
    row.pc = pc;
    const std::uint32_t a = x[d.rs1], b = x[d.rs2];
    row.rs1_val = a;
    row.rs2_val = b;
    std::uint32_t next = pc + 4;
    std::uint32_t result = 0;
    bool writes = true;
    const std::uint32_t imm = static_cast<std::uint32_t>(d.imm);
    auto load = [&](unsigned width) -> std::uint32_t {
      const std::uint32_t addr = a + imm;
      if (addr & (width - 1))
        fault("misaligned " + std::to_string(width) + "-byte load at 0x" + std::to_string(addr));
      if (!mem.allowed(addr, kRead)) fault("load from unmapped address " + std::to_string(addr));
      const std::uint32_t waddr = addr & ~3u;
      std::uint32_t word;
      std::memcpy(&word, mem.at(waddr), 4);
      if constexpr (kRecord) {
        row.mem = MemAccess::kLoad, row.mem_width = static_cast<std::uint8_t>(width),
        row.mem_addr = addr;
        row.mem_word_addr = waddr, row.mem_pre = word, row.mem_post = word;
      }
      return word >> (8 * (addr & 3));
    };
    auto store = [&](unsigned width) {
      const std::uint32_t addr = a + imm;
      if (addr & (width - 1))
        fault("misaligned " + std::to_string(width) + "-byte store at 0x" + std::to_string(addr));
      if (!mem.allowed(addr, kWrite))
        fault("store to read-only or unmapped address " + std::to_string(addr));
      const std::uint32_t waddr = addr & ~3u;
      std::uint32_t word;
      std::memcpy(&word, mem.at(waddr), 4);
      const unsigned shift = 8 * (addr & 3);
      const std::uint32_t mask = (width == 4 ? 0xffffffffu : ((1u << (8 * width)) - 1)) << shift;
      const std::uint32_t nw = (word & ~mask) | ((b << shift) & mask);
      std::memcpy(mem.at(waddr), &nw, 4);
      if constexpr (kRecord) {
        row.mem = MemAccess::kStore, row.mem_width = static_cast<std::uint8_t>(width),
        row.mem_addr = addr;
        row.mem_word_addr = waddr, row.mem_pre = word, row.mem_post = nw;
      }
      writes = false;
    };
    bool halt = false;
    switch (d.opcode) {
      case Opcode::kLui:
        result = imm;
        break;
      case Opcode::kAuipc:
        result = pc + imm;
        break;
      case Opcode::kJal:
        result = pc + 4, next = pc + imm;
        break;
      case Opcode::kJalr:
        result = pc + 4, next = (a + imm) & ~1u;
        break;
      case Opcode::kBeq:
        writes = false, next = a == b ? pc + imm : next;
        break;
      case Opcode::kBne:
        writes = false, next = a != b ? pc + imm : next;
        break;
      case Opcode::kBlt:
        writes = false,
        next = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b) ? pc + imm : next;
        break;
      case Opcode::kBge:
        writes = false,
        next = static_cast<std::int32_t>(a) >= static_cast<std::int32_t>(b) ? pc + imm : next;
        break;
      case Opcode::kBltu:
        writes = false, next = a < b ? pc + imm : next;
        break;
      case Opcode::kBgeu:
        writes = false, next = a >= b ? pc + imm : next;
        break;
      case Opcode::kLb:
        result = static_cast<std::uint32_t>(static_cast<std::int8_t>(load(1) & 0xff));
        break;
      case Opcode::kLh:
        result = static_cast<std::uint32_t>(static_cast<std::int16_t>(load(2) & 0xffff));
        break;
      case Opcode::kLw:
        result = load(4);
        break;
      case Opcode::kLbu:
        result = load(1) & 0xff;
        break;
      case Opcode::kLhu:
        result = load(2) & 0xffff;
        break;
      case Opcode::kSb:
        store(1);
        break;
      case Opcode::kSh:
        store(2);
        break;
      case Opcode::kSw:
        store(4);
        break;
      case Opcode::kAddi:
        result = a + imm;
        break;
      case Opcode::kSlti:
        result = static_cast<std::int32_t>(a) < d.imm;
        break;
      case Opcode::kSltiu:
        result = a < imm;
        break;
      case Opcode::kXori:
        result = a ^ imm;
        break;
      case Opcode::kOri:
        result = a | imm;
        break;
      case Opcode::kAndi:
        result = a & imm;
        break;
      case Opcode::kSlli:
        result = a << (imm & 31);
        break;
      case Opcode::kSrli:
        result = a >> (imm & 31);
        break;
      case Opcode::kSrai:
        result = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (imm & 31));
        break;
      case Opcode::kAdd:
        result = a + b;
        break;
      case Opcode::kSub:
        result = a - b;
        break;
      case Opcode::kSll:
        result = a << (b & 31);
        break;
      case Opcode::kSlt:
        result = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
        break;
      case Opcode::kSltu:
        result = a < b;
        break;
      case Opcode::kXor:
        result = a ^ b;
        break;
      case Opcode::kSrl:
        result = a >> (b & 31);
        break;
      case Opcode::kSra:
        result = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (b & 31));
        break;
      case Opcode::kOr:
        result = a | b;
        break;
      case Opcode::kAnd:
        result = a & b;
        break;
      case Opcode::kMul:
        result = a * b;
        break;
      case Opcode::kMulh:
        result =
            static_cast<std::uint32_t>((static_cast<std::int64_t>(static_cast<std::int32_t>(a)) *
                                        static_cast<std::int64_t>(static_cast<std::int32_t>(b))) >>
                                       32);
        break;
      case Opcode::kMulhsu:
        result =
            static_cast<std::uint32_t>((static_cast<std::int64_t>(static_cast<std::int32_t>(a)) *
                                        static_cast<std::int64_t>(b)) >>
                                       32);
        break;
      case Opcode::kMulhu:
        result = static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
        break;
      case Opcode::kDiv:
        if (b == 0)
          result = 0xffffffffu;
        else if (a == 0x80000000u && b == 0xffffffffu)
          result = a;
        else
          result = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) /
                                              static_cast<std::int32_t>(b));
        break;
      case Opcode::kDivu:
        result = b == 0 ? 0xffffffffu : a / b;
        break;
      case Opcode::kRem:
        if (b == 0)
          result = a;
        else if (a == 0x80000000u && b == 0xffffffffu)
          result = 0;
        else
          result = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) %
                                              static_cast<std::int32_t>(b));
        break;
      case Opcode::kRemu:
        result = b == 0 ? a : a % b;
        break;
      case Opcode::kFence:
        writes = false;
        break;
      case Opcode::kEbreak:
        fault("ebreak");
        break;
      case Opcode::kEcall: {
        const std::uint32_t call = x[17], a0 = x[10];
        row.rs1 = 17, row.rs1_val = call, row.rs2 = 10, row.rs2_val = a0;
        writes = false;
        auto read_label = [&](std::uint32_t p) {
          std::string s;
          for (int i = 0; i < 256; ++i, ++p) {
            if (!mem.allowed(p, kRead)) fault("cycle-marker label at an unmapped address");
            const char c = static_cast<char>(*mem.at(p));
            if (!c) return s;
            s.push_back(c);
          }
          return s;
        };
        switch (static_cast<GuestCall>(call)) {
          case GuestCall::kExit:
            ex.exit_code = a0, halt = true;
            break;
          case GuestCall::kCycleStart:
            ex.markers.push_back(CycleMarker{read_label(a0), cycle, cycle});
            break;
          case GuestCall::kCycleEnd: {
            const std::string label = read_label(a0);
            for (auto it = ex.markers.rbegin(); it != ex.markers.rend(); ++it)
              if (it->label == label && it->end_cycle == it->start_cycle) {
                it->end_cycle = cycle;
                break;
              }
            break;
          }
          case GuestCall::kOutputLength:
            if (a0 > kOutputMax)
              fault("output length " + std::to_string(a0) + " exceeds the 1 MiB output region");
            output_len = a0;
            break;
          case GuestCall::kInputLength:
            result = static_cast<std::uint32_t>(input.size()), writes = true, row.rd = 10;
            break;
          default:
            fault("unknown ecall " + std::to_string(call));
        }
        break;
      }
      default:
        fault("unhandled opcode");
    }
    const std::uint8_t rd = row.rd;
    if constexpr (kRecord) {
      row.rd_pre = x[rd];
      row.next_pc = halt ? pc : next;
    }
    if (writes && rd != 0) x[rd] = result;
    if constexpr (kRecord) {
      if (!writes) row.rd = 0, row.rd_pre = x[0];
      row.rd_post = x[row.rd];
      ex.rows.push_back(row);
    }
    ++cycle;
    if (halt) break;
    pc = next;
  }
  ex.cycles = cycle;
  ex.output.assign(mem.at(kOutputBase), mem.at(kOutputBase) + output_len);
}

}  // namespace

Execution execute(const ElfImage& image, std::span<const std::uint8_t> input,
                  const ExecOptions& options) {
  Execution ex;
  if (options.record)
    run<true>(image, input, options, ex);
  else
    run<false>(image, input, options, ex);
  return ex;
}

}  // namespace jolt::prover
