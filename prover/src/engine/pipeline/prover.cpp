// The staged prover: stage 0 commit, 1 outer Spartan, 2 products and RAM read/write checking
// (with its RAF evaluation and output check), 3 shift + entry PC + exit, 4 register read/write
// checking and RAM's Val check, 5 timestamp range check, the instruction read-raf (instruction
// results) and RAM's RA virtualization, 6a/6b the bytecode read-raf (address rounds, then RA
// rounds) and the instruction key bits, 7 claim reduction, 8 joint opening.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <array>
#include <atomic>
#include <functional>
#include <jolt/heap.hpp>
#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/spartan_outer.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/eq_weighted_kernel.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/sumcheck/session.hpp>
#include <jolt/taxonomy.hpp>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "pipeline/fraction_tree.hpp"
#include "pipeline/protocol.hpp"

namespace jolt::prover {

namespace {

using r1cs::kNumColumns;

constexpr KernelLabels kProductLabels = {"ProductVirtualization::prepare",
                                         "ProductVirtualization::prove_round",
                                         "ProductVirtualization::finish_rounds"};
constexpr KernelLabels kShiftLabels = {"SpartanShift::prepare", "SpartanShift::prove_round",
                                       "SpartanShift::finish_rounds"};
constexpr KernelLabels kEntryLabels = {"EntryPC::prepare", "EntryPC::prove_round",
                                       "EntryPC::finish_rounds"};
constexpr KernelLabels kExitLabels = {"ExitCycle::prepare", "ExitCycle::prove_round",
                                      "ExitCycle::finish_rounds"};
constexpr KernelLabels kRegisterLayerLabels = {"RegisterFractionLayer::prepare",
                                               "RegisterFractionLayer::prove_round",
                                               "RegisterFractionLayer::finish_rounds"};
constexpr KernelLabels kRangeLayerLabels = {"TimestampRangeFractionLayer::prepare",
                                            "TimestampRangeFractionLayer::prove_round",
                                            "TimestampRangeFractionLayer::finish_rounds"};
constexpr KernelLabels kReductionLabels = {"ColumnClaimReduction::prepare",
                                           "ColumnClaimReduction::prove_round",
                                           "ColumnClaimReduction::finish_rounds"};

// Session state passed between stages.
struct Witness : jolt::HeapReportable {
  WitnessColumns columns;  // each in its narrowest width (witness_columns.hpp)
  std::size_t log_t = 0;
  bool self_check = true;
  std::vector<TraceRow> table;                 // the bytecode table (program.hpp)
  std::vector<std::uint32_t> entry_index;      // per row: its bytecode table entry
  unsigned index_bits = 0;                     // m = bytecode_index_bits(table size)
  WitnessColumns index_bit_columns;            // m columns, bit b = the index's bit m − 1 − b
  lookups::InstructionLookupWitness lookups;   // per cycle: key, table, RAF flag
  WitnessColumns key_bit_columns;              // 64 columns, bit b = the key's bit 63 − b
  std::vector<memory::RamRegion> ram_regions;  // the RAM layout's regions (in the proof)
  memory::RamLayout ram_layout;
  protocol::RamPublic ram_public;  // the image and the final words the statement fixes
  memory::RamWitness ram;          // per cycle: access, compact address, values
  WitnessColumns ram_bit_columns;  // ℓK columns, bit b = the compact address's bit ℓK − 1 − b
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "Witness");
    v.bytes("columns", columns.bytes() + index_bit_columns.bytes() + key_bit_columns.bytes() +
                           ram_bit_columns.bytes());
    v.bytes("ram", ram.cycles.capacity() * sizeof(memory::RamAccess));
    v.bytes("entry_index", entry_index.capacity() * sizeof(std::uint32_t));
    v.bytes("lookups", lookups.keys.capacity() * sizeof(std::uint64_t) + lookups.tables.capacity() +
                           lookups.raf.capacity());
  }
};

// The committed columns as one batch, in protocol order: the committed trace columns, the key
// bits, the index bits, then the RAM address bits. A view: the witness must outlive it.
class CommittedColumns final : public PolynomialBatch {
 public:
  explicit CommittedColumns(const Witness& w) : length_(w.columns.length()) {
    for (std::uint32_t c : protocol::committed_trace_columns()) cols_.push_back(&w.columns[c]);
    for (std::size_t b = 0; b < w.key_bit_columns.size(); ++b)
      cols_.push_back(&w.key_bit_columns[b]);
    for (std::size_t b = 0; b < w.index_bit_columns.size(); ++b)
      cols_.push_back(&w.index_bit_columns[b]);
    for (std::size_t b = 0; b < w.ram_bit_columns.size(); ++b)
      cols_.push_back(&w.ram_bit_columns[b]);
  }
  std::span<const WitnessColumn* const> columns() const { return cols_; }
  std::size_t num_polys() const override { return cols_.size(); }
  std::size_t table_size() const override { return length_; }
  void read(std::size_t i, std::size_t begin, std::span<Fr> out) const override {
    cols_[i]->read(begin, out);
  }
  void accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                  std::span<Fr> acc) const override {
    cols_[i]->accumulate(begin, coeff, acc);
  }
  std::span<const Fr> view(std::size_t i) const override { return cols_[i]->field_entries(); }
  bool read_bits(std::size_t i, std::size_t begin, std::span<std::uint8_t> out) const override {
    return cols_[i]->read_bits(begin, out);
  }

 private:
  std::vector<const WitnessColumn*> cols_;
  std::size_t length_;
};
struct Stage1Out {
  std::vector<Fr> r1;  // cycle point
  std::vector<Fr> v1;  // every column at r1
};
struct Stage2Out {
  std::vector<Fr> r2;
  std::vector<Fr> v2;            // product factor columns at r2
  memory::RamReadWriteStep ram;  // RAM read/write checking's point
};
struct Stage3Out {
  std::vector<Fr> r3;
  std::vector<Fr> v3;  // shift_columns() at r3
};
struct Stage4Out {
  std::vector<Fr> r4;         // low log T variables of the leaf point
  std::vector<Fr> v4;         // register_columns() at r4
  std::vector<Fr> r_ram_val;  // RAM Val check's cycle point
};
struct Stage5Out {
  std::vector<Fr> r5;
  std::vector<Fr> v5;  // range_columns() at r5
  lookups::InstructionReadRafProverOutput read_raf;
  std::vector<Fr> v_lookup;  // lookup_flag_columns() at read_raf.r_cycle
  std::vector<Fr> r_ram;     // RAM RA virtualization's point: the address bits, Load, Store
};
struct Stage6aOut {
  std::vector<protocol::ClaimSet> claims;  // stages 1–5's claims, by point
  std::vector<lookups::BytecodeClaimGroup> groups;
  std::vector<Fr> r_addr;
};
struct Stage6bOut {
  std::vector<Fr> r_bits;
  std::vector<Fr> bits;  // the index bits at r_bits
  std::vector<Fr> r_key;
  std::vector<Fr> key_bits;  // the key bits at r_key
};
struct Stage7Out {
  std::vector<Fr> r7;
  std::vector<Fr> v7;  // every committed column at r7 (the joint opening point)
};

// The stages leave the heap's freed pages to glibc: the next stage reuses them. Handing them back
// at each stage end (malloc_trim) lowered the peak by 3–5 % but made every stage fault its working
// set in again, about 4.5 % of the prove at 2^18 and 2^22 (docs/performance.md's lever table).

// A witness entry as a small non-negative integer, if it is one (an honest witness's flags and
// multiplicities are; an altered one may hold any field element).
std::optional<std::int32_t> small_entry(const WitnessColumn& c, std::size_t t) {
  const std::array<std::uint64_t, 4> v = c.canonical(t);
  if ((v[1] | v[2] | v[3]) != 0 || v[0] >= (std::uint64_t{1} << 30)) return std::nullopt;
  return static_cast<std::int32_t>(v[0]);
}

