// The protocol description shared by prover and verifier (see protocol.hpp).
#include "pipeline/protocol.hpp"

#include <algorithm>
#include <array>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/tracer/tracer.hpp>
#include <stdexcept>

namespace jolt::prover::protocol {

using r1cs::kNumColumns;

void absorb_statement(Transcript& t, const Statement& st, std::uint32_t log_t,
                      std::uint8_t pcs_kind, std::string_view pcs_parameters,
                      std::uint32_t num_columns) {
  t.absorb_bytes("program_digest", st.program.digest);
  t.absorb_u64("entry", st.program.entry);
  std::vector<std::uint8_t> table;
  table.reserve(st.program.instructions.size() * 12);
  for (const TraceRow& r : st.program.instructions) {
    for (int b = 0; b < 4; ++b) table.push_back(static_cast<std::uint8_t>(r.pc >> (8 * b)));
    table.push_back(static_cast<std::uint8_t>(r.opcode));
    table.push_back(r.rd);
    table.push_back(r.rs1);
    table.push_back(r.rs2);
    const auto imm = static_cast<std::uint32_t>(r.imm);
    for (int b = 0; b < 4; ++b) table.push_back(static_cast<std::uint8_t>(imm >> (8 * b)));
  }
  t.absorb_bytes("bytecode", table);
  t.absorb_bytes("inputs", st.inputs);
  t.absorb_bytes("outputs", st.outputs);
  t.absorb_u64("trace_length", st.trace_length);
  t.absorb_u64("log_padded_trace_length", log_t);
  t.absorb_u64("pcs_kind", pcs_kind);
  t.absorb_bytes("pcs_parameters",
                 std::span(reinterpret_cast<const std::uint8_t*>(pcs_parameters.data()),
                           pcs_parameters.size()));
  t.absorb_u64("num_columns", num_columns);
}

const std::vector<std::uint32_t>& product_factor_columns() {
  static const std::vector<std::uint32_t> cols = [] {
    std::vector<std::uint32_t> c;
    for (const auto& p : r1cs::products())
      for (const r1cs::LinearForm* f : {&p.left, &p.right})
        for (auto [col, k] : f->terms) c.push_back(col);
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    return c;
  }();
  return cols;
}

Expr outer_expr() {
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  return e;
}

Fr outer_expected(std::span<const Fr> tau, std::span<const Fr> point, std::span<const Fr> v1) {
  const auto row_point = point.subspan(0, r1cs::kRowBits);
  const std::vector<Fr> row_eq = EqPolynomial::evals(row_point);
  Fr a = Fr::zero(), b = Fr::zero();
  const auto& rows = r1cs::constraints();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    a += row_eq[k] * rows[k].a.evaluate(v1);
    b += row_eq[k] * rows[k].b.evaluate(v1);
  }
  return EqPolynomial::evaluate(tau, point) * a * b;
}

namespace {
Linear to_leaves(const r1cs::LinearForm& f) {
  const auto& cols = product_factor_columns();
  Linear l{Fr::from_i64(f.constant), {}};
  for (auto [c, k] : f.terms) {
    const auto idx =
        static_cast<std::uint32_t>(std::find(cols.begin(), cols.end(), c) - cols.begin());
    l.terms.push_back({1 + idx, Fr::from_i64(k)});
  }
  return l;
}
}  // namespace

Expr product_expr(const Fr& gamma) {
  Expr e;
  Fr g = Fr::one();
  for (const auto& p : r1cs::products()) {
    e.add_product(g, {Linear::leaf(0), to_leaves(p.left), to_leaves(p.right)});
    g *= gamma;
  }
  return e;
}

Fr product_input(const Fr& gamma, std::span<const Fr> v1) {
  Fr acc = Fr::zero(), g = Fr::one();
  for (const auto& p : r1cs::products()) {
    acc += g * v1[p.out];
    g *= gamma;
  }
  return acc;
}

Expr shift_expr(const Fr& gamma) {
  Expr e;
  e.add_product(Fr::from_u64(64), {Linear::leaf(0), Linear::leaf(1)});
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(3)});
  e.add_product(gamma, {Linear::leaf(0), Linear::one_minus(2)});
  return e;
}

