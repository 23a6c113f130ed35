// Shared guest options of profile / prove / verify / trace.
#include "commands/profile/common_options.hpp"

#include <boost/filesystem.hpp>
#include <iostream>

#include "jolt/core/command.hpp"

namespace po = boost::program_options;

namespace jolt::core {

void GuestOptions::add_to(po::options_description& desc) {
  desc.add_options()("workload,w", po::value(&spec.workload),
                     "workload plugin: bare name (fibonacci, sha2-chain, ...) or path to a .so")(
      "name", po::value(&spec.workload), "alias of --workload (the original's flag)")(
      "elf", po::value(&spec.elf),
      "run your own RV32IM ELF instead of a workload (exit status 0 = success)")(
      "input", po::value(&spec.input), "input bytes for --elf")(
      "scale", po::value(&scale),
      "log2 of the maximum padded trace length (default: the workload's; 20 for --elf); also "
      "bounds how many cycles a guest may run")(
      "max-cycles", po::value(&max_cycles),
      "stop a guest after this many cycles (default: 2^scale; `trace --workload` allows 2^40)")(
      "plugin-path", po::value(&plugin_paths)->composing(),
      "extra folder searched for plugins (repeatable)")(
      "log-level", po::value(&log_level),
      "trace|debug|info|warn|error|off (default: env JOLT_LOG, else RUST_LOG when it is one of "
      "these "
      "levels, else info)");
}

void GuestOptions::add_pcs_to(po::options_description& desc) {
  desc.add_options()("pcs", po::value(&pcs_name),
                     ("commitment scheme: reveal|ligero|basefold (default: " +
                      std::string(jolt::prover::pcs_name(jolt::prover::default_pcs_kind())) +
                      "); the verifier accepts only proofs made with this scheme")
                         .c_str());
}

void GuestOptions::add_backend_to(po::options_description& desc) {
  desc.add_options()("backend", po::value(&backend_name),
                     "optimized|reference (default: optimized): reference proves with the naive "
                     "expression kernels the optimized ones are tested against (same proof, "
                     "slower, more memory); its runs are named ..._reference");
}

std::optional<int> GuestOptions::parse(const char* command, const po::options_description& desc,
                                       int argc, char** argv, po::variables_map& vm) {
  try {
    parse_options(argc, argv, desc, vm);
    po::notify(vm);
    finish(vm);
  } catch (const po::error& e) {
    std::cerr << "jolt-run " << command << ": " << e.what() << "\n(see `jolt-run " << command
              << " --help`)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  return std::nullopt;
}

void GuestOptions::finish(const po::variables_map& vm) {
  if (vm.count("workload") && vm.count("name"))
    throw po::error("--name is an alias of --workload: pass one of them");
  for (const std::string& d : plugin_paths)
    if (boost::system::error_code ec; !boost::filesystem::is_directory(d, ec))
      throw po::error("--plugin-path '" + d +
                      "' is not a folder: pass the folder that holds the plugin .so files (a "
                      "single plugin file can be given to --workload or --sink as a path)");
  if (vm.count("scale")) spec.scale = scale;
  if (vm.count("max-cycles")) spec.max_cycles = max_cycles;
  if (!pcs_name.empty()) {
    const auto kind = jolt::prover::parse_pcs_kind(pcs_name);
    if (!kind)
      throw po::error("unknown commitment scheme '" + pcs_name +
                      "' for --pcs (known: reveal, ligero, basefold)");
    pcs = *kind;
  }
  if (!backend_name.empty()) {
    const auto b = jolt::prover::parse_backend(backend_name);
    if (!b)
      throw po::error("unknown prover backend '" + backend_name +
                      "' for --backend (known: optimized, reference)");
    backend = *b;
  }
}

}  // namespace jolt::core
