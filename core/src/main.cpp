// jolt-run: proves a named RISC-V workload, verifies it, and renders the run's profile through
// sink plugins. `jolt-run [profile] ...` is the default; `jolt-run help` lists subcommands.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "jolt/core/command.hpp"

namespace {

void print_usage() {
  std::cout << "usage: jolt-run [<command>] [options]\n\n"
               "commands (default: profile):\n";
  for (const auto& c : jolt::core::registered_commands())
    std::cout << "  " << c.name << std::string(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ')
              << c.summary << "\n";
  std::cout << "\n`jolt-run <command> --help` describes a command's options.\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string name = "profile";
  int first = 1;
  if (argc > 1 && argv[1][0] != '-') {
    name = argv[1];
    first = 2;
  }
  if (name == "help" ||
      (argc == 2 && std::strcmp(argv[1], "--help") == 0 && !jolt::core::find_command("profile"))) {
    print_usage();
    return 0;
  }
  const jolt::core::Command* cmd = jolt::core::find_command(name);
  if (!cmd) {
    std::cerr << "jolt-run: unknown command '" << name << "'\n\n";
    print_usage();
    return 2;
  }
  std::string arg0 = "jolt-run " + name;
  std::vector<char*> args;
  args.push_back(arg0.data());
  for (int i = first; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  return cmd->run(static_cast<int>(args.size() - 1), args.data());
}
