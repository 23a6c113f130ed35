// Ligero PCS: honest batched openings verify (several sizes, odd n, batch counts); a changed
// evaluation, root, opened column, u or w is rejected at its named check; a cheating u
// consistent with a false claim is caught by the column checks; the proof decoder rejects
// malformed bytes.
#include <doctest/doctest.h>

#include <jolt/prover/pcs/fr_arrays.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/transcript/transcript.hpp>
#include <string>

#include "test_util.hpp"

using jolt::prover::Commitment;
using jolt::prover::CommitOutput;
using jolt::prover::Fr;
using jolt::prover::Transcript;
using jolt::prover::VerifyError;
using namespace jolt::prover::pcs;
using jolt::prover::eq_table;

using pcs_test::check_of;
using pcs_test::evaluate;
using pcs_test::Instance;
using pcs_test::make_instance;

namespace {

struct Opened {
  CommitOutput com;
  LigeroProof proof;
};

Opened commit_and_prove(const LigeroPCS& pcs, const Instance& in, Transcript& t) {
  Opened o;
  auto spans = in.spans();
  o.com = pcs.commit(spans);
  o.proof =
      pcs.prove(dynamic_cast<const LigeroProverData&>(*o.com.data), spans, in.point, in.evals, t);
  return o;
}

}  // namespace

TEST_CASE("query count: 148 at 100 bits and 189 at 128 bits for rate 1/4") {
  CHECK(LigeroParams{}.num_queries() == 148);
  CHECK(LigeroParams{2, 128}.num_queries() == 189);
  CHECK(LigeroParams{}.decoding_radius() == doctest::Approx(0.375));
}

TEST_CASE("eq_table puts point[0] on the most significant bit") {
  std::mt19937_64 rng(11);
  const auto r = pcs_test::random_frs(rng, 4);
  const auto t = eq_table(r);
  // Entry 0b0101: (1 − r0) · r1 · (1 − r2) · r3.
  CHECK(t[5] == (Fr::one() - r[0]) * r[1] * (Fr::one() - r[2]) * r[3]);
  CHECK(t[8] == r[0] * (Fr::one() - r[1]) * (Fr::one() - r[2]) * (Fr::one() - r[3]));
}

TEST_CASE("parameters() names the rate, the query count and the security level") {
  const std::string p = LigeroPCS{}.parameters();
  CHECK(p.find("rate=1/4") != std::string::npos);
  CHECK(p.find("queries=148") != std::string::npos);
  CHECK(p.find("security_bits=100") != std::string::npos);
}

TEST_CASE("honest batched openings verify for several sizes and batch counts") {
  const LigeroPCS pcs;
  const std::pair<unsigned, unsigned> cases[] = {{0, 1}, {1, 1}, {1, 2}, {2, 3},  {3, 1},
                                                 {5, 2}, {6, 4}, {9, 1}, {10, 3}, {13, 2}};
  for (const auto& c : cases) {
    const unsigned n = c.first, k = c.second;  // named copies: clang 14 cannot capture bindings
    CAPTURE(n);
    CAPTURE(k);
    const Instance in = make_instance(n, k, 100 + n * 10 + k);
    Transcript tp("pcs-test"), tv("pcs-test");
    auto spans = in.spans();
    auto com = pcs.commit(spans);
    CHECK(com.commitment.num_vars == n);
    CHECK(com.commitment.num_polys == k);
    CHECK(com.commitment.bytes.size() == 32);
    const auto bytes = pcs.open(*com.data, spans, in.point, in.evals, tp);
    CHECK(bytes.size() <= pcs.max_proof_size(n, k));
    const auto err = pcs.verify(com.commitment, in.point, in.evals, bytes, tv);
    CHECK_MESSAGE(!err, check_of(err));
    CHECK(tp.state() == tv.state());  // both sides end in the same transcript state

    // Round trip of the typed proof through the codec.
    LigeroProof decoded;
    REQUIRE_FALSE(LigeroProof::decode(bytes, decoded));
    CHECK(decoded.encode() == bytes);
    CHECK(decoded.encoded_size() == bytes.size());
  }
}

