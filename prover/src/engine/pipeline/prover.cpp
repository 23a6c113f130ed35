// The M1 staged prover: stage 0 commit, 1 outer Spartan, 2 products, 3 shift + claim
// reduction, 8 joint opening. Stages 4–7 do not exist in M1.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <functional>
#include <jolt/heap.hpp>
#include <jolt/instrument.hpp>
#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/pipeline/prover.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/spartan_outer.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/sumcheck/session.hpp>
#include <stdexcept>

#include "pipeline/m1_protocol.hpp"

namespace jolt::prover {

namespace {

using m1::kNumColumns;

constexpr KernelLabels kProductLabels = {"ProductVirtualization::prepare",
                                         "ProductVirtualization::prove_round",
                                         "ProductVirtualization::finish_rounds"};
constexpr KernelLabels kShiftLabels = {"SpartanShift::prepare", "SpartanShift::prove_round",
                                       "SpartanShift::finish_rounds"};
constexpr KernelLabels kReductionLabels = {"ColumnClaimReduction::prepare",
                                           "ColumnClaimReduction::prove_round",
                                           "ColumnClaimReduction::finish_rounds"};

// Session state passed between stages.
struct Witness : jolt::HeapReportable {
  std::vector<std::vector<Fr>> columns;
  std::size_t log_t = 0;
  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "Witness");
    std::uint64_t b = columns.capacity() * sizeof(std::vector<Fr>);
    for (const auto& c : columns) b += c.capacity() * sizeof(Fr);
    v.bytes("columns", b);
  }
};
struct Stage1Out {
  std::vector<Fr> r1;  // cycle point
  std::vector<Fr> v1;  // every column at r1
};
struct Stage2Out {
  std::vector<Fr> r2;
  std::vector<Fr> v2;  // product factor columns at r2
};
struct Stage3Out {
  std::vector<Fr> r3;
  std::vector<Fr> v3;  // every column at r3 (the joint opening point)
};

// All columns at one point: one eq table, one dot product per column (parallel over columns).
std::vector<Fr> evaluate_columns(const std::vector<std::vector<Fr>>& cols,
                                 const std::vector<std::uint32_t>& which,
                                 std::span<const Fr> point) {
  const std::vector<Fr> e = EqPolynomial::evals(point);
  std::vector<Fr> out(which.size());
  tbb::parallel_for(std::size_t{0}, which.size(), [&](std::size_t i) {
    const auto& c = cols[which[i]];
    Fr acc = Fr::zero();
    for (std::size_t t = 0; t < c.size(); ++t) acc += e[t] * c[t];
    out[i] = acc;
  });
  return out;
}