Fr shift_input(const Fr& gamma, std::span<const Fr> v1) {
  return v1[r1cs::kNextExpandedPC] + gamma * (Fr::one() - v1[r1cs::kNextIsNoop]);
}

Expr entry_expr() {
  Expr e;
  e.add_product(Fr::from_u64(64), {Linear::leaf(0), Linear::leaf(1)});
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(2)});
  return e;
}

Fr entry_input(std::uint32_t entry) {
  return Fr::from_u64(64 * std::uint64_t{entry});
}

Expr point_expr() {
  Expr e;
  e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1)});
  return e;
}

std::vector<Fr> cycle_point(std::uint64_t c, std::size_t n) {
  std::vector<Fr> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = ((c >> (n - 1 - i)) & 1) ? Fr::one() : Fr::zero();
  return p;
}

const std::vector<std::uint32_t>& shift_columns() {
  static const std::vector<std::uint32_t> c = {r1cs::kUnexpandedPC, r1cs::kIsNoop, r1cs::kIsEcall,
                                               r1cs::kSequenceIndex};
  return c;
}

const std::vector<std::uint32_t>& register_columns() {
  using namespace r1cs;
  static const std::vector<std::uint32_t> c = {kRs1Index,  kRs2Index,     kRdIndex,     kRs1Value,
                                               kRs2Value,  kRdWriteValue, kRdReadValue, kRs1ReadTs,
                                               kRs2ReadTs, kRdReadTs};
  return c;
}

Fr cycle_index(std::span<const Fr> r_low) {
  Fr acc = Fr::zero();
  for (const Fr& r : r_low) acc = acc + acc + r;
  return acc;
}

Fr register_fingerprint(const Fr& gamma, const Fr& reg, const Fr& value, const Fr& timestamp) {
  return reg + gamma * (value + gamma * timestamp);
}

Fr register_leaf_p(std::span<const Fr> r_top, std::span<const Fr> v) {
  const std::vector<Fr> e = EqPolynomial::evals(r_top);
  (void)v;
  return e[0] + e[1] + e[2] - e[3] - e[4] - e[5];
}

Fr register_leaf_q(const Fr& alpha, const Fr& gamma, std::span<const Fr> r_top,
                   std::span<const Fr> r_low, std::span<const Fr> v) {
  const std::vector<Fr> e = EqPolynomial::evals(r_top);
  const Fr four_t = Fr::from_u64(4) * cycle_index(r_low);
  // v: Rs1Index, Rs2Index, RdIndex, Rs1Value, Rs2Value, RdWriteValue, RdReadValue, Rs1ReadTs,
  // Rs2ReadTs, RdReadTs
  const Fr w0 = register_fingerprint(gamma, v[0], v[3], four_t + Fr::from_u64(1));
  const Fr w1 = register_fingerprint(gamma, v[1], v[4], four_t + Fr::from_u64(2));
  const Fr w2 = register_fingerprint(gamma, v[2], v[5], four_t + Fr::from_u64(3));
  const Fr r0 = register_fingerprint(gamma, v[0], v[3], v[7]);
  const Fr r1 = register_fingerprint(gamma, v[1], v[4], v[8]);
  const Fr r2 = register_fingerprint(gamma, v[2], v[6], v[9]);
  return e[0] * (alpha - w0) + e[1] * (alpha - w1) + e[2] * (alpha - w2) + e[3] * (alpha - r0) +
         e[4] * (alpha - r1) + e[5] * (alpha - r2) + e[6] + e[7];
}

const std::vector<std::uint32_t>& range_columns() {
  using namespace r1cs;
  static const std::vector<std::uint32_t> c = {
      kRs1ReadTs, kRs2ReadTs, kRdReadTs, kRangeCount0, kRangeCount1, kRangeCount2, kRangeCount3};
  return c;
}

Fr range_leaf_p(std::span<const Fr> r_top, std::span<const Fr> v) {
  const std::vector<Fr> e = EqPolynomial::evals(r_top);
  return e[0] + e[1] + e[2] - e[4] * v[3] - e[5] * v[4] - e[6] * v[5] - e[7] * v[6];
}

