// Which lookups prove a trace row's result: the table, the key formed from the row's operands,
// and the value the lookup must give for the row to be RV32IM-correct.
//
//   for (const LookupStep& s : lookups_for(row))
//     assert(table_value(s.table, 32, s.key) == s.expected);
//
// One step per row for the ALU instructions, jumps and branches (the result or the branch
// condition); two for shifts by a register (the shift's power of two or bit mask, then the
// product or the bit extraction), four for DIVU and REMU (the quotient and remainder the prover
// supplies, checked by MulUNoOverflow, ValidUnsignedRemainder, ValidDiv0 and the RangeCheck of
// q·d + r); none for loads, stores, ECALL, FENCE and padding. `expected` comes from the tracer's
// row (rd after the row, the next PC) or is 1 for the checks, never from the tables, so
// comparing the two tests the tables and the key formation against the tracer's execution.
// The steps are what each row of the lookup witness will hold once the pipeline proves the
// results with instruction_lookups.hpp; rows needing two or four steps will then be virtual
// sequences of one lookup each.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include <jolt/prover/lookups/instruction_tables.hpp>
#include <jolt/prover/tracer/trace_row.hpp>

namespace jolt::prover::lookups {

struct LookupStep {
  LookupTable table;
  std::uint64_t key;
  std::uint64_t expected;
};

// Throws std::invalid_argument for an opcode the tracer never records as a row of its own
// (MULH, MULHSU, DIV, REM: always expanded into virtual sequences).
std::vector<LookupStep> lookups_for(const TraceRow& row);

// The lookup witness of a trace: every step of every row as one lookup cycle, in order, padded
// to a power of two (at least 2) with no-lookup cycles (key 0, no table, RAF flag 0). `expected`
// (if given) receives each cycle's expected value (0 for padding): the results the R1CS side
// would claim.
struct InstructionLookupWitness;
InstructionLookupWitness lookup_witness_of(std::span<const TraceRow> rows,
                                           std::vector<std::uint64_t>* expected = nullptr);

}  // namespace jolt::prover::lookups
