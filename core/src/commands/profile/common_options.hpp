// Options shared by the commands that run a guest: --workload/--name, --elf, --input, --scale,
// --plugin-path, --log-level; --pcs for the commands that prove or verify, --backend for those
// that prove.
#pragma once
#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/pipeline/prover.hpp>

#include "jolt/host/job.hpp"

namespace jolt::core {

struct GuestOptions {
  host::JobSpec spec;
  std::uint32_t scale = 0;
  std::uint64_t max_cycles = 0;
  std::vector<std::string> plugin_paths;
  std::string log_level;
  std::string pcs_name;  // --pcs, empty: jolt::prover::default_pcs_kind()
  jolt::prover::PcsKind pcs = jolt::prover::default_pcs_kind();  // set by finish()
  std::string backend_name;                                      // --backend, empty: optimized
  jolt::prover::ProverBackend backend = jolt::prover::ProverBackend::kOptimized;  // by finish()

  void add_to(boost::program_options::options_description& desc);
  // --pcs NAME (profile, prove, verify).
  void add_pcs_to(boost::program_options::options_description& desc);
  // --backend optimized|reference (profile, legacy profile, prove).
  void add_backend_to(boost::program_options::options_description& desc);
  // Call after notify(): copies --scale into spec.scale when it was given and resolves --pcs and
  // --backend (an unknown name throws boost::program_options::error naming the known ones).
  void finish(const boost::program_options::variables_map& vm);

  // Parses argv (which must include these options and "help") into vm. Returns the exit code
  // when the command should stop now — 0 after printing --help, 2 after a bad flag, both named
  // after `command` — and nullopt when the command should run.
  std::optional<int> parse(const char* command,
                           const boost::program_options::options_description& desc, int argc,
                           char** argv, boost::program_options::variables_map& vm);
};

}  // namespace jolt::core