// The fraction tree over `blocks` blocks of T leaves (both powers of two) whose numerator in
// block b, row t is small(b, t) — 4 bytes each while the tree is built (fraction_tree.hpp) — or,
// if any of them is not a small integer, field(b, t); leaf b·T + t's denominator is q(b, t),
// computed when the tree reads it (no table of them is kept).
template <class Small, class Field, class Denominator>
FractionTreeProof prove_fraction_tree_numerators(std::size_t blocks, std::size_t T, Small small,
                                                 Field field, const Denominator& q,
                                                 const KernelLabels& labels, Transcript& t,
                                                 bool self_check) {
  const unsigned n = static_cast<unsigned>(std::countr_zero(blocks * T));
  const LeafDenominators q_of = [&](std::size_t begin, std::span<Fr> out) {
    for (std::size_t k = 0; k < out.size();) {
      const std::size_t y = begin + k, b = y / T, t0 = y % T;
      const std::size_t run = std::min(out.size() - k, T - t0);
      q(b, t0, out.subspan(k, run));
      k += run;
    }
  };
  std::vector<std::int32_t> p(blocks * T);
  std::atomic<bool> fits{true};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 4096),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t b = 0; b < blocks; ++b)
                        for (std::size_t r = rg.begin(); r < rg.end(); ++r) {
                          const std::optional<std::int32_t> v = small(b, r);
                          if (!v) {
                            fits.store(false, std::memory_order_relaxed);
                            return;
                          }
                          p[b * T + r] = *v;
                        }
                    });
  if (fits.load()) return prove_fraction_tree(std::move(p), n, q_of, labels, t, self_check);
  p = {};
  std::vector<Fr> pf(blocks * T);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 4096),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      for (std::size_t b = 0; b < blocks; ++b)
                        for (std::size_t r = rg.begin(); r < rg.end(); ++r)
                          pf[b * T + r] = field(b, r);
                    });
  return prove_fraction_tree(std::move(pf), n, q_of, labels, t, self_check);
}

// Columns at one point: one eq table, one dot product per column, parallel over columns
// (WitnessColumn::dot: 0/1 and byte columns by additions, wider ones as small-integer products
// reduced once).
std::vector<Fr> evaluate_at(std::span<const WitnessColumn* const> cols, std::span<const Fr> point) {
  const std::vector<Fr> e = EqPolynomial::evals(point);
  std::vector<Fr> out(cols.size());
  tbb::parallel_for(std::size_t{0}, cols.size(), [&](std::size_t i) { out[i] = cols[i]->dot(e); });
  return out;
}

// The columns `which` of the witness at one point.
std::vector<Fr> evaluate_columns(const WitnessColumns& cols,
                                 const std::vector<std::uint32_t>& which,
                                 std::span<const Fr> point) {
  std::vector<const WitnessColumn*> picked;
  for (std::uint32_t c : which) picked.push_back(&cols[c]);
  return evaluate_at(picked, point);
}

std::vector<std::uint32_t> all_columns() {
  std::vector<std::uint32_t> v(kNumColumns);
  for (std::uint32_t i = 0; i < kNumColumns; ++i) v[i] = i;
  return v;
}

void expect_final(bool self_check, const Fr& got, const Fr& want, const char* stage) {
  if (self_check && got != want)
    throw std::logic_error(std::string("prover self-check failed: ") + stage +
                           " final claim != expected (witness does not satisfy the statement)");
}

void snapshot(const char* label, std::initializer_list<const jolt::HeapReportable*> owners) {
  if (jolt::heap_snapshots_wanted()) jolt::record_heap_snapshot(label, owners);
}

// The snapshots at a stage's start and end (`Stage3_start`, `Stage3_end`), taken only when the
// session asks for them (the legacy lane's flame charts, RecordingSession::
// want_stage_boundary_heap_snapshots). The start one is taken first thing in the stage function,
// inside its span; the end one last thing, after the stage's outputs are parked, while the
// stage's kernels are still allocated (they are locals, freed as the function returns).
void boundary_snapshot(const char* label,
                       std::initializer_list<const jolt::HeapReportable*> owners) {
  if (jolt::stage_boundary_heap_snapshots_wanted()) jolt::record_heap_snapshot(label, owners);
}

template <class T>
std::uint64_t heap_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
std::uint64_t heap_bytes(const SumcheckProof& p) {
  std::uint64_t b = heap_bytes(p.round_polys);
  for (const UniPoly& u : p.round_polys) b += heap_bytes(u.coeffs);
  return b;
}
std::uint64_t heap_bytes(const std::vector<FractionLayerProof>& layers) {
  std::uint64_t b = layers.capacity() * sizeof(FractionLayerProof);
  for (const FractionLayerProof& l : layers) b += heap_bytes(l.sumcheck) + heap_bytes(l.claims);
  return b;
}

// The proof built so far, by the stage that wrote each part: what the stage-end snapshots show a
// stage leaving behind besides the witness and the PCS data.
struct ProofSoFar : jolt::HeapReportable {
  const Proof& p;
  explicit ProofSoFar(const Proof& proof) : p(proof) {}
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "Proof");
    v.bytes("commitment",
            heap_bytes(p.commitment) + p.pcs_parameters.capacity() + heap_bytes(p.ram_regions));
    v.bytes("stage1", heap_bytes(p.stage1) + heap_bytes(p.stage1_openings));
    v.bytes("stage2", heap_bytes(p.stage2) + heap_bytes(p.stage2_openings) +
                          heap_bytes(p.ram.read_write) + heap_bytes(p.ram.read_write_outputs));
    v.bytes("stage3", heap_bytes(p.stage3) + heap_bytes(p.stage3_openings));
    v.bytes("stage4", heap_bytes(p.register_final_values) +
                          heap_bytes(p.register_final_timestamps) + heap_bytes(p.ram.val_check) +
                          heap_bytes(p.ram.val_check_outputs) +
                          heap_bytes(p.register_root_children) + heap_bytes(p.register_layers) +
                          heap_bytes(p.stage4_openings));
    v.bytes("stage5", heap_bytes(p.range_root_children) + heap_bytes(p.range_layers) +
                          heap_bytes(p.ram.ra) + heap_bytes(p.ram.ra_outputs) +
                          heap_bytes(p.ram_access_flags) + heap_bytes(p.stage5_openings) +
                          heap_bytes(p.instruction_lookups.read_raf) +
                          heap_bytes(p.instruction_lookups.read_raf_outputs));
    v.bytes("stage6a", heap_bytes(p.bytecode.address) + heap_bytes(p.bytecode.address_outputs));
    v.bytes("stage6b", heap_bytes(p.bytecode.ra) + heap_bytes(p.bytecode.index_bits) +
                           heap_bytes(p.instruction_lookups.key_bits) +
                           heap_bytes(p.instruction_lookups.key_bit_claims));
    v.bytes("stage7", heap_bytes(p.stage7) + heap_bytes(p.stage7_openings));
  }
};