TEST_CASE("wide matrices (extra_log_cols) open and verify; parameters must agree") {
  LigeroParams wide;
  wide.extra_log_cols = 2;
  const LigeroPCS pcs(wide), square;
  for (const auto& c : {std::pair{3u, 2u}, std::pair{9u, 3u}, std::pair{12u, 1u}}) {
    const unsigned n = c.first, k = c.second;
    CAPTURE(n);
    const Instance in = make_instance(n, k, 500 + n);
    auto spans = in.spans();
    auto com = pcs.commit(spans);
    const auto& data = dynamic_cast<const LigeroProverData&>(*com.data);
    CHECK(data.shape.log_cols == std::min(n, (n + 1) / 2 + 2));
    Transcript tp("pcs-test"), tv("pcs-test"), tv2("pcs-test");
    const auto bytes = pcs.open(*com.data, spans, in.point, in.evals, tp);
    const auto err = pcs.verify(com.commitment, in.point, in.evals, bytes, tv);
    CHECK_MESSAGE(!err, check_of(err));
    // A verifier with the square geometry rejects the proof (shape and transcript differ).
    CHECK(square.verify(com.commitment, in.point, in.evals, bytes, tv2));
    Transcript tp2("pcs-test");
    CHECK_THROWS_AS(square.open(*com.data, spans, in.point, in.evals, tp2), std::invalid_argument);
  }
}

TEST_CASE("commitment is deterministic and binds the tables") {
  const LigeroPCS pcs;
  Instance in = make_instance(6, 2, 5);
  auto s1 = in.spans();
  const auto a = pcs.commit(s1);
  const auto b = pcs.commit(s1);
  CHECK(a.commitment == b.commitment);
  in.tables[1][17] += Fr::one();
  auto s2 = in.spans();
  CHECK(pcs.commit(s2).commitment.bytes != a.commitment.bytes);
}

TEST_CASE("tampering is rejected at the named check") {
  const LigeroPCS pcs;
  const Instance in = make_instance(7, 3, 42);  // odd n: 16 columns × 8 rows
  Transcript tp("pcs-test");
  const Opened o = commit_and_prove(pcs, in, tp);
  const Commitment& com = o.com.commitment;
  auto verify = [&](const Commitment& c, const std::vector<Fr>& evals, const LigeroProof& p) {
    Transcript tv("pcs-test");
    return check_of(pcs.verify_proof(c, in.point, evals, p, tv));
  };
  REQUIRE(verify(com, in.evals, o.proof) == "");

  SUBCASE("a changed claimed evaluation") {
    for (std::size_t i = 0; i < in.evals.size(); ++i) {
      auto evals = in.evals;
      evals[i] += Fr::one();
      CHECK(verify(com, evals, o.proof) == "pcs.ligero.eval_claim");
    }
  }
  SUBCASE("a changed root") {
    Commitment c = com;
    c.bytes[0] ^= 1;  // moves ρ, γ (the root is absorbed first), so u no longer matches
    CHECK_FALSE(verify(c, in.evals, o.proof).empty());
  }
  SUBCASE("a changed shape in the commitment") {
    Commitment c = com;
    c.num_polys = 2;
    auto evals = in.evals;
    evals.pop_back();
    CHECK_FALSE(verify(c, evals, o.proof).empty());
    c = com;
    c.bytes.pop_back();
    CHECK(verify(c, in.evals, o.proof) == "pcs.ligero.shape");
  }
  SUBCASE("a changed opened column value") {
    LigeroProof p = o.proof;
    p.columns[3].values[5] += Fr::one();
    CHECK(verify(com, in.evals, p) == "pcs.ligero.merkle");
  }
  SUBCASE("a changed Merkle sibling or a missing column") {
    LigeroProof p = o.proof;
    p.columns[0].path[1][7] ^= 2;
    CHECK(verify(com, in.evals, p) == "pcs.ligero.merkle");
    p = o.proof;
    p.columns.pop_back();
    CHECK(verify(com, in.evals, p) == "pcs.ligero.shape");
  }
  SUBCASE("a changed u or w") {
    LigeroProof p = o.proof;
    p.eval_row[2] += Fr::one();
    CHECK(verify(com, in.evals, p) == "pcs.ligero.eval_claim");
    p = o.proof;
    p.proximity_row[0] += Fr::one();
    CHECK_FALSE(verify(com, in.evals, p).empty());
    p = o.proof;
    p.eval_row.pop_back();
    CHECK(verify(com, in.evals, p) == "pcs.ligero.shape");
  }
  SUBCASE("a different verifier transcript") {
    Transcript tv("other-domain");
    CHECK(pcs.verify_proof(com, in.point, in.evals, o.proof, tv));
  }
  SUBCASE("a wrong point") {
    auto point = in.point;
    point[6] += Fr::one();
    Transcript tv("pcs-test");
    CHECK(pcs.verify_proof(com, point, in.evals, o.proof, tv));
    point.pop_back();
    Transcript tv2("pcs-test");
    CHECK(check_of(pcs.verify_proof(com, point, in.evals, o.proof, tv2)) == "pcs.ligero.shape");
  }
}

