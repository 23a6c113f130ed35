// Dense multilinear tables: top-variable binding and evaluation.
#include <tbb/parallel_for.h>

#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/poly/multilinear.hpp>

namespace jolt::prover {

DenseMultilinear::DenseMultilinear(std::vector<Fr> evals)
    : evals_(std::move(evals)), num_vars_(log2_exact(evals_.size())) {}

void DenseMultilinear::bind_top(const Fr& r) {
  if (num_vars_ == 0) throw std::logic_error("DenseMultilinear::bind_top on a constant");
  bind_top_in_place(evals_, r);
  --num_vars_;
}

void bind_top_in_place(std::vector<Fr>& t, const Fr& r) {
  const std::size_t h = t.size() / 2;
  constexpr std::size_t kGrain = 1 << 12;
  // t[i] + r·(t[i+h] − t[i]) over arrays (the IFMA lanes where the CPU has them): the same field
  // elements as one operator* each. A range writes only its own lower half.
  auto body = [&](std::size_t b, std::size_t e) {
    bind_arrays(t.data() + b, t.data() + b + h, r, t.data() + b, e - b);
  };
  if (h >= 2 * kGrain) {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, h, kGrain),
        [&](const tbb::blocked_range<std::size_t>& rg) { body(rg.begin(), rg.end()); });
  } else {
    body(0, h);
  }
  t.resize(h);
}

Fr DenseMultilinear::evaluate(std::span<const Fr> table, std::span<const Fr> point) {
  if (table.size() != (std::size_t{1} << point.size()))
    throw std::invalid_argument("DenseMultilinear::evaluate: table/point size mismatch");
  std::vector<Fr> t(table.begin(), table.end());
  for (const Fr& r : point) bind_top_in_place(t, r);
  return t[0];
}

}  // namespace jolt::prover
