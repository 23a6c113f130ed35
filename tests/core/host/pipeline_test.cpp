// The guest pipeline's errors name the bound a guest ran into and what would lift it.
#include <doctest/doctest.h>

#include <jolt/host/pipeline.hpp>
#include <jolt/workload.hpp>
#include <string>

#include "../../prover/tracer/rv32_asm.hpp"

namespace {

// A workload whose guest never exits: whatever rows per op it claims, it outruns every scale.
class Endless final : public jolt::Workload {
 public:
  std::uint32_t default_scale() const noexcept override { return 10; }
  std::uint32_t min_scale() const noexcept override { return 4; }
  double cycles_per_op() const noexcept override { return 2.5; }
  std::span<const std::uint8_t> guest_elf() const noexcept override { return elf_; }
  jolt::Status make_input(std::uint32_t, jolt::WorkloadInput*) const noexcept override {
    return {};
  }
  jolt::Status check_output(const jolt::WorkloadInput&,
                            std::span<const std::uint8_t>) const noexcept override {
    return {};
  }

 private:
  std::vector<std::uint8_t> elf_ = rv32::make_elf({rv32::jal(0, 0)});  // `j .`
};

std::string trace_error(const jolt::host::GuestJob& job, std::uint32_t scale) {
  try {
    (void)jolt::host::trace_job(job, scale);
  } catch (const jolt::host::PipelineError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(
    "a guest that outruns its bound: the remedy that lifts it, and a workload's rows per op") {
  const Endless workload;
  jolt::host::GuestJob job;
  job.workload = "endless";
  job.elf.assign(workload.guest_elf().begin(), workload.guest_elf().end());
  job.checker = &workload;
  const std::string by_scale = trace_error(job, 10);
  INFO(by_scale);
  CHECK(by_scale.find("ran 1024 cycles without exiting, the bound (2^10 cycles from --scale 10); "
                      "a guest that needs more needs a larger --scale (") != std::string::npos);
  CHECK(by_scale.find("the workload's cycles_per_op() (2.5) understates the trace rows one op "
                      "takes") != std::string::npos);
  // --max-cycles lowers the bound: raising it (up to the scale's) or the scale lifts it, and the
  // workload's number is not the cause.
  job.max_cycles = 100;
  const std::string by_flag = trace_error(job, 10);
  INFO(by_flag);
  CHECK(by_flag.find("the bound (--max-cycles 100); a guest that needs more needs a larger "
                     "--max-cycles or --scale") != std::string::npos);
  CHECK(by_flag.find("cycles_per_op") == std::string::npos);
  // An --elf guest has no workload to blame.
  job.max_cycles = 0;
  job.checker = nullptr;
  const std::string elf = trace_error(job, 10);
  INFO(elf);
  CHECK(elf.find("needs a larger --scale (") != std::string::npos);
  CHECK(elf.find("cycles_per_op") == std::string::npos);
}