Fr range_leaf_q(const Fr& alpha, std::span<const Fr> r_top, std::span<const Fr> r_low,
                std::span<const Fr> v) {
  const std::vector<Fr> e = EqPolynomial::evals(r_top);
  const Fr t = cycle_index(r_low);
  const Fr four_t = Fr::from_u64(4) * t;
  const Fr T = Fr::from_u64(std::uint64_t{1} << r_low.size());
  Fr q = e[3];
  for (std::uint64_t j = 0; j < 3; ++j) q += e[j] * (alpha - (four_t + Fr::from_u64(j) - v[j]));
  for (std::uint64_t c = 0; c < 4; ++c) q += e[4 + c] * (alpha - (Fr::from_u64(c) * T + t));
  return q;
}

std::vector<Fr> powers(const Fr& g, std::size_t n) {
  std::vector<Fr> p(n);
  Fr x = Fr::one();
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = x;
    x *= g;
  }
  return p;
}

Expr fraction_layer_expr(const Fr& lambda, bool leaf_layer) {
  Expr e;
  if (leaf_layer) {  // leaves 0 eq, 1 Q0, 2 Q1
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(2)});
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1)});
    e.add_product(lambda, {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
  } else {  // leaves 0 eq, 1 P0, 2 P1, 3 Q0, 4 Q1
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(4)});
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(2), Linear::leaf(3)});
    e.add_product(lambda, {Linear::leaf(0), Linear::leaf(3), Linear::leaf(4)});
  }
  return e;
}

const std::vector<std::uint32_t>& committed_trace_columns() {
  static const std::vector<std::uint32_t> v = [] {
    std::vector<std::uint32_t> out;
    for (std::uint32_t c = 0; c < kNumColumns; ++c)
      if (!is_bytecode_column(c) &&
          std::find(r1cs::kLookupColumns.begin(), r1cs::kLookupColumns.end(), c) ==
              r1cs::kLookupColumns.end())
        out.push_back(c);
    return out;
  }();
  return v;
}

std::size_t num_committed_columns(unsigned index_bits, unsigned ram_bits) {
  return committed_trace_columns().size() + r1cs::kKeyBits + index_bits + ram_bits;
}

bool is_bytecode_column(std::uint32_t c) {
  return c < kNumColumns && bytecode_field(c) < r1cs::kNumBytecodeColumns;
}

std::uint32_t bytecode_field(std::uint32_t c) {
  for (std::uint32_t i = 0; i < r1cs::kNumBytecodeColumns; ++i)
    if (r1cs::kBytecodeColumns[i] == c) return i;
  return r1cs::kNumBytecodeColumns;
}

std::vector<std::vector<Fr>> bytecode_entries(const std::vector<TraceRow>& table) {
  std::vector<std::vector<Fr>> out(table.size());
  for (std::size_t k = 0; k < table.size(); ++k) {
    const auto v = r1cs::bytecode_values(table[k]);
    out[k].assign(v.begin(), v.end());
  }
  return out;
}

std::vector<ClaimSet> stage_claim_sets(const StageOpenings& o) {
  static const std::vector<std::uint32_t> all = [] {
    std::vector<std::uint32_t> v(kNumColumns);
    for (std::uint32_t c = 0; c < kNumColumns; ++c) v[c] = c;
    return v;
  }();
  const auto set = [](std::span<const Fr> r, const std::vector<std::uint32_t>& cols,
                      std::span<const Fr> v) {
    if (v.size() != cols.size())
      throw std::logic_error("stage_claim_sets: " + std::to_string(v.size()) + " claims for " +
                             std::to_string(cols.size()) + " columns");
    return ClaimSet{{r.begin(), r.end()}, cols, {v.begin(), v.end()}};
  };
  return {set(o.r1, all, o.v1),
          set(o.r2, product_factor_columns(), o.v2),
          set(o.r3, shift_columns(), o.v3),
          set(o.r4, register_columns(), o.v4),
          set(o.r5, range_columns(), o.v5),
          set(o.r_lookup, lookup_flag_columns(), o.v_lookup)};
}

