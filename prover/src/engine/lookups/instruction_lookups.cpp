#include <jolt/prover/lookups/instruction_lookups.hpp>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <jolt/instrument.hpp>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <jolt/prover/lookups/instruction_tables.hpp>
#include <jolt/prover/lookups/ra_virtualization.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/eq_weighted_kernel.hpp>
#include <jolt/prover/verify_check.hpp>

namespace jolt::prover::lookups {

namespace {

constexpr std::size_t kLeft = static_cast<std::size_t>(LookupTable::LeftOperand);
constexpr std::size_t kRight = static_cast<std::size_t>(LookupTable::RightOperand);
constexpr std::size_t kIdentity = static_cast<std::size_t>(LookupTable::Identity);
constexpr std::size_t kGrain = 1024;

thread_local ReadRafTimings g_timings;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

unsigned key_bits_of(unsigned word_bits) {
  return 2 * word_bits;
}
unsigned phase_bits(unsigned word_bits) {
  return key_bits_of(word_bits) < kPhaseBits ? key_bits_of(word_bits) : kPhaseBits;
}
unsigned chunk_bits(unsigned word_bits) {
  return key_bits_of(word_bits) < kVirtualChunkBits ? key_bits_of(word_bits) : kVirtualChunkBits;
}

void check_width(unsigned word_bits) {
  const unsigned kb = key_bits_of(word_bits);
  if (word_bits < 2 || word_bits > 32 || kb % phase_bits(word_bits) != 0 ||
      kb % chunk_bits(word_bits) != 0 || !std::has_single_bit(word_bits))
    throw std::invalid_argument("instruction lookups: word width " + std::to_string(word_bits) +
                                " is not a power of two in [2, 32]");
}

// The γ-coefficient of each table group in the read-raf sum.
std::array<Fr, kNumTables> group_coefficients(const Fr& gamma) {
  std::array<Fr, kNumTables> c;
  for (std::size_t t = 0; t < kNumInstructionTables; ++t) c[t] = Fr::one();
  c[kLeft] = gamma;
  c[kRight] = gamma * gamma;
  c[kIdentity] = gamma * gamma;
  return c;
}

// The groups a cycle contributes to: its table (if any), then Left and Right or Identity.
template <class F>
void for_each_group(std::uint8_t table, std::uint8_t raf, F&& f) {
  if (table != kNoTable) f(static_cast<std::size_t>(table));
  if (raf) {
    f(kIdentity);
  } else {
    f(kLeft);
    f(kRight);
  }
}

// The read-raf kernel: 2W address rounds in phases, then ℓ cycle rounds (delegated to an
// EqWeightedKernel: eq(r_cycle, ·) times the product of the n_virt chunk tables and the combined
// table value c).
class ReadRafKernel final : public SumcheckKernel {
 public:
  ReadRafKernel(const InstructionLookupWitness& w, std::span<const Fr> r_cycle, const Fr& gamma)
      : w_(w),
        r_cycle_(r_cycle.begin(), r_cycle.end()),
        coef_(group_coefficients(gamma)),
        key_bits_(key_bits_of(w.word_bits)),
        phase_bits_(phase_bits(w.word_bits)),
        n_virt_(virtual_chunks(w.word_bits)) {
    for (std::size_t g = 0; g < kNumTables; ++g) {
      const auto t = static_cast<LookupTable>(g);
      specs_.push_back(TableSpec::make(t, w.word_bits));
      prefix_[g].resize(specs_[g].states());
      for (std::size_t i = 0; i < specs_[g].states(); ++i)
        prefix_[g][i] = Fr::from_i64(specs_[g].init()[i]);
    }
    for (std::size_t j = 0; j < w.cycles(); ++j)
      for_each_group(w.tables[j], w.raf[j], [&](std::size_t g) { used_[g] = true; });
    weights_ = EqPolynomial::evals(r_cycle_);
    g_timings = ReadRafTimings{};
    g_timings.phase_seconds.assign(key_bits_ / phase_bits_, 0.0);
  }

