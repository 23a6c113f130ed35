// The subcommand registry behind `jolt-run <command>`.
#include "jolt/core/command.hpp"

#include <algorithm>
#include <string>
#include <typeinfo>

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

void parse_options(int argc, char** argv, const boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm,
                   const boost::program_options::positional_options_description* pos) {
  namespace po = boost::program_options;
  po::command_line_parser parser(argc, argv);
  parser.options(desc);
  if (pos) parser.positional(*pos);
  const po::parsed_options parsed = parser.run();
  po::store(parsed, vm);
  for (const po::option& o : parsed.options) {
    if (o.string_key.empty() || vm.count(o.string_key) == 0) continue;
    const std::type_info& t = vm[o.string_key].value().type();
    const bool is_unsigned = t == typeid(unsigned char) || t == typeid(unsigned short) ||
                             t == typeid(unsigned int) || t == typeid(unsigned long) ||
                             t == typeid(unsigned long long);
    if (!is_unsigned) continue;
    for (const std::string& v : o.value) {
      const std::size_t first = v.find_first_not_of(" \t");
      if (first != std::string::npos && v[first] == '-')
        throw po::error("--" + o.string_key + " takes a number of 0 or more (got '" + v + "')");
    }
  }
}

const Command* find_command(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace jolt::core