ClaimSet index_bit_claims(std::span<const Fr> point, std::span<const Fr> bits) {
  ClaimSet s{{point.begin(), point.end()}, {}, {bits.begin(), bits.end()}};
  for (std::uint32_t b = 0; b < bits.size(); ++b) s.columns.push_back(kIndexBitColumn + b);
  return s;
}

ClaimSet key_bit_claims(std::span<const Fr> point, std::span<const Fr> bits) {
  if (bits.size() != r1cs::kKeyBits)
    throw std::logic_error("key_bit_claims: " + std::to_string(bits.size()) + " key bits");
  ClaimSet s{{point.begin(), point.end()}, {}, {bits.begin(), bits.end()}};
  for (std::uint32_t b = 0; b < bits.size(); ++b) s.columns.push_back(kKeyBitColumn + b);
  return s;
}

ClaimSet ram_bit_claims(unsigned index_bits, std::span<const Fr> point, std::span<const Fr> bits) {
  ClaimSet s{{point.begin(), point.end()}, {}, {bits.begin(), bits.end()}};
  for (std::uint32_t b = 0; b < bits.size(); ++b)
    s.columns.push_back(ram_bit_column(index_bits, b));
  return s;
}

ClaimSet ram_inc_claim(std::span<const Fr> point, const Fr& value) {
  return ClaimSet{{point.begin(), point.end()}, {r1cs::kRamInc}, {value}};
}

ClaimSet ram_access_flag_claims(std::span<const Fr> point, std::span<const Fr> load_store) {
  if (load_store.size() != 2) throw std::logic_error("ram_access_flag_claims: two flags");
  return ClaimSet{{point.begin(), point.end()},
                  {r1cs::kLoad, r1cs::kStore},
                  {load_store.begin(), load_store.end()}};
}

std::vector<lookups::BytecodeClaimGroup> bytecode_claim_groups(std::span<const ClaimSet> sets) {
  std::vector<lookups::BytecodeClaimGroup> out;
  for (const ClaimSet& s : sets) {
    lookups::BytecodeClaimGroup g;
    g.point = s.point;
    for (std::size_t i = 0; i < s.columns.size(); ++i)
      if (is_bytecode_column(s.columns[i])) {
        g.fields.push_back(bytecode_field(s.columns[i]));
        g.claims.push_back(s.values[i]);
      }
    if (!g.fields.empty()) out.push_back(std::move(g));
  }
  return out;
}

std::vector<ClaimSet> reduction_groups(std::span<const ClaimSet> sets) {
  static const std::vector<std::uint32_t> position = [] {
    std::vector<std::uint32_t> p(kNumColumns, ~0u);
    const auto& c = committed_trace_columns();
    for (std::uint32_t i = 0; i < c.size(); ++i) p[c[i]] = i;
    return p;
  }();
  const auto trace = static_cast<std::uint32_t>(committed_trace_columns().size());
  std::vector<ClaimSet> out;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const ClaimSet& s = sets[k];
    ClaimSet g;
    g.point = s.point;
    for (std::size_t i = 0; i < s.columns.size(); ++i) {
      const std::uint32_t c = s.columns[i];
      // The lookup columns are virtual, and the instruction read-raf proves only stage 1's
      // claims about them (set 0, at r1): a claim anywhere else would be checked by nothing.
      if (k != 0 && c < kNumColumns &&
          std::find(r1cs::kLookupColumns.begin(), r1cs::kLookupColumns.end(), c) !=
              r1cs::kLookupColumns.end())
        throw std::logic_error("reduction_groups: a claim about lookup column " +
                               std::string(r1cs::column_name(c)) +
                               " outside stage 1, which the instruction read-raf does not prove");
      if (c >= kNumColumns) {  // a key bit or an index bit
        g.columns.push_back(trace + (c - kNumColumns));
      } else if (position[c] != ~0u) {
        g.columns.push_back(position[c]);
      } else {
        continue;  // a bytecode column or a lookup column: not committed
      }
      g.values.push_back(s.values[i]);
    }
    if (!g.columns.empty()) out.push_back(std::move(g));
  }
  return out;
}

Expr reduction_expr(std::size_t groups) {
  Expr e;
  const auto n = static_cast<std::uint32_t>(groups);
  for (std::uint32_t g = 0; g < n; ++g)
    e.add_product(Fr::one(), {Linear::leaf(g), Linear::leaf(n + g)});
  return e;
}