  const KernelLabels& labels() const override {
    static const KernelLabels l{"InstructionReadRaf::prepare", "InstructionReadRaf::prove_round",
                                "InstructionReadRaf::finish_rounds"};
    return l;
  }
  std::size_t num_rounds() const override { return key_bits_ + r_cycle_.size(); }
  std::size_t degree() const override { return n_virt_ + 2; }

  std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                              const Fr& previous_claim) override {
    if (bind) take_challenge(*bind, round - 1);
    const auto t0 = std::chrono::steady_clock::now();
    if (round < key_bits_) {
      if (round % phase_bits_ == 0) start_phase(round / phase_bits_);
      std::vector<Fr> evals = address_round();
      g_timings.phase_seconds[round / phase_bits_] += seconds_since(t0);
      return evals;
    }
    if (round == key_bits_) start_cycle_rounds();
    const std::size_t inner = round - key_bits_;
    std::vector<Fr> evals =
        cycle_->prove_round(inner == 0 ? std::nullopt : bind, inner, previous_claim);
    g_timings.cycle_seconds += seconds_since(t0);
    return evals;
  }

  // ℓ ≥ 1 (the witness has at least two cycles), so the last round is a cycle round.
  void finish_rounds(const Fr& bind) override {
    const auto t0 = std::chrono::steady_clock::now();
    cycle_->finish_rounds(bind);
    r5_.push_back(bind);
    g_timings.cycle_seconds += seconds_since(t0);
  }

  std::vector<Fr> output_claims() const override {
    std::vector<Fr> leaves = cycle_->output_claims();  // eq, ra_0..ra_{n-1}, c
    std::vector<Fr> out(leaves.begin() + 1,
                        leaves.begin() + 1 + static_cast<std::ptrdiff_t>(n_virt_));
    // flag_t(r5) and raf(r5): one pass with eq(r5, ·).
    const std::vector<Fr> e = EqPolynomial::evals(r5_);
    std::array<Fr, kNumInstructionTables> flags{};
    Fr raf;
    for (std::size_t j = 0; j < w_.cycles(); ++j) {
      if (w_.tables[j] != kNoTable) flags[w_.tables[j]] += e[j];
      if (w_.raf[j]) raf += e[j];
    }
    out.insert(out.end(), flags.begin(), flags.end());
    out.push_back(raf);
    return out;
  }

  void visit_heap(jolt::HeapVisitor& v) const override {
    jolt::HeapScope s(v, "InstructionReadRaf");
    v.bytes("weights", weights_.capacity() * sizeof(Fr));
    std::uint64_t pq = 0;
    for (std::size_t g = 0; g < kNumTables; ++g)
      for (std::size_t i = 0; i < p_[g].size(); ++i)
        pq += (p_[g][i].capacity() + q_[g][i].capacity()) * sizeof(Fr);
    v.bytes("phase_tables", pq);
    if (cycle_) cycle_->visit_heap(v);
  }

 private:
  // Records the challenge of `round`; binds the phase tables, or ends the phase.
  void take_challenge(const Fr& r, std::size_t round) {
    if (round >= key_bits_) {
      r5_.push_back(r);
      return;
    }
    r_addr_.push_back(r);
    if ((round + 1) % phase_bits_ != 0) {
      for (std::size_t g = 0; g < kNumTables; ++g)
        for (std::size_t i = 0; i < p_[g].size(); ++i) {
          bind_top_in_place(p_[g][i], r);
          bind_top_in_place(q_[g][i], r);
        }
      return;
    }
    end_phase(round / phase_bits_);
  }

