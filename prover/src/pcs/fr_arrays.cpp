#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <stdexcept>
#include <string>

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

void affine_chunk_sums(const Fr* f, const Fr* df, std::size_t row_stride, std::size_t rows,
                       std::size_t chunk, std::span<const char> at, Fr* out, std::size_t out_stride,
                       std::size_t n) {
  if (chunk == 0 || rows % chunk != 0)
    throw std::invalid_argument("affine_chunk_sums: " + std::to_string(rows) +
                                " rows in chunks of " + std::to_string(chunk));
  std::size_t i = 0;
  if (basefold::lanes::enabled()) {
    i = n - n % 8;
    if (i > 0)
      basefold::lanes::affine_chunk_sums(f, df, row_stride, rows, chunk, at.data(), at.size(), out,
                                         out_stride, i);
  }
  std::vector<Fr> x(i < n ? rows : 0);
  for (; i < n; ++i) {
    for (std::size_t b = 0; b < rows; ++b) x[b] = f[b * row_stride + i];
    for (std::size_t t = 0, k = 0; t < at.size(); ++t) {
      if (t > 0)
        for (std::size_t b = 0; b < rows; ++b) x[b] += df[b * row_stride + i];
      if (!at[t]) continue;
      Fr sum;
      for (std::size_t v = 0; v < rows / chunk; ++v) {
        Fr p = x[v * chunk];
        for (std::size_t e = 1; e < chunk; ++e) p = p * x[v * chunk + e];
        sum += p;
      }
      out[k++ * out_stride + i] = sum;
    }
  }
}

void gather_products(std::span<const Fr* const> tables, const std::uint32_t* index,
                     std::size_t index_stride, Fr* out, std::size_t n) {
  if (tables.empty()) throw std::invalid_argument("gather_products: no tables");
  std::size_t i = 0;
  if (basefold::lanes::enabled()) {
    i = n - n % 8;
    if (i > 0)
      basefold::lanes::gather_products(tables.data(), index, index_stride, tables.size(), out, i);
  }
  for (; i < n; ++i) {
    Fr x = tables[0][index[i]];
    for (std::size_t g = 1; g < tables.size(); ++g) x = x * tables[g][index[g * index_stride + i]];
    out[i] = x;
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
