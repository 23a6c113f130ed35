// Which lookups prove a trace row's result: the table, the key formed from the row's operands,
// and the value the lookup must give for the row to be RV32IM-correct.
//
//   for (const LookupStep& s : lookups_for(row))
//     assert(table_value(s.table, 32, s.key) == s.expected);
//
// Exactly one step for every row that is a lookup: the ALU instructions, jumps and branches (the
// result or the branch condition), LW and SW (the RangeCheck of the address rs1 + imm, which
// wraps mod 2^32), and the virtual instructions of virtual sequences (virtual_sequences.hpp: the
// advice's range check, a shift's power of two or bit mask, the bit extraction of a shift right,
// and the assertions of a division block, expected 1); none for ECALL, FENCE, EBREAK and padding.
// Instructions that run as virtual sequences (SLL, SRL, SRA, MULH, MULHSU, DIV, DIVU, REM, REMU,
// LB, LBU, LH, LHU, SB, SH) are never rows of their own. `expected` comes from the tracer's row
// (rd after the row, the next PC, the accessed address) or is 1 for the assertions, never from
// the tables, so comparing the two tests the tables and the key formation against the tracer's
// execution. The steps are what each row of the lookup witness holds once the pipeline proves
// the results with instruction_lookups.hpp.
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

// At most one step. Throws std::invalid_argument for an opcode the tracer never records as a row
// of its own (always expanded into virtual sequences: see above).
std::vector<LookupStep> lookups_for(const TraceRow& row);

// The lookup witness of a trace: the step of every row that has one as one lookup cycle, in
// order (rows without a lookup are left out), padded to a power of two (at least 2) with
// no-lookup cycles (key 0, no table, RAF flag 0). `expected` (if given) receives each cycle's
// expected value (0 for padding): the results the R1CS side would claim.
struct InstructionLookupWitness;
InstructionLookupWitness lookup_witness_of(std::span<const TraceRow> rows,
                                           std::vector<std::uint64_t>* expected = nullptr);

}  // namespace jolt::prover::lookups
