// Sampled stacks as pprof profiles: profile.proto messages (field numbers as in
// tests/cpu_profile/profile.proto), gzip-compressed, with every function named and every address
// mapped to the binary or shared object (path and GNU build id) it was loaded from, so a profile
// reads without the binary and `pprof` can still find it.
//
//   jolt::cpu_profile::Symbolizer symbols;                      // the modules loaded now
//   std::string pb = jolt::cpu_profile::encode_pprof(samples, symbols, {.period_ns = 10000000});
//   write(path, jolt::cpu_profile::gzip_compress(pb));
//
// Symbolizer reads each module's ELF symbol table (.symtab, else .dynsym) on first use; names are
// demangled. Not thread-safe (one per writer).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jolt/cpu_profile/sampler.hpp"

namespace jolt::cpu_profile {

class Symbolizer {
 public:
  // One executable segment of a loaded module: a pprof Mapping.
  struct Segment {
    std::uintptr_t start = 0;  // page-aligned, as /proc/self/maps shows it
    std::uintptr_t limit = 0;
    std::uint64_t file_offset = 0;
    std::size_t module = 0;
  };
  struct Module {
    std::string path;      // absolute file name ("/proc/self/exe" resolved for the program)
    std::string build_id;  // lower-case hex GNU build id, empty when the module has none
    std::uintptr_t load_bias = 0;
  };
  struct Resolved {
    int segment = -1;         // index into segments(), -1 when no module holds the address
    std::string name;         // demangled function name, or "[module+0xoffset]"
    std::string system_name;  // the symbol as linked (mangled), or the same as name
  };

  Symbolizer();  // snapshots the modules loaded now (dl_iterate_phdr)
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  const std::vector<Module>& modules() const { return modules_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const Resolved& resolve(std::uintptr_t pc);

  struct SymbolTable;

 private:
  std::vector<Module> modules_;
  std::vector<Segment> segments_;
  std::map<std::size_t, std::unique_ptr<SymbolTable>> tables_;  // by module index
  std::map<std::uintptr_t, Resolved> cache_;
};

struct ProfileSpec {
  std::uint64_t period_ns = 0;    // CPU time one sample stands for (1e9 / hz)
  std::uint64_t duration_ns = 0;  // wall time the profile covers
  std::int64_t time_unix_ns = 0;  // when it started
  std::vector<std::string> comments;
};

// A profile.proto Profile with sample types samples/count and cpu/nanoseconds; identical stacks
// of one thread are one Sample (label "tid"). Uncompressed.
std::string encode_pprof(const std::vector<const RawSample*>& samples, Symbolizer& symbols,
                         const ProfileSpec& spec);

// gzip (RFC 1952) of `data`; throws std::runtime_error if zlib fails.
std::string gzip_compress(std::string_view data);

}  // namespace jolt::cpu_profile
