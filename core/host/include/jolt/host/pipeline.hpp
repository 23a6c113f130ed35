// The measured pipeline behind `jolt-run profile|prove|verify|trace`: run the guest, check its
// output, pad the trace, prove (measured), verify. The glue between the workload plugin, the
// tracer and the prover engine. Verifying never runs the guest: the statement comes from the
// program, its input and the prover's claims (statement_for).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/workload.hpp>

namespace jolt::host {

class PipelineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A guest program and its input: from a workload plugin, or an ad-hoc --elf run.
struct GuestJob {
  std::string workload;                     // name used for trace_name and reports
  std::vector<std::uint8_t> elf;            // RV32IM ELF image
  std::vector<std::uint8_t> input;          // input region bytes
  std::uint64_t ops = 0;                    // what the scale mapped to (0 for --elf)
  const jolt::Workload* checker = nullptr;  // checks the output; null: exit status 0 suffices
  jolt::WorkloadInput checker_input;
  std::uint64_t max_cycles = 0;  // --max-cycles: bound on guest execution; 0 = 2^scale
};

struct TraceReport {
  std::uint64_t cycles = 0;         // executed instructions
  std::uint64_t trace_rows = 0;     // unpadded trace length: cycles plus virtual-sequence rows
  std::uint64_t padded_length = 0;  // T
  double seconds_unrecorded = 0;    // execution time without recording rows
  double seconds_recorded = 0;      // execution time with recording
  std::uint32_t exit_code = 0;
  std::vector<std::uint8_t> output;
  std::string check;  // "ok" or why the check failed
  bool check_ok = false;
};

struct ProveReport {
  std::uint64_t trace_length = 0;  // unpadded
  std::uint64_t padded_length = 0;
  std::uint64_t prove_time_ns = 0;
  // CPU time the whole process used during the prove (all threads, CLOCK_PROCESS_CPUTIME_ID; the
  // recorder and the monitor included when they run). prove_cpu_time_ns / prove_time_ns is the
  // prove's parallel speedup: 2.0 = both of two cores busy throughout.
  std::uint64_t prove_cpu_time_ns = 0;
  std::vector<std::uint8_t> output;  // the claimed public output of the guest
  std::vector<std::uint8_t> proof;
  bool verified = false;
  std::string verify_message;  // "ok" or "rejected at <check>: <message>"
};

// Traces the job (twice: unrecorded for speed, recorded for rows) and reports. Execution stops
// with a PipelineError naming the bound after job.max_cycles cycles, or 2^max_log2_length when
// that is 0. Running out of memory is a PipelineError naming what was being allocated (as in
// prove_job and verify_job).
TraceReport trace_job(const GuestJob& job, std::uint32_t max_log2_length);

// The statement a proof of `job` is about, given the prover's claims: the program decoded from
// job.elf (digest, entry, bytecode; a malformed ELF throws PipelineError naming it), its input and
// the claimed trace length and output. The one place a prover::Statement is built:
// prove_job proves it, and prove_job and verify_job verify against it.
prover::Statement statement_for(const GuestJob& job, std::uint64_t trace_length,
                                std::vector<std::uint8_t> output);

// Traces (at most min(job.max_cycles, 2^scale) cycles), checks, pads; then runs `before_prove`, the
// measured prove, `after_prove`, then the verifier on the statement rebuilt from the claims
// (report.trace_length, report.output) as `verify_job` builds it. Throws PipelineError with a clear
// message on guest fault, failed check, trace too long for the scale, or a failed verification
// (after filling `report`). `pcs` is the commitment scheme the prover uses and the verifier is
// configured for; `backend` the prover's kernels (the proof is the same either way).
ProveReport prove_job(
    const GuestJob& job, std::uint32_t scale, const std::function<void()>& before_prove,
    const std::function<void()>& after_prove,
    jolt::prover::PcsKind pcs = jolt::prover::default_pcs_kind(),
    const std::function<void(std::size_t, std::string_view)>& on_stage = {},
    jolt::prover::ProverBackend backend = jolt::prover::ProverBackend::kOptimized);

// Verifies `proof` against statement_for(job, trace_length, output) without running the guest
// (job.max_cycles plays no part). Throws PipelineError when the ELF does not load or the claimed
// trace length does not fit 2^scale; a proof the verifier rejects fills report.verify_message.
ProveReport verify_job(const GuestJob& job, std::uint32_t scale, std::uint64_t trace_length,
                       std::span<const std::uint8_t> output, std::span<const std::uint8_t> proof,
                       jolt::prover::PcsKind pcs = jolt::prover::default_pcs_kind());

}  // namespace jolt::host