std::vector<std::span<const Fr>> column_spans(const std::vector<std::vector<Fr>>& cols) {
  return std::vector<std::span<const Fr>>(cols.begin(), cols.end());
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

using ColumnSource = std::function<std::vector<std::vector<Fr>>()>;

class M1Prover {
 public:
  M1Prover(const Statement& st, const ProverOptions& opt)
      : st_(st), opt_(opt), t_(m1proto::kDomain) {}

  // Stage 0: absorb the statement, extract the committed columns, commit, absorb.
  void prove_stage0(std::size_t log_t, const ColumnSource& make_columns) {
    JOLT_STAGE_SPAN("prove_stage0");
    Witness w;
    w.log_t = log_t;
    pcs_ = make_commitment_scheme(opt_.pcs);
    proof_.pcs_kind = static_cast<std::uint8_t>(opt_.pcs);
    proof_.log_t = static_cast<std::uint32_t>(w.log_t);
    proof_.num_columns = kNumColumns;
    m1proto::absorb_statement(t_, st_, proof_.log_t, proof_.pcs_kind, proof_.num_columns);
    {
      JOLT_SPAN("commit_witness", jolt::arg("columns", kNumColumns), jolt::arg("log_t", w.log_t));
      w.columns = make_columns();
      CommitOutput c = pcs_->commit(column_spans(w.columns));
      proof_.commitment = std::move(c.commitment.bytes);
      pcs_data_ = std::move(c.data);
    }
    t_.absorb_bytes("commitment", proof_.commitment);
    session_.park(std::move(w));
  }

  void prove_stage1() {
    JOLT_STAGE_SPAN("prove_stage1");
    JOLT_SPAN("Stage1Batch::prove");
    const Witness& w = session_.get<Witness>();
    const std::vector<Fr> tau = t_.challenges("tau", m1::kRowBits + w.log_t);
    std::unique_ptr<SpartanOuterKernel> k;
    {
      JOLT_SPAN(SpartanOuterKernel::kLabels.prepare);
      k = std::make_unique<SpartanOuterKernel>(w.columns, tau);
    }
    snapshot("Stage1Batch_prepared", {&w, k.get(), pcs_data_.get()});
    BatchProverOutput out = prove_batch({{k.get(), Fr::zero()}}, t_, opt_.self_check);
    Stage1Out s;
    s.r1.assign(out.challenges.begin() + m1::kRowBits, out.challenges.end());
    s.v1 = evaluate_columns(w.columns, all_columns(), s.r1);
    expect_final(opt_.self_check, out.final_claim,
                 out.coefficients[0] * m1proto::outer_expected(tau, out.challenges, s.v1),
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
    const Stage1Out& s1 = session_.get<Stage1Out>();
    const Fr gamma = t_.challenge("product_gamma");
    const auto& factors = m1proto::product_factor_columns();
    const Expr expr = m1proto::product_expr(gamma);
    std::unique_ptr<NaiveKernel> k;
    {
      JOLT_SPAN(kProductLabels.prepare);
      std::vector<std::vector<Fr>> leaves;
      leaves.push_back(EqPolynomial::evals(s1.r1));
      for (std::uint32_t c : factors) leaves.push_back(w.columns[c]);
      k = std::make_unique<NaiveKernel>(kProductLabels, std::move(leaves), expr);
    }
    snapshot("Stage2Batch_prepared", {&w, k.get(), pcs_data_.get()});
    BatchProverOutput out =
        prove_batch({{k.get(), m1proto::product_input(gamma, s1.v1)}}, t_, opt_.self_check);
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
    session_.park(std::move(s));
  }

  void prove_stage3() {
    JOLT_STAGE_SPAN("prove_stage3");
    JOLT_SPAN("Stage3::prove");
    const Witness& w = session_.get<Witness>();
    const Stage1Out& s1 = session_.get<Stage1Out>();
    const Stage2Out& s2 = session_.get<Stage2Out>();
    const Fr gamma = t_.challenge("shift_gamma");
    const Fr beta = t_.challenge("reduction_gamma");
    const Expr shift = m1proto::shift_expr(gamma);
    const Expr red = m1proto::reduction_expr();
    const std::vector<Fr> weights = m1proto::reduction_weights(beta);
    std::unique_ptr<NaiveKernel> ks, kr;
    {
      JOLT_SPAN(kShiftLabels.prepare);
      std::vector<std::vector<Fr>> leaves;
      leaves.push_back(EqPlusOnePolynomial::evals(s1.r1));
      leaves.push_back(w.columns[m1::kUnexpandedPC]);
      leaves.push_back(w.columns[m1::kIsNoop]);
      ks = std::make_unique<NaiveKernel>(kShiftLabels, std::move(leaves), shift);
    }
    {
      JOLT_SPAN(kReductionLabels.prepare);
      // Fold the columns once with the β weights: the kernel then has 4 leaves, not N + 2.
      const std::size_t T = w.columns[0].size();
      std::vector<Fr> p1(T), p2(T);
      const auto& factors = m1proto::product_factor_columns();
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, T, 1024),
                        [&](const tbb::blocked_range<std::size_t>& rg) {
                          for (std::size_t t = rg.begin(); t < rg.end(); ++t) {
                            Fr a = Fr::zero(), b = Fr::zero();
                            for (std::size_t c = 0; c < kNumColumns; ++c)
                              a += weights[c] * w.columns[c][t];
                            for (std::size_t i = 0; i < factors.size(); ++i)
                              b += weights[kNumColumns + i] * w.columns[factors[i]][t];
                            p1[t] = a;
                            p2[t] = b;
                          }
                        });
      std::vector<std::vector<Fr>> leaves;
      leaves.push_back(EqPolynomial::evals(s1.r1));
      leaves.push_back(EqPolynomial::evals(s2.r2));
      leaves.push_back(std::move(p1));
      leaves.push_back(std::move(p2));
      kr = std::make_unique<NaiveKernel>(kReductionLabels, std::move(leaves), red);
    }
    snapshot("Stage3_prepared", {&w, ks.get(), kr.get(), pcs_data_.get()});
    BatchProverOutput out =
        prove_batch({{ks.get(), m1proto::shift_input(gamma, s1.v1)},
                     {kr.get(), m1proto::reduction_input(weights, s1.v1, s2.v2)}},
                    t_, opt_.self_check);
    Stage3Out s;
    s.r3 = out.challenges;
    s.v3 = evaluate_columns(w.columns, all_columns(), s.r3);
    if (opt_.self_check) {
      const Fr e1 = EqPlusOnePolynomial::evaluate(s1.r1, s.r3);
      const auto [f1, f2] = m1proto::reduction_folds(weights, s.v3);
      const std::vector<Fr> sl = {e1, s.v3[m1::kUnexpandedPC], s.v3[m1::kIsNoop]};
      const std::vector<Fr> rl = {EqPolynomial::evaluate(s1.r1, s.r3),
                                  EqPolynomial::evaluate(s2.r2, s.r3), f1, f2};
      expect_final(
          true, out.final_claim,
          out.coefficients[0] * shift.evaluate(sl) + out.coefficients[1] * red.evaluate(rl),
          "stage 3");
    }
    t_.absorb_frs("opening_claim", s.v3);
    proof_.stage3 = std::move(out.proof);
    proof_.stage3_openings = s.v3;
    session_.park(std::move(s));
  }

  void prove_stage8() {
    JOLT_STAGE_SPAN("prove_stage8");
    const Witness& w = session_.get<Witness>();
    const Stage3Out& s3 = session_.get<Stage3Out>();
    {
      // M1 commits every column densely and all claims already sit at r3, so the joint
      // opening statement is (commitment, v3) over the committed columns in column order.
      JOLT_SPAN("JointOpeningPolynomials::prepare", jolt::arg("polys", w.columns.size()));
      if (s3.v3.size() != w.columns.size()) throw std::logic_error("stage 8: claim count mismatch");
    }
    proof_.pcs_opening = pcs_->open(*pcs_data_, column_spans(w.columns), s3.r3, s3.v3, t_);
    // The stage's working set (witness columns, PCS prover data) is freed inside the stage, so
    // the time the allocator spends releasing it is attributed here rather than to dark time.
    session_ = ProofSession{};
    pcs_data_.reset();
    pcs_.reset();
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
};

std::vector<std::uint8_t> run_prover(const Statement& st, std::size_t log_t,
                                     const ColumnSource& make_columns, const ProverOptions& opt) {
  M1Prover p(st, opt);
  p.prove_stage0(log_t, make_columns);
  p.prove_stage1();
  p.prove_stage2();
  p.prove_stage3();
  p.prove_stage8();
  return p.finish();
}

template <class F>
auto in_arena(std::size_t threads, F&& f) {
  tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : static_cast<int>(threads));
  return arena.execute(std::forward<F>(f));
}

