// Witness columns in their narrowest width: widths chosen and widened correctly, every read path
// (entry, block, dot product, accumulate, canonical limbs) equal to dense Fr columns, the
// extracted witness equal to the dense extraction, and the commitment over it identical to the
// commitment over dense tables.
#include <doctest/doctest.h>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pipeline/r1cs.hpp>
#include <jolt/prover/pipeline/witness_columns.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <random>
#include <stdexcept>

#include "mini_trace.hpp"

using namespace jolt::prover;

namespace {

Fr random_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng()) * Fr::from_u128(rng(), rng());
}

// A value needing exactly width w.
Fr value_of_width(std::mt19937_64& rng, ColumnWidth w) {
  switch (w) {
    case ColumnWidth::k8:
      return Fr::from_u64(rng() % 256);
    case ColumnWidth::k32:
      return Fr::from_u64(256 + rng() % (0xffffffffu - 255));
    case ColumnWidth::k64:
      return Fr::from_u64((std::uint64_t{1} << 32) + rng() % (~std::uint64_t{0} - 0xffffffffu));
    case ColumnWidth::kField:
      break;
  }
  return -Fr::from_u64(1 + rng() % 1000);
}

void check_same(const WitnessColumn& c, const std::vector<Fr>& dense) {
  REQUIRE(c.size() == dense.size());
  std::mt19937_64 rng(5);
  for (std::size_t t = 0; t < dense.size(); ++t) {
    CHECK(c[t] == dense[t]);
    CHECK(c.canonical(t) == dense[t].to_canonical_limbs());
  }
  CHECK(c.to_vector() == dense);
  std::vector<Fr> w(dense.size());
  for (auto& x : w) x = random_fr(rng);
  Fr want = Fr::zero();
  for (std::size_t t = 0; t < dense.size(); ++t) want += w[t] * dense[t];
  CHECK(c.dot(w) == want);
  // A block in the middle: read and accumulate.
  const std::size_t begin = dense.size() / 3, n = dense.size() / 2;
  std::vector<Fr> blk(n);
  c.read(begin, blk);
  for (std::size_t j = 0; j < n; ++j) CHECK(blk[j] == dense[begin + j]);
  // The same block as integers (the outer Spartan kernel's rows), or refused for field entries.
  std::vector<std::uint64_t> ints(n);
  if (c.width() == ColumnWidth::kField) {
    CHECK_THROWS_AS(c.read_u64(begin, ints), std::logic_error);
  } else {
    c.read_u64(begin, ints);
    for (std::size_t j = 0; j < n; ++j) CHECK(ints[j] == dense[begin + j].to_canonical_limbs()[0]);
  }
  const Fr coeff = random_fr(rng);
  std::vector<Fr> acc(n), want_acc(n);
  for (std::size_t j = 0; j < n; ++j) {
    acc[j] = want_acc[j] = random_fr(rng);
    want_acc[j] += coeff * dense[begin + j];
  }
  c.accumulate(begin, coeff, acc);
  CHECK(acc == want_acc);
}

}  // namespace

TEST_CASE("a column takes the narrowest width holding its values") {
  CHECK(width_for(Fr::zero().to_canonical_limbs()) == ColumnWidth::k8);
  CHECK(width_for(Fr::from_u64(255).to_canonical_limbs()) == ColumnWidth::k8);
  CHECK(width_for(Fr::from_u64(256).to_canonical_limbs()) == ColumnWidth::k32);
  CHECK(width_for(Fr::from_u64(0xffffffffu).to_canonical_limbs()) == ColumnWidth::k32);
  CHECK(width_for(Fr::from_u64(0x100000000u).to_canonical_limbs()) == ColumnWidth::k64);
  CHECK(width_for(Fr::from_u64(~std::uint64_t{0}).to_canonical_limbs()) == ColumnWidth::k64);
  CHECK(width_for(Fr::from_u128(0, 1).to_canonical_limbs()) == ColumnWidth::kField);
  CHECK(width_for((-Fr::one()).to_canonical_limbs()) == ColumnWidth::kField);

  std::vector<std::vector<Fr>> dense(4, std::vector<Fr>(64));
  std::mt19937_64 rng(1);
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t t = 0; t < 64; ++t)
      dense[c][t] = value_of_width(rng, static_cast<ColumnWidth>(t % (c + 1)));
  const WitnessColumns w = WitnessColumns::from_dense(dense);
  CHECK(w[0].width() == ColumnWidth::k8);
  CHECK(w[1].width() == ColumnWidth::k32);
  CHECK(w[2].width() == ColumnWidth::k64);
  CHECK(w[3].width() == ColumnWidth::kField);
  CHECK(w.to_dense() == dense);
  CHECK(w[0].bytes() == 64);
  CHECK(w[1].bytes() == 64 * 4);
  CHECK(w[2].bytes() == 64 * 8);
  CHECK(w[3].bytes() == 64 * sizeof(Fr));
  for (std::size_t c = 0; c < 4; ++c) check_same(w[c], dense[c]);
}