std::vector<Fr> reduction_weights(const Fr& beta, std::span<const ClaimSet> groups) {
  std::size_t n = 0;
  for (const ClaimSet& g : groups) n += g.columns.size();
  return powers(beta, n);
}

Fr reduction_input(std::span<const Fr> w, std::span<const ClaimSet> groups) {
  Fr acc = Fr::zero();
  std::size_t k = 0;
  for (const ClaimSet& g : groups)
    for (const Fr& v : g.values) {
      if (k == w.size()) throw std::logic_error("reduction_input: more claims than weights");
      acc += w[k++] * v;
    }
  if (k != w.size()) throw std::logic_error("reduction_input: fewer claims than weights");
  return acc;
}

std::vector<Fr> reduction_folds(std::span<const Fr> w, std::span<const ClaimSet> groups,
                                std::span<const Fr> v) {
  std::vector<Fr> out;
  std::size_t k = 0;
  for (const ClaimSet& g : groups) {
    Fr f = Fr::zero();
    for (std::uint32_t c : g.columns) f += w[k++] * v[c];
    out.push_back(f);
  }
  return out;
}

bool fraction_root_vanishes(const Fr& p_root, const Fr& q_root, const Fraction& extra) {
  return !q_root.is_zero() && !extra.den.is_zero() &&
         (p_root * extra.den + extra.num * q_root).is_zero();
}

const std::vector<std::uint32_t>& lookup_flag_columns() {
  static const std::vector<std::uint32_t> c = [] {
    std::vector<std::uint32_t> v;
    for (std::uint32_t t = 0; t < lookups::kNumInstructionTables; ++t)
      v.push_back(r1cs::kTableRangeCheck + t);
    v.push_back(r1cs::kLookupIsOneOperand);
    return v;
  }();
  return c;
}

lookups::InstructionLookupClaims lookup_input_claims(std::span<const Fr> v1) {
  return {v1[r1cs::kLookupOutput], v1[r1cs::kLeftLookupOperand], v1[r1cs::kRightLookupOperand]};
}

Fraction register_boundary_side(std::span<const Fr> fin_v, std::span<const Fr> fin_ts,
                                const Fr& gamma, const Fr& alpha) {
  Fraction f;
  for (std::uint32_t r = 0; r < r1cs::kNumRegisters; ++r) {
    const Fr reg = Fr::from_u64(r);
    f.add(Fr::one(),
          alpha - register_fingerprint(gamma, reg, r1cs::initial_register_value(r), Fr::zero()));
    f.add(-Fr::one(), alpha - register_fingerprint(gamma, reg, fin_v[r], fin_ts[r]));
  }
  return f;
}

std::uint32_t initial_ram_word(const Program& program, std::span<const std::uint8_t> inputs,
                               std::uint32_t a) {
  std::uint32_t w = 0;
  for (std::uint32_t b = 0; b < 4; ++b) {
    const std::uint32_t addr = a + b;
    std::uint32_t byte = 0;
    if (addr - kInputBase < kInputMax) {
      const std::uint64_t off = addr - kInputBase;
      const auto n = static_cast<std::uint32_t>(inputs.size());
      if (off < 4)
        byte = (n >> (8 * off)) & 0xff;
      else if (off - 4 < inputs.size())
        byte = inputs[off - 4];
    } else {
      for (const Segment& s : program.image)
        if (addr - s.vaddr < s.data.size()) byte = s.data[addr - s.vaddr];
    }
    w |= byte << (8 * b);
  }
  return w;
}

bool ram_word_read_only(const Program& program, std::uint32_t a) {
  if (a - kInputBase < kInputMax) return true;
  for (const Segment& s : program.image)
    if (s.executable && static_cast<std::uint64_t>(a) + 4 > s.vaddr &&
        a < static_cast<std::uint64_t>(s.vaddr) + s.memsz)
      return true;
  return false;
}

