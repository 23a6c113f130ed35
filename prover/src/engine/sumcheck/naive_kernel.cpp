// NaiveKernel: pointwise expression evaluation over the remaining hypercube (TBB reduction over
// fixed index blocks; exact field sums make the result independent of the thread count).
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <stdexcept>
#include <string_view>

namespace jolt::prover {

NaiveKernel::NaiveKernel(const KernelLabels& labels, std::vector<std::vector<Fr>> leaves, Expr expr)
    : labels_(labels), leaves_(std::move(leaves)), expr_(std::move(expr)) {
  if (leaves_.empty()) throw std::invalid_argument("NaiveKernel: no leaves");
  if (expr_.num_leaves() > leaves_.size())
    throw std::invalid_argument("NaiveKernel: expression uses a missing leaf");
  rounds_ = log2_exact(leaves_[0].size());
  for (const auto& l : leaves_)
    if (l.size() != leaves_[0].size())
      throw std::invalid_argument("NaiveKernel: leaf sizes differ");
  degree_ = expr_.degree();
}

void NaiveKernel::bind(const Fr& r) {
  for (auto& l : leaves_) bind_top_in_place(l, r);
}

std::vector<Fr> NaiveKernel::prove_round(const std::optional<Fr>& bind_r, std::size_t, const Fr&) {
  if (bind_r) bind(*bind_r);
  const std::size_t half = leaves_[0].size() / 2;
  const std::size_t npts = degree_ + 1;
  const std::size_t nl = leaves_.size();
  using Acc = std::vector<Fr>;
  auto body = [&](const tbb::blocked_range<std::size_t>& rg, Acc acc) {
    std::vector<Fr> lo(nl), diff(nl), vals(nl);
    for (std::size_t i = rg.begin(); i < rg.end(); ++i) {
      for (std::size_t l = 0; l < nl; ++l) {
        lo[l] = leaves_[l][i];
        diff[l] = leaves_[l][i + half] - lo[l];
        vals[l] = lo[l];
      }
      for (std::size_t x = 0; x < npts; ++x) {
        acc[x] += expr_.evaluate(vals);
        for (std::size_t l = 0; l < nl; ++l) vals[l] += diff[l];
      }
    }
    return acc;
  };
  auto join = [](Acc a, const Acc& b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    return a;
  };
  return tbb::parallel_reduce(tbb::blocked_range<std::size_t>(0, half, 1024), Acc(npts, Fr::zero()),
                              body, join);
}

void NaiveKernel::finish_rounds(const Fr& r) {
  bind(r);
}

std::vector<Fr> NaiveKernel::output_claims() const {
  std::vector<Fr> out;
  for (const auto& l : leaves_) {
    if (l.size() != 1) throw std::logic_error("NaiveKernel::output_claims before all rounds bound");
    out.push_back(l[0]);
  }
  return out;
}

void NaiveKernel::visit_heap(jolt::HeapVisitor& v) const {
  // The root frame names the relation (docs/heap-profiling.md): "<Relation>" of its labels.
  const std::string_view prepare = labels_.prepare;
  jolt::HeapScope s(v, prepare.substr(0, prepare.find("::")));
  std::uint64_t b = 0;
  for (const auto& l : leaves_) b += l.capacity() * sizeof(Fr);
  v.bytes("leaves", b);
}

}  // namespace jolt::prover
