// Public API of the prover engine: prove a statement about a padded RV32IM trace, verify it.
//
//   #include <jolt/prover/pipeline/prover.hpp>
//   using namespace jolt::prover;
//   Statement st{program_digest, input_bytes, output_bytes, /*trace_length=*/rows_unpadded};
//   std::vector<TraceRow> rows = ...;               // tracer output, padded to a power of two
//   rows.resize(padded_trace_length(rows.size()));  // padding rows are TraceRow{} (kNoop)
//   std::vector<std::uint8_t> proof = prove(st, rows, ProverOptions{});
//   VerifyResult v = verify(st, proof);             // proof.size() is the proof_size
//   if (!v.ok) std::cerr << v.check << ": " << v.message << "\n";
//
// prove() opens the root span `jolt_prover::prove` (arg trace_length) covering exactly the call;
// stages 0, 1, 2, 3 and 8 open their `prove_stageN` stage spans (see sdk taxonomy.hpp).
// prove() throws std::invalid_argument for malformed input (row count not a power of two ≥ 4,
// trace_length > rows, a kNoop row before trace_length or a non-kNoop row after it) and
// std::logic_error if a prover self-check fails (the witness does not satisfy the statement).
// verify() never throws on malformed proofs; it names the failed check.
// Both are thread-safe for distinct arguments; parallelism is TBB inside the stages, bounded by
// ProverOptions::num_threads. Proofs are byte-identical for any thread count.
//
// What M1 proves (reference §8): the committed per-cycle columns derived from the rows satisfy
// the uniform RV32IM R1CS (RAM address, lookup operands, instruction inputs, rd writes, PC update,
// flag booleanity), the product constraints and the shift relations (Next* = next row), and the
// padding pattern matches trace_length. Columns are not yet tied to the program's bytecode or to
// lookup-table semantics (M2–M5).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <jolt/prover/pcs/scheme.hpp>
#include <jolt/prover/tracer/trace_row.hpp>

namespace jolt::prover {

struct Statement {
  std::vector<std::uint8_t> program_digest;  // any length (e.g. a 32-byte hash of the ELF)
  std::vector<std::uint8_t> inputs;
  std::vector<std::uint8_t> outputs;
  std::uint64_t trace_length = 0;  // real (unpadded) cycles
};

struct ProverOptions {
  PcsKind pcs = default_pcs_kind();
  std::size_t num_threads = 0;  // 0 = TBB default (all cores)
  bool self_check = true;       // prover-side checks (debugging aid; off only in tests)
};

// Smallest power of two ≥ max(4, n + 1): always leaves at least one padding row.
std::size_t padded_trace_length(std::size_t n);

std::vector<std::uint8_t> prove(const Statement& statement, std::span<const TraceRow> padded_rows,
                                const ProverOptions& options = {});

struct VerifyResult {
  bool ok = false;
  std::string check;    // which check failed, e.g. "stage1.sumcheck", "stage8.pcs"
  std::string message;  // details
  explicit operator bool() const { return ok; }
};

VerifyResult verify(const Statement& statement, std::span<const std::uint8_t> proof);

// Testing seam: prove from explicit committed columns (m1::extract_columns layout), e.g. a
// deliberately inconsistent witness with options.self_check = false.
std::vector<std::uint8_t> prove_columns(const Statement& statement,
                                        std::vector<std::vector<Fr>> columns,
                                        const ProverOptions& options = {});

}  // namespace jolt::prover