namespace {

struct MapRegion {
  std::uint32_t base, size;  // bytes
};
constexpr std::array<MapRegion, 3> kMemoryMap = {
    {{kRamBase, kRamSize}, {kInputBase, kInputMax}, {kOutputBase, kOutputMax}}};

unsigned words_log2(std::uint64_t words) {
  unsigned k = 0;
  while ((std::uint64_t{1} << k) < words) ++k;
  return k;
}

// The region of the memory map holding [address, address + bytes), if one does.
const MapRegion* map_region(std::uint64_t address, std::uint64_t bytes) {
  for (const MapRegion& m : kMemoryMap)
    if (address >= m.base && address + bytes <= std::uint64_t{m.base} + m.size) return &m;
  return nullptr;
}

}  // namespace

std::vector<memory::RamRegion> ram_regions(const Program& program,
                                           std::span<const std::uint8_t> inputs,
                                           std::span<const std::uint8_t> outputs,
                                           std::span<const std::uint32_t> accessed) {
  // Per memory-map region: the highest word used (input/output: from the base), and for RAM the
  // lowest word used in the upper half (the stack) and the highest in the lower half.
  const std::uint32_t ram_mid = kRamBase + kRamSize / 2;
  std::uint64_t input_end = kInputBase + 4 + inputs.size();  // bytes
  std::uint64_t output_end = kOutputBase + 4 + outputs.size();
  std::uint64_t low_end = kRamBase, high_begin = std::uint64_t{kRamBase} + kRamSize;
  auto use = [&](std::uint64_t a, std::uint64_t bytes) {
    if (a >= kInputBase && a < std::uint64_t{kInputBase} + kInputMax) {
      input_end = std::max(input_end, a + bytes);
    } else if (a >= kOutputBase && a < std::uint64_t{kOutputBase} + kOutputMax) {
      output_end = std::max(output_end, a + bytes);
    } else if (a >= kRamBase && a < ram_mid) {
      low_end = std::max(low_end, a + bytes);
    } else if (a >= ram_mid && a < std::uint64_t{kRamBase} + kRamSize) {
      high_begin = std::min(high_begin, a);
    }
  };
  for (const Segment& s : program.image)
    if (s.memsz > 0) {
      use(s.vaddr, s.memsz);
      use(std::uint64_t{s.vaddr} + s.memsz - 1, 1);
    }
  for (std::uint32_t a : accessed) use(a & ~3u, 4);
  auto words = [](std::uint64_t bytes) { return static_cast<std::uint32_t>((bytes + 3) / 4); };
  std::vector<memory::RamRegion> out;
  out.push_back({kInputBase, std::min(words(input_end - kInputBase), kInputMax / 4)});
  out.push_back({kOutputBase, std::min(words(output_end - kOutputBase), kOutputMax / 4)});
  const std::uint64_t top = std::uint64_t{kRamBase} + kRamSize;
  const std::uint32_t low_words = words(low_end - kRamBase);
  const std::uint32_t high_words = words(top - high_begin);
  const std::uint64_t low_block = std::uint64_t{4} << words_log2(low_words);
  const std::uint64_t high_block = std::uint64_t{4} << words_log2(high_words);
  if (low_words > 0 && high_words > 0 && kRamBase + low_block > top - high_block) {
    out.push_back({kRamBase, kRamSize / 4});  // the two blocks would overlap: all of RAM
  } else {
    if (low_words > 0) out.push_back({kRamBase, low_words});
    if (high_words > 0)
      out.push_back({static_cast<std::uint32_t>(top - high_block),
                     static_cast<std::uint32_t>(high_block / 4)});
  }
  return out;
}

bool ram_regions_in_map(std::span<const memory::RamRegion> regions) {
  if (regions.size() > kMaxRamRegions) return false;
  for (const memory::RamRegion& r : regions) {
    if (r.words == 0 || r.address % 4 != 0) return false;
    if (!map_region(r.address, std::uint64_t{4} << words_log2(r.words))) return false;
  }
  return true;
}

std::uint32_t output_tail_mask(std::size_t output_bytes) {
  const std::size_t used = (4 + output_bytes) % 4;  // bytes of the last word the output uses
  return used == 0 ? 0u : ~((1u << (8 * used)) - 1u);
}