// Each row's bytecode table entry: the entry whose static columns (PC, immediate, flags, register
// indices) are the row's. A row whose tuple is no entry's (an altered witness) gets an entry at
// its PC, or entry 0 (its static-column claims then disagree with the read-raf, which the
// verifier rejects at bytecode.address.*); the prover's self-check reports it first.
std::vector<std::uint32_t> bytecode_indices(const WitnessColumns& columns,
                                            const std::vector<TraceRow>& table, bool self_check) {
  using Tuple = std::array<Fr, r1cs::kNumBytecodeColumns>;
  std::vector<Tuple> tuples(table.size());
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_pc;
  for (std::size_t k = 0; k < table.size(); ++k) {
    tuples[k] = r1cs::bytecode_values(table[k]);
    by_pc[tuples[k][0].to_canonical_limbs()[0]].push_back(static_cast<std::uint32_t>(k));
  }
  const std::size_t T = columns.length();
  std::vector<std::uint32_t> index(T, 0);
  std::atomic<std::size_t> first_missing{T};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 4096),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      Tuple row;
                      for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
                        for (std::size_t i = 0; i < r1cs::kNumBytecodeColumns; ++i)
                          row[i] = columns[r1cs::kBytecodeColumns[i]][t];
                        const auto it = by_pc.find(row[0].to_canonical_limbs()[0]);
                        bool found = false;
                        if (it != by_pc.end()) {
                          index[t] = it->second.front();
                          for (std::uint32_t k : it->second)
                            if (tuples[k] == row) {
                              index[t] = k;
                              found = true;
                              break;
                            }
                        }
                        if (!found) {
                          std::size_t cur = first_missing.load();
                          while (t < cur && !first_missing.compare_exchange_weak(cur, t)) {
                          }
                        }
                      }
                    });
  if (self_check && first_missing.load() < T) {
    const std::size_t t = first_missing.load();
    throw std::logic_error("prover self-check failed: stage 0: the instruction of row " +
                           std::to_string(t) + " (PC " + columns[r1cs::kUnexpandedPC][t].to_hex() +
                           ") is not in the program's bytecode");
  }
  return index;
}

// Each cycle's instruction lookup as the read-raf proves it, from the witness columns: the table
// its Table* flags name (the first set; none without one), the RAF flag, and the key — the lookup
// operands interleaved, or the right operand alone (its low 64 bits: an altered witness whose
// operand is no such integer gets a key that the read-raf's operand claim then rejects).
lookups::InstructionLookupWitness lookup_witness(const WitnessColumns& c) {
  using namespace r1cs;
  const std::size_t T = c.length();
  lookups::InstructionLookupWitness w;
  w.word_bits = 32;
  w.keys.assign(T, 0);
  w.tables.assign(T, lookups::kNoTable);
  w.raf.assign(T, 0);
  constexpr std::array<std::uint64_t, 4> one = {1, 0, 0, 0};
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, T, 4096), [&](const tbb::blocked_range<std::size_t>& rg) {
        for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
          for (std::uint32_t k = 0; k < lookups::kNumInstructionTables; ++k)
            if (c[kTableRangeCheck + k].canonical(t) == one) {
              w.tables[t] = static_cast<std::uint8_t>(k);
              break;
            }
          const bool raf = c[kLookupIsOneOperand].canonical(t) == one;
          w.raf[t] = raf ? 1 : 0;
          const std::uint64_t right = c[kRightLookupOperand].canonical(t)[0];
          w.keys[t] = raf ? right
                          : lookups::interleave(
                                static_cast<std::uint32_t>(c[kLeftLookupOperand].canonical(t)[0]),
                                static_cast<std::uint32_t>(right));
        }
      });
  return w;
}

using ColumnSource = std::function<WitnessColumns()>;

class StagedProver {
 public:
  StagedProver(const Statement& st, const ProverOptions& opt)
      : st_(st), opt_(opt), t_(protocol::kDomain) {}

