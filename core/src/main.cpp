// jolt-run: proves a named RISC-V workload, verifies it, and renders the run's profile through
// sink plugins. `jolt-run [profile] ...` is the default; `jolt-run --help` (or `help`, or no
// arguments) lists the commands, `jolt-run --version` prints the version and the built revision.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "jolt/core/build_info.hpp"
#include "jolt/core/command.hpp"

namespace {

void print_usage(std::ostream& out) {
  out << "usage: jolt-run [<command>] [options]\n"
         "       jolt-run --help | --version | help [<command>]\n\n"
         "commands (default: profile):\n";
  for (const auto& c : jolt::core::registered_commands())
    out << "  " << c.name << std::string(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ')
        << c.summary << "\n";
  out << "\n`jolt-run <command> --help` describes a command's options.\n";
}

bool is_help(const char* arg) {
  return std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0;
}

int call(const jolt::core::Command& cmd, int first, int argc, char** argv,
         const char* extra = nullptr) {
  std::string arg0 = "jolt-run " + cmd.name;
  std::vector<char*> args;
  args.push_back(arg0.data());
  for (int i = first; i < argc; ++i) args.push_back(argv[i]);
  std::string extra_arg = extra ? extra : "";
  if (extra) args.push_back(extra_arg.data());
  args.push_back(nullptr);
  return cmd.run(static_cast<int>(args.size() - 1), args.data());
}

// The prover's tables are hundreds of MiB of std::vector, faulted in 4 KiB pages and walked by
// the NTT and the sumchecks through as many TLB entries. glibc backs malloc with transparent
// huge pages when its tunable glibc.malloc.hugetlb=1 is set (THP in madvise mode, as Debian
// ships it, then applies to the heap), and reads tunables only at start-up: so jolt-run re-runs
// itself once with the tunable added. sha2-chain 2^18 proved in 16.1–16.7 s instead of
// 19.7–19.9 s with the same peak RSS (docs/performance.md). JOLT_HUGEPAGES=0 keeps the normal
// pages; a tunable set by the user is kept as it is; under valgrind (its preload library in
// LD_PRELOAD) nothing is re-run, since the re-run would leave the tool behind.
void rerun_with_huge_pages(char** argv) {
#if defined(__GLIBC__) && defined(__linux__)
  // The re-run itself: never again, even if the loader dropped the tunable.
  if (std::getenv("JOLT_HUGEPAGES_RERUN")) {
    unsetenv("JOLT_HUGEPAGES_RERUN");
    return;
  }
  const char* off = std::getenv("JOLT_HUGEPAGES");
  if (off && std::strcmp(off, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::strstr(preload, "vgpreload")) return;
  const std::string before = tunables ? tunables : "";
  const std::string with =
      before.empty() ? "glibc.malloc.hugetlb=1" : before + ":glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", with.c_str(), 1) != 0 || setenv("JOLT_HUGEPAGES_RERUN", "1", 1) != 0)
    return;
  execv("/proc/self/exe", argv);
  unsetenv("JOLT_HUGEPAGES_RERUN");
  // Not re-run (no /proc): go on with normal pages and leave the environment as it was.
  if (tunables)
    setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  rerun_with_huge_pages(argv);
  if (argc == 1 || is_help(argv[1])) {
    print_usage(std::cout);
    return 0;
  }
  if (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-V") == 0) {
    std::cout << "jolt-run " << jolt::core::version() << " (git " << jolt::core::git_revision()
              << ")\n";
    return 0;
  }
  std::string name = "profile";
  int first = 1;
  if (argv[1][0] != '-') {
    name = argv[1];
    first = 2;
  }
  if (name == "help") {
    if (argc == 2) {
      print_usage(std::cout);
      return 0;
    }
    // `jolt-run help <command>` is `jolt-run <command> --help`.
    if (const jolt::core::Command* cmd = jolt::core::find_command(argv[2]))
      return call(*cmd, argc, argc, argv, "--help");
    std::cerr << "jolt-run: unknown command '" << argv[2] << "'\n\n";
    print_usage(std::cerr);
    return 2;
  }
  const jolt::core::Command* cmd = jolt::core::find_command(name);
  if (!cmd) {
    std::cerr << "jolt-run: unknown command '" << name << "'\n\n";
    print_usage(std::cerr);
    return 2;
  }
  return call(*cmd, first, argc, argv);
}