TEST_CASE("byte columns of bits, zeros and 255s: dot and accumulate equal the products") {
  // u8 columns are summed by additions (per-value buckets, a table of coeff·v): the edge values
  // of that path.
  std::mt19937_64 rng(7);
  for (const int kind : {0, 1, 2, 3}) {
    CAPTURE(kind);
    std::vector<Fr> dense(777);
    for (auto& x : dense)
      x = Fr::from_u64(kind == 0 ? 0 : kind == 1 ? rng() % 2 : kind == 2 ? 255 : rng() % 3);
    const WitnessColumns w = WitnessColumns::from_dense({dense});
    REQUIRE(w[0].width() == ColumnWidth::k8);
    check_same(w[0], dense);
  }
}

TEST_CASE("u32 and u64 columns of many entries: read and accumulate equal the products") {
  // Wide entries are converted and scaled over arrays, 64 at a time (multiply_arrays): blocks of
  // several chunks and a remainder, the edge values 0 and 2^64 − 1 included.
  std::mt19937_64 rng(9);
  for (const ColumnWidth width : {ColumnWidth::k32, ColumnWidth::k64}) {
    CAPTURE(static_cast<int>(width));
    std::vector<Fr> dense(777);
    for (auto& x : dense) x = value_of_width(rng, width);
    dense[300] = Fr::zero();
    if (width == ColumnWidth::k64) dense[301] = Fr::from_u64(~std::uint64_t{0});
    const WitnessColumns w = WitnessColumns::from_dense({dense});
    REQUIRE(w[0].width() == width);
    check_same(w[0], dense);
  }
}

TEST_CASE("set widens a column and keeps every earlier entry") {
  std::mt19937_64 rng(2);
  for (ColumnWidth last : {ColumnWidth::k32, ColumnWidth::k64, ColumnWidth::kField}) {
    WitnessColumn c(300);
    std::vector<Fr> dense(300);
    for (std::size_t t = 0; t < 300; ++t) {
      // Widths rise through the column, so each widening re-stores earlier entries.
      const auto w =
          static_cast<ColumnWidth>(std::min<std::size_t>(t / 75, static_cast<std::size_t>(last)));
      dense[t] = value_of_width(rng, w);
      c.set(t, dense[t]);
      CHECK(c.width() == w);
    }
    CHECK(c.width() == last);
    // A narrow value into a wide column stays in the wide width.
    dense[0] = Fr::from_u64(7);
    c.set(0, dense[0]);
    CHECK(c.width() == last);
    check_same(c, dense);
  }
}

TEST_CASE("the extracted witness equals the dense columns, in a fraction of their memory") {
  const auto tr = testutil::sample_trace(20);
  const WitnessColumns w = r1cs::extract_witness(tr.rows);
  const auto dense = r1cs::extract_columns(tr.rows);
  REQUIRE(w.size() == r1cs::kNumColumns);
  CHECK(w.to_dense() == dense);
  // Flags are u8, words u32; only columns holding a field element (a negative branch offset in
  // Imm) are stored as Fr.
  CHECK(w[r1cs::kIsNoop].width() == ColumnWidth::k8);
  CHECK(w[r1cs::kTableRangeCheck].width() == ColumnWidth::k8);
  CHECK(w[r1cs::kImm].width() == ColumnWidth::kField);
  CHECK(w[r1cs::kRs1Value].width() <= ColumnWidth::k32);
  const std::size_t dense_bytes = r1cs::kNumColumns * tr.rows.size() * sizeof(Fr);
  INFO("compact " << w.bytes() << " B, dense " << dense_bytes << " B");
  CHECK(w.bytes() * 4 < dense_bytes);
  // The register functions read the same state from either form.
  CHECK(r1cs::final_register_state(w).value == r1cs::final_register_state(dense).value);
}

