// The kernel interface every sumcheck member implements (prover side).
//
//   auto k = SomeKernel::prepare(...);           // materialises tables (span <Relation>::prepare)
//   for each active round j:  evals = k->prove_round(j == 0 ? nullopt : r_{j-1}, j, claim);
//   k->finish_rounds(r_last);                    // binds the last challenge
//   std::vector<Fr> outs = k->output_claims();   // relation-specific final evaluations
//
// prove_round fuses "bind the previous challenge" with "emit this round": it returns the
// round polynomial as its evaluations at X = 0, 1, ..., degree(). The engine (prove_batch) opens
// the `<Relation>::prove_round` / `::finish_rounds` spans from labels(), which must be string
// literals. A kernel is used by one thread at a time (it may parallelise internally with TBB).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include <jolt/heap.hpp>
#include <jolt/prover/field/fr.hpp>

namespace jolt::prover {

struct KernelLabels {
  const char* prepare;        // "<Relation>::prepare"
  const char* prove_round;    // "<Relation>::prove_round"
  const char* finish_rounds;  // "<Relation>::finish_rounds"
};

class SumcheckKernel : public jolt::HeapReportable {
 public:
  ~SumcheckKernel() override = default;
  virtual const KernelLabels& labels() const = 0;
  virtual std::size_t num_rounds() const = 0;
  virtual std::size_t degree() const = 0;
  virtual std::vector<Fr> prove_round(const std::optional<Fr>& bind, std::size_t round,
                                      const Fr& previous_claim) = 0;
  virtual void finish_rounds(const Fr& bind) = 0;
  virtual std::vector<Fr> output_claims() const = 0;
};

}  // namespace jolt::prover