void check_shape(std::size_t rows, std::uint64_t trace_length) {
  if (rows < 4 || !is_power_of_two(rows))
    throw std::invalid_argument("prove: padded row count " + std::to_string(rows) +
                                " is not a power of two >= 4");
  if (trace_length > rows)
    throw std::invalid_argument("prove: trace_length exceeds the padded row count");
}

}  // namespace

std::size_t padded_trace_length(std::size_t n) {
  std::size_t t = 4;
  while (t < n + 1) t <<= 1;
  return t;
}

std::vector<std::uint8_t> prove(const Statement& st, std::span<const TraceRow> rows,
                                const ProverOptions& opt) {
  JOLT_SPAN("jolt_prover::prove", jolt::arg("trace_length", st.trace_length));
  check_shape(rows.size(), st.trace_length);
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const bool pad = rows[t].opcode == Opcode::kNoop;
    if (pad != (t >= st.trace_length))
      throw std::invalid_argument("prove: row " + std::to_string(t) +
                                  (pad ? " is padding but lies before trace_length"
                                       : " is not padding but lies after trace_length"));
  }
  return in_arena(opt.num_threads, [&] {
    return run_prover(
        st, log2_exact(rows.size()), [&] { return m1::extract_columns(rows); }, opt);
  });
}

std::vector<std::uint8_t> prove_columns(const Statement& st, std::vector<std::vector<Fr>> columns,
                                        const ProverOptions& opt) {
  JOLT_SPAN("jolt_prover::prove", jolt::arg("trace_length", st.trace_length));
  if (columns.size() != kNumColumns) throw std::invalid_argument("prove_columns: column count");
  check_shape(columns[0].size(), st.trace_length);
  for (const auto& c : columns)
    if (c.size() != columns[0].size()) throw std::invalid_argument("prove_columns: ragged columns");
  return in_arena(opt.num_threads, [&] {
    return run_prover(
        st, log2_exact(columns[0].size()), [&] { return std::move(columns); }, opt);
  });
}

}  // namespace jolt::prover