  unsigned suffix_pairs(std::size_t phase) const {
    return static_cast<unsigned>((key_bits_ - phase_bits_ * (phase + 1)) / 2);
  }
  std::uint64_t chunk_of(std::uint64_t key, std::size_t phase) const {
    return (key >> (2 * suffix_pairs(phase))) & ((std::uint64_t{1} << phase_bits_) - 1);
  }

  // Q_{g,i}(chunk) = Σ weight(j)·S_{g,i}(suffix of key(j)) over g's cycles; P_{g,i}(chunk) the
  // prefix state after the bound chunks and this chunk's bits.
  void start_phase(std::size_t phase) {
    const std::size_t size = std::size_t{1} << phase_bits_;
    const unsigned n_suf = suffix_pairs(phase);
    // g → m_g·size sums, row-major by i: weight × small suffix value terms, reduced once each
    // (Fr::SmallProductSum) instead of one Montgomery product per term.
    using Acc = std::array<std::vector<Fr::SmallProductSum>, kNumTables>;
    auto empty = [&] {
      Acc a;
      for (std::size_t g = 0; g < kNumTables; ++g)
        if (used_[g]) a[g].assign(specs_[g].states() * size, Fr::SmallProductSum{});
      return a;
    };
    // One accumulator per worker thread (field sums are exact, so the result does not depend
    // on how the cycles were split).
    tbb::enumerable_thread_specific<Acc> partial(empty);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w_.cycles(), kGrain),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        Acc& acc = partial.local();
                        std::array<std::int64_t, kMaxStates> s{};
                        for (std::size_t j = range.begin(); j < range.end(); ++j) {
                          const Fr& weight = weights_[j];
                          if (weight.is_zero()) continue;
                          const std::uint64_t key = w_.keys[j];
                          const std::size_t c = chunk_of(key, phase);
                          for_each_group(w_.tables[j], w_.raf[j], [&](std::size_t g) {
                            const TableSpec& spec = specs_[g];
                            spec.suffix(key, n_suf, s);
                            for (std::size_t i = 0; i < spec.states(); ++i) {
                              const std::int64_t v = s[i];
                              if (v > 0)
                                acc[g][i * size + c].add_product(weight,
                                                                 static_cast<std::uint64_t>(v));
                              else if (v < 0)
                                acc[g][i * size + c].subtract_product(
                                    weight, static_cast<std::uint64_t>(-(v + 1)) + 1);
                            }
                          });
                        }
                      });
    Acc q = empty();
    for (const Acc& a : partial)
      for (std::size_t g = 0; g < kNumTables; ++g)
        for (std::size_t k = 0; k < a[g].size(); ++k) q[g][k].add(a[g][k]);
    const unsigned first_pair = static_cast<unsigned>(key_bits_ / 2 - 1 - phase * phase_bits_ / 2);
    for (std::size_t g = 0; g < kNumTables; ++g) {
      p_[g].clear();
      q_[g].clear();
      if (!used_[g]) continue;
      const std::size_t m = specs_[g].states();
      p_[g].assign(m, std::vector<Fr>(size));
      q_[g].assign(m, std::vector<Fr>(size));
      // The prefix states of all chunk values, one pair at a time: level k holds the 4^k
      // states after the chunk's first k pairs.
      std::vector<std::array<Fr, kMaxStates>> level(1);
      for (std::size_t i = 0; i < m; ++i) level[0][i] = prefix_[g][i];
      for (unsigned k = 0; k < phase_bits_ / 2; ++k) {
        std::vector<std::array<Fr, kMaxStates>> next(level.size() * 4);
        for (std::size_t c = 0; c < level.size(); ++c)
          for (std::uint64_t ab = 0; ab < 4; ++ab) {
            next[4 * c + ab] = level[c];
            specs_[g].advance_state_bits(std::span<Fr>(next[4 * c + ab].data(), m), first_pair - k,
                                         1, ab);
          }
        level = std::move(next);
      }
      for (std::size_t c = 0; c < size; ++c)
        for (std::size_t i = 0; i < m; ++i) {
          p_[g][i][c] = level[c][i];
          q_[g][i][c] = q[g][i * size + c].value();
        }
    }
  }

  // Σ_g coef_g Σ_i Σ_x P_{g,i}(X, x)·Q_{g,i}(X, x), a quadratic in X: computed at X = 0, 1, 2
  // and extended to X = 0 .. degree() (the batch's common degree).
  std::vector<Fr> address_round() const {
    std::array<Fr, 3> h{};
    for (std::size_t g = 0; g < kNumTables; ++g) {
      std::array<Fr, 3> ge{};
      for (std::size_t i = 0; i < p_[g].size(); ++i) {
        const std::vector<Fr>& p = p_[g][i];
        const std::vector<Fr>& q = q_[g][i];
        const std::size_t half = p.size() / 2;
        for (std::size_t x = 0; x < half; ++x) {
          ge[0] += p[x] * q[x];
          ge[1] += p[x + half] * q[x + half];
          ge[2] += (p[x + half].dbl() - p[x]) * (q[x + half].dbl() - q[x]);
        }
      }
      for (std::size_t t = 0; t < 3; ++t) h[t] += coef_[g] * ge[t];
    }
    // h(t) = h0 + t·(h1 − h0) + t(t − 1)/2·(h2 − 2h1 + h0)
    const Fr d1 = h[1] - h[0], d2 = h[2] - h[1].dbl() + h[0];
    const Fr half = Fr::from_u64(2).inverse();
    std::vector<Fr> evals(degree() + 1);
    for (std::size_t t = 0; t < evals.size(); ++t) {
      const Fr x = Fr::from_u64(t);
      evals[t] = h[0] + x * d1 + x * (x - Fr::one()) * half * d2;
    }
    return evals;
  }

  // After a phase's last challenge: the prefix states absorb the phase's challenges and every
  // cycle's weight gains eq(challenges, its chunk).
  void end_phase(std::size_t phase) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::span<const Fr> r(r_addr_.data() + phase * phase_bits_, phase_bits_);
    const unsigned first_pair = static_cast<unsigned>(key_bits_ / 2 - 1 - phase * phase_bits_ / 2);
    for (std::size_t g = 0; g < kNumTables; ++g) {
      specs_[g].advance_state(prefix_[g], first_pair, r);
      p_[g].clear();
      q_[g].clear();
    }
    const std::vector<Fr> e = EqPolynomial::evals(r);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w_.cycles(), kGrain),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t j = range.begin(); j < range.end(); ++j)
                          weights_[j] = weights_[j] * e[chunk_of(w_.keys[j], phase)];
                      });
    g_timings.phase_seconds[phase] += seconds_since(t0);
  }

  // The cycle rounds' tables: eq(r, j), ra_v(r_addr_v, j) and c(r_addr, j).
  void start_cycle_rounds() {
    std::array<Fr, kNumTables> val;
    for (std::size_t g = 0; g < kNumTables; ++g) {
      Fr v;
      for (std::size_t i = 0; i < specs_[g].states(); ++i)
        if (specs_[g].out()[i] != 0) v += prefix_[g][i] * Fr::from_i64(specs_[g].out()[i]);
      val[g] = v;
    }
    // c per (table, raf) class.
    std::array<std::array<Fr, 2>, kNumInstructionTables + 1> cls;
    for (std::size_t t = 0; t <= kNumInstructionTables; ++t)
      for (unsigned raf = 0; raf < 2; ++raf) {
        Fr c = t < kNumInstructionTables ? val[t] : Fr::zero();
        c += raf ? coef_[kIdentity] * val[kIdentity]
                 : coef_[kLeft] * val[kLeft] + coef_[kRight] * val[kRight];
        cls[t][raf] = c;
      }
    const unsigned cb = chunk_bits(w_.word_bits);
    std::vector<std::vector<Fr>> chunk_eq(n_virt_);
    for (std::size_t v = 0; v < n_virt_; ++v)
      chunk_eq[v] = EqPolynomial::evals(std::span<const Fr>(r_addr_.data() + v * cb, cb));
    const std::size_t n = w_.cycles();
    // eq(r_cycle, ·) is kept apart (EqWeightedKernel): the leaves are ra_0..ra_{n−1}, c.
    std::vector<std::vector<Fr>> leaves = zero_tables(n_virt_ + 1, n);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kGrain),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t j = range.begin(); j < range.end(); ++j) {
                          const std::uint64_t key = w_.keys[j];
                          for (std::size_t v = 0; v < n_virt_; ++v) {
                            const unsigned shift = static_cast<unsigned>(key_bits_ - cb * (v + 1));
                            leaves[v][j] = chunk_eq[v][(key >> shift) & ((1ull << cb) - 1)];
                          }
                          const std::size_t t =
                              w_.tables[j] == kNoTable ? kNumInstructionTables : w_.tables[j];
                          leaves[n_virt_][j] = cls[t][w_.raf[j] ? 1 : 0];
                        }
                      });
    weights_.clear();
    weights_.shrink_to_fit();
    Expr product;
    std::vector<Linear> factors;
    for (std::uint32_t l = 0; l < n_virt_ + 1; ++l) factors.push_back(Linear::leaf(l));
    product.add_product(Fr::one(), factors);
    static const KernelLabels inner{"InstructionReadRafCycle::prepare",
                                    "InstructionReadRafCycle::prove_round",
                                    "InstructionReadRafCycle::finish_rounds"};
    cycle_ = std::make_unique<EqWeightedKernel>(
        inner, std::vector<EqTerm>{{r_cycle_, std::move(product)}}, std::move(leaves));
  }

  const InstructionLookupWitness& w_;
  std::vector<Fr> r_cycle_;
  std::array<Fr, kNumTables> coef_;
  std::size_t key_bits_, phase_bits_, n_virt_;
  std::vector<TableSpec> specs_;
  std::array<bool, kNumTables> used_{};
  std::array<std::vector<Fr>, kNumTables> prefix_;
  std::array<std::vector<std::vector<Fr>>, kNumTables> p_, q_;
  std::vector<Fr> weights_;
  std::vector<Fr> r_addr_, r5_;
  std::unique_ptr<EqWeightedKernel> cycle_;
};

