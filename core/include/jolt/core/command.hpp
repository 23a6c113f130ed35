// Subcommand registry of the jolt-run executable. Each subcommand lives in its own source file
// (core/src/commands/<name>/) and registers itself at static-initialization time:
//
//   static const jolt::core::CommandRegistration kValidate{
//       "validate", "check a trace.json or summary.json", &run_validate};
//
// `jolt-run <name> args...` calls run(argc, argv) with argv[0] = "jolt-run <name>"; the return
// value is the process exit code. `profile` is the default when no subcommand is named.
//
// Every command parses its arguments with parse_options (below), not with po::store on its own:
//
//   po::variables_map vm;
//   parse_options(argc, argv, desc, vm);          // or (…, desc, vm, &positional)
#pragma once
#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace jolt::core {

// po::store(po::command_line_parser(argc, argv).options(desc)[.positional(*pos)].run(), vm), then
// refuses a negative number given to an option stored as an unsigned integer, which Boost reads
// modulo 2^N ("--scale -1" as 4294967295): throws po::error naming the option.
void parse_options(int argc, char** argv, const boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm,
                   const boost::program_options::positional_options_description* pos = nullptr);

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