TEST_CASE("committing and opening the compact witness gives the dense tables' commitment") {
  const auto tr = testutil::sample_trace(3);
  const WitnessColumns w = r1cs::extract_witness(tr.rows);
  const auto dense = w.to_dense();
  const std::vector<std::span<const Fr>> spans(dense.begin(), dense.end());
  const basefold::Basefold bf;
  const basefold::Committed a = bf.commit(w);
  const basefold::Committed b = bf.commit(spans);
  CHECK(a.root == b.root);
  const std::size_t n = a.num_vars;
  std::mt19937_64 rng(3);
  std::vector<Fr> point(n);
  for (auto& x : point) x = random_fr(rng);
  const std::vector<Fr> eq = EqPolynomial::evals(point);
  std::vector<Fr> evals(w.size());
  for (std::size_t c = 0; c < w.size(); ++c) evals[c] = w[c].dot(eq);
  Transcript ta("witness-test"), tb("witness-test");
  const auto pa = bf.open(*a.data, w, point, evals, ta);
  const auto pb = bf.open(*b.data, spans, point, evals, tb);
  CHECK(pa == pb);
  Transcript tv("witness-test");
  CHECK_FALSE(bf.verify(a.root, static_cast<unsigned>(n), static_cast<unsigned>(w.size()), point,
                        evals, pa, tv));
}

// Columns of 0/1 entries are held one bit per entry after assignment (flags, key, index and
// address bits): every read equals the dense column, dot over a prefix that ends inside a word
// included; storing 0/1 keeps the bits, a larger value unpacks and keeps every other entry.
TEST_CASE("columns of 0/1 entries packed to bits read as the dense column") {
  std::mt19937_64 rng(13);
  for (const std::size_t n : {1u, 63u, 64u, 65u, 777u}) {
    CAPTURE(n);
    std::vector<Fr> dense(n);
    for (auto& x : dense) x = Fr::from_u64(rng() & 1);
    WitnessColumns w = WitnessColumns::from_dense({dense});
    w.pack_bits();
    REQUIRE(w[0].packed_bits());
    CHECK(w[0].width() == ColumnWidth::k8);
    CHECK(w[0].bytes() == (n + 63) / 64 * 8);
    check_same(w[0], dense);
    std::vector<std::uint8_t> bits(n - n / 4);
    REQUIRE(w[0].read_bits(n / 4, bits));
    bool same = true;
    for (std::size_t j = 0; j < bits.size(); ++j)
      same = same && Fr::from_u64(bits[j]) == dense[n / 4 + j];
    CHECK(same);
    std::vector<Fr> weights(n - n / 3);
    Fr want = Fr::zero();
    for (std::size_t t = 0; t < weights.size(); ++t) {
      weights[t] = random_fr(rng);
      want += weights[t] * dense[t];
    }
    CHECK(w[0].dot(weights) == want);
    // 0/1 stores keep the bits.
    const std::size_t t0 = n / 2;
    dense[t0] = Fr::one() - dense[t0];
    w[0].set(t0, dense[t0]);
    CHECK(w[0].packed_bits());
    check_same(w[0], dense);
    // A larger value unpacks the column; a wider one widens it.
    dense[t0] = Fr::from_u64(7);
    w[0].set(t0, dense[t0]);
    CHECK_FALSE(w[0].packed_bits());
    check_same(w[0], dense);
    dense[0] = Fr::from_u64(1000);
    w[0].set(0, dense[0]);
    CHECK(w[0].width() == ColumnWidth::k32);
    check_same(w[0], dense);
  }
  // A column holding a 2, or wider than u8, stays as it is.
  WitnessColumns w = WitnessColumns::from_dense(
      {{Fr::one(), Fr::from_u64(2)}, {Fr::one(), Fr::from_u64(300)}, {Fr::zero(), Fr::one()}});
  w.pack_bits();
  CHECK_FALSE(w[0].packed_bits());
  CHECK_FALSE(w[1].packed_bits());
  CHECK(w[2].packed_bits());
  // Only the bit-packed column gives bits.
  std::vector<std::uint8_t> bits(2);
  CHECK_FALSE(w.read_bits(0, 0, bits));
  CHECK_FALSE(w.read_bits(1, 0, bits));
  CHECK(w.read_bits(2, 0, bits));
  CHECK(bits == std::vector<std::uint8_t>{0, 1});
  WitnessColumns f = WitnessColumns::from_dense({{Fr::one(), random_fr(rng)}});
  CHECK(f[0].width() == ColumnWidth::kField);
  CHECK_FALSE(f.read_bits(0, 0, bits));
  CHECK(w[1].width() == ColumnWidth::k32);
}