std::vector<Fr> beta_powers(const Fr& beta, std::size_t n) {
  std::vector<Fr> p(n);
  Fr x = Fr::one();
  for (std::size_t i = 0; i < n; ++i, x = x * beta) p[i] = x;
  return p;
}

std::vector<Fr> absorb_and_draw_gamma(const InstructionLookupClaims& c, Transcript& tr) {
  tr.absorb_frs("lookups_claims", std::vector<Fr>{c.output, c.left, c.right});
  return {tr.challenge("lookups_gamma")};
}

}  // namespace

std::size_t virtual_chunks(unsigned word_bits) {
  return key_bits_of(word_bits) / chunk_bits(word_bits);
}

void InstructionLookupWitness::validate() const {
  check_width(word_bits);
  const std::size_t n = keys.size();
  if (n < 2 || !std::has_single_bit(n))
    throw std::invalid_argument("instruction lookups: " + std::to_string(n) +
                                " cycles; need a power of two ≥ 2");
  if (tables.size() != n || raf.size() != n)
    throw std::invalid_argument("instruction lookups: keys, tables and raf flags differ in length");
  const unsigned kb = key_bits_of(word_bits);
  for (std::size_t j = 0; j < n; ++j) {
    if (kb < 64 && (keys[j] >> kb) != 0)
      throw std::invalid_argument("instruction lookups: cycle " + std::to_string(j) +
                                  " has a key wider than " + std::to_string(kb) + " bits");
    if (tables[j] != kNoTable && tables[j] >= kNumInstructionTables)
      throw std::invalid_argument("instruction lookups: cycle " + std::to_string(j) +
                                  " names table " + std::to_string(tables[j]));
    if (raf[j] > 1)
      throw std::invalid_argument("instruction lookups: cycle " + std::to_string(j) +
                                  " has a RAF flag that is not 0 or 1");
  }
}

