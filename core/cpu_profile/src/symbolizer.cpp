// Symbolizer (pprof.hpp): loaded modules from dl_iterate_phdr, function names from each module's
// ELF symbol table, read through a read-only mmap of the file.
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "jolt/cpu_profile/pprof.hpp"

namespace jolt::cpu_profile {

struct Symbolizer::SymbolTable {
  struct Symbol {
    std::uint64_t address = 0;  // link-time virtual address
    std::uint64_t size = 0;
    std::string name;
  };
  std::vector<Symbol> symbols;  // sorted by address
};

namespace {

std::string hex(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 0xf]);
    v >>= 4;
  } while (v != 0);
  return s;
}

std::string program_path() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

std::string demangle(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string s(out);
  std::free(out);
  return s;
}

// The GNU build id from the module's PT_NOTE segments, as mapped in memory.
std::string build_id_of(const dl_phdr_info* info) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    const unsigned char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof(note));
      const unsigned char* name = p + sizeof(note);
      const unsigned char* desc = name + ((note.n_namesz + 3) & ~3u);
      const unsigned char* next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        std::string id;
        for (std::uint32_t k = 0; k < note.n_descsz; ++k) {
          static const char* digits = "0123456789abcdef";
          id += digits[desc[k] >> 4];
          id += digits[desc[k] & 0xf];
        }
        return id;
      }
      p = next;
    }
  }
  return {};
}

// Function symbols of the ELF file at `path` (.symtab, else .dynsym); empty when the file cannot
// be read or is not a 64-bit ELF file. Every offset is bounds-checked against the file size.
std::vector<Symbolizer::SymbolTable::Symbol> read_function_symbols(const std::string& path) {
  std::vector<Symbolizer::SymbolTable::Symbol> out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Elf64_Ehdr))) {
    ::close(fd);
    return out;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return out;
  const auto* base = static_cast<const unsigned char*>(map);
  const auto in_file = [&](std::uint64_t offset, std::uint64_t len) {
    return offset <= size && len <= size - offset;
  };
  Elf64_Ehdr eh;
  std::memcpy(&eh, base, sizeof(eh));
  const bool elf64 = std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
                     eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) &&
                     in_file(eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr));
  if (elf64) {
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    if (eh.e_shnum != 0)
      std::memcpy(sections.data(), base + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    for (const std::uint32_t wanted : {std::uint32_t{SHT_SYMTAB}, std::uint32_t{SHT_DYNSYM}}) {
      for (const Elf64_Shdr& sh : sections) {
        if (sh.sh_type != wanted || sh.sh_link >= sections.size()) continue;
        const Elf64_Shdr& strings = sections[sh.sh_link];
        if (!in_file(sh.sh_offset, sh.sh_size) || !in_file(strings.sh_offset, strings.sh_size))
          continue;
        const std::size_t count = sh.sh_size / sizeof(Elf64_Sym);
        for (std::size_t i = 0; i < count; ++i) {
          Elf64_Sym sym;
          std::memcpy(&sym, base + sh.sh_offset + i * sizeof(Elf64_Sym), sizeof(sym));
          if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0 ||
              sym.st_name >= strings.sh_size)
            continue;
          const char* name = reinterpret_cast<const char*>(base + strings.sh_offset + sym.st_name);
          const std::size_t max_len = strings.sh_size - sym.st_name;
          const std::size_t len = ::strnlen(name, max_len);
          if (len == max_len || len == 0) continue;
          out.push_back({sym.st_value, sym.st_size, std::string(name, len)});
        }
      }
      if (!out.empty()) break;
    }
  }
  ::munmap(map, size);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.address != b.address ? a.address < b.address : a.size > b.size;
  });
  return out;
}

}  // namespace

Symbolizer::Symbolizer() {
  struct Collect {
    Symbolizer* self;
    std::string program;
  } collect{this, program_path()};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* arg) -> int {
        auto* c = static_cast<Collect*>(arg);
        Module m;
        m.path = (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') ? c->program
                                                                            : info->dlpi_name;
        m.load_bias = info->dlpi_addr;
        m.build_id = build_id_of(info);
        const std::size_t index = c->self->modules_.size();
        const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        bool any = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0 || ph.p_memsz == 0) continue;
          const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          Segment s;
          s.start = start & ~(page - 1);
          s.limit = start + ph.p_memsz;
          s.file_offset = ph.p_offset & ~static_cast<std::uint64_t>(page - 1);
          s.module = index;
          c->self->segments_.push_back(s);
          any = true;
        }
        if (any) c->self->modules_.push_back(std::move(m));
        return 0;
      },
      &collect);
}

Symbolizer::~Symbolizer() = default;

const Symbolizer::Resolved& Symbolizer::resolve(std::uintptr_t pc) {
  if (auto it = cache_.find(pc); it != cache_.end()) return it->second;
  Resolved r;
  for (std::size_t i = 0; i < segments_.size(); ++i)
    if (pc >= segments_[i].start && pc < segments_[i].limit) {
      r.segment = static_cast<int>(i);
      break;
    }
  if (r.segment < 0) {
    r.name = r.system_name = "[unknown 0x" + hex(pc) + "]";
    return cache_.emplace(pc, std::move(r)).first->second;
  }
  const std::size_t module = segments_[static_cast<std::size_t>(r.segment)].module;
  const Module& m = modules_[module];
  auto& table = tables_[module];
  if (!table) {
    table = std::make_unique<SymbolTable>();
    table->symbols = read_function_symbols(m.path);
  }
  const std::uint64_t address = pc - m.load_bias;
  const auto& syms = table->symbols;
  auto it =
      std::upper_bound(syms.begin(), syms.end(), address,
                       [](std::uint64_t a, const SymbolTable::Symbol& s) { return a < s.address; });
  // The nearest symbol at or below the address whose extent covers it.
  while (it != syms.begin()) {
    --it;
    if (address < it->address + std::max<std::uint64_t>(it->size, 1)) {
      r.system_name = it->name;
      r.name = demangle(it->name.c_str());
      break;
    }
    if (it->size != 0 && it->address + it->size <= address) {
      // Symbols are sorted by start: an earlier, larger one may still cover the address, but
      // one symbol far below cannot; stop after a bounded look-back.
      if (address - it->address > (std::uint64_t{1} << 20)) break;
    }
  }
  if (r.name.empty()) {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(pc), &info) != 0 && info.dli_sname != nullptr) {
      r.system_name = info.dli_sname;
      r.name = demangle(info.dli_sname);
    } else {
      const std::string file = m.path.substr(m.path.find_last_of('/') + 1);
      r.name = r.system_name = "[" + file + "+0x" + hex(address) + "]";
    }
  }
  return cache_.emplace(pc, std::move(r)).first->second;
}

}  // namespace jolt::cpu_profile
