// The verifier: fixes the commitment scheme from its configuration and log T from the
// statement, replays the prover's transcript, checks every sumcheck, every stage's final claim
// against the opened evaluations (evaluating Ã, B̃, eq, eq+1 and the padding indicator itself),
// the byte and shift lookups against their tables, the bytecode read-raf against the table it
// builds from the program (the static columns' claims), and the stage-8 opening of every
// committed column at the joint point.
#include <algorithm>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/verify_check.hpp>

#include "pipeline/fraction_tree.hpp"
#include "pipeline/protocol.hpp"

namespace jolt::prover {

namespace {

// A sumcheck failure of stage `stage` ("stage1" + ".sumcheck.round_sum").
std::optional<VerifyError> in_stage(const char* stage, std::optional<VerifyError> e) {
  if (e) e->check = std::string(stage) + "." + e->check;
  return e;
}

std::optional<VerifyError> shape_error(std::string message) {
  return VerifyError{"proof.shape", std::move(message)};
}

std::optional<VerifyError> verify_impl(const Statement& st, std::span<const std::uint8_t> bytes,
                                       const VerifierConfig& config) {
  using r1cs::kNumColumns;
  // What the verifier fixes before reading the proof.
  if (st.trace_length > kMaxTraceLength)
    return VerifyError{"statement.trace_length", "trace_length " + std::to_string(st.trace_length) +
                                                     " exceeds the supported maximum"};
  // The input and the output fit their regions (a longer one could not be read or written).
  JOLT_VERIFY("statement.input_size", st.inputs.size() <= kInputMax - 4,
              "the input has " + std::to_string(st.inputs.size()) +
                  " bytes; the input region holds at most " + std::to_string(kInputMax - 4));
  JOLT_VERIFY("statement.output_size", st.outputs.size() <= kOutputMax - 4,
              "the output has " + std::to_string(st.outputs.size()) +
                  " bytes; the output region holds at most " + std::to_string(kOutputMax - 4));
  const std::size_t log_t = log_padded_trace_length(st.trace_length);
  std::unique_ptr<CommitmentScheme> pcs;
  try {
    pcs = make_commitment_scheme(config.pcs);
  } catch (const std::exception& e) {
    return VerifyError{"config.pcs", e.what()};
  }
  const std::string parameters = pcs->parameters();

  Proof p;
  if (auto e = decode_proof(bytes, p)) return e;
  JOLT_VERIFY("proof.header.pcs", p.pcs_kind == static_cast<std::uint8_t>(config.pcs),
              "proof uses commitment scheme " + std::to_string(p.pcs_kind) +
                  ", the verifier is configured for " + std::string(pcs->name()));
  JOLT_VERIFY("proof.header.parameters", p.pcs_parameters == parameters,
              "proof's scheme parameters '" + p.pcs_parameters + "' differ from the configured '" +
                  parameters + "'");
  JOLT_VERIFY("proof.header.log_t", p.log_t == log_t,
              "proof is for 2^" + std::to_string(p.log_t) + " rows, the statement's trace_length " +
                  std::to_string(st.trace_length) + " pads to 2^" + std::to_string(log_t));
  const std::vector<TraceRow> table = bytecode_table(st.program);
  const unsigned index_bits = lookups::bytecode_index_bits(table.size());
  JOLT_VERIFY("proof.header.ram_regions", protocol::ram_regions_in_map(p.ram_regions),
              "the proof's RAM layout has more than " + std::to_string(protocol::kMaxRamRegions) +
                  " regions, an empty or misaligned one, or a block outside the memory map");
  memory::RamLayout layout;
  {
    std::string overlap;
    try {
      layout = memory::RamLayout::pack(p.ram_regions);
    } catch (const std::invalid_argument& e) {
      overlap = e.what();
    }
    JOLT_VERIFY("proof.header.ram_layout", overlap.empty(), overlap);
  }
  // The image and the final words the statement fixes, in the layout's compact addresses.
  JOLT_VERIFY("proof.header.ram_output_tail",
              (p.ram_output_tail & ~protocol::output_tail_mask(st.outputs.size())) == 0,
              "the proof's output tail has bits outside the bytes after the output in its last "
              "word");
  const protocol::RamPublic ram_pub =
      protocol::ram_public(layout, st.program, st.inputs, st.outputs, p.ram_output_tail);
  JOLT_VERIFY("proof.header.ram_output", ram_pub.unmapped_output_zero,
              "the claimed output (" + std::to_string(st.outputs.size()) +
                  " bytes) has non-zero words outside the proof's RAM layout, which no access "
                  "could have written");
  const std::size_t committed = protocol::num_committed_columns(index_bits, layout.log_k());
  JOLT_VERIFY("proof.header.columns", p.num_columns == committed,
              "proof commits " + std::to_string(p.num_columns) + " columns, the statement has " +
                  std::to_string(committed));
  const auto& factors = protocol::product_factor_columns();
  if (p.stage1_openings.size() != kNumColumns || p.stage2_openings.size() != factors.size() ||
      p.stage3_openings.size() != protocol::shift_columns().size() ||
      p.stage4_openings.size() != protocol::register_columns().size() ||
      p.stage5_openings.size() != protocol::range_columns().size() ||
      p.register_final_values.size() != r1cs::kNumRegisters ||
      p.register_final_timestamps.size() != r1cs::kNumRegisters ||
      p.stage7_openings.size() != committed || p.ram_access_flags.size() != 2)
    return shape_error("wrong number of opening claims");

  Transcript t(protocol::kDomain);
  protocol::absorb_statement(t, st, static_cast<std::uint32_t>(log_t), p.pcs_kind, p.pcs_parameters,
                             p.num_columns);
  protocol::absorb_ram_layout(t, p.ram_regions, p.ram_output_tail);
  t.absorb_bytes("commitment", p.commitment);

  // Stage 1: outer Spartan, claim 0, degree 3, kRowBits + log T rounds.
  const std::vector<Fr> tau = t.challenges("tau", r1cs::kRowBits + log_t);
  SumcheckVerified b1;
  if (auto e = in_stage("stage1",
                        verify_batch({Fr::zero()}, {r1cs::kRowBits + log_t}, 3, p.stage1, t, b1)))
    return e;
  const std::vector<Fr>& v1 = p.stage1_openings;
  JOLT_VERIFY(
      "stage1.final_claim",
      b1.final_claim == b1.coefficients[0] * protocol::outer_expected(tau, b1.challenges, v1),
      "outer Spartan: eq·Az·Bz at the opened column values != final sumcheck claim "
      "(a uniform constraint fails on some cycle)");
  const std::vector<Fr> r1(b1.challenges.begin() + r1cs::kRowBits, b1.challenges.end());
  t.absorb_frs("opening_claim", v1);

  // Stage 2: products.
  const Fr gamma2 = t.challenge("product_gamma");
  const Expr pexpr = protocol::product_expr(gamma2);
  SumcheckVerified b2;
  if (auto e = in_stage("stage2", verify_batch({protocol::product_input(gamma2, v1)}, {log_t},
                                               pexpr.degree(), p.stage2, t, b2)))
    return e;
  const std::vector<Fr>& r2 = b2.challenges;
  const std::vector<Fr>& v2 = p.stage2_openings;
  {
    std::vector<Fr> leaves = {EqPolynomial::evaluate(r1, r2)};
    leaves.insert(leaves.end(), v2.begin(), v2.end());
    JOLT_VERIFY("stage2.final_claim", b2.final_claim == b2.coefficients[0] * pexpr.evaluate(leaves),
                "product constraints do not hold at the opened values");
  }
  t.absorb_frs("opening_claim", v2);

  // Stage 2, RAM: read/write checking on stage 1's RAM claims at r1, the RAF evaluation (the
  // accessed words are the R1CS addresses) and the output check (the final memory holds the
  // claimed output and the read-only words their initial values) over the proof's layout.
  const memory::RamStatement ram_st{&layout, &ram_pub.init, &ram_pub.io, log_t};
  memory::RamOpenings ro;
  if (auto e =
          memory::verify_ram_read_write(ram_st, r1, protocol::ram_cycle_claims(v1), p.ram, t, ro))
    return e;

  // Stage 3: shift + entry PC + exit cycle, one batch of log T rounds → r3.
  const Fr gamma3 = t.challenge("shift_gamma");
  const Expr shift = protocol::shift_expr(gamma3);
  const Expr point = protocol::point_expr();
  const Expr entry = protocol::entry_expr();
  const std::uint64_t last = st.trace_length == 0 ? 0 : st.trace_length - 1;
  SumcheckVerified b3;
  if (auto e = in_stage("stage3",
                        verify_batch({protocol::shift_input(gamma3, v1),
                                      protocol::entry_input(st.program.entry), Fr::one()},
                                     {log_t, log_t, log_t},
                                     std::max({shift.degree(), entry.degree(), point.degree()}),
                                     p.stage3, t, b3)))
    return e;
  const std::vector<Fr>& r3 = b3.challenges;
  const std::vector<Fr>& v3 = p.stage3_openings;  // UnexpandedPC, IsNoop, IsEcall, SequenceIndex
  {
    const std::vector<Fr> sl = {EqPlusOnePolynomial::evaluate(r1, r3), v3[0], v3[1], v3[3]};
    const std::vector<Fr> el = {EqPolynomial::evaluate(protocol::cycle_point(0, log_t), r3), v3[0],
                                v3[3]};
    const std::vector<Fr> xl = {EqPolynomial::evaluate(protocol::cycle_point(last, log_t), r3),
                                v3[2]};
    JOLT_VERIFY("stage3.final_claim",
                b3.final_claim == b3.coefficients[0] * shift.evaluate(sl) +
                                      b3.coefficients[1] * entry.evaluate(el) +
                                      b3.coefficients[2] * point.evaluate(xl),
                "shift (Next* = next row), the entry PC (cycle 0 starts at the program's entry) "
                "or the exit (the last real cycle is an ECALL) does not hold");
  }
  JOLT_VERIFY("stage3.padding", v3[1] == protocol::padding_indicator(st.trace_length, r3),
              "IsNoop does not match the public trace_length");
  t.absorb_frs("opening_claim", v3);

  // Stage 4: register read/write checking against the reset state (r1cs::initial_register_value)
  // and the claimed final state; the guest exits with status 0 (a7 = 0: exit, a0 = 0).
  const auto& fin_v = p.register_final_values;
  const auto& fin_ts = p.register_final_timestamps;
  JOLT_VERIFY("stage4.exit", fin_v[17].is_zero() && fin_v[10].is_zero(),
              "the final registers are a7 = " + fin_v[17].to_hex() + ", a0 = " +
                  fin_v[10].to_hex() + ": the guest did not exit (a7 = 0) with status 0 (a0 = 0)");
  t.absorb_frs("register_final_values", fin_v);
  t.absorb_frs("register_final_timestamps", fin_ts);
  const Fr gamma4 = t.challenge("register_gamma");
  const Fr alpha4 = t.challenge("register_alpha");
  FractionTreeVerified rt;
  if (auto e = in_stage("stage4", verify_fraction_tree(log_t + 3, false, p.register_root_children,
                                                       p.register_layers, t, rt)))
    return e;
  {
    protocol::Fraction boundary = protocol::register_boundary_side(fin_v, fin_ts, gamma4, alpha4);
    JOLT_VERIFY("stage4.memory_sum",
                protocol::fraction_root_vanishes(rt.p_root, rt.q_root, boundary),
                "register reads are not the values last written (or the final register state "
                "differs)");
  }
  const std::vector<Fr> r4(rt.point.begin() + 3, rt.point.end());
  const std::vector<Fr>& v4 = p.stage4_openings;
  {
    const std::span<const Fr> top(rt.point.data(), 3);
    JOLT_VERIFY("stage4.leaf",
                rt.p_leaf_claim == protocol::register_leaf_p(top, v4) &&
                    rt.q_leaf_claim == protocol::register_leaf_q(alpha4, gamma4, top, r4, v4),
                "the register tree's leaves do not match the opened columns");
  }
  t.absorb_frs("opening_claim", v4);
  // Stage 4, RAM: the Val check (Val and Val_final from the increments and the public image).
  if (auto e = memory::verify_ram_val_check(ram_st, p.ram, t, ro)) return e;

  // Stage 5: every read timestamp is earlier than its access.
  const Fr alpha5 = t.challenge("range_alpha");
  FractionTreeVerified gt;
  if (auto e = in_stage("stage5", verify_fraction_tree(log_t + 3, false, p.range_root_children,
                                                       p.range_layers, t, gt)))
    return e;
  JOLT_VERIFY("stage5.range_sum",
              protocol::fraction_root_vanishes(gt.p_root, gt.q_root, protocol::Fraction{}),
              "a register read timestamp is not in [4t + j − 4T + 1, 4t + j] (a read of a later "
              "write) or the range multiplicities are wrong");
  const std::vector<Fr> r5(gt.point.begin() + 3, gt.point.end());
  const std::vector<Fr>& v5 = p.stage5_openings;
  {
    const std::span<const Fr> top(gt.point.data(), 3);
    JOLT_VERIFY("stage5.leaf",
                gt.p_leaf_claim == protocol::range_leaf_p(top, v5) &&
                    gt.q_leaf_claim == protocol::range_leaf_q(alpha5, top, r5, v5),
                "the range tree's leaves do not match the opened columns");
  }
  t.absorb_frs("opening_claim", v5);

  // Stage 5, the instruction read-raf: stage 1's LookupOutput and lookup-operand claims at r1
  // are the tables' values and the keys' halves (or the keys) for every cycle; it leaves the
  // table and RAF flags at its cycle point (bytecode columns) and the chunk claims for stage 6b.
  lookups::InstructionLookupOpenings lo;
  if (auto e = lookups::verify_instruction_read_raf(
          32, log_t, r1, protocol::lookup_input_claims(v1), p.instruction_lookups, t, lo))
    return e;
  std::vector<Fr> v_lookup = lo.flags;
  v_lookup.push_back(lo.raf);
  // Stage 5, RAM: the RA claims of stages 2 and 4 from the committed address bits, gated by the
  // access flag, which is Load + Store (bytecode columns: claims for the read-raf).
  if (auto e = memory::verify_ram_ra(ram_st, r1, p.ram, t, ro)) return e;
  JOLT_VERIFY("stage5.ram_access_flags",
              ro.accessed == p.ram_access_flags[0] + p.ram_access_flags[1],
              "RAM's access gate at its point is not Load + Store there");
  t.absorb_frs("ram_access_flags", p.ram_access_flags);

  // Stages 6a/6b: every claim about a static column, by the bytecode read-raf against the table
  // built from the program; it leaves the index bits' claims at its RA point.
  std::vector<protocol::ClaimSet> claims = protocol::stage_claim_sets(
      {r1, v1, r2, v2, r3, v3, r4, v4, r5, v5, lo.read_raf_point, v_lookup});
  claims.push_back(protocol::ram_access_flag_claims(ro.bit_point, p.ram_access_flags));
  claims.push_back(protocol::ram_inc_claim(ro.read_write_cycle, ro.inc_at_read_write));
  claims.push_back(protocol::ram_inc_claim(ro.val_check_cycle, ro.inc_at_val_check));
  const std::vector<lookups::BytecodeClaimGroup> groups = protocol::bytecode_claim_groups(claims);
  lookups::BytecodeReadRafOpenings bo;
  if (auto e = lookups::verify_bytecode_read_raf(protocol::bytecode_entries(table), log_t, groups,
                                                 p.bytecode, t, bo))
    return e;
  claims.push_back(protocol::index_bit_claims(bo.bit_point, bo.index_bits));
  // Stage 6b, second: the instruction lookups' RA virtualization over the committed key bits.
  if (auto e = lookups::verify_instruction_key_bits(32, log_t, p.instruction_lookups, t, lo))
    return e;
  claims.push_back(protocol::key_bit_claims(lo.bit_point, lo.key_bits));
  claims.push_back(protocol::ram_bit_claims(index_bits, ro.bit_point, ro.address_bits));

  // Stage 7: every claim about a committed column reduced to one point r7.
  const std::vector<protocol::ClaimSet> rgroups = protocol::reduction_groups(claims);
  const Fr beta = t.challenge("reduction_gamma");
  const Expr red = protocol::reduction_expr(rgroups.size());
  const std::vector<Fr> weights = protocol::reduction_weights(beta, rgroups);
  SumcheckVerified b7;
  if (auto e = in_stage("stage7", verify_batch({protocol::reduction_input(weights, rgroups)},
                                               {log_t}, red.degree(), p.stage7, t, b7)))
    return e;
  const std::vector<Fr>& r7 = b7.challenges;
  const std::vector<Fr>& v7 = p.stage7_openings;
  {
    std::vector<Fr> leaves;
    for (const auto& g : rgroups) leaves.push_back(EqPolynomial::evaluate(g.point, r7));
    for (const Fr& f : protocol::reduction_folds(weights, rgroups, v7)) leaves.push_back(f);
    JOLT_VERIFY("stage7.final_claim", b7.final_claim == b7.coefficients[0] * red.evaluate(leaves),
                "the opened columns at r7 do not reduce the earlier claims");
  }
  t.absorb_frs("opening_claim", v7);

  // Stage 8: every committed column at r7.
  Commitment com;
  com.bytes = p.commitment;
  com.num_vars = static_cast<std::uint32_t>(log_t);
  com.num_polys = static_cast<std::uint32_t>(committed);
  return pcs->verify(com, r7, v7, p.pcs_opening, t);
}

}  // namespace

std::optional<VerifyError> verify(const Statement& st, std::span<const std::uint8_t> bytes,
                                  const VerifierConfig& config) {
  // A malformed proof must never escape as an exception (e.g. an allocation failure).
  try {
    return verify_impl(st, bytes, config);
  } catch (const std::exception& e) {
    return VerifyError{"internal", std::string("verifier error: ") + e.what()};
  }
}

}  // namespace jolt::prover