InstructionLookupClaims lookup_claims(const InstructionLookupWitness& w,
                                      std::span<const Fr> r_cycle) {
  w.validate();
  const std::vector<Fr> e = EqPolynomial::evals(r_cycle);
  if (e.size() != w.cycles())
    throw std::invalid_argument("lookup_claims: the point does not match the cycle count");
  InstructionLookupClaims c;
  for (std::size_t j = 0; j < w.cycles(); ++j) {
    const std::uint64_t key = w.keys[j];
    if (w.tables[j] != kNoTable)
      c.output +=
          e[j] * Fr::from_u64(table_value(static_cast<LookupTable>(w.tables[j]), w.word_bits, key));
    if (w.raf[j]) {
      c.right += e[j] * Fr::from_u64(key);
    } else {
      c.left += e[j] * Fr::from_u64(left_of(key));
      c.right += e[j] * Fr::from_u64(right_of(key));
    }
  }
  return c;
}

InstructionReadRafProverOutput prove_instruction_read_raf(const InstructionLookupWitness& w,
                                                          std::span<const Fr> r_cycle,
                                                          const InstructionLookupClaims& claims,
                                                          Transcript& transcript, bool self_check,
                                                          const LookupKernelPrepared& on_prepared) {
  w.validate();
  if ((std::size_t{1} << r_cycle.size()) != w.cycles())
    throw std::invalid_argument("prove_instruction_lookups: the point has " +
                                std::to_string(r_cycle.size()) + " coordinates for " +
                                std::to_string(w.cycles()) + " cycles");
  const Fr gamma = absorb_and_draw_gamma(claims, transcript)[0];
  InstructionReadRafProverOutput o;
  std::optional<ReadRafKernel> k;
  {
    JOLT_SPAN("InstructionReadRaf::prepare", jolt::arg("cycles", w.cycles()));
    k.emplace(w, r_cycle, gamma);
  }
  if (on_prepared) on_prepared(*k);
  const Fr input = claims.output + gamma * claims.left + gamma * gamma * claims.right;
  BatchProverOutput out = prove_batch({{&*k, input}}, transcript, self_check);
  o.read_raf = std::move(out.proof);
  o.outputs = out.member_outputs[0];
  const std::size_t kb = key_bits_of(w.word_bits);
  o.r_addr.assign(out.challenges.begin(), out.challenges.begin() + static_cast<std::ptrdiff_t>(kb));
  o.r_cycle.assign(out.challenges.begin() + static_cast<std::ptrdiff_t>(kb), out.challenges.end());
  transcript.absorb_frs("lookups_read_raf_outputs", o.outputs);
  return o;
}

