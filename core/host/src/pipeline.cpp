// The measured pipeline: trace the guest, check its output, pad, prove (measured), verify.
#include "jolt/host/pipeline.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/tracer/tracer.hpp>
#include <new>

namespace jolt::host {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time of the whole process so far, ns (0 if the clock is unavailable).
std::uint64_t process_cpu_ns() {
  timespec ts{};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

std::string describe(const std::optional<prover::VerifyError>& e) {
  return e ? "rejected at " + e->check + ": " + e->message : std::string("ok");
}

prover::ElfImage load(const GuestJob& job) {
  try {
    return prover::load_elf(job.elf);
  } catch (const prover::ElfError& e) {
    throw PipelineError("guest ELF of '" + job.workload + "': " + e.what());
  }
}

// How many cycles a guest may run, and where that number comes from (for the error message).
struct CycleBound {
  std::uint64_t cycles;
  std::string source;
};

CycleBound cycle_bound(const GuestJob& job, std::uint32_t log2_length) {
  const std::uint64_t by_scale = log2_length >= 40 ? (1ull << 40) : (1ull << log2_length);
  if (job.max_cycles != 0 && job.max_cycles <= by_scale)
    return {job.max_cycles, "--max-cycles " + std::to_string(job.max_cycles)};
  return {by_scale, "2^" + std::to_string(log2_length) + " cycles from --scale " +
                        std::to_string(log2_length)};
}

// Runs `f`; a std::bad_alloc inside becomes a PipelineError naming what was being allocated.
template <class F>
auto allocating(const std::string& what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw PipelineError("out of memory while " + what +
                        "; use a smaller --scale (or --max-cycles) or free memory");
  }
}

prover::Execution run_guest(const GuestJob& job, const prover::ElfImage& image, bool record,
                            const CycleBound& bound) {
  try {
    return allocating(
        record ? "recording the trace rows of guest '" + job.workload + "' (~" +
                     std::to_string(sizeof(prover::TraceRow)) + " bytes per cycle, up to " +
                     std::to_string(bound.cycles) + " cycles)"
               : "running guest '" + job.workload + "'",
        [&] {
          return prover::execute(image, job.input, prover::ExecOptions{record, bound.cycles});
        });
  } catch (const prover::GuestFault& e) {
    if (e.cycle() >= bound.cycles) {
      // --max-cycles only lowers the bound the scale sets.
      const bool by_flag = bound.source.starts_with("--max-cycles");
      std::string what = "guest '" + job.workload + "' ran " + std::to_string(bound.cycles) +
                         " cycles without exiting, the bound (" + bound.source +
                         "); a guest that needs more needs a larger " +
                         (by_flag ? "--max-cycles or --scale" : "--scale") +
                         " (`jolt-run trace` shows the length it needs)";
      // A workload's input grows with the scale by its cycles_per_op(): when that number is too
      // small, every scale runs out so.
      if (job.checker && !by_flag) {
        char per_op[32];
        std::snprintf(per_op, sizeof per_op, "%g", job.checker->cycles_per_op());
        what += std::string("; if every scale ends so, the workload's cycles_per_op() (") + per_op +
                ") understates the trace rows one op takes, so its input outgrows every scale";
      }
      throw PipelineError(what);
    }
    throw PipelineError("guest '" + job.workload + "' faulted: " + e.what());
  } catch (const prover::ElfError& e) {
    throw PipelineError("guest '" + job.workload + "' cannot run: " + e.what());
  }
}

// Exit status and workload output check; returns "ok" or throws.
void check_execution(const GuestJob& job, const prover::Execution& ex) {
  if (ex.exit_code != 0)
    throw PipelineError("guest '" + job.workload + "' exited with status " +
                        std::to_string(ex.exit_code) + " after " + std::to_string(ex.cycles) +
                        " cycles (0 = success)");
  if (job.checker) {
    jolt::Status st = job.checker->check_output(job.checker_input, ex.output);
    if (!st) throw PipelineError("output check of '" + job.workload + "' failed: " + st.message);
  }
}

std::uint32_t log2_exact(std::uint64_t t) {
  std::uint32_t k = 0;
  while ((1ull << k) < t) ++k;
  return k;
}

// rows: the recorded trace's rows (cycles plus virtual-sequence rows).
void check_fits(const GuestJob& job, std::uint64_t rows, std::uint32_t scale) {
  const std::uint64_t t = prover::padded_length(rows);
  if (t > (1ull << scale))
    throw PipelineError("'" + job.workload + "' ran " + std::to_string(rows) +
                        " trace rows, which pads to 2^" + std::to_string(log2_exact(t)) + " > 2^" +
                        std::to_string(scale) + "; use --scale " + std::to_string(log2_exact(t)) +
                        " or more");
}

}  // namespace

