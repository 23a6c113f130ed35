// Turning --workload / --elf / --input / --scale into a GuestJob, shared by every subcommand
// that runs a guest (profile, prove, verify, trace).
#pragma once
#include <memory>
#include <optional>
#include <string>

#include <jolt/workload.hpp>

#include "jolt/host/pipeline.hpp"
#include "jolt/host/plugin_loader.hpp"

namespace jolt::host {

inline constexpr std::uint32_t kMaxScale = 40;

struct JobSpec {
  std::string workload;  // bare name or path to lib<name>.so
  std::string elf;       // --elf PATH (ad-hoc workload)
  std::string input;     // --input FILE (with --elf)
  std::optional<std::uint32_t> scale;
  std::optional<std::uint64_t> max_cycles;  // --max-cycles
};

struct LoadedJob {
  GuestJob job;
  std::uint32_t scale = 0;
  std::shared_ptr<jolt::Workload> workload;  // keeps the plugin loaded while the job lives
};

// Throws PluginError / PipelineError with a message naming the flag, file or plugin.
LoadedJob load_job(const PluginLoader& loader, const JobSpec& spec);

// "--scale {s} out of range: expected a log2 trace length in 1..=40"
void validate_scale(std::uint32_t scale);

}  // namespace jolt::host
