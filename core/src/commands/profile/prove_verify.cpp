// `jolt-run prove --proof FILE` and `jolt-run verify --proof FILE`: keep proofs on disk and check
// them later. A truncated or corrupt file is reported by the verifier's named check.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <jolt/atomic_file.hpp>
#include <string_view>

#include "commands/profile/common_options.hpp"
#include "commands/profile/pipeline.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/logging.hpp"
#include "jolt/core/run_directory.hpp"

namespace po = boost::program_options;

namespace jolt::core {
namespace {

int parse(const char* name, int argc, char** argv, GuestOptions& g, std::string& proof_path,
          po::variables_map& vm) {
  po::options_description desc(std::string("jolt-run ") + name + ": " +
                               (std::string(name) == "prove"
                                    ? "prove a workload and write the proof to a file"
                                    : "check a proof file against a workload") +
                               "\nusage: jolt-run " + name +
                               " --workload NAME [--scale s] [--pcs NAME] --proof FILE\noptions");
  desc.add_options()("help,h", "show this help")("proof", po::value(&proof_path), "the proof file");
  g.add_to(desc);
  g.add_pcs_to(desc);
  if (auto rc = g.parse(name, desc, argc, argv, vm)) return *rc;
  if (proof_path.empty()) {
    std::cerr << "jolt-run " << name << ": --proof FILE is required\n";
    return 2;
  }
  return -1;
}

int run_prove(int argc, char** argv) {
  GuestOptions g;
  std::string proof_path;
  po::variables_map vm;
  if (int rc = parse("prove", argc, argv, g, proof_path, vm); rc >= 0) return rc;
  try {
    configure_logging(g.log_level);
    PluginLoader loader(g.plugin_paths);
    LoadedJob job = load_job(loader, g.spec);
    ProveReport r = prove_job(
        job.job, job.scale, [] {}, [] {}, g.pcs);
    if (jolt::Status st = jolt::write_file_atomically(
            proof_path,
            std::string_view(reinterpret_cast<const char*>(r.proof.data()), r.proof.size()));
        !st)
      throw RunError(st.message);
    std::printf("proved %s (2^%u, %llu cycles) in %.2fs; proof %zu bytes -> %s (verified)\n",
                job.job.workload.c_str(), job.scale,
                static_cast<unsigned long long>(r.trace_length),
                static_cast<double>(r.prove_time_ns) / 1e9, r.proof.size(), proof_path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run prove: error: " << e.what() << "\n";
    return 1;
  }
}

int run_verify(int argc, char** argv) {
  GuestOptions g;
  std::string proof_path;
  po::variables_map vm;
  if (int rc = parse("verify", argc, argv, g, proof_path, vm); rc >= 0) return rc;
  try {
    configure_logging(g.log_level);
    std::ifstream in(proof_path, std::ios::binary);
    if (!in)
      throw PipelineError("--proof " + proof_path + ": cannot open the file (does it exist?)");
    std::vector<std::uint8_t> proof((std::istreambuf_iterator<char>(in)), {});
    PluginLoader loader(g.plugin_paths);
    LoadedJob job = load_job(loader, g.spec);
    ProveReport r = verify_job(job.job, job.scale, proof, g.pcs);
    if (!r.verified) {
      std::cerr << "jolt-run verify: REJECTED " << proof_path << ": " << r.verify_message << "\n";
      return 1;
    }
    std::printf("verified %s (2^%u, %llu cycles): %s is a valid proof\n", job.job.workload.c_str(),
                job.scale, static_cast<unsigned long long>(r.trace_length), proof_path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run verify: error: " << e.what() << "\n";
    return 1;
  }
}

const CommandRegistration kProve{"prove", "prove a workload and write the proof to a file",
                                 &run_prove};
const CommandRegistration kVerify{"verify", "check a proof file against a workload", &run_verify};

}  // namespace
}  // namespace jolt::core