InstructionKeyBitsProverOutput prove_instruction_key_bits(const InstructionLookupWitness& w,
                                                          const InstructionReadRafProverOutput& rr,
                                                          Transcript& transcript, bool self_check,
                                                          const LookupKernelPrepared& on_prepared) {
  const auto t0 = std::chrono::steady_clock::now();
  const Fr beta = transcript.challenge("lookups_beta");
  const Fr zeta = transcript.challenge("lookups_zeta");
  const std::vector<Fr> rho = transcript.challenges("lookups_rho", rr.r_cycle.size());
  const std::size_t n_virt = virtual_chunks(w.word_bits);
  Fr input;
  Fr p = Fr::one();
  for (std::size_t v = 0; v < n_virt; ++v, p = p * beta) input += p * rr.outputs[v];
  RaVirtualizationInput in{w.keys,
                           key_bits_of(w.word_bits),
                           chunk_bits(w.word_bits),
                           {},
                           rr.r_addr,
                           beta_powers(beta, n_virt),
                           rho,
                           zeta,
                           {}};
  in.weight_point = rr.r_cycle;  // W = eq(r_cycle, ·): the rounds split its factor off
  static const KernelLabels kLabels{"InstructionRaVirtualization::prepare",
                                    "InstructionRaVirtualization::prove_round",
                                    "InstructionRaVirtualization::finish_rounds"};
  std::unique_ptr<SumcheckKernel> kb;
  {
    JOLT_SPAN(kLabels.prepare, jolt::arg("key_bits", key_bits_of(w.word_bits)));
    kb = make_ra_virtualization_kernel(std::move(in), kLabels);
  }
  if (on_prepared) on_prepared(*kb);
  BatchProverOutput out = prove_batch({{kb.get(), input}}, transcript, self_check);
  InstructionKeyBitsProverOutput o;
  o.key_bits = std::move(out.proof);
  o.key_bit_claims = out.member_outputs[0];
  o.bit_point = out.challenges;
  transcript.absorb_frs("lookups_key_bit_claims", o.key_bit_claims);
  g_timings.key_bits_seconds = seconds_since(t0);
  return o;
}

