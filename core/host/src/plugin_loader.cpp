// Plugin discovery, ABI checks and loading with Boost.DLL.
#include "jolt/host/plugin_loader.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <boost/filesystem.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

namespace fs = boost::filesystem;

namespace jolt::host {

const char* plugin_kind_name(std::uint32_t kind) {
  switch (kind) {
    case JOLT_PLUGIN_WORKLOAD:
      return "workload";
    case JOLT_PLUGIN_SINK:
      return "sink";
    default:
      return "unknown";
  }
}

LoadedPlugin::LoadedPlugin(std::shared_ptr<boost::dll::shared_library> lib,
                           const jolt_plugin_descriptor* desc, std::string path)
    : lib_(std::move(lib)), desc_(desc), path_(std::move(path)) {}

namespace {

void add_dir(std::vector<std::string>& dirs, const fs::path& p) {
  boost::system::error_code ec;
  if (p.empty() || !fs::is_directory(p, ec)) return;
  std::string s = fs::weakly_canonical(p, ec).string();
  if (ec) s = p.string();
  for (const auto& d : dirs)
    if (d == s) return;
  dirs.push_back(s);
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos;
}

// dlopen maps a shared library's PT_LOAD segments straight from the file; a segment that
// reaches past the end of a truncated file is mapped anyway and the first touch of it raises
// SIGBUS inside the dynamic loader. So check the ELF header and program headers against the
// file size first, and refuse a file that cannot be a complete shared library for this host.
void check_elf_fits(const std::string& path) {
  auto bad = [&](const std::string& why) {
    return PluginError("cannot load '" + path + "': " + why +
                       " — is it a complete shared library built for this machine?");
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw bad(std::string("cannot open it: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw bad(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw bad("not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  ElfW(Ehdr) eh{};
  if (size < sizeof(eh) || ::pread(fd, &eh, sizeof(eh), 0) != static_cast<ssize_t>(sizeof(eh)))
    throw bad("the file is " + std::to_string(size) + " bytes, shorter than an ELF header");
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) throw bad("not an ELF file");
#if __SIZEOF_POINTER__ == 8
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) throw bad("not a 64-bit ELF file");
#else
  if (eh.e_ident[EI_CLASS] != ELFCLASS32) throw bad("not a 32-bit ELF file");
#endif
  if (eh.e_type != ET_DYN)
    throw bad("not a shared library (ELF type " + std::to_string(eh.e_type) + ")");
  if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0)
    throw bad("malformed ELF program header table");
  const std::uint64_t ph_end =
      static_cast<std::uint64_t>(eh.e_phoff) + std::uint64_t{eh.e_phnum} * eh.e_phentsize;
  if (ph_end > size)
    throw bad("truncated: its program headers end at byte " + std::to_string(ph_end) +
              " but the file has " + std::to_string(size) + " bytes");
  std::vector<ElfW(Phdr)> ph(eh.e_phnum);
  const auto ph_bytes = static_cast<ssize_t>(ph.size() * sizeof(ElfW(Phdr)));
  if (::pread(fd, ph.data(), static_cast<std::size_t>(ph_bytes), static_cast<off_t>(eh.e_phoff)) !=
      ph_bytes)
    throw bad(std::string("cannot read its program headers: ") + std::strerror(errno));
  for (const auto& h : ph) {
    if (h.p_type != PT_LOAD && h.p_type != PT_DYNAMIC) continue;
    const std::uint64_t end = static_cast<std::uint64_t>(h.p_offset) + h.p_filesz;
    if (end < h.p_offset || end > size)
      throw bad("truncated: a loadable segment ends at byte " + std::to_string(end) +
                " but the file has " + std::to_string(size) + " bytes");
  }
}

// Boost.DLL's alias `jolt_plugin_descriptor` is a data symbol holding a pointer to the getter
// function. A library that exports a *function* of that name would have its machine code read
// as that pointer and called; check the symbol's kind and where the pointer leads first.
void check_descriptor_alias(const std::string& path, void* handle) {
  auto bad = [&](const std::string& why) {
    return PluginError("'" + path + "' exports jolt_plugin_descriptor " + why +
                       "; define the plugin with JOLT_DEFINE_SINK_PLUGIN or "
                       "JOLT_DEFINE_WORKLOAD_PLUGIN from <jolt/plugin.hpp>");
  };
  void* sym = ::dlsym(handle, "jolt_plugin_descriptor");
  if (!sym) throw bad("but it cannot be resolved");
  Dl_info info{};
  void* entry_raw = nullptr;
  if (::dladdr1(sym, &info, &entry_raw, RTLD_DL_SYMENT) == 0 || !entry_raw)
    throw bad("but its symbol table entry cannot be read");
  const auto* entry = static_cast<const ElfW(Sym)*>(entry_raw);
#if __SIZEOF_POINTER__ == 8
  const unsigned type = ELF64_ST_TYPE(entry->st_info);
#else
  const unsigned type = ELF32_ST_TYPE(entry->st_info);
#endif
  if (type == STT_FUNC || type == STT_GNU_IFUNC) throw bad("as a function, not as a pointer");
  if (type != STT_OBJECT || entry->st_size < sizeof(void*))
    throw bad("with a symbol that is not a pointer variable");
  void* getter = nullptr;
  std::memcpy(&getter, sym, sizeof(getter));
  Dl_info target{};
  if (!getter || ::dladdr(getter, &target) == 0 || target.dli_fbase != info.dli_fbase)
    throw bad("as a pointer that does not lead to a function in the same library");
}

}  // namespace

PluginLoader::PluginLoader(std::vector<std::string> extra_dirs) {
  for (const auto& d : extra_dirs) add_dir(dirs_, d);
  if (const char* env = std::getenv("JOLT_PLUGIN_PATH")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ':')) add_dir(dirs_, item);
  }
  boost::system::error_code ec;
  fs::path exe_dir = boost::dll::program_location(ec).parent_path();
  if (!ec) {
    add_dir(dirs_, exe_dir / ".." / "plugins");  // build tree: build/bin, build/plugins
    add_dir(dirs_, exe_dir / ".." / "lib" / "jolt-run" / "plugins");  // installed layout
  }
  add_dir(dirs_, JOLT_PLUGIN_BUILD_DIR);
  add_dir(dirs_, JOLT_PLUGIN_INSTALL_DIR);
}