  // Stage 0: absorb the statement, extract the committed columns, commit, absorb.
  void prove_stage0(std::size_t log_t, const ColumnSource& make_columns) {
    JOLT_STAGE_SPAN("prove_stage0");
    Witness w;
    w.log_t = log_t;
    w.self_check = opt_.self_check;
    pcs_ = make_commitment_scheme(opt_.pcs);
    w.table = bytecode_table(st_.program);
    w.index_bits = lookups::bytecode_index_bits(w.table.size());
    proof_.pcs_kind = static_cast<std::uint8_t>(opt_.pcs);
    proof_.log_t = static_cast<std::uint32_t>(w.log_t);
    proof_.pcs_parameters = pcs_->parameters();
    {
      JOLT_SPAN("commit_witness", jolt::arg("log_t", w.log_t));
      w.columns = make_columns();
      {
        JOLT_SPAN("BytecodeIndex::assign", jolt::arg("entries", w.table.size()));
        w.entry_index = bytecode_indices(w.columns, w.table, w.self_check);
        const std::size_t T = w.columns.length();
        w.index_bit_columns = WitnessColumns(w.index_bits, T);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 4096),
                          [&](const tbb::blocked_range<std::size_t>& rg) {
                            for (std::size_t t = rg.begin(); t < rg.end(); ++t)
                              for (unsigned b = 0; b < w.index_bits; ++b)
                                w.index_bit_columns[b].store(
                                    t,
                                    {(w.entry_index[t] >> (w.index_bits - 1 - b)) & 1u, 0, 0, 0});
                          });
        w.index_bit_columns.pack_bits();  // one bit per entry
      }
      {
        JOLT_SPAN("InstructionLookupKeys::assign");
        w.lookups = lookup_witness(w.columns);
        const std::size_t T = w.columns.length();
        w.key_bit_columns = WitnessColumns(r1cs::kKeyBits, T);
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, T, 4096),
            [&](const tbb::blocked_range<std::size_t>& rg) {
              for (std::size_t t = rg.begin(); t < rg.end(); ++t)
                for (unsigned b = 0; b < r1cs::kKeyBits; ++b)
                  w.key_bit_columns[b].store(
                      t, {(w.lookups.keys[t] >> (r1cs::kKeyBits - 1 - b)) & 1u, 0, 0, 0});
            });
        w.key_bit_columns.pack_bits();
      }
      {
        JOLT_SPAN("RamAddresses::assign");
        assign_ram(w);
      }
      // The statement, the RAM layout (its size fixes how many columns are committed).
      proof_.num_columns = static_cast<std::uint32_t>(
          protocol::num_committed_columns(w.index_bits, w.ram_layout.log_k()));
      proof_.ram_regions = w.ram_regions;
      protocol::absorb_statement(t_, st_, proof_.log_t, proof_.pcs_kind, proof_.pcs_parameters,
                                 proof_.num_columns);
      protocol::absorb_ram_layout(t_, proof_.ram_regions, proof_.ram_output_tail);
      CommitOutput c = pcs_->commit(CommittedColumns(w));
      proof_.commitment = std::move(c.commitment.bytes);
      pcs_data_ = std::move(c.data);
    }
    t_.absorb_bytes("commitment", proof_.commitment);
    session_.park(std::move(w));
  }

  memory::RamStatement ram_statement(const Witness& w) const {
    return memory::RamStatement{&w.ram_layout, &w.ram_public.init, &w.ram_public.io, w.log_t};
  }

  // RAM's witness from the columns: the layout of the touched regions, each cycle's access in
  // compact addresses, the committed address bits, the statement's image and final words.
  void assign_ram(Witness& w) {
    const WitnessColumns& c = w.columns;
    const std::size_t T = c.length();
    const std::array<std::uint64_t, 4> one = {1, 0, 0, 0};
    auto accesses = [&](std::size_t t) {
      return c[r1cs::kLoad].canonical(t) == one || c[r1cs::kStore].canonical(t) == one;
    };
    std::vector<std::uint32_t> accessed;
    for (std::size_t t = 0; t < T; ++t)
      if (accesses(t))
        accessed.push_back(static_cast<std::uint32_t>(c[r1cs::kRamAddress].canonical(t)[0]));
    std::sort(accessed.begin(), accessed.end());
    accessed.erase(std::unique(accessed.begin(), accessed.end()), accessed.end());
    w.ram_regions = protocol::ram_regions(st_.program, st_.inputs, st_.outputs, accessed);
    w.ram_layout = memory::RamLayout::pack(w.ram_regions);
    // The output's last word after the output: whatever the run left there.
    const std::uint32_t tail_mask = protocol::output_tail_mask(st_.outputs.size());
    const std::uint64_t tail_word = (kOutputBase + 4 + st_.outputs.size()) & ~std::uint64_t{3};
    proof_.ram_output_tail = 0;
    for (std::size_t t = 0; t < T && tail_mask != 0; ++t)
      if (accesses(t) && c[r1cs::kRamAddress].canonical(t)[0] == tail_word)
        proof_.ram_output_tail =
            static_cast<std::uint32_t>(c[r1cs::kRamWriteValue].canonical(t)[0]) & tail_mask;
    w.ram_public = protocol::ram_public(w.ram_layout, st_.program, st_.inputs, st_.outputs,
                                        proof_.ram_output_tail);
    const unsigned log_k = w.ram_layout.log_k();
    w.ram.log_k = log_k;
    w.ram.cycles.assign(T, memory::RamAccess{});
    w.ram_bit_columns = WitnessColumns(log_k, T);
    for (std::size_t t = 0; t < T; ++t) {
      if (!accesses(t)) continue;
      const auto address = static_cast<std::uint32_t>(c[r1cs::kRamAddress].canonical(t)[0]);
      const std::optional<std::uint32_t> k = w.ram_layout.compact_index(address);
      // An address outside the layout (a witness altered by a test) keeps compact word 0: the
      // RAF evaluation rejects it.
      memory::RamAccess& a = w.ram.cycles[t];
      a.accessed = true;
      a.store = c[r1cs::kStore].canonical(t) == one;
      a.address = k.value_or(0);
      a.read = static_cast<std::uint32_t>(c[r1cs::kRamReadValue].canonical(t)[0]);
      a.written = static_cast<std::uint32_t>(c[r1cs::kRamWriteValue].canonical(t)[0]);
      for (unsigned b = 0; b < log_k; ++b)
        w.ram_bit_columns[b].store(t, {(a.address >> (log_k - 1 - b)) & 1u, 0, 0, 0});
    }
    w.ram_bit_columns.pack_bits();
  }

  void prove_stage1() {
    JOLT_STAGE_SPAN("prove_stage1");
    JOLT_SPAN("Stage1Batch::prove");
    const Witness& w = session_.get<Witness>();
    const std::vector<Fr> tau = t_.challenges("tau", r1cs::kRowBits + w.log_t);
    std::unique_ptr<SumcheckKernel> k;
    {
      JOLT_SPAN(SpartanOuterKernel::kLabels.prepare);
      if (opt_.backend == ProverBackend::kReference)
        k = SpartanOuterKernel::reference(w.columns, tau);
      else
        k = std::make_unique<SpartanOuterKernel>(w.columns, tau);
    }
    snapshot("Stage1Batch_prepared", {&w, k.get(), pcs_data_.get()});
    BatchProverOutput out = prove_batch({{k.get(), Fr::zero()}}, t_, opt_.self_check);
    Stage1Out s;
    s.r1.assign(out.challenges.begin() + r1cs::kRowBits, out.challenges.end());
    s.v1 = evaluate_columns(w.columns, all_columns(), s.r1);
    expect_final(opt_.self_check, out.final_claim,
                 out.coefficients[0] * protocol::outer_expected(tau, out.challenges, s.v1),
                 "stage 1");
    t_.absorb_frs("opening_claim", s.v1);
    proof_.stage1 = std::move(out.proof);
    proof_.stage1_openings = s.v1;
    session_.park(std::move(s));
  }

  void prove_stage2() {
    JOLT_STAGE_SPAN("prove_stage2");
    JOLT_SPAN("Stage2Batch::prove");
    const Witness& w = session_.get<Witness>();
    boundary_snapshot("Stage2_start", {&w, pcs_data_.get(), &proof_so_far_});
    const Stage1Out& s1 = session_.get<Stage1Out>();
    const Fr gamma = t_.challenge("product_gamma");
    const auto& factors = protocol::product_factor_columns();
    const Expr expr = protocol::product_expr(gamma);
    std::unique_ptr<SumcheckKernel> k;
    {
      JOLT_SPAN(kProductLabels.prepare);
      std::vector<std::vector<Fr>> leaves;
      if (opt_.backend == ProverBackend::kReference) {
        leaves.push_back(EqPolynomial::evals(s1.r1));
        for (std::uint32_t c : factors) leaves.push_back(w.columns[c].to_vector());
        k = std::make_unique<NaiveKernel>(kProductLabels, std::move(leaves), expr);
      } else {
        // eq(r1, ·) kept apart: leaf 0 of expr is the eq table.
        for (std::uint32_t c : factors) leaves.push_back(w.columns[c].to_vector());
        k = std::make_unique<EqWeightedKernel>(
            kProductLabels, std::vector<EqTerm>{{s1.r1, expr.divided_by_leaf(0)}},
            std::move(leaves));
      }
    }
    snapshot("Stage2Batch_prepared", {&w, k.get(), pcs_data_.get()});
    BatchProverOutput out =
        prove_batch({{k.get(), protocol::product_input(gamma, s1.v1)}}, t_, opt_.self_check);
    Stage2Out s;
    s.r2 = out.challenges;
    const std::vector<Fr>& leaf_vals = out.member_outputs[0];
    s.v2.assign(leaf_vals.begin() + 1, leaf_vals.end());
    std::vector<Fr> check_leaves = {EqPolynomial::evaluate(s1.r1, s.r2)};
    check_leaves.insert(check_leaves.end(), s.v2.begin(), s.v2.end());
    expect_final(opt_.self_check, out.final_claim,
                 out.coefficients[0] * expr.evaluate(check_leaves), "stage 2");
    t_.absorb_frs("opening_claim", s.v2);
    proof_.stage2 = std::move(out.proof);
    proof_.stage2_openings = s.v2;
    {
      // RAM read/write checking with its RAF evaluation and output check, on stage 1's RAM
      // claims at r1.
      JOLT_SPAN("RamReadWriteChecking::prove", jolt::arg("accesses", w.ram.cycles.size()));
      s.ram = memory::prove_ram_read_write(
          w.ram, ram_statement(w), s1.r1, protocol::ram_cycle_claims(s1.v1), t_, proof_.ram,
          opt_.self_check, [&](std::vector<const SumcheckKernel*> k) {
            snapshot("RamReadWriteChecking_prepared", {&w, k[0], k[1], k[2], pcs_data_.get()});
          });
    }
    session_.park(std::move(s));
    boundary_snapshot("Stage2_end", {&w, k.get(), pcs_data_.get(), &proof_so_far_});
  }

  // Stage 3: the shift relation (Next* = next row), the entry PC and the exit cycle, one batch.
  void prove_stage3() {
    JOLT_STAGE_SPAN("prove_stage3");
    JOLT_SPAN("Stage3::prove");
    const Witness& w = session_.get<Witness>();
    boundary_snapshot("Stage3_start", {&w, pcs_data_.get(), &proof_so_far_});
    const Stage1Out& s1 = session_.get<Stage1Out>();
    const Fr gamma = t_.challenge("shift_gamma");
    const Expr shift = protocol::shift_expr(gamma);
    const Expr point = protocol::point_expr();
    const Expr entry = protocol::entry_expr();
    const std::size_t T = w.columns.length();
    const std::uint64_t last = st_.trace_length == 0 ? 0 : st_.trace_length - 1;
    std::unique_ptr<SumcheckKernel> ks, ke, kx;
    {
      JOLT_SPAN(kShiftLabels.prepare);
      std::vector<std::vector<Fr>> leaves;
      leaves.push_back(EqPlusOnePolynomial::evals(s1.r1));
      leaves.push_back(w.columns[r1cs::kUnexpandedPC].to_vector());
      leaves.push_back(w.columns[r1cs::kIsNoop].to_vector());
      leaves.push_back(w.columns[r1cs::kSequenceIndex].to_vector());
      ks = std::make_unique<NaiveKernel>(kShiftLabels, std::move(leaves), shift);
    }
    // The entry and exit members weigh their columns by eq(c, ·) at one cycle c: the reference
    // backend as a table (the indicator of c), the optimized one by the eq-weighted kernel, which
    // keeps eq apart (no table of T entries; the same round polynomials and outputs).
    const std::size_t log_t = log2_exact(T);
    auto weighted_at =
        [&](const KernelLabels& labels, std::uint64_t c, const Expr& expr,
            std::vector<std::vector<Fr>> columns) -> std::unique_ptr<SumcheckKernel> {
      if (opt_.backend == ProverBackend::kReference) {
        std::vector<Fr> indicator(T, Fr::zero());
        indicator[c] = Fr::one();  // eq(c, t)
        columns.insert(columns.begin(), std::move(indicator));
        return std::make_unique<NaiveKernel>(labels, std::move(columns), expr);
      }
      return std::make_unique<EqWeightedKernel>(
          labels, std::vector<EqTerm>{{protocol::cycle_point(c, log_t), expr.divided_by_leaf(0)}},
          std::move(columns));
    };
    {
      JOLT_SPAN(kEntryLabels.prepare);
      std::vector<std::vector<Fr>> leaves;
      leaves.push_back(w.columns[r1cs::kUnexpandedPC].to_vector());
      leaves.push_back(w.columns[r1cs::kSequenceIndex].to_vector());
      ke = weighted_at(kEntryLabels, 0, entry, std::move(leaves));
    }
    {
      JOLT_SPAN(kExitLabels.prepare);
      std::vector<std::vector<Fr>> leaves;
      leaves.push_back(w.columns[r1cs::kIsEcall].to_vector());
      kx = weighted_at(kExitLabels, last, point, std::move(leaves));
    }
    snapshot("Stage3_prepared", {&w, ks.get(), ke.get(), kx.get(), pcs_data_.get()});
    BatchProverOutput out = prove_batch({{ks.get(), protocol::shift_input(gamma, s1.v1)},
                                         {ke.get(), protocol::entry_input(st_.program.entry)},
                                         {kx.get(), Fr::one()}},
                                        t_, opt_.self_check);
    Stage3Out s;
    s.r3 = out.challenges;
    s.v3 = evaluate_columns(w.columns, protocol::shift_columns(), s.r3);
    const std::size_t n = s.r3.size();
    const std::vector<Fr> sl = {EqPlusOnePolynomial::evaluate(s1.r1, s.r3), s.v3[0], s.v3[1],
                                s.v3[3]};
    const std::vector<Fr> el = {EqPolynomial::evaluate(protocol::cycle_point(0, n), s.r3), s.v3[0],
                                s.v3[3]};
    const std::vector<Fr> xl = {EqPolynomial::evaluate(protocol::cycle_point(last, n), s.r3),
                                s.v3[2]};
    expect_final(opt_.self_check, out.final_claim,
                 out.coefficients[0] * shift.evaluate(sl) +
                     out.coefficients[1] * entry.evaluate(el) +
                     out.coefficients[2] * point.evaluate(xl),
                 "stage 3");
    t_.absorb_frs("opening_claim", s.v3);
    proof_.stage3 = std::move(out.proof);
    proof_.stage3_openings = s.v3;
    session_.park(std::move(s));
    boundary_snapshot("Stage3_end",
                      {&w, ks.get(), ke.get(), kx.get(), pcs_data_.get(), &proof_so_far_});
  }

  // Stage 4: register read/write checking. The final state is absorbed before γ and α.
  void prove_stage4() {
    JOLT_STAGE_SPAN("prove_stage4");
    JOLT_SPAN("Stage4::prove");
    const Witness& w = session_.get<Witness>();
    boundary_snapshot("Stage4_start", {&w, pcs_data_.get(), &proof_so_far_});
    const std::size_t T = w.columns.length();
    const r1cs::RegisterState fin = r1cs::final_register_state(w.columns);
    proof_.register_final_values.assign(fin.value.begin(), fin.value.end());
    proof_.register_final_timestamps.assign(fin.timestamp.begin(), fin.timestamp.end());
    t_.absorb_frs("register_final_values", proof_.register_final_values);
    t_.absorb_frs("register_final_timestamps", proof_.register_final_timestamps);
    const Fr gamma = t_.challenge("register_gamma");
    const Fr alpha = t_.challenge("register_alpha");
    const auto& c = w.columns;
    // Leaf b·T + t's denominator: α minus the fingerprint of access tuple b at row t — the three
    // accesses' new tuples (stamps 4t + 1, 4t + 2, 4t + 3), then the three they read — and 1 for
    // the two empty blocks; computed whenever the tree reads it, a range of rows at a time.
    auto q = [&](std::size_t b, std::size_t t0, std::span<Fr> out) {
      using namespace r1cs;
      if (b >= 6) {
        std::fill(out.begin(), out.end(), Fr::one());
        return;
      }
      static constexpr std::array<std::uint32_t, 3> kReg = {kRs1Index, kRs2Index, kRdIndex};
      static constexpr std::array<std::uint32_t, 3> kNew = {kRs1Value, kRs2Value, kRdWriteValue};
      static constexpr std::array<std::uint32_t, 3> kOld = {kRs1Value, kRs2Value, kRdReadValue};
      static constexpr std::array<std::uint32_t, 3> kTs = {kRs1ReadTs, kRs2ReadTs, kRdReadTs};
      // kRun rows at a time in buffers on the stack (no allocation per call: the tree asks for
      // ranges from every worker thread).
      constexpr std::size_t kRun = 256;
      const std::size_t a = b % 3;
      std::array<Fr, kRun> reg, val, st, g;
      g.fill(gamma);
      for (std::size_t k0 = 0; k0 < out.size(); k0 += kRun) {
        const std::size_t n = std::min(kRun, out.size() - k0), t = t0 + k0;
        c[kReg[a]].read(t, std::span<Fr>(reg.data(), n));
        c[b < 3 ? kNew[a] : kOld[a]].read(t, std::span<Fr>(val.data(), n));
        if (b < 3) {
          const Fr four = Fr::from_u64(4);
          st[0] = Fr::from_u64(4 * t + a + 1);
          for (std::size_t k = 1; k < n; ++k) st[k] = st[k - 1] + four;
        } else {
          c[kTs[a]].read(t, std::span<Fr>(st.data(), n));
        }
        // α − (reg + γ·(value + γ·stamp)), protocol::register_fingerprint over arrays.
        multiply_arrays(g.data(), st.data(), st.data(), n);
        for (std::size_t k = 0; k < n; ++k) st[k] += val[k];
        multiply_arrays(g.data(), st.data(), st.data(), n);
        for (std::size_t k = 0; k < n; ++k) out[k0 + k] = alpha - (reg[k] + st[k]);
      }
    };
    snapshot("Stage4_prepared", {&w, pcs_data_.get()});
    // Numerators: +1 for the three accesses' new tuples, −1 for what they read, 0 for the two
    // empty slots.
    auto small = [&](std::size_t b, std::size_t) -> std::optional<std::int32_t> {
      if (b < 6) return b < 3 ? 1 : -1;
      return 0;
    };
    auto field = [&](std::size_t b, std::size_t) {
      if (b < 6) return b < 3 ? Fr::one() : -Fr::one();
      return Fr::zero();
    };
    FractionTreeProof ft = prove_fraction_tree_numerators(
        8, T, small, field, q, kRegisterLayerLabels, t_, opt_.self_check);
    protocol::Fraction boundary = protocol::register_boundary_side(
        proof_.register_final_values, proof_.register_final_timestamps, gamma, alpha);
    root_check(ft, boundary, "stage 4: a register read is not the value last written");
    Stage4Out s;
    const std::span<const Fr> r_top(ft.point.data(), 3);
    s.r4.assign(ft.point.begin() + 3, ft.point.end());
    s.v4 = evaluate_columns(w.columns, protocol::register_columns(), s.r4);
    expect_final(opt_.self_check, ft.p_leaf_claim, protocol::register_leaf_p(r_top, s.v4),
                 "stage 4 leaf numerators");
    expect_final(opt_.self_check, ft.q_leaf_claim,
                 protocol::register_leaf_q(alpha, gamma, r_top, s.r4, s.v4),
                 "stage 4 leaf denominators");
    t_.absorb_frs("opening_claim", s.v4);
    proof_.register_root_children = std::move(ft.root_children);
    proof_.register_layers = std::move(ft.layers);
    proof_.stage4_openings = s.v4;
    {
      // RAM's Val check: the read/write checking's Val and Val_final claims from the committed
      // increments and the public image.
      JOLT_SPAN("RamValCheck::prove");
      s.r_ram_val = memory::prove_ram_val_check(
          w.ram, ram_statement(w), session_.get<Stage2Out>().ram, t_, proof_.ram, opt_.self_check,
          [&](std::vector<const SumcheckKernel*> k) {
            snapshot("RamValCheck_prepared", {&w, k[0], pcs_data_.get()});
          });
    }
    session_.park(std::move(s));
    boundary_snapshot("Stage4_end", {&w, pcs_data_.get(), &proof_so_far_});
  }

  // Stage 5: every register read is of an earlier access (4t + j − ReadTs_j in [0, 4T)).
  void prove_stage5() {
    JOLT_STAGE_SPAN("prove_stage5");
    JOLT_SPAN("Stage5::prove");
    const Witness& w = session_.get<Witness>();
    boundary_snapshot("Stage5_start", {&w, pcs_data_.get(), &proof_so_far_});
    const std::size_t T = w.columns.length();
    const Fr alpha = t_.challenge("range_alpha");
    const auto& c = w.columns;
    // Leaf b·T + t's denominator: α − (4t + b − ReadTs_b(t)) for the three reads, 1 for the empty
    // slot, α − ((b − 4)·T + t) for the table entries; computed whenever the tree reads it.
    auto q = [&](std::size_t b, std::size_t t0, std::span<Fr> out) {
      const std::size_t n = out.size();
      if (b == 3) {
        std::fill(out.begin(), out.end(), Fr::one());
        return;
      }
      const Fr step = Fr::from_u64(b < 3 ? 4 : 1);
      Fr at = Fr::from_u64(b < 3 ? 4 * t0 + b : (b - 4) * T + t0);
      if (b < 3) {
        static constexpr std::array<std::uint32_t, 3> kTs = {r1cs::kRs1ReadTs, r1cs::kRs2ReadTs,
                                                             r1cs::kRdReadTs};
        c[kTs[b]].read(t0, out);
        for (std::size_t k = 0; k < n; ++k, at += step) out[k] = alpha - (at - out[k]);
        return;
      }
      for (std::size_t k = 0; k < n; ++k, at += step) out[k] = alpha - at;
    };
    snapshot("Stage5_prepared", {&w, pcs_data_.get()});
    // Numerators: 1 for the three reads, 0 for the empty slot, −m for each table entry read m
    // times.
    auto small = [&](std::size_t b, std::size_t t) -> std::optional<std::int32_t> {
      if (b < 4) return b < 3 ? 1 : 0;
      const auto m = small_entry(c[r1cs::kRangeCount0 + (b - 4)], t);
      if (!m) return std::nullopt;
      return -*m;
    };
    auto field = [&](std::size_t b, std::size_t t) {
      if (b < 4) return b < 3 ? Fr::one() : Fr::zero();
      return -c[r1cs::kRangeCount0 + (b - 4)][t];
    };
    FractionTreeProof ft = prove_fraction_tree_numerators(8, T, small, field, q, kRangeLayerLabels,
                                                          t_, opt_.self_check);
    root_check(ft, protocol::Fraction{},
               "stage 5: a register read timestamp is not earlier than its access");
    Stage5Out s;
    const std::span<const Fr> r_top(ft.point.data(), 3);
    s.r5.assign(ft.point.begin() + 3, ft.point.end());
    s.v5 = evaluate_columns(w.columns, protocol::range_columns(), s.r5);
    expect_final(opt_.self_check, ft.p_leaf_claim, protocol::range_leaf_p(r_top, s.v5),
                 "stage 5 leaf numerators");
    expect_final(opt_.self_check, ft.q_leaf_claim, protocol::range_leaf_q(alpha, r_top, s.r5, s.v5),
                 "stage 5 leaf denominators");
    t_.absorb_frs("opening_claim", s.v5);
    proof_.range_root_children = std::move(ft.root_children);
    proof_.range_layers = std::move(ft.layers);
    proof_.stage5_openings = s.v5;
    prove_instruction_read_raf(w, s);
    {
      // RAM's RA virtualization: the RA claims of stages 2 and 4 from the committed address bits,
      // gated by Load + Store, whose claims go to the bytecode read-raf.
      JOLT_SPAN("RamRaVirtualization::prove");
      const Stage4Out& s4 = session_.get<Stage4Out>();
      s.r_ram = memory::prove_ram_ra(
          w.ram, session_.get<Stage1Out>().r1, session_.get<Stage2Out>().ram, s4.r_ram_val, t_,
          proof_.ram, opt_.self_check, [&](std::vector<const SumcheckKernel*> k) {
            snapshot("RamRaVirtualization_prepared", {&w, k[0], pcs_data_.get()});
          });
      proof_.ram_access_flags = evaluate_columns(w.columns, {r1cs::kLoad, r1cs::kStore}, s.r_ram);
      t_.absorb_frs("ram_access_flags", proof_.ram_access_flags);
    }
    session_.park(std::move(s));
    boundary_snapshot("Stage5_end", {&w, pcs_data_.get(), &proof_so_far_});
  }

  // Stage 5, the instruction read-raf: every cycle's LookupOutput and lookup operands, claimed by
  // stage 1 at r1, are its table's value and its key's halves (or the key).
  void prove_instruction_read_raf(const Witness& w, Stage5Out& s) {
    JOLT_SPAN("InstructionReadRaf::prove", jolt::arg("cycles", w.columns.length()));
    const Stage1Out& s1 = session_.get<Stage1Out>();
    s.read_raf = lookups::prove_instruction_read_raf(
        w.lookups, s1.r1, protocol::lookup_input_claims(s1.v1), t_, opt_.self_check,
        [&](const SumcheckKernel& k) {
          snapshot("InstructionReadRaf_prepared", {&w, &k, pcs_data_.get()});
        });
    const std::size_t n_virt = lookups::virtual_chunks(w.lookups.word_bits);
    s.v_lookup.assign(s.read_raf.outputs.begin() + static_cast<std::ptrdiff_t>(n_virt),
                      s.read_raf.outputs.end());
    proof_.instruction_lookups.read_raf = s.read_raf.read_raf;
    proof_.instruction_lookups.read_raf_outputs = s.read_raf.outputs;
  }

  // Stages 1–5's claims by point, the bytecode read-raf's and the claim reduction's input.
  std::vector<protocol::ClaimSet> stage_claims() {
    const Stage1Out& s1 = session_.get<Stage1Out>();
    const Stage2Out& s2 = session_.get<Stage2Out>();
    const Stage3Out& s3 = session_.get<Stage3Out>();
    const Stage4Out& s4 = session_.get<Stage4Out>();
    const Stage5Out& s5 = session_.get<Stage5Out>();
    std::vector<protocol::ClaimSet> sets =
        protocol::stage_claim_sets({s1.r1, s1.v1, s2.r2, s2.v2, s3.r3, s3.v3, s4.r4, s4.v4, s5.r5,
                                    s5.v5, s5.read_raf.r_cycle, s5.v_lookup});
    sets.push_back(protocol::ram_access_flag_claims(s5.r_ram, proof_.ram_access_flags));
    sets.push_back(protocol::ram_inc_claim(s2.ram.r_cycle, proof_.ram.read_write_outputs[2]));
    sets.push_back(protocol::ram_inc_claim(s4.r_ram_val, proof_.ram.val_check_outputs[0]));
    return sets;
  }

  // Stage 6a: the bytecode read-raf's address rounds over every claim about a static column.
  void prove_stage6a() {
    JOLT_STAGE_SPAN("prove_stage6a");
    JOLT_SPAN("Stage6a::prove");
    const Witness& w = session_.get<Witness>();
    // The legacy prover's stage 6 is 6a and 6b here: it starts with 6a and ends with 6b.
    boundary_snapshot("Stage6_start", {&w, pcs_data_.get(), &proof_so_far_});
    Stage6aOut s;
    s.claims = stage_claims();
    s.groups = protocol::bytecode_claim_groups(s.claims);
    const std::vector<std::vector<Fr>> entries = protocol::bytecode_entries(w.table);
    s.r_addr =
        lookups::prove_bytecode_address(entries, w.entry_index, s.groups, t_, proof_.bytecode,
                                        opt_.self_check, [&](const SumcheckKernel& k) {
                                          snapshot("Stage6a_prepared", {&w, &k, pcs_data_.get()});
                                        });
    session_.park(std::move(s));
  }

  // Stage 6b: the bytecode read-raf's RA rounds: the one-hot index from its committed bits, and
  // their booleanity.
  void prove_stage6b() {
    JOLT_STAGE_SPAN("prove_stage6b");
    JOLT_SPAN("Stage6b::prove");
    const Witness& w = session_.get<Witness>();
    const Stage6aOut& s6a = session_.get<Stage6aOut>();
    Stage6bOut s;
    s.r_bits =
        lookups::prove_bytecode_ra(w.entry_index, w.index_bits, s6a.groups, s6a.r_addr, t_,
                                   proof_.bytecode, opt_.self_check, [&](const SumcheckKernel& k) {
                                     snapshot("Stage6b_prepared", {&w, &k, pcs_data_.get()});
                                   });
    s.bits = proof_.bytecode.index_bits;
    {
      // The instruction lookups' RA virtualization: the read-raf's chunk claims from the
      // committed key bits, and their booleanity.
      JOLT_SPAN("InstructionRaVirtualization::prove");
      const Stage5Out& s5 = session_.get<Stage5Out>();
      lookups::InstructionKeyBitsProverOutput kb = lookups::prove_instruction_key_bits(
          w.lookups, s5.read_raf, t_, opt_.self_check, [&](const SumcheckKernel& k) {
            snapshot("InstructionRaVirtualization_prepared", {&w, &k, pcs_data_.get()});
          });
      s.r_key = kb.bit_point;
      s.key_bits = kb.key_bit_claims;
      proof_.instruction_lookups.key_bits = std::move(kb.key_bits);
      proof_.instruction_lookups.key_bit_claims = std::move(kb.key_bit_claims);
    }
    session_.park(std::move(s));
    // Stage 6 (6a + 6b) ends here, see prove_stage6a.
    boundary_snapshot("Stage6_end", {&w, pcs_data_.get(), &proof_so_far_});
  }

  // Stage 7: every claim about a committed column so far reduced to one point r7.
  void prove_stage7() {
    JOLT_STAGE_SPAN("prove_stage7");
    JOLT_SPAN("Stage7Batch::prove");
    const Witness& w = session_.get<Witness>();
    boundary_snapshot("Stage7_start", {&w, pcs_data_.get(), &proof_so_far_});
    const Stage6aOut& s6a = session_.get<Stage6aOut>();
    const Stage6bOut& s6b = session_.get<Stage6bOut>();
    std::vector<protocol::ClaimSet> claims = s6a.claims;
    claims.push_back(protocol::index_bit_claims(s6b.r_bits, s6b.bits));
    claims.push_back(protocol::key_bit_claims(s6b.r_key, s6b.key_bits));
    {
      const Stage5Out& s5 = session_.get<Stage5Out>();
      const unsigned log_k = w.ram_layout.log_k();
      claims.push_back(protocol::ram_bit_claims(
          w.index_bits, s5.r_ram, std::span<const Fr>(proof_.ram.ra_outputs).subspan(0, log_k)));
    }
    const std::vector<protocol::ClaimSet> groups = protocol::reduction_groups(claims);
    const CommittedColumns committed(w);
    const Fr beta = t_.challenge("reduction_gamma");
    const Expr red = protocol::reduction_expr(groups.size());
    const std::vector<Fr> weights = protocol::reduction_weights(beta, groups);
    std::unique_ptr<SumcheckKernel> kr;
    {
      JOLT_SPAN(kReductionLabels.prepare);
      // Fold each group's columns once with the β weights: the kernel has 2 leaves per group
      // (the reference backend's eq tables and folds), or the folds with each group's eq(point, ·)
      // kept apart.
      const bool reference = opt_.backend == ProverBackend::kReference;
      const std::size_t T = w.columns.length();
      std::vector<std::vector<Fr>> leaves;
      if (reference)
        for (const auto& g : groups) leaves.push_back(EqPolynomial::evals(g.point));
      std::size_t k = 0;
      for (const auto& g : groups) {
        std::vector<Fr> f = zero_table(T);
        const std::size_t base = k;
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 1024),
                          [&](const tbb::blocked_range<std::size_t>& rg) {
                            committed.accumulate_many(
                                g.columns,
                                std::span<const Fr>(weights).subspan(base, g.columns.size()),
                                rg.begin(), std::span<Fr>(f.data() + rg.begin(), rg.size()));
                          });
        k += g.columns.size();
        leaves.push_back(std::move(f));
      }
      if (reference) {
        kr = std::make_unique<NaiveKernel>(kReductionLabels, std::move(leaves), red);
      } else {
        std::vector<EqTerm> terms;
        for (std::uint32_t g = 0; g < groups.size(); ++g) {
          Expr fold;  // group g's folded columns, leaf g
          fold.add_product(Fr::one(), {Linear::leaf(g)});
          terms.push_back({groups[g].point, std::move(fold)});
        }
        kr = std::make_unique<EqWeightedKernel>(kReductionLabels, std::move(terms),
                                                std::move(leaves));
      }
    }
    snapshot("Stage7Batch_prepared", {&w, kr.get(), pcs_data_.get()});
    const Fr input = protocol::reduction_input(weights, groups);
    BatchProverOutput out = prove_batch({{kr.get(), input}}, t_, opt_.self_check);
    Stage7Out s;
    s.r7 = out.challenges;
    s.v7 = evaluate_at(committed.columns(), s.r7);
    if (opt_.self_check) {
      std::vector<Fr> leaves;
      for (const auto& g : groups) leaves.push_back(EqPolynomial::evaluate(g.point, s.r7));
      for (const Fr& f : protocol::reduction_folds(weights, groups, s.v7)) leaves.push_back(f);
      expect_final(true, out.final_claim, out.coefficients[0] * red.evaluate(leaves), "stage 7");
    }
    t_.absorb_frs("opening_claim", s.v7);
    proof_.stage7 = std::move(out.proof);
    proof_.stage7_openings = s.v7;
    session_.park(std::move(s));
    boundary_snapshot("Stage7_end", {&w, kr.get(), pcs_data_.get(), &proof_so_far_});
  }

  void prove_stage8() {
    JOLT_STAGE_SPAN("prove_stage8");
    const Witness& w = session_.get<Witness>();
    const Stage7Out& s7 = session_.get<Stage7Out>();
    const CommittedColumns committed(w);
    {
      // Every committed column's claim already sits at r7, so the joint opening statement is
      // (commitment, v7) over the committed columns in their order.
      JOLT_SPAN("JointOpeningPolynomials::prepare", jolt::arg("polys", committed.num_polys()));
      if (s7.v7.size() != committed.num_polys())
        throw std::logic_error("stage 8: claim count mismatch");
    }
    proof_.pcs_opening = pcs_->open(*pcs_data_, committed, s7.r7, s7.v7, t_);
    // The stage's working set (witness columns, PCS prover data) is freed inside the stage, so
    // the time the allocator spends releasing it is attributed here rather than to dark time.
    session_ = ProofSession{};
    pcs_data_.reset();
    pcs_.reset();
  }

  // Prover self-check of a fraction tree's root identity (the verifier's *_sum checks).
  void root_check(const FractionTreeProof& ft, const protocol::Fraction& extra,
                  const char* what) const {
    if (!opt_.self_check) return;
    const Fr p =
        ft.root_children[0] * ft.root_children[3] + ft.root_children[1] * ft.root_children[2];
    const Fr q = ft.root_children[2] * ft.root_children[3];
    if (!protocol::fraction_root_vanishes(p, q, extra))
      throw std::logic_error(std::string("prover self-check failed: ") + what +
                             " (the witness does not satisfy the statement)");
  }

  std::vector<std::uint8_t> finish() {
    JOLT_SPAN("encode_proof");
    return encode_proof(proof_);
  }

 private:
  const Statement& st_;
  const ProverOptions& opt_;
  Transcript t_;
  ProofSession session_;
  std::unique_ptr<CommitmentScheme> pcs_;
  std::unique_ptr<ProverData> pcs_data_;
  Proof proof_;
  ProofSoFar proof_so_far_{proof_};
};