void absorb_ram_layout(Transcript& t, std::span<const memory::RamRegion> regions,
                       std::uint32_t output_tail) {
  std::vector<std::uint8_t> b;
  for (const memory::RamRegion& r : regions)
    for (std::uint32_t v : {r.address, r.words})
      for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  t.absorb_bytes("ram_regions", b);
  t.absorb_u64("ram_output_tail", output_tail);
}

RamPublic ram_public(const memory::RamLayout& layout, const Program& program,
                     std::span<const std::uint8_t> inputs, std::span<const std::uint8_t> outputs,
                     std::uint32_t output_tail) {
  RamPublic p;
  // The initial image: every non-zero word of a segment or of the input region inside a block.
  std::vector<std::uint32_t> image_words;
  for (const Segment& s : program.image)
    for (std::uint64_t a = s.vaddr & ~3u; a < std::uint64_t{s.vaddr} + s.memsz; a += 4)
      image_words.push_back(static_cast<std::uint32_t>(a));
  for (std::uint64_t a = kInputBase; a < std::uint64_t{kInputBase} + 4 + inputs.size(); a += 4)
    image_words.push_back(static_cast<std::uint32_t>(a));
  std::sort(image_words.begin(), image_words.end());
  image_words.erase(std::unique(image_words.begin(), image_words.end()), image_words.end());
  for (std::uint32_t a : image_words) {
    const auto k = layout.compact_index(a);
    if (!k) continue;
    const std::uint32_t v = initial_ram_word(program, inputs, a);
    if (v != 0) p.init.push_back({*k, v});
  }
  // The final words the statement fixes: the output region (its length word, then the bytes;
  // the rest of the last word is the proof's output tail) ...
  std::vector<std::uint8_t> expected(4 + outputs.size());
  const auto n = static_cast<std::uint32_t>(outputs.size());
  for (std::uint32_t b = 0; b < 4; ++b) expected[b] = static_cast<std::uint8_t>(n >> (8 * b));
  std::copy(outputs.begin(), outputs.end(), expected.begin() + 4);
  const std::uint32_t tail = output_tail & output_tail_mask(outputs.size());
  expected.resize((expected.size() + 3) / 4 * 4, 0);
  for (std::size_t i = 0; i < expected.size(); i += 4) {
    std::uint32_t v = expected[i] | expected[i + 1] << 8 | expected[i + 2] << 16 |
                      static_cast<std::uint32_t>(expected[i + 3]) << 24;
    if (i + 4 == expected.size()) v |= tail;
    const auto a = static_cast<std::uint32_t>(kOutputBase + i);
    if (const auto k = layout.compact_index(a))
      p.io.push_back({*k, v});
    else if (v != 0)
      p.unmapped_output_zero = false;
  }
  // ... and every read-only word inside a block keeps its initial value.
  for (const memory::RamSegment& s : layout.segments())
    for (std::uint64_t i = 0; i < (std::uint64_t{1} << s.log_words); ++i) {
      const auto a = static_cast<std::uint32_t>(s.address + 4 * i);
      if (ram_word_read_only(program, a))
        p.io.push_back(
            {static_cast<std::uint32_t>(s.compact_base + i), initial_ram_word(program, inputs, a)});
    }
  return p;
}

memory::RamCycleClaims ram_cycle_claims(std::span<const Fr> v1) {
  return {v1[r1cs::kRamReadValue], v1[r1cs::kRamWriteValue], v1[r1cs::kRamAddress]};
}

Fr padding_indicator(std::uint64_t L, std::span<const Fr> r) {
  const std::size_t n = r.size();
  if (n < 64 && (L >> n) != 0) return Fr::zero();  // L ≥ 2^n: no padding cycles
  // Σ_{t<L} eq(r,t): for each 1-bit of L (MSB first), the prefix agrees with L and this bit is 0.
  Fr below = Fr::zero(), prefix = Fr::one();
  for (std::size_t i = 0; i < n; ++i) {
    const bool bit = (L >> (n - 1 - i)) & 1;
    if (bit) {
      below += prefix * (Fr::one() - r[i]);
      prefix *= r[i];
    } else {
      prefix *= Fr::one() - r[i];
    }
  }
  return Fr::one() - below;
}

}  // namespace jolt::prover::protocol