TEST_CASE("a malicious prover: each column check catches what only it can see") {
  // The prover alters u or w before they enter the transcript and opens the columns the altered
  // transcript asks for, so only the re-derivation at the opened columns can see the change.
  const LigeroPCS pcs;
  const Instance in = make_instance(8, 2, 9);
  auto spans = in.spans();
  const CommitOutput com = pcs.commit(spans);
  const auto& data = dynamic_cast<const LigeroProverData&>(*com.data);
  // n = 8: 16 rows × 16 columns; r_lo = the last 4 coordinates.
  const auto eq_lo = eq_table(std::span<const Fr>(in.point).last(4));
  auto cheat = [&](const std::vector<Fr>& evals, const LigeroPCS::AlterRows& alter) {
    Transcript tp("pcs-test"), tv("pcs-test");
    const LigeroProof p = pcs.prove(data, spans, in.point, evals, tp, alter);
    return check_of(pcs.verify_proof(com.commitment, in.point, evals, p, tv));
  };
  CHECK(cheat(in.evals, [](std::vector<Fr>&, std::vector<Fr>&) {}) == "");

  SUBCASE("u shifted by a vector orthogonal to eq(r_lo)") {
    CHECK(cheat(in.evals, [&](std::vector<Fr>& u, std::vector<Fr>&) {
            u[0] += eq_lo[1];
            u[1] -= eq_lo[0];
          }) == "pcs.ligero.eval_column");
  }
  SUBCASE("a false claim with a u that satisfies <u, eq(r_lo)>") {
    // Claim v_0 + 1: the combined claim moves by γ^0 = 1, so shift u by e_0 / eq_lo[0].
    auto evals = in.evals;
    evals[0] += Fr::one();
    CHECK(cheat(evals, [&](std::vector<Fr>& u, std::vector<Fr>&) { u[0] += eq_lo[0].inverse(); }) ==
          "pcs.ligero.eval_column");
  }
  SUBCASE("a changed proximity row") {
    CHECK(cheat(in.evals, [](std::vector<Fr>&, std::vector<Fr>& w) { w[3] += Fr::one(); }) ==
          "pcs.ligero.proximity");
  }
}