std::vector<std::uint8_t> run_prover(const Statement& st, std::size_t log_t,
                                     const ColumnSource& make_columns, const ProverOptions& opt) {
  StagedProver p(st, opt);
  std::size_t next = 0;
  const auto starting = [&] {
    const std::size_t k = next++;
    if (opt.on_stage) opt.on_stage(k, jolt::taxonomy::kEmittedStageSpans[k]);
  };
  starting();
  p.prove_stage0(log_t, make_columns);
  starting();
  p.prove_stage1();
  starting();
  p.prove_stage2();
  starting();
  p.prove_stage3();
  starting();
  p.prove_stage4();
  starting();
  p.prove_stage5();
  starting();
  p.prove_stage6a();
  starting();
  p.prove_stage6b();
  starting();
  p.prove_stage7();
  starting();
  p.prove_stage8();
  return p.finish();
}

// Names the worker threads that join the prover's arena "tbb-worker-N" in the trace, N counted
// over the process (a thread keeps the name it got first). An observer sees only the arena it
// was made for: one on the default arena never sees the prover's workers. Only while a session
// records: naming gives the thread its trace buffer, and the caller's buffer, made by the root
// span opened before the arena, then comes first in the trace's thread order.
class WorkerNamer final : public tbb::task_scheduler_observer {
 public:
  explicit WorkerNamer(tbb::task_arena& arena) : tbb::task_scheduler_observer(arena) {
    observe(true);
  }
  ~WorkerNamer() override { observe(false); }
  void on_scheduler_entry(bool is_worker) override {
    if (!is_worker || !jolt::recording()) return;
    thread_local bool named = false;
    if (named) return;
    named = true;
    static std::atomic<int> next{0};
    jolt::set_current_thread_name("tbb-worker-" + std::to_string(next.fetch_add(1)));
  }
};