InstructionLookupProof prove_instruction_lookups(const InstructionLookupWitness& w,
                                                 std::span<const Fr> r_cycle,
                                                 const InstructionLookupClaims& claims,
                                                 Transcript& transcript, bool self_check) {
  InstructionReadRafProverOutput rr =
      prove_instruction_read_raf(w, r_cycle, claims, transcript, self_check);
  InstructionKeyBitsProverOutput kb = prove_instruction_key_bits(w, rr, transcript, self_check);
  InstructionLookupProof proof;
  proof.read_raf = std::move(rr.read_raf);
  proof.read_raf_outputs = std::move(rr.outputs);
  proof.key_bits = std::move(kb.key_bits);
  proof.key_bit_claims = std::move(kb.key_bit_claims);
  return proof;
}

std::optional<VerifyError> verify_instruction_read_raf(unsigned word_bits, std::size_t log_cycles,
                                                       std::span<const Fr> r_cycle,
                                                       const InstructionLookupClaims& claims,
                                                       const InstructionLookupProof& proof,
                                                       Transcript& transcript,
                                                       InstructionLookupOpenings& out) {
  const unsigned kb = key_bits_of(word_bits);
  const std::size_t n_virt = virtual_chunks(word_bits);
  JOLT_VERIFY("lookups.shape",
              r_cycle.size() == log_cycles &&
                  proof.read_raf_outputs.size() == n_virt + kNumInstructionTables + 1 &&
                  proof.key_bit_claims.size() == kb,
              "the lookup proof's claim counts do not match the statement");
  const Fr gamma = absorb_and_draw_gamma(claims, transcript)[0];
  SumcheckVerified v;
  const Fr input = claims.output + gamma * claims.left + gamma * gamma * claims.right;
  if (auto e = verify_batch({input}, {kb + log_cycles}, n_virt + 2, proof.read_raf, transcript, v))
    return VerifyError{"lookups.read_raf." + e->check, e->message};
  const std::vector<Fr> r_addr(v.challenges.begin(), v.challenges.begin() + kb);
  const std::vector<Fr> r5(v.challenges.begin() + kb, v.challenges.end());
  {
    const std::array<Fr, kNumTables> coef = group_coefficients(gamma);
    const std::vector<Fr>& o = proof.read_raf_outputs;
    Fr ra = Fr::one();
    for (std::size_t c = 0; c < n_virt; ++c) ra = ra * o[c];
    // Val_g(r_addr) of table g.
    auto val = [&](std::size_t g) {
      return TableSpec::make(static_cast<LookupTable>(g), word_bits).evaluate_mle(r_addr);
    };
    Fr c_val;
    for (std::size_t t = 0; t < kNumInstructionTables; ++t) c_val += o[n_virt + t] * val(t);
    const Fr raf = o[n_virt + kNumInstructionTables];
    c_val += (Fr::one() - raf) * (coef[kLeft] * val(kLeft) + coef[kRight] * val(kRight)) +
             raf * coef[kIdentity] * val(kIdentity);
    const Fr expected = v.coefficients[0] * EqPolynomial::evaluate(r_cycle, r5) * ra * c_val;
    JOLT_VERIFY("lookups.read_raf.final", expected == v.final_claim,
                "the read-raf sumcheck's last claim is not eq·Π ra·(table values at the read "
                "address) for the claimed chunk and flag openings");
  }
  transcript.absorb_frs("lookups_read_raf_outputs", proof.read_raf_outputs);
  out.read_raf_point = r5;
  out.address_point = r_addr;
  out.flags.assign(
      proof.read_raf_outputs.begin() + static_cast<std::ptrdiff_t>(n_virt),
      proof.read_raf_outputs.begin() + static_cast<std::ptrdiff_t>(n_virt + kNumInstructionTables));
  out.raf = proof.read_raf_outputs[n_virt + kNumInstructionTables];
  return std::nullopt;
}