TEST_CASE("a matrix with a corrupted codeword row fails the proximity test") {
  // Commit honestly, then corrupt one encoded row at many positions (as a cheating committer
  // would) and rebuild the tree: the row is no longer a codeword, w cannot match.
  const LigeroPCS pcs;
  const Instance in = make_instance(8, 1, 77);
  auto spans = in.spans();
  auto com = pcs.commit(spans);
  auto& data = dynamic_cast<LigeroProverData&>(*com.data);
  const std::size_t N = data.shape.codeword_len(), h = data.shape.column_height();
  for (std::size_t j = 0; j < N; j += 2) data.encoded[3 * N + j] += Fr::one();
  data.tree = MerkleTree::build(N, [&](std::size_t j) {
    std::vector<Fr> col(h);
    for (std::size_t t = 0; t < h; ++t) col[t] = data.encoded[t * N + j];
    return hash_leaf(col);
  });
  Commitment c = com.commitment;
  c.bytes.assign(data.tree.root().begin(), data.tree.root().end());
  Transcript tp("pcs-test"), tv("pcs-test");
  const LigeroProof p = pcs.prove(data, spans, in.point, in.evals, tp);
  CHECK(check_of(pcs.verify_proof(c, in.point, in.evals, p, tv)) == "pcs.ligero.proximity");
}

TEST_CASE("the prover refuses wrong claims and mismatched shapes") {
  const LigeroPCS pcs;
  const Instance in = make_instance(5, 2, 3);
  auto spans = in.spans();
  auto com = pcs.commit(spans);
  Transcript t("pcs-test");
  auto evals = in.evals;
  evals[1] += Fr::one();
  CHECK_THROWS_AS(pcs.open(*com.data, spans, in.point, evals, t), std::invalid_argument);
  CHECK_THROWS_AS(pcs.open(*com.data, spans, std::span<const Fr>(in.point).first(4), in.evals, t),
                  std::invalid_argument);
  auto one_table = spans;
  one_table.pop_back();
  CHECK_THROWS_AS(pcs.open(*com.data, one_table, in.point, in.evals, t), std::invalid_argument);
  std::vector<Fr> a(8), b(16);
  std::vector<std::span<const Fr>> bad = {a, b};
  CHECK_THROWS_AS(pcs.commit(bad), std::invalid_argument);
  std::vector<Fr> c(6);
  std::vector<std::span<const Fr>> bad2 = {c};
  CHECK_THROWS_AS(pcs.commit(bad2), std::invalid_argument);
  CHECK_THROWS_AS(pcs.commit(std::span<const std::span<const Fr>>{}), std::invalid_argument);
}