template <class F>
auto in_arena(std::size_t threads, F&& f) {
  tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : static_cast<int>(threads));
  arena.initialize();  // an observer needs an initialized arena
  WorkerNamer namer(arena);
  return arena.execute(std::forward<F>(f));
}

// Before any witness is extracted: the configured scheme can commit tables of 2^log_t entries.
void check_committable(std::size_t log_t, PcsKind pcs) {
  const unsigned max = make_commitment_scheme(pcs)->max_num_vars();
  if (log_t > max)
    throw std::invalid_argument("prove: 2^" + std::to_string(log_t) +
                                " trace rows exceed what the " + std::string(pcs_name(pcs)) +
                                " commitment can commit (at most 2^" + std::to_string(max) +
                                " rows); use a smaller scale");
}

void check_shape(std::size_t rows, std::uint64_t trace_length) {
  if (trace_length > kMaxTraceLength)
    throw std::invalid_argument("prove: trace_length " + std::to_string(trace_length) +
                                " exceeds the supported maximum");
  if (rows != padded_trace_length(trace_length))
    throw std::invalid_argument("prove: " + std::to_string(rows) + " rows for trace_length " +
                                std::to_string(trace_length) + "; pad to padded_trace_length = " +
                                std::to_string(padded_trace_length(trace_length)));
}

}  // namespace

