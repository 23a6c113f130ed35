// The subcommand registry behind `jolt-run <command>`.
#include "jolt/core/command.hpp"

#include <algorithm>

namespace jolt::core {
namespace {
std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}
}  // namespace

CommandRegistration::CommandRegistration(const char* name, const char* summary, CommandFn fn) {
  registry().push_back(Command{name, summary, fn});
  std::sort(registry().begin(), registry().end(),
            [](const Command& a, const Command& b) { return a.name < b.name; });
}

const std::vector<Command>& registered_commands() {
  return registry();
}

const Command* find_command(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace jolt::core