TEST_CASE("the decoder rejects truncated, padded and corrupt encodings") {
  const LigeroPCS pcs;
  const Instance in = make_instance(4, 2, 8);
  Transcript tp("pcs-test");
  const Opened o = commit_and_prove(pcs, in, tp);
  const std::vector<std::uint8_t> bytes = o.proof.encode();
  LigeroProof out;
  REQUIRE_FALSE(LigeroProof::decode(bytes, out));
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    CAPTURE(len);
    CHECK(check_of(LigeroProof::decode(std::span(bytes).first(len), out)) == "decode.truncated");
  }
  auto padded = bytes;
  padded.push_back(0);
  CHECK(check_of(LigeroProof::decode(padded, out)) == "decode.trailing");
  auto bad_magic = bytes;
  bad_magic[0] = 'X';
  CHECK(check_of(LigeroProof::decode(bad_magic, out)) == "pcs.ligero.magic");
  auto bad_version = bytes;
  bad_version[4] = 9;
  CHECK(check_of(LigeroProof::decode(bad_version, out)) == "pcs.ligero.version");
  auto huge = bytes;
  for (std::size_t i = 8; i < 16; ++i) huge[i] = 0xff;  // row length 2^64 − 1
  CHECK(check_of(LigeroProof::decode(huge, out)) == "decode.truncated");
  auto huge_cols = bytes;
  for (std::size_t i = 32; i < 40; ++i) huge_cols[i] = 0xff;
  CHECK(check_of(LigeroProof::decode(huge_cols, out)) == "decode.truncated");
  // Empty columns (height and path length 0) read no bytes: one per byte left would allocate
  // about 48 bytes of vectors per input byte before the trailing bytes are found.
  // Header (little-endian u64s): row length at 8, column height 16, path length 24, count 32.
  const auto write_u64 = [](std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
    for (std::size_t i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  std::uint64_t row_len = 0;
  for (std::size_t i = 0; i < 8; ++i) row_len |= std::uint64_t{bytes[8 + i]} << (8 * i);
  const std::uint64_t left = bytes.size() - 40 - 2 * row_len * Fr::kBytes;
  auto empty_cols = bytes;
  write_u64(empty_cols, 16, 0);
  write_u64(empty_cols, 24, 0);
  write_u64(empty_cols, 32, left);
  const auto empty_err = LigeroProof::decode(empty_cols, out);
  CHECK(check_of(empty_err) == "decode.truncated");
  CHECK(out.columns.empty());
  auto non_canonical = bytes;
  for (std::size_t i = 40; i < 72; ++i) non_canonical[i] = 0xff;  // first element of u ≥ r
  CHECK(check_of(LigeroProof::decode(non_canonical, out)) == "decode.non_canonical");
  // The byte-level verify reports the decoder's error rather than crashing.
  Transcript tv("pcs-test");
  const auto err = pcs.verify(o.com.commitment, in.point, in.evals,
                              std::span(bytes).first(bytes.size() / 2), tv);
  CHECK(check_of(err) == "decode.truncated");
}

TEST_CASE("prover data holds the codewords and the tree, not a copy of the tables") {
  struct Sum final : jolt::HeapVisitor {
    std::uint64_t total = 0;
    void enter(std::string_view) override {}
    void bytes(std::string_view, std::uint64_t n) override { total += n; }
    void exit() override {}
  } v;
  const LigeroPCS pcs;
  const Instance in = make_instance(6, 1, 1);
  auto spans = in.spans();
  auto com = pcs.commit(spans);
  com.data->visit_heap(v);
  // n = 6: 8 rows × 8 columns, codewords of 32 → encoded 256 Fr, a tree of 2·32 digests.
  CHECK(v.total == 256 * sizeof(Fr) + 2 * 32 * 32);
}

TEST_CASE("every single-byte corruption of an encoded proof is rejected without a crash") {
  const LigeroPCS pcs;
  const Instance in = make_instance(6, 2, 21);
  auto spans = in.spans();
  const auto com = pcs.commit(spans);
  Transcript tp("pcs-test");
  const auto bytes = pcs.open(*com.data, spans, in.point, in.evals, tp);
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    auto bad = bytes;
    const std::size_t pos = rng() % bad.size();
    bad[pos] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    Transcript tv("pcs-test");
    CAPTURE(pos);
    CHECK(pcs.verify(com.commitment, in.point, in.evals, bad, tv));
  }
}

TEST_CASE("the verifier rejects absurd commitment shapes with an error, not a crash") {
  const LigeroPCS pcs;
  const Instance in = make_instance(4, 1, 2);
  auto spans = in.spans();
  const auto com = pcs.commit(spans);
  Transcript tp("pcs-test");
  const auto bytes = pcs.open(*com.data, spans, in.point, in.evals, tp);
  for (std::uint32_t n : {52u, 60u, 0xffffffffu}) {
    Commitment c = com.commitment;
    c.num_vars = n;
    std::vector<Fr> point(n <= 60 ? n : 4);
    Transcript tv("pcs-test");
    CHECK(check_of(pcs.verify(c, point, in.evals, bytes, tv)) == "pcs.ligero.shape");
  }
  Commitment c = com.commitment;
  c.num_polys = 0;
  Transcript tv("pcs-test");
  CHECK(check_of(pcs.verify(c, in.point, {}, bytes, tv)) == "pcs.ligero.shape");
}