std::string_view backend_name(ProverBackend b) {
  return b == ProverBackend::kReference ? "reference" : "optimized";
}

std::optional<ProverBackend> parse_backend(std::string_view name) {
  if (name == "optimized") return ProverBackend::kOptimized;
  if (name == "reference") return ProverBackend::kReference;
  return std::nullopt;
}

std::vector<std::uint8_t> program_digest(std::span<const std::uint8_t> elf) {
  const pcs::Digest d = pcs::blake2b_256(elf);
  return std::vector<std::uint8_t>(d.begin(), d.end());
}

std::uint64_t MemoryEstimate::peak_bytes(unsigned log_rows) const {
  if (log_rows > 40) log_rows = 40;  // the largest scale any command accepts
  return fixed_bytes + bytes_per_row * (std::uint64_t{1} << log_rows);
}

MemoryEstimate estimate_prover_memory(PcsKind pcs, ProverBackend backend) {
  // Linear fits through measured peaks (sha2-chain, 2^14/2^16 and 2^16/2^18; the table in
  // docs/prover-design.md §11 "Memory model"), each rounded up.
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  MemoryEstimate e;
  switch (pcs) {
    case PcsKind::kBasefold:
      e = {35 * kMiB, 880};
      break;
    case PcsKind::kLigero:
      e = {70 * kMiB, 18370};
      break;
    case PcsKind::kReveal:
      e = {45 * kMiB, 7590};
      break;
    default:
      throw std::invalid_argument("estimate_prover_memory: unknown commitment scheme");
  }
  if (backend == ProverBackend::kReference)
    e.bytes_per_row += 3 * r1cs::kNumRowsPadded * sizeof(Fr);
  return e;
}

