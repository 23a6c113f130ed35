// Public API of the prover engine: prove a statement about a padded RV32IM trace, verify it.
//
//   #include <jolt/prover/pipeline/prover.hpp>
//   using namespace jolt::prover;
//   Statement st{program_from_elf(elf), input_bytes, output_bytes, /*trace_length=*/cycles};
//   std::vector<TraceRow> rows = ...;                // tracer output, cycles rows
//   rows.resize(padded_trace_length(rows.size()));   // the padding rule (pipeline/padding.hpp)
//   std::vector<std::uint8_t> proof = prove(st, rows, ProverOptions{});
//   std::optional<VerifyError> e = verify(st, proof, VerifierConfig{});  // proof.size(): size
//   if (e) std::cerr << "rejected at " << e->check << ": " << e->message << "\n";
//
// prove() opens the root span `jolt_prover::prove` (arg trace_length) covering exactly the call;
// stages 0, 1, 2, 3, 4, 5, 6a, 6b, 7 and 8 open their `prove_stageN` stage spans (sdk
// taxonomy.hpp).
// prove() throws std::invalid_argument for malformed input (row count other than
// padded_trace_length(trace_length), a kNoop row before trace_length or a non-kNoop row after
// it) and std::logic_error if a prover self-check fails (the witness does not satisfy the
// statement, e.g. a row whose instruction is not in the program's bytecode).
// verify() never throws on malformed proofs; it names the failed check. The verifier's
// configuration, not the proof, fixes the commitment scheme and its parameters, and the
// statement fixes log T: a proof whose header differs is rejected ("proof.header.*").
// Both are thread-safe for distinct arguments; parallelism is TBB inside the stages, bounded by
// ProverOptions::num_threads. Proofs are byte-identical for any thread count.
//
// What is proved (docs/prover-design.md §11, the statement and its soundness error): the
// committed columns satisfy the uniform RV32IM R1CS, the product constraints and the shift
// relations; every row's PC, immediate, flags and register indices are a bytecode entry the
// verifier decodes from the program (or the padding row, exactly at t >= trace_length); cycle 0
// starts at the entry; every instruction result (ALU, comparisons and so branch outcomes, jump
// targets, load/store addresses) follows the RV32IM semantics and every register value is a
// 32-bit word; register and RAM reads return the value last written, from the reset state and
// from the initial image the verifier builds from the ELF and the input; the output region holds
// the claimed output; the last real cycle is an ECALL that exits with a7 = 0, a0 = 0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/pipeline/padding.hpp>
#include <jolt/prover/pipeline/program.hpp>
#include <jolt/prover/tracer/trace_row.hpp>
#include <jolt/prover/verify_error.hpp>

namespace jolt::prover {

struct Statement {
  Program program;  // program_from_elf(elf): digest, entry, bytecode
  std::vector<std::uint8_t> inputs;
  std::vector<std::uint8_t> outputs;
  std::uint64_t trace_length = 0;  // real (unpadded) cycles
};

// Which sumcheck kernels prove the stages: the optimized ones, or the naive expression kernels
// they are tested against (the reference; today that changes stage 1, the outer Spartan
// sumcheck, whose optimized kernel streams its row rounds where the reference builds the full
// eq, Az and Bz tables: 3·64 field elements per cycle). Both give byte-identical proofs.
enum class ProverBackend { kOptimized, kReference };
std::string_view backend_name(ProverBackend b);  // "optimized", "reference"
std::optional<ProverBackend> parse_backend(std::string_view name);

struct ProverOptions {
  PcsKind pcs = default_pcs_kind();
  ProverBackend backend = ProverBackend::kOptimized;
  std::size_t num_threads = 0;  // 0 = TBB default (all cores)
  bool self_check = true;       // prover-side checks (debugging aid; off only in tests)
  // Called on the proving thread as each stage starts: its index into
  // jolt::taxonomy::kEmittedStageSpans and its label (progress reporting; may be empty).
  std::function<void(std::size_t stage, std::string_view label)> on_stage;
};

// The statement's program digest: BLAKE2b-256 of the guest ELF image.
std::vector<std::uint8_t> program_digest(std::span<const std::uint8_t> elf);

std::vector<std::uint8_t> prove(const Statement& statement, std::span<const TraceRow> padded_rows,
                                const ProverOptions& options = {});

// What the verifier fixes before it reads a proof: the commitment scheme (with the parameters
// make_commitment_scheme(pcs) gives it). log T comes from the statement's trace_length.
struct VerifierConfig {
  PcsKind pcs = default_pcs_kind();
};

// nullopt when the proof is valid for the statement under the configuration; otherwise the
// check that failed, e.g. "proof.header.pcs", "stage1.sumcheck.round_sum", "stage3.padding",
// "pcs.ligero.merkle".
std::optional<VerifyError> verify(const Statement& statement, std::span<const std::uint8_t> proof,
                                  const VerifierConfig& config = {});

// The prover's peak resident memory when proving 2^log_rows padded rows with `pcs`, from the
// memory model fitted to measured peaks (docs/prover-design.md §11, "Memory model"): a fixed part
// plus bytes per padded row. An estimate for planning (profile's pre-flight check), not a bound.
struct MemoryEstimate {
  std::uint64_t fixed_bytes = 0;
  std::uint64_t bytes_per_row = 0;
  std::uint64_t peak_bytes(unsigned log_rows) const;
};
// The reference backend adds its stage-1 tables (eq, Az, Bz: 3·64 field elements per row) to
// the fit, as if they coexisted with the scheme's peak (an overestimate by at most that peak).
MemoryEstimate estimate_prover_memory(PcsKind pcs,
                                      ProverBackend backend = ProverBackend::kOptimized);

// Testing seam: prove from explicit committed columns (r1cs::extract_columns layout), e.g. a
// deliberately inconsistent witness with options.self_check = false.
std::vector<std::uint8_t> prove_columns(const Statement& statement,
                                        std::vector<std::vector<Fr>> columns,
                                        const ProverOptions& options = {});

}  // namespace jolt::prover
