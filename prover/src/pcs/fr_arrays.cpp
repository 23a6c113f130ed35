#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "ntt_lanes.hpp"

namespace jolt::prover {

void multiply_arrays(const Fr* a, const Fr* b, Fr* out, std::size_t n) {
  std::size_t i = 0;
  if (basefold::lanes::enabled()) {
    const std::size_t whole = n - n % 8;
    if (whole > 0) basefold::lanes::mul_arrays(a, b, out, whole);
    i = whole;
  }
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

void bind_arrays(const Fr* lo, const Fr* hi, const Fr& r, Fr* out, std::size_t n) {
  std::size_t i = 0;
  if (basefold::lanes::enabled()) {
    i = n - n % 8;
    if (i > 0) basefold::lanes::bind_arrays(lo, hi, r, out, i);
  }
  for (; i < n; ++i) out[i] = lo[i] + r * (hi[i] - lo[i]);
}

Fr dot_arrays(const Fr* a, const Fr* b, std::size_t n) {
  std::size_t i = 0;
  Fr sum;
  if (basefold::lanes::enabled()) {
    i = n - n % 8;
    if (i > 0) sum = basefold::lanes::dot_arrays(a, b, i);
  }
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

void multiply_rows(const Fr* rows, std::size_t row_stride, std::size_t k, Fr* out, std::size_t n) {
  if (k == 0) throw std::invalid_argument("multiply_rows: no rows");
  std::size_t i = 0;
  if (basefold::lanes::enabled()) {
    i = n - n % 8;
    if (i > 0) basefold::lanes::multiply_rows(rows, row_stride, k, out, i);
  }
  for (; i < n; ++i) {
    Fr x = rows[i];
    for (std::size_t g = 1; g < k; ++g) x = x * rows[g * row_stride + i];
    out[i] = x;
  }
}

namespace {

// Rows D + 1 .. M − 1 of a polynomial of degree ≤ D in t whose rows 0 .. D are known (rows of n
// entries, `stride` apart), by finite differences: a[j] = ∇^(D−j) y_D for j < D is built with
// D(D + 1)/2 subtractions (the first pass reading the rows themselves), then each new point
// costs D additions (∇^k y_(t+1) = ∇^k y_t + ∇^(k+1) y_(t+1), the D-th difference constant, the
// last addition written straight into the new row). `a` is scratch of D·n entries.
void extend_rows(Fr* v, std::size_t stride, std::size_t D, std::size_t M, std::size_t n, Fr* a) {
  if (M <= D + 1) return;
  if (D == 0) {
    for (std::size_t t = 1; t < M; ++t) std::copy_n(v, n, v + t * stride);
    return;
  }
  for (std::size_t j = 0; j < D; ++j)
    for (std::size_t i = 0; i < n; ++i) a[j * n + i] = v[(j + 1) * stride + i] - v[j * stride + i];
  for (std::size_t k = 2; k <= D; ++k)
    for (std::size_t j = 0; j + k <= D; ++j)
      for (std::size_t i = 0; i < n; ++i) a[j * n + i] = a[(j + 1) * n + i] - a[j * n + i];
  for (std::size_t t = D + 1; t < M; ++t) {
    for (std::size_t j = 1; j < D; ++j)
      for (std::size_t i = 0; i < n; ++i) a[j * n + i] += a[(j - 1) * n + i];
    const Fr* last = v + (t - 1) * stride;
    Fr* next = v + t * stride;
    for (std::size_t i = 0; i < n; ++i) next[i] = last[i] + a[(D - 1) * n + i];
  }
}

// The product tree of chunk_product_sums over leaves [l0, l0 + cnt) at t = 0 .. need − 1: rows
// of n entries, n apart, into dst (with `mark`, only the rows it marks are multiplied — the top
// of the tree, whose other rows are not read). Each child is formed at as many points as its
// degree needs (or at `need` when the leaves already hold that many: no extension to pay), then
// extended to `need`. `arena` is a stack of scratch entries from `top` on.
struct ProductTree {
  const Fr* vals;
  std::size_t m, stride, n;
  Fr* arena;

  void product(std::size_t l0, std::size_t cnt, std::size_t need, Fr* dst, const char* mark,
               std::size_t top) {
    if (cnt == 1) {
      const std::size_t have = std::min(m, need);
      for (std::size_t t = 0; t < have; ++t)
        std::copy_n(vals + (l0 * m + t) * stride, n, dst + t * n);
      extend_rows(dst, n, m - 1, need, n, arena + top);
      return;
    }
    const std::size_t c1 = cnt / 2, c2 = cnt - c1;
    Fr* left = arena + top;
    Fr* right = left + need * n;
    const std::size_t below = top + 2 * need * n;
    for (const auto& [first, count, to] :
         {std::tuple{l0, c1, left}, std::tuple{l0 + c1, c2, right}}) {
      const std::size_t degree = count * (m - 1);
      const std::size_t rows = m >= need ? need : std::min(need, degree + 1);
      product(first, count, rows, to, nullptr, below);
      extend_rows(to, n, degree, need, n, arena + below);
    }
    for (std::size_t t = 0; t < need; ++t)
      if (mark == nullptr || mark[t]) multiply_arrays(left + t * n, right + t * n, dst + t * n, n);
  }
};

// Scratch entries ProductTree::product(·, cnt, need, …) uses from its `top` on (its larger
// child, the second, bounds both).
std::size_t tree_scratch(std::size_t cnt, std::size_t need, std::size_t m, std::size_t n) {
  if (cnt == 1) return m * n;
  const std::size_t c2 = cnt - cnt / 2, degree = c2 * (m - 1);
  const std::size_t rows = m >= need ? need : std::min(need, degree + 1);
  return 2 * need * n + std::max(tree_scratch(c2, rows, m, n), (degree + 1) * n);
}

}  // namespace

void chunk_product_sums(const Fr* vals, std::size_t m, std::size_t stride, std::size_t leaves,
                        std::size_t chunk, std::span<const char> at, Fr* out,
                        std::size_t out_stride, std::size_t n) {
  if (m == 0 || chunk == 0 || leaves % chunk != 0 || n > stride)
    throw std::invalid_argument("chunk_product_sums: " + std::to_string(leaves) + " leaves at " +
                                std::to_string(m) + " points in chunks of " +
                                std::to_string(chunk) + " (" + std::to_string(n) +
                                " pairs, stride " + std::to_string(stride) + ")");
  if (n == 0 || at.empty()) return;
  const std::size_t need = at.size();
  // Per thread, kept between calls (the kernels call once per block of pairs).
  thread_local std::vector<Fr> arena;
  const std::size_t size = need * n + tree_scratch(chunk, need, m, n);
  if (arena.size() < size) arena.resize(size);
  ProductTree tree{vals, m, stride, n, arena.data()};
  Fr* prod = arena.data();
  for (std::size_t v = 0; v < leaves / chunk; ++v) {
    tree.product(v * chunk, chunk, need, prod, at.data(), need * n);
    for (std::size_t t = 0, k = 0; t < need; ++t) {
      if (!at[t]) continue;
      Fr* o = out + k++ * out_stride;
      const Fr* p = prod + t * n;
      if (v == 0)
        std::copy_n(p, n, o);
      else
        for (std::size_t i = 0; i < n; ++i) o[i] += p[i];
    }
  }
}

std::vector<std::vector<Fr>> zero_tables(std::size_t count, std::size_t n) {
  // Below this many bytes in all the faults are few: plain vectors.
  constexpr std::size_t kSharedTouchBytes = std::size_t{1} << 20;
  constexpr std::size_t kChunk = std::size_t{1} << 18;
  std::vector<std::vector<Fr>> v(count);
  const std::size_t bytes = n * sizeof(Fr);
  if (count * bytes >= kSharedTouchBytes) {
    for (auto& t : v) t.reserve(n);
    // The reserved storage is raw bytes until resize constructs the entries: the workers write
    // zeros over it a chunk at a time (the faults), then resize zeroes it once more, now without
    // a fault.
    const std::size_t per = (bytes + kChunk - 1) / kChunk;
    tbb::parallel_for(std::size_t{0}, count * per, [&](std::size_t c) {
      auto* raw = reinterpret_cast<unsigned char*>(v[c / per].data());
      const std::size_t at = (c % per) * kChunk;
      std::memset(raw + at, 0, std::min(kChunk, bytes - at));
    });
  }
  for (auto& t : v) t.resize(n);
  return v;
}

std::vector<Fr> zero_table(std::size_t n) {
  return std::move(zero_tables(1, n)[0]);
}

namespace {
// out[0..2^|r|) = eq(r, x)·scale by doubling: after r[0..k), out[0..2^k) holds the table over k
// variables; each new variable becomes the least significant bit (i walks down so that reads
// precede overwrites).
void eq_doubling(std::span<const Fr> r, const Fr& scale, Fr* out) {
  out[0] = scale;
  for (std::size_t k = 0; k < r.size(); ++k)
    for (std::size_t i = std::size_t{1} << k; i-- > 0;) {
      const Fr hi = out[i] * r[k];
      out[2 * i + 1] = hi;
      out[2 * i] = out[i] - hi;  // out[i]·(1 − r_k)
    }
}
}  // namespace

std::vector<Fr> eq_table(std::span<const Fr> r, const Fr& scale) {
  const std::size_t n = r.size();
  if (n <= kEqSerialVars) {
    std::vector<Fr> out(std::size_t{1} << n);
    eq_doubling(r, scale, out.data());
    return out;
  }
  const std::size_t n_hi = n / 2;
  std::vector<Fr> hi(std::size_t{1} << n_hi), lo(std::size_t{1} << (n - n_hi));
  eq_doubling(r.first(n_hi), scale, hi.data());
  eq_doubling(r.subspan(n_hi), Fr::one(), lo.data());
  const std::size_t L = lo.size();
  std::vector<Fr> out = zero_table(hi.size() * L);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hi.size()),
                    [&](const tbb::blocked_range<std::size_t>& rg) {
                      std::vector<Fr> row(L);
                      for (std::size_t h = rg.begin(); h < rg.end(); ++h) {
                        std::fill(row.begin(), row.end(), hi[h]);
                        multiply_arrays(row.data(), lo.data(), out.data() + h * L, L);
                      }
                    });
  return out;
}

}  // namespace jolt::prover
