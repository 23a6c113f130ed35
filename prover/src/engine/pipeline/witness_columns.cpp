// Witness columns in their narrowest width (witness_columns.hpp).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pipeline/witness_columns.hpp>
#include <stdexcept>
#include <type_traits>

namespace jolt::prover {

namespace {

// Fr::from_u64(v) for every byte v: a u8 entry is read with one load.
const std::array<Fr, 256>& byte_values() {
  static const std::array<Fr, 256> t = [] {
    std::array<Fr, 256> a;
    for (std::uint64_t v = 0; v < 256; ++v) a[v] = Fr::from_u64(v);
    return a;
  }();
  return t;
}

// Fr's Montgomery limbs R² mod r (fr_detail::kR2), kWideChunk times: the right operand of the
// wide columns' conversion.
constexpr std::size_t kWideChunk = 64;
const std::array<Fr, kWideChunk>& r_squared() {
  static const std::array<Fr, kWideChunk> t = [] {
    static_assert(sizeof(Fr) == sizeof(fr_detail::kR2) && std::is_trivially_copyable_v<Fr>);
    Fr r2;
    std::memcpy(&r2, fr_detail::kR2, sizeof r2);
    std::array<Fr, kWideChunk> a;
    a.fill(r2);
    return a;
  }();
  return t;
}

// out[j] = the Fr whose Montgomery limbs are the integer p[j] (< r): the left operand of a
// Montgomery product that yields p[j]·(the other operand)·R^-1.
template <class Int>
void load_raw(const Int* p, std::size_t n, Fr* out) {
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint64_t raw[4] = {static_cast<std::uint64_t>(p[j]), 0, 0, 0};
    std::memcpy(&out[j], raw, sizeof raw);
  }
}

template <class Int>
void read_ints(const std::vector<Int>& src, std::size_t begin, std::span<Fr> out) {
  const Int* p = src.data() + begin;
  if constexpr (sizeof(Int) == 1) {
    const auto& bv = byte_values();
    for (std::size_t j = 0; j < out.size(); ++j) out[j] = bv[p[j]];
  } else {
    // Fr::from_u64(v) is the Montgomery product of v's raw limbs with R²; here that product runs
    // over arrays (multiply_arrays: eight at a time on the IFMA lanes) instead of one at a time.
    const auto& r2 = r_squared();
    for (std::size_t j0 = 0; j0 < out.size(); j0 += kWideChunk) {
      const std::size_t n = std::min(kWideChunk, out.size() - j0);
      load_raw(p + j0, n, out.data() + j0);
      multiply_arrays(out.data() + j0, r2.data(), out.data() + j0, n);
    }
  }
}

template <class Int>
void accumulate_ints(const std::vector<Int>& src, std::size_t begin, const Fr& coeff,
                     std::span<Fr> acc) {
  const Int* p = src.data() + begin;
  if constexpr (sizeof(Int) == 1) {
    // Bytes (flags, bits, indices): coeff·v for v up to the block's largest byte by additions,
    // then one addition per entry instead of a product.
    const std::uint8_t top = acc.empty() ? 0 : *std::max_element(p, p + acc.size());
    std::array<Fr, 256> times;
    times[0] = Fr::zero();
    for (unsigned v = 1; v <= top; ++v) times[v] = times[v - 1] + coeff;
    for (std::size_t j = 0; j < acc.size(); ++j) acc[j] += times[p[j]];
  } else {
    // coeff·v is the Montgomery product of coeff·R (scaled_for_small) with v's raw limbs: over
    // arrays (multiply_arrays, eight at a time on the IFMA lanes), a chunk at a time.
    std::array<Fr, kWideChunk> scaled, prod;
    scaled.fill(coeff.scaled_for_small());
    for (std::size_t j0 = 0; j0 < acc.size(); j0 += kWideChunk) {
      const std::size_t n = std::min(kWideChunk, acc.size() - j0);
      load_raw(p + j0, n, prod.data());
      multiply_arrays(prod.data(), scaled.data(), prod.data(), n);
      for (std::size_t j = 0; j < n; ++j) acc[j0 + j] += prod[j];
    }
  }
}

// Σ_t weights[t]·p[t] for bytes by additions: the weights summed per byte value, then
// Σ_v v·B[v] = Σ_(k ≥ 1) Σ_(v ≥ k) B[v].
Fr dot_bytes(const Fr* weights, const std::uint8_t* p, std::size_t n) {
  std::array<Fr, 256> bucket{};
  unsigned top = 0;
  for (std::size_t t = 0; t < n; ++t) {
    bucket[p[t]] += weights[t];
    top = std::max<unsigned>(top, p[t]);
  }
  Fr suffix, acc;
  for (unsigned v = top; v >= 1; --v) {
    suffix += bucket[v];
    acc += suffix;
  }
  return acc;
}

// f(j, bit begin + j) for j < n over packed bits, a word at a time.
template <class F>
void for_each_bit(const std::vector<std::uint64_t>& bits, std::size_t begin, std::size_t n, F f) {
  for (std::size_t j = 0; j < n;) {
    const std::size_t t = begin + j, k = std::min<std::size_t>(64 - (t & 63), n - j);
    const std::uint64_t word = bits[t >> 6] >> (t & 63);
    for (std::size_t i = 0; i < k; ++i) f(j + i, static_cast<unsigned>((word >> i) & 1));
    j += k;
  }
}

}  // namespace

