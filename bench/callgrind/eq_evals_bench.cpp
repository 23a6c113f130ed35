// eq_evals_bench: one EqPolynomial::evals over 16 variables (point[i] = 2i + 1), the callgrind
// lane's instruction-count benchmark (measure-objectives --objective
// callgrind:eq_evals_bench:instructions). Single-threaded so the count is deterministic; prints
// a checksum so the work cannot be optimised away.
#include <oneapi/tbb/global_control.h>

#include <cstdint>
#include <cstdio>
#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <vector>

int main() {
  constexpr std::size_t kVars = 16;
  // One worker: TBB's scheduling must not change the instruction count from run to run.
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  std::vector<jolt::prover::Fr> point;
  for (std::size_t i = 0; i < kVars; ++i) point.push_back(jolt::prover::Fr::from_u64(2 * i + 1));
  const std::vector<jolt::prover::Fr> table = jolt::prover::EqPolynomial::evals(point);
  jolt::prover::Fr sum = jolt::prover::Fr::zero();
  for (const auto& e : table) sum += e;
  // Σ_x eq(r, x) = 1 for every r: a cheap correctness check of the benchmarked call.
  const bool ok = sum == jolt::prover::Fr::one() && table.size() == (std::size_t{1} << kVars);
  std::printf("eq_evals_bench: %zu vars, %zu entries, sum == 1: %s\n", kVars, table.size(),
              ok ? "yes" : "NO");
  return ok ? 0 : 1;
}