prover::Statement statement_for(const GuestJob& job, std::uint64_t trace_length,
                                std::vector<std::uint8_t> output) {
  return prover::Statement{prover::program_from_image(load(job), prover::program_digest(job.elf)),
                           job.input, std::move(output), trace_length};
}

TraceReport trace_job(const GuestJob& job, std::uint32_t max_log2_length) {
  TraceReport r;
  const prover::ElfImage image = load(job);
  const CycleBound limit = cycle_bound(job, max_log2_length);
  auto t0 = Clock::now();
  prover::Execution fast = run_guest(job, image, false, limit);
  auto t1 = Clock::now();
  prover::Execution rec = run_guest(job, image, true, limit);
  auto t2 = Clock::now();
  r.cycles = fast.cycles;
  r.trace_rows = fast.trace_rows;
  r.padded_length = prover::padded_length(fast.trace_rows);
  r.seconds_unrecorded = std::chrono::duration<double>(t1 - t0).count();
  r.seconds_recorded = std::chrono::duration<double>(t2 - t1).count();
  r.exit_code = fast.exit_code;
  r.output = fast.output;
  try {
    check_execution(job, fast);
    r.check_ok = true;
    r.check = job.checker ? "ok (matches the host computation)" : "ok (exit status 0)";
  } catch (const PipelineError& e) {
    r.check = e.what();
  }
  return r;
}

ProveReport prove_job(const GuestJob& job, std::uint32_t scale,
                      const std::function<void()>& before_prove,
                      const std::function<void()>& after_prove, prover::PcsKind pcs,
                      const std::function<void(std::size_t, std::string_view)>& on_stage,
                      prover::ProverBackend backend) {
  const prover::ElfImage image = load(job);
  // A guest that runs past 2^scale cycles cannot fit; stop it there instead of tracing forever.
  prover::Execution ex = run_guest(job, image, true, cycle_bound(job, scale));
  check_execution(job, ex);
  check_fits(job, ex.rows.size(), scale);
  const std::uint64_t cycles = ex.rows.size();
  allocating("padding the trace to 2^" + std::to_string(log2_exact(prover::padded_length(cycles))) +
                 " rows",
             [&] { prover::pad_trace(ex.rows); });
  const prover::Statement st = statement_for(job, cycles, ex.output);

  ProveReport r;
  r.trace_length = cycles;
  r.output = ex.output;
  r.padded_length = ex.rows.size();
  before_prove();
  const auto t0 = Clock::now();
  const std::uint64_t cpu0 = process_cpu_ns();
  try {
    prover::ProverOptions options;
    options.pcs = pcs;
    options.backend = backend;
    options.on_stage = on_stage;
    r.proof = allocating("proving " + std::to_string(ex.rows.size()) + " trace rows",
                         [&] { return prover::prove(st, ex.rows, options); });
  } catch (...) {
    after_prove();
    throw;
  }
  const std::uint64_t cpu1 = process_cpu_ns();
  const auto t1 = Clock::now();
  after_prove();
  r.prove_time_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
  r.prove_cpu_time_ns = cpu1 >= cpu0 ? cpu1 - cpu0 : 0;
  ex.rows.clear();
  ex.rows.shrink_to_fit();

  // Verify as `jolt-run verify` does: from the program, the input and the prover's claims.
  const prover::Statement claimed = statement_for(job, r.trace_length, r.output);
  const auto v = allocating("verifying the proof", [&] {
    return prover::verify(claimed, r.proof, prover::VerifierConfig{pcs});
  });
  r.verified = !v;
  r.verify_message = describe(v);
  if (v)
    throw PipelineError("the proof of '" + job.workload + "' did not verify (" + r.verify_message +
                        ")");
  return r;
}

ProveReport verify_job(const GuestJob& job, std::uint32_t scale, std::uint64_t trace_length,
                       std::span<const std::uint8_t> output, std::span<const std::uint8_t> proof,
                       prover::PcsKind pcs) {
  const std::uint64_t bound = 1ull << scale;
  if (trace_length >= bound || prover::padded_length(trace_length) > bound)
    throw PipelineError("the proof claims a trace of " + std::to_string(trace_length) +
                        " cycles, which does not fit 2^" + std::to_string(scale) +
                        " padded rows (--scale " + std::to_string(scale) + ")");
  const prover::Statement st =
      statement_for(job, trace_length, std::vector<std::uint8_t>(output.begin(), output.end()));
  ProveReport r;
  r.trace_length = trace_length;
  r.padded_length = prover::padded_length(trace_length);
  r.output.assign(output.begin(), output.end());
  r.proof.assign(proof.begin(), proof.end());
  const auto v = allocating("verifying the proof",
                            [&] { return prover::verify(st, proof, prover::VerifierConfig{pcs}); });
  r.verified = !v;
  r.verify_message = describe(v);
  return r;
}

}  // namespace jolt::host