ColumnWidth width_for(const std::array<std::uint64_t, 4>& c) {
  if (c[1] | c[2] | c[3]) return ColumnWidth::kField;
  if (c[0] < 256) return ColumnWidth::k8;
  if (c[0] <= 0xffffffffu) return ColumnWidth::k32;
  return ColumnWidth::k64;
}

const char* width_name(ColumnWidth w) {
  switch (w) {
    case ColumnWidth::k8:
      return "u8";
    case ColumnWidth::k32:
      return "u32";
    case ColumnWidth::k64:
      return "u64";
    case ColumnWidth::kField:
      return "field";
  }
  return "?";
}

WitnessColumn::WitnessColumn(std::size_t n, ColumnWidth w) : n_(n), w_(ColumnWidth::k8) {
  u8_.assign(n, 0);
  widen(w);
}

Fr WitnessColumn::operator[](std::size_t t) const {
  switch (w_) {
    case ColumnWidth::k8:
      return byte_values()[packed_ ? bit(t) : u8_[t]];
    case ColumnWidth::k32:
      return Fr::from_u64(u32_[t]);
    case ColumnWidth::k64:
      return Fr::from_u64(u64_[t]);
    case ColumnWidth::kField:
      break;
  }
  return fr_[t];
}

std::array<std::uint64_t, 4> WitnessColumn::canonical(std::size_t t) const {
  switch (w_) {
    case ColumnWidth::k8:
      return {packed_ ? bit(t) : u8_[t], 0, 0, 0};
    case ColumnWidth::k32:
      return {u32_[t], 0, 0, 0};
    case ColumnWidth::k64:
      return {u64_[t], 0, 0, 0};
    case ColumnWidth::kField:
      break;
  }
  return fr_[t].to_canonical_limbs();
}

void WitnessColumn::store(std::size_t t, const std::array<std::uint64_t, 4>& c) {
  switch (w_) {
    case ColumnWidth::k8:
      if (packed_) {
        if (c[0] <= 1) {
          const std::uint64_t m = std::uint64_t{1} << (t & 63);
          bits_[t >> 6] = c[0] ? bits_[t >> 6] | m : bits_[t >> 6] & ~m;
          return;
        }
        unpack();
      }
      u8_[t] = static_cast<std::uint8_t>(c[0]);
      return;
    case ColumnWidth::k32:
      u32_[t] = static_cast<std::uint32_t>(c[0]);
      return;
    case ColumnWidth::k64:
      u64_[t] = c[0];
      return;
    case ColumnWidth::kField:
      fr_[t] = *Fr::from_canonical_limbs(c);
      return;
  }
}

void WitnessColumn::set(std::size_t t, const Fr& v) {
  if (w_ == ColumnWidth::kField) {
    fr_[t] = v;
    return;
  }
  const auto c = v.to_canonical_limbs();
  widen(width_for(c));
  store(t, c);
}

