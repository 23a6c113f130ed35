// Options shared by the commands that run a guest: --workload/--name, --elf, --input, --scale,
// --plugin-path, --log-level.
#pragma once
#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands/profile/job.hpp"

namespace jolt::core {

struct GuestOptions {
  JobSpec spec;
  std::uint32_t scale = 0;
  std::uint64_t max_cycles = 0;
  std::vector<std::string> plugin_paths;
  std::string log_level;

  void add_to(boost::program_options::options_description& desc);
  // Call after notify(): copies --scale into spec.scale when it was given.
  void finish(const boost::program_options::variables_map& vm);

  // Parses argv (which must include these options and "help") into vm. Returns the exit code
  // when the command should stop now — 0 after printing --help, 2 after a bad flag, both named
  // after `command` — and nullopt when the command should run.
  std::optional<int> parse(const char* command,
                           const boost::program_options::options_description& desc, int argc,
                           char** argv, boost::program_options::variables_map& vm);
};

}  // namespace jolt::core
