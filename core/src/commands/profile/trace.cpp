// `jolt-run trace`: run a workload's guest (or your own ELF) and report cycles, padded length,
// interpreter speed and the output check — how users size workloads before profiling.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <new>

#include "commands/profile/common_options.hpp"
#include "jolt/core/command.hpp"
#include "jolt/core/logging.hpp"
#include "jolt/host/pipeline.hpp"

namespace po = boost::program_options;

namespace jolt::core {
namespace {

int run_trace(int argc, char** argv) {
  GuestOptions g;
  po::options_description desc(
      "jolt-run trace: run a guest and report its cycles, padded trace length, speed and output "
      "check\n"
      "usage: jolt-run trace --workload NAME [--scale s] | --elf PATH [--input FILE]\noptions");
  desc.add_options()("help,h", "show this help");
  g.add_to(desc);
  po::variables_map vm;
  if (auto rc = g.parse("trace", desc, argc, argv, vm)) return *rc;
  try {
    configure_logging(g.log_level);
    host::PluginLoader loader(g.plugin_paths);
    host::LoadedJob job = host::load_job(loader, g.spec);
    // An --elf guest is bounded by its --scale (default 20): a program that never exits must
    // not run, and record ~56 bytes a cycle, for hours. A workload's input is sized by its
    // scale, so it may run to 2^40 to show how far past 2^scale it goes.
    host::TraceReport r =
        host::trace_job(job.job, g.spec.elf.empty() ? host::kMaxScale : job.scale);
    std::uint32_t log_t = 0;
    while ((1ull << log_t) < r.padded_length) ++log_t;
    std::printf("workload:        %s (scale %u, %llu ops, %zu input bytes)\n",
                job.job.workload.c_str(), job.scale, static_cast<unsigned long long>(job.job.ops),
                job.job.input.size());
    std::printf("cycles:          %llu\n", static_cast<unsigned long long>(r.cycles));
    if (r.trace_rows != r.cycles)
      std::printf("trace rows:      %llu (SRA, MULH, MULHSU, DIV, REM run as virtual sequences)\n",
                  static_cast<unsigned long long>(r.trace_rows));
    std::printf("padded length:   %llu (2^%u)%s\n",
                static_cast<unsigned long long>(r.padded_length), log_t,
                log_t > job.scale ? "  -- exceeds 2^scale: the profile run would be refused" : "");
    std::printf(
        "speed:           %.1f M instr/s unrecorded, %.1f M instr/s recording rows\n",
        r.seconds_unrecorded > 0 ? static_cast<double>(r.cycles) / r.seconds_unrecorded / 1e6 : 0.0,
        r.seconds_recorded > 0 ? static_cast<double>(r.cycles) / r.seconds_recorded / 1e6 : 0.0);
    std::printf("exit status:     %u\n", r.exit_code);
    std::printf("output:          %zu bytes\n", r.output.size());
    std::printf("check:           %s\n", r.check.c_str());
    return r.check_ok ? 0 : 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "jolt-run trace: error: out of memory (outside the trace stages, which name "
                 "their allocation); use a smaller --scale or free memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "jolt-run trace: error: " << e.what() << "\n";
    return 1;
  }
}

const CommandRegistration kTrace{"trace", "run a guest and report cycles, padded length and speed",
                                 &run_trace};

}  // namespace
}  // namespace jolt::core