LoadedPlugin PluginLoader::load_file(const std::string& path) const {
  boost::system::error_code ec;
  if (!fs::exists(path, ec))
    throw PluginError("plugin file '" + path +
                      "' does not exist; check the path or use a bare name "
                      "(see `jolt-run --list-plugins`)");
  check_elf_fits(path);
  auto lib = std::make_shared<boost::dll::shared_library>();
  lib->load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec) {
    const char* why = dlerror();
    throw PluginError("cannot load '" + path + "': " + (why ? std::string(why) : ec.message()) +
                      " — is it a shared library built for this machine?");
  }
  if (!lib->has("jolt_plugin_descriptor"))
    throw PluginError(
        "'" + path +
        "' is not a jolt-run plugin: it exports no jolt_plugin_descriptor "
        "(define one with JOLT_DEFINE_SINK_PLUGIN or JOLT_DEFINE_WORKLOAD_PLUGIN from "
        "<jolt/plugin.hpp>)");
  check_descriptor_alias(path, lib->native());
  auto getter = lib->get_alias<const jolt_plugin_descriptor*()>("jolt_plugin_descriptor");
  const jolt_plugin_descriptor* desc = getter();
  if (!desc) throw PluginError("'" + path + "': its jolt_plugin_descriptor returned null");
  constexpr std::size_t kMinSize =
      offsetof(jolt_plugin_descriptor, destroy) + sizeof(desc->destroy);
  if (desc->abi_major != jolt::kAbiMajor)
    throw PluginError("'" + path + "' was built for plugin ABI " + std::to_string(desc->abi_major) +
                      "." + std::to_string(desc->abi_minor) + ", but this jolt-run expects ABI " +
                      std::to_string(jolt::kAbiMajor) + ".x; rebuild the plugin against this SDK");
  if (desc->struct_size < kMinSize)
    throw PluginError("'" + path + "' has a plugin descriptor of " +
                      std::to_string(desc->struct_size) + " bytes, expected at least " +
                      std::to_string(kMinSize) + "; rebuild the plugin against this SDK");
  if (!desc->name || !desc->create || !desc->destroy)
    throw PluginError("'" + path +
                      "' has an incomplete plugin descriptor (name/create/destroy missing)");
  return LoadedPlugin(std::move(lib), desc, path);
}