std::vector<std::uint8_t> prove(const Statement& st, std::span<const TraceRow> rows,
                                const ProverOptions& opt) {
  JOLT_SPAN("jolt_prover::prove", jolt::arg("trace_length", st.trace_length));
  check_shape(rows.size(), st.trace_length);
  check_committable(log2_exact(rows.size()), opt.pcs);
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const bool pad = rows[t].opcode == Opcode::kNoop;
    if (pad != (t >= st.trace_length))
      throw std::invalid_argument("prove: row " + std::to_string(t) +
                                  (pad ? " is padding but lies before trace_length"
                                       : " is not padding but lies after trace_length"));
  }
  return in_arena(opt.num_threads, [&] {
    return run_prover(
        st, log2_exact(rows.size()), [&] { return r1cs::extract_witness(rows); }, opt);
  });
}

std::vector<std::uint8_t> prove_columns(const Statement& st, std::vector<std::vector<Fr>> columns,
                                        const ProverOptions& opt) {
  JOLT_SPAN("jolt_prover::prove", jolt::arg("trace_length", st.trace_length));
  if (columns.size() != kNumColumns) throw std::invalid_argument("prove_columns: column count");
  check_shape(columns[0].size(), st.trace_length);
  check_committable(log2_exact(columns[0].size()), opt.pcs);
  for (const auto& c : columns)
    if (c.size() != columns[0].size()) throw std::invalid_argument("prove_columns: ragged columns");
  return in_arena(opt.num_threads, [&] {
    return run_prover(
        st, log2_exact(columns[0].size()),
        [&] {
          WitnessColumns w = WitnessColumns::from_dense(columns);
          std::vector<std::vector<Fr>>().swap(columns);  // the dense input is not kept
          return w;
        },
        opt);
  });
}

}  // namespace jolt::prover
