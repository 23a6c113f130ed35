// `jolt-run prove --proof FILE` and `jolt-run verify --proof FILE`: keep proofs on disk and check
// them later. The file (proof_file.hpp) records the workload, scale, claimed trace length and
// claimed output next to the proof; `verify` builds its statement from the program, the input and
// those claims and never runs the guest. A file for another workload or scale is reported as a
// mismatch, a malformed envelope by what is wrong with it, a corrupt proof by the verifier's
// named check.
#include <unistd.h>

#include <boost/filesystem.hpp>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <jolt/atomic_file.hpp>
#include <jolt/taxonomy.hpp>
#include <string_view>

#include "commands/profile/common_options.hpp"
#include "commands/profile/preflight.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/logging.hpp"
#include "jolt/core/run_directory.hpp"
#include "jolt/host/pipeline.hpp"
#include "jolt/host/progress.hpp"
#include "jolt/host/proof_file.hpp"

namespace po = boost::program_options;

namespace jolt::core {
namespace {

int parse(const char* name, int argc, char** argv, GuestOptions& g, std::string& proof_path,
          bool& quiet, PreflightOptions& preflight, po::variables_map& vm) {
  po::options_description desc(
      std::string("jolt-run ") + name + ": " +
      (std::string(name) == "prove" ? "prove a workload and write the proof to a file"
                                    : "check a proof file against a workload") +
      "\nusage: jolt-run " + name +
      " --workload NAME|--elf PATH [--scale s] [--pcs NAME] --proof FILE\noptions");
  desc.add_options()("help,h", "show this help")("proof", po::value(&proof_path), "the proof file");
  if (std::string(name) == "prove") {
    desc.add_options()("quiet,q", po::bool_switch(&quiet),
                       "no progress line while proving (the result line is still printed)");
    preflight.add_to(desc);
    g.add_backend_to(desc);
  }
  g.add_to(desc);
  g.add_pcs_to(desc);
  if (auto rc = g.parse(name, desc, argc, argv, vm)) return *rc;
  if (proof_path.empty()) {
    std::cerr << "jolt-run " << name << ": --proof FILE is required\n";
    return 2;
  }
  return -1;
}

// The proof file names the workload and scale it was made for; verifying it as another one is a
// mismatch, said as such (the statement would differ, and the verifier would only name the first
// check that notices). With --elf the program digest binds the ELF's bytes, so the file stem the
// proof records as its workload is not compared.
void check_claims_match(const std::string& path, const host::ProofFile& file,
                        const host::LoadedJob& job, const GuestOptions& g) {
  const bool same_workload = !g.spec.elf.empty() || file.workload == job.job.workload;
  if (same_workload && file.scale == job.scale) return;
  std::string hint;
  if (file.scale != job.scale)
    hint = g.spec.scale ? "; pass --scale " + std::to_string(file.scale) + " to verify it"
                        : " (the default scale, no --scale given); pass --scale " +
                              std::to_string(file.scale) + " to verify it";
  throw host::PipelineError("proof file " + path + " is for workload '" + file.workload +
                            "' at scale " + std::to_string(file.scale) + "; you asked to verify '" +
                            job.job.workload + "' at scale " + std::to_string(job.scale) + hint);
}

// Before proving: the proof file's folder exists and takes a new file, so a typo in --proof is
// found now rather than after the prove.
void check_proof_destination(const std::string& path) {
  const boost::filesystem::path p = boost::filesystem::absolute(path);
  boost::system::error_code ec;
  if (boost::filesystem::is_directory(p, ec))
    throw RunError("--proof " + path + " is a folder; give the path of the file to write");
  const boost::filesystem::path dir = p.parent_path();
  if (!boost::filesystem::is_directory(dir, ec))
    throw RunError("--proof " + path + ": the folder " + dir.string() +
                   " does not exist; create it or choose another path");
  if (::access(dir.c_str(), W_OK) != 0)
    throw RunError("--proof " + path + ": the folder " + dir.string() +
                   " is not writable; choose another path");
}

int run_prove(int argc, char** argv) {
  GuestOptions g;
  std::string proof_path;
  bool quiet = false;
  PreflightOptions preflight;
  po::variables_map vm;
  if (int rc = parse("prove", argc, argv, g, proof_path, quiet, preflight, vm); rc >= 0) return rc;
  try {
    configure_logging(g.log_level);
    check_proof_destination(proof_path);
    host::PluginLoader loader(g.plugin_paths);
    host::LoadedJob job = host::load_job(loader, g.spec);
    if (auto why = preflight_memory(preflight, job.job.workload, job.scale, g.pcs, g.backend))
      throw host::PipelineError(*why);
    // The progress line as in `profile`, without an estimate: prove keeps no run directory.
    host::ProveProgress progress(host::ProveProgress::mode_for(quiet),
                                 jolt::taxonomy::kEmittedStageSpans.size(), {});
    host::ProveReport r = host::prove_job(
        job.job, job.scale, [] {}, [] {}, g.pcs,
        [&](std::size_t k, std::string_view label) { progress.stage(k, label); }, g.backend);
    progress.finish();
    const std::vector<std::uint8_t> file = host::encode_proof_file(
        host::ProofFile{job.job.workload, job.scale, r.trace_length, r.output, r.proof});
    if (jolt::Status st = jolt::write_file_atomically(
            proof_path, std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
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
  bool quiet = false;
  PreflightOptions unused_preflight;  // verify proves nothing
  po::variables_map vm;
  if (int rc = parse("verify", argc, argv, g, proof_path, quiet, unused_preflight, vm); rc >= 0)
    return rc;
  try {
    configure_logging(g.log_level);
    host::ProofFileResult read = host::read_proof_file(proof_path);
    if (!read.file) throw host::PipelineError(read.error);
    const host::ProofFile& file = *read.file;
    host::PluginLoader loader(g.plugin_paths);
    host::LoadedJob job = host::load_job(loader, g.spec);
    check_claims_match(proof_path, file, job, g);
    host::ProveReport r =
        host::verify_job(job.job, job.scale, file.trace_length, file.output, file.proof, g.pcs);
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
