// The committed witness columns, each stored in the narrowest integer width that holds all its
// entries (u8, u32, u64) or as Fr when some entry is no small integer. Most columns are flags,
// bytes, register indices or 32-bit words, so the witness takes about a sixth of the memory of
// dense Fr columns; entries are read as Fr, and the products the prover takes most often (dot
// products with eq tables, a coefficient times a column) cost one Montgomery product per entry,
// as with dense columns (Fr::sum_small, Fr::mul_small).
//
//   WitnessColumns w(r1cs::kNumColumns, T);           // every column u8, all zero
//   w.set(c, t, Fr::from_u64(x));                      // widens column c when x needs it
//   Fr v = w[c][t];                                    // the entry as Fr
//   Fr e = w[c].dot(eq_table);                         // Σ_t eq[t]·w[c][t]
//   pcs->commit(w);                                    // a PolynomialBatch
//   WitnessColumns d = WitnessColumns::from_dense(cols);   // the narrowest width per column
//
// Thread-safety: const access from any thread; set() and widen() are not concurrent with any
// other access to the same column. store() may run concurrently for distinct entries when the
// column already has the width they need (extraction widens first, under a lock; r1cs.cpp) and
// is not bit-packed. After extraction, pack_bits() stores each column of 0/1 entries (flags and
// the key, index and address bits) as one bit per entry, an eighth of a u8 column.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/pcs/scheme.hpp>

namespace jolt::prover {

enum class ColumnWidth : std::uint8_t { k8 = 0, k32 = 1, k64 = 2, kField = 3 };

// The narrowest width holding the canonical value with these limbs.
ColumnWidth width_for(const std::array<std::uint64_t, 4>& canonical);
const char* width_name(ColumnWidth w);

class WitnessColumn {
 public:
  WitnessColumn() = default;
  explicit WitnessColumn(std::size_t n, ColumnWidth w = ColumnWidth::k8);

  std::size_t size() const { return n_; }
  ColumnWidth width() const { return w_; }
  Fr operator[](std::size_t t) const;
  // The entry's canonical limbs (no conversion for the integer widths).
  std::array<std::uint64_t, 4> canonical(std::size_t t) const;
  // Sets entry t, widening the column when the value needs it.
  void set(std::size_t t, const Fr& v);
  // Stores canonical limbs at t; the column's width must hold them.
  void store(std::size_t t, const std::array<std::uint64_t, 4>& canonical);
  // Re-stores every entry in width w (never narrows).
  void widen(ColumnWidth w);

  // out[j] = entry begin + j.
  void read(std::size_t begin, std::span<Fr> out) const;
  // The same as integers; throws std::logic_error for a column stored as Fr.
  void read_u64(std::size_t begin, std::span<std::uint64_t> out) const;
  // The same as bytes when the column is stored as bits (packed_bits()): returns whether it is.
  bool read_bits(std::size_t begin, std::span<std::uint8_t> out) const;
  std::vector<Fr> to_vector() const;
  // Σ_t weights[t]·entry t over t < weights.size() ≤ size().
  Fr dot(std::span<const Fr> weights) const;
  // acc[j] += coeff · entry begin + j.
  void accumulate(std::size_t begin, const Fr& coeff, std::span<Fr> acc) const;
  // A u8 column of 0/1 entries only is re-stored as one bit per entry (returns whether the column
  // is so stored); a later store of a larger value unpacks it. Not concurrent with any access.
  bool pack_bits();
  bool packed_bits() const { return packed_; }
  // The entries as Fr when the column is stored as Fr, else empty.
  std::span<const Fr> field_entries() const { return fr_; }
  std::size_t bytes() const;

 private:
  std::uint64_t bit(std::size_t t) const { return (bits_[t >> 6] >> (t & 63)) & 1; }
  void unpack();

  std::size_t n_ = 0;
  ColumnWidth w_ = ColumnWidth::k8;
  bool packed_ = false;              // a u8 column of 0/1 entries held in bits_
  std::vector<std::uint64_t> bits_;  // entry t: bit t % 64 of word t / 64
  std::vector<std::uint8_t> u8_;
  std::vector<std::uint32_t> u32_;
  std::vector<std::uint64_t> u64_;
  std::vector<Fr> fr_;
};

class WitnessColumns final : public PolynomialBatch {
 public:
  WitnessColumns() = default;
  WitnessColumns(std::size_t num_columns, std::size_t length);
  static WitnessColumns from_dense(const std::vector<std::vector<Fr>>& columns);
  std::vector<std::vector<Fr>> to_dense() const;

  std::size_t size() const { return cols_.size(); }
  std::size_t length() const { return length_; }
  const WitnessColumn& operator[](std::size_t c) const { return cols_[c]; }
  WitnessColumn& operator[](std::size_t c) { return cols_[c]; }
  void set(std::size_t c, std::size_t t, const Fr& v) { cols_[c].set(t, v); }
  std::size_t bytes() const;
  // WitnessColumn::pack_bits on every column (after extraction; not concurrent with any access).
  void pack_bits();

  // PolynomialBatch: the columns in order.
  std::size_t num_polys() const override { return cols_.size(); }
  std::size_t table_size() const override { return length_; }
  void read(std::size_t i, std::size_t begin, std::span<Fr> out) const override {
    cols_[i].read(begin, out);
  }
  void accumulate(std::size_t i, std::size_t begin, const Fr& coeff,
                  std::span<Fr> acc) const override {
    cols_[i].accumulate(begin, coeff, acc);
  }
  std::span<const Fr> view(std::size_t i) const override { return cols_[i].field_entries(); }
  bool read_bits(std::size_t i, std::size_t begin, std::span<std::uint8_t> out) const override {
    return cols_[i].read_bits(begin, out);
  }

 private:
  std::vector<WitnessColumn> cols_;
  std::size_t length_ = 0;
};

}  // namespace jolt::prover