std::optional<VerifyError> verify_instruction_key_bits(unsigned word_bits, std::size_t log_cycles,
                                                       const InstructionLookupProof& proof,
                                                       Transcript& transcript,
                                                       InstructionLookupOpenings& out) {
  const std::size_t n_virt = virtual_chunks(word_bits);
  const std::vector<Fr>& r_addr = out.address_point;
  const std::vector<Fr>& r5 = out.read_raf_point;
  const Fr beta = transcript.challenge("lookups_beta");
  const Fr zeta = transcript.challenge("lookups_zeta");
  const std::vector<Fr> rho = transcript.challenges("lookups_rho", log_cycles);
  const unsigned cb = chunk_bits(word_bits);
  Fr input2;
  Fr p = Fr::one();
  std::vector<Fr> beta_pow;
  for (std::size_t c = 0; c < n_virt; ++c, p = p * beta) {
    beta_pow.push_back(p);
    input2 += p * proof.read_raf_outputs[c];
  }
  SumcheckVerified v2;
  if (auto e = verify_batch({input2}, {log_cycles}, ra_virtualization_degree(cb), proof.key_bits,
                            transcript, v2))
    return VerifyError{"lookups.key_bits." + e->check, e->message};
  {
    const Fr expected =
        v2.coefficients[0] * ra_virtualization_final(r_addr, cb, beta_pow,
                                                     EqPolynomial::evaluate(r5, v2.challenges), rho,
                                                     zeta, v2.challenges, proof.key_bit_claims);
    JOLT_VERIFY("lookups.key_bits.final", expected == v2.final_claim,
                "the key-bit sumcheck's last claim is not the RA virtualization plus booleanity "
                "at the claimed key-bit openings");
  }
  transcript.absorb_frs("lookups_key_bit_claims", proof.key_bit_claims);
  out.bit_point = v2.challenges;
  out.key_bits = proof.key_bit_claims;
  return std::nullopt;
}

std::optional<VerifyError> verify_instruction_lookups(unsigned word_bits, std::size_t log_cycles,
                                                      std::span<const Fr> r_cycle,
                                                      const InstructionLookupClaims& claims,
                                                      const InstructionLookupProof& proof,
                                                      Transcript& transcript,
                                                      InstructionLookupOpenings& out) {
  if (auto e = verify_instruction_read_raf(word_bits, log_cycles, r_cycle, claims, proof,
                                           transcript, out))
    return e;
  return verify_instruction_key_bits(word_bits, log_cycles, proof, transcript, out);
}

const ReadRafTimings& last_read_raf_timings() {
  return g_timings;
}

}  // namespace jolt::prover::lookups
