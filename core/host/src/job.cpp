// GuestJob construction from plugins or ad-hoc ELF files.
#include "jolt/host/job.hpp"

#include <boost/filesystem.hpp>
#include <fstream>
#include <iterator>

namespace jolt::host {

void validate_scale(std::uint32_t scale) {
  if (scale < 1 || scale > kMaxScale)
    throw PipelineError(
        "--scale " + std::to_string(scale) +
        " out of range: expected a log2 trace length in 1..=" + std::to_string(kMaxScale));
}

namespace {
std::vector<std::uint8_t> read_file(const std::string& path, const char* flag) {
  if (boost::system::error_code ec; boost::filesystem::is_directory(path, ec))
    throw PipelineError(std::string(flag) + " " + path + " is a folder; pass a file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw PipelineError(std::string(flag) + " " + path + ": cannot open the file (does it exist?)");
  std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) throw PipelineError(std::string(flag) + " " + path + ": read error");
  return bytes;
}
}  // namespace

LoadedJob load_job(const PluginLoader& loader, const JobSpec& spec) {
  LoadedJob out;
  if (spec.max_cycles) {
    if (*spec.max_cycles < 1 || *spec.max_cycles > (1ull << kMaxScale))
      throw PipelineError("--max-cycles " + std::to_string(*spec.max_cycles) +
                          " out of range: expected 1..=2^" + std::to_string(kMaxScale));
    out.job.max_cycles = *spec.max_cycles;
  }
  if (!spec.elf.empty()) {
    if (!spec.workload.empty()) throw PipelineError("give either --workload or --elf, not both");
    out.job.elf = read_file(spec.elf, "--elf");
    if (!spec.input.empty()) out.job.input = read_file(spec.input, "--input");
    // The file's stem names the run (".elf" alone has an empty stem: its name then).
    const boost::filesystem::path elf_path(spec.elf);
    out.job.workload =
        elf_path.stem().empty() ? elf_path.filename().string() : elf_path.stem().string();
    out.scale = spec.scale.value_or(20);
    validate_scale(out.scale);
    return out;
  }
  if (spec.workload.empty())
    throw PipelineError(
        "no workload: pass --workload NAME (e.g. fibonacci, sha2-chain) or --elf PATH; "
        "`jolt-run --list-plugins` lists the installed ones");
  if (!spec.input.empty())
    throw PipelineError("--input goes with --elf; a workload plugin makes its own input");
  LoadedPlugin plugin = loader.load(spec.workload, JOLT_PLUGIN_WORKLOAD);
  out.workload = plugin.create<jolt::Workload>();
  out.job.workload = plugin.name();
  out.scale = spec.scale.value_or(out.workload->default_scale());
  validate_scale(out.scale);
  auto elf = out.workload->guest_elf();
  out.job.elf.assign(elf.begin(), elf.end());
  jolt::Status st = out.workload->make_input(out.scale, &out.job.checker_input);
  if (!st)
    throw PipelineError("workload '" + out.job.workload + "' at --scale " +
                        std::to_string(out.scale) + ": " + st.message);
  out.job.input = out.job.checker_input.bytes;
  out.job.ops = out.job.checker_input.ops;
  out.job.checker = out.workload.get();
  return out;
}

}  // namespace jolt::host