LoadedPlugin PluginLoader::load(const std::string& name_or_path,
                                std::uint32_t expected_kind) const {
  std::string path;
  if (looks_like_path(name_or_path)) {
    path = name_or_path;
  } else {
    const std::string file = name_or_path.size() > 3 && name_or_path.ends_with(".so")
                                 ? name_or_path
                                 : "lib" + name_or_path + ".so";
    for (const auto& d : dirs_) {
      boost::system::error_code ec;
      fs::path candidate = fs::path(d) / file;
      if (fs::exists(candidate, ec)) {
        path = candidate.string();
        break;
      }
    }
    // No such file: a plugin whose descriptor has that name (what --list-plugins shows), first
    // in search order.
    if (path.empty())
      for (const auto& l : list())
        if (l.problem.empty() && l.name == name_or_path &&
            (expected_kind == 0 || l.kind == plugin_kind_name(expected_kind))) {
          path = l.path;
          break;
        }
    if (path.empty()) {
      std::vector<std::string> names;
      for (const auto& l : list())
        if (l.problem.empty() && (expected_kind == 0 || l.kind == plugin_kind_name(expected_kind)))
          names.push_back(l.name);
      throw PluginError(
          std::string("unknown ") + plugin_kind_name(expected_kind) + " '" + name_or_path +
          "': no " + file + " in " + (dirs_.empty() ? "(no plugin folders)" : join(dirs_, ", ")) +
          "; available " + plugin_kind_name(expected_kind) +
          "s: " + (names.empty() ? "(none)" : join(names, ", ")) +
          ". Pass a path to a .so, or add its folder with --plugin-path / JOLT_PLUGIN_PATH");
    }
  }
  LoadedPlugin p = load_file(path);
  if (expected_kind != 0 && p.descriptor().kind != expected_kind) {
    const std::string found = plugin_kind_name(p.descriptor().kind);
    throw PluginError("'" + path + "' is " +
                      (found == "unknown"
                           ? "a plugin of unknown kind " + std::to_string(p.descriptor().kind)
                           : "a " + found + " plugin") +
                      " ('" + p.name() + "'), but a " + plugin_kind_name(expected_kind) +
                      " plugin was expected here");
  }
  return p;
}

SinkSpec parse_sink_spec(const std::string& arg) {
  SinkSpec spec{arg, {}};
  // Where the options start: after a bare name's first ':' (a bare name holds no ':' or '/'), or
  // after a path's first ".so:" (folder names may hold ':'); values may hold ':' and '/', as in
  // endpoint=http://h:4318. Only when an '=' follows.
  auto colon = arg.find(':');
  if (colon != std::string::npos && arg.find('/') < colon) {
    const auto so = arg.find(".so:");
    colon = so == std::string::npos ? std::string::npos : so + 3;
  }
  if (colon == std::string::npos || arg.find('=', colon) == std::string::npos) return spec;
  spec.plugin = arg.substr(0, colon);
  if (spec.plugin.empty())
    throw PluginError("--sink " + arg + ": no sink name before ':' (expected NAME:key=value,...)");
  const std::string opts = arg.substr(colon + 1);
  std::size_t start = 0;
  while (start <= opts.size()) {
    const auto comma = opts.find(',', start);
    const std::string pair =
        opts.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      throw PluginError("--sink " + arg + ": option '" + pair +
                        "' is not key=value (expected NAME:key=value,key2=value2)");
    if (!spec.options.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second)
      throw PluginError("--sink " + arg + ": option '" + pair.substr(0, eq) + "' is given twice");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

std::vector<PluginListing> PluginLoader::list() const {
  std::vector<PluginListing> out;
  std::set<std::string> seen;
  for (const auto& d : dirs_) {
    boost::system::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string fname = it->path().filename().string();
      if (fname.starts_with("lib") && fname.ends_with(".so")) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      const std::string fname = f.filename().string();
      if (!seen.insert(fname).second) continue;
      PluginListing l;
      l.path = f.string();
      try {
        LoadedPlugin p = load_file(l.path);
        l.name = p.name();
        l.kind = plugin_kind_name(p.descriptor().kind);
        l.description = p.descriptor().description ? p.descriptor().description : "";
      } catch (const PluginError& e) {
        l.problem = e.what();
      }
      out.push_back(std::move(l));
    }
  }
  return out;
}

}  // namespace jolt::host
