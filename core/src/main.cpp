// jolt-run: proves a named RISC-V workload, verifies it, and renders the run's profile through
// sink plugins. `jolt-run [profile] ...` is the default; `jolt-run --help` (or `help`, or no
// arguments) lists the commands, `jolt-run --version` prints the version and the built revision.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "jolt/core/build_info.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/huge_pages.hpp"
#include "jolt/host/subprocess.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  jolt::host::end_with_parent();            // a sweep's child ends with the sweep
  jolt::core::rerun_with_huge_pages(argv);  // glibc.malloc.hugetlb=1 (huge_pages.hpp)
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