void WitnessColumn::widen(ColumnWidth w) {
  if (w <= w_) return;
  // Entries in the new width, read from the old one.
  std::vector<std::uint32_t> u32;
  std::vector<std::uint64_t> u64;
  std::vector<Fr> fr;
  if (w == ColumnWidth::k32) u32.resize(n_);
  if (w == ColumnWidth::k64) u64.resize(n_);
  if (w == ColumnWidth::kField) fr.resize(n_);
  for (std::size_t t = 0; t < n_; ++t) {
    const std::uint64_t v = canonical(t)[0];  // w_ is an integer width here
    if (w == ColumnWidth::k32) u32[t] = static_cast<std::uint32_t>(v);
    if (w == ColumnWidth::k64) u64[t] = v;
    if (w == ColumnWidth::kField) fr[t] = Fr::from_u64(v);
  }
  std::vector<std::uint8_t>().swap(u8_);  // (= {} would keep the capacity)
  std::vector<std::uint64_t>().swap(bits_);
  packed_ = false;
  u32_ = std::move(u32);
  u64_ = std::move(u64);
  fr_ = std::move(fr);
  w_ = w;
}

void WitnessColumn::read(std::size_t begin, std::span<Fr> out) const {
  switch (w_) {
    case ColumnWidth::k8:
      if (packed_) {
        // Each entry selected from {0, 1} without a branch.
        const Fr v[2] = {Fr::zero(), Fr::one()};
        for_each_bit(bits_, begin, out.size(), [&](std::size_t j, unsigned b) { out[j] = v[b]; });
        return;
      }
      return read_ints(u8_, begin, out);
    case ColumnWidth::k32:
      return read_ints(u32_, begin, out);
    case ColumnWidth::k64:
      return read_ints(u64_, begin, out);
    case ColumnWidth::kField:
      std::copy_n(fr_.begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
      return;
  }
}

bool WitnessColumn::read_bits(std::size_t begin, std::span<std::uint8_t> out) const {
  if (!packed_) return false;
  for_each_bit(bits_, begin, out.size(),
               [&](std::size_t j, unsigned b) { out[j] = static_cast<std::uint8_t>(b); });
  return true;
}

void WitnessColumn::read_u64(std::size_t begin, std::span<std::uint64_t> out) const {
  switch (w_) {
    case ColumnWidth::k8:
      if (packed_) {
        for_each_bit(bits_, begin, out.size(), [&](std::size_t j, unsigned b) { out[j] = b; });
        return;
      }
      std::copy_n(u8_.begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
      return;
    case ColumnWidth::k32:
      std::copy_n(u32_.begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
      return;
    case ColumnWidth::k64:
      std::copy_n(u64_.begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
      return;
    case ColumnWidth::kField:
      break;
  }
  throw std::logic_error("WitnessColumn::read_u64: the column is stored as field elements");
}

std::vector<Fr> WitnessColumn::to_vector() const {
  std::vector<Fr> v(n_);
  read(0, v);
  return v;
}

Fr WitnessColumn::dot(std::span<const Fr> weights) const {
  const std::size_t n = weights.size();
  if (n > n_) throw std::invalid_argument("WitnessColumn::dot: more weights than entries");
  switch (w_) {
    case ColumnWidth::k8:
      if (packed_) {
        // The weights of the set bits, added.
        Fr acc = Fr::zero();
        for (std::size_t word = 0; word * 64 < n; ++word) {
          std::uint64_t m = bits_[word];
          if (n - word * 64 < 64) m &= (std::uint64_t{1} << (n - word * 64)) - 1;
          for (; m != 0; m &= m - 1) acc += weights[word * 64 + std::countr_zero(m)];
        }
        return acc;
      }
      return dot_bytes(weights.data(), u8_.data(), n);
    case ColumnWidth::k32:
      return Fr::sum_small(weights.data(), u32_.data(), n);
    case ColumnWidth::k64:
      return Fr::sum_small(weights.data(), u64_.data(), n);
    case ColumnWidth::kField:
      break;
  }
  Fr acc = Fr::zero();
  for (std::size_t t = 0; t < n; ++t) acc += weights[t] * fr_[t];
  return acc;
}

void WitnessColumn::accumulate(std::size_t begin, const Fr& coeff, std::span<Fr> acc) const {
  switch (w_) {
    case ColumnWidth::k8:
      if (packed_) {
        // coeff or 0 added, selected without a branch.
        const Fr v[2] = {Fr::zero(), coeff};
        for_each_bit(bits_, begin, acc.size(), [&](std::size_t j, unsigned b) { acc[j] += v[b]; });
        return;
      }
      return accumulate_ints(u8_, begin, coeff, acc);
    case ColumnWidth::k32:
      return accumulate_ints(u32_, begin, coeff, acc);
    case ColumnWidth::k64:
      return accumulate_ints(u64_, begin, coeff, acc);
    case ColumnWidth::kField:
      break;
  }
  const Fr* p = fr_.data() + begin;
  for (std::size_t j = 0; j < acc.size(); ++j) acc[j] += coeff * p[j];
}

bool WitnessColumn::pack_bits() {
  if (w_ != ColumnWidth::k8 || packed_) return packed_;
  if (std::any_of(u8_.begin(), u8_.end(), [](std::uint8_t v) { return v > 1; })) return false;
  bits_.assign((n_ + 63) / 64, 0);
  for (std::size_t t = 0; t < n_; ++t) bits_[t >> 6] |= std::uint64_t{u8_[t]} << (t & 63);
  std::vector<std::uint8_t>().swap(u8_);
  packed_ = true;
  return true;
}

void WitnessColumn::unpack() {
  if (!packed_) return;
  u8_.resize(n_);
  for (std::size_t t = 0; t < n_; ++t) u8_[t] = static_cast<std::uint8_t>(bit(t));
  std::vector<std::uint64_t>().swap(bits_);
  packed_ = false;
}

void WitnessColumns::pack_bits() {
  tbb::parallel_for(std::size_t{0}, cols_.size(), [&](std::size_t c) { cols_[c].pack_bits(); });
}

std::size_t WitnessColumn::bytes() const {
  return bits_.capacity() * 8 + u8_.capacity() + u32_.capacity() * 4 + u64_.capacity() * 8 +
         fr_.capacity() * sizeof(Fr);
}

WitnessColumns::WitnessColumns(std::size_t num_columns, std::size_t length)
    : cols_(num_columns, WitnessColumn(length)), length_(length) {}

WitnessColumns WitnessColumns::from_dense(const std::vector<std::vector<Fr>>& columns) {
  WitnessColumns w;
  w.length_ = columns.empty() ? 0 : columns[0].size();
  w.cols_.reserve(columns.size());
  for (const auto& c : columns) {
    if (c.size() != w.length_)
      throw std::invalid_argument("WitnessColumns::from_dense: columns differ in length");
    std::vector<std::array<std::uint64_t, 4>> canon(c.size());
    ColumnWidth need = ColumnWidth::k8;
    for (std::size_t t = 0; t < c.size(); ++t) {
      canon[t] = c[t].to_canonical_limbs();
      need = std::max(need, width_for(canon[t]));
    }
    WitnessColumn col(c.size(), need);
    if (need == ColumnWidth::kField)
      for (std::size_t t = 0; t < c.size(); ++t) col.set(t, c[t]);
    else
      for (std::size_t t = 0; t < c.size(); ++t) col.store(t, canon[t]);
    w.cols_.push_back(std::move(col));
  }
  return w;
}

std::vector<std::vector<Fr>> WitnessColumns::to_dense() const {
  std::vector<std::vector<Fr>> d;
  d.reserve(cols_.size());
  for (const auto& c : cols_) d.push_back(c.to_vector());
  return d;
}

std::size_t WitnessColumns::bytes() const {
  std::size_t b = cols_.capacity() * sizeof(WitnessColumn);
  for (const auto& c : cols_) b += c.bytes();
  return b;
}

}  // namespace jolt::prover
