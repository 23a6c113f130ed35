// Subcommand registry of the jolt-run executable. Each subcommand lives in its own source file
// (core/src/commands/<name>/) and registers itself at static-initialization time:
//
//   static const jolt::core::CommandRegistration kValidate{
//       "validate", "check a trace.json or summary.json", &run_validate};
//
// `jolt-run <name> args...` calls run(argc, argv) with argv[0] = "jolt-run <name>"; the return
// value is the process exit code. `profile` is the default when no subcommand is named.
#pragma once
#include <string>
#include <vector>

namespace jolt::core {

using CommandFn = int (*)(int argc, char** argv);

struct Command {
  std::string name;
  std::string summary;
  CommandFn run = nullptr;
};

struct CommandRegistration {
  CommandRegistration(const char* name, const char* summary, CommandFn fn);
};

const std::vector<Command>& registered_commands();
const Command* find_command(const std::string& name);

}  // namespace jolt::core
