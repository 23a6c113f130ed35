// Ligero PCS: honest batched openings verify (several sizes, odd n, batch counts); a changed
// evaluation, root, opened column, u or w is rejected; a cheating u consistent with a false
// claim is caught by the column checks; the proof decoder rejects malformed bytes.
#include <doctest/doctest.h>

#include <jolt/prover/pcs/blake2b_transcript.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/transcript_adapter.hpp>
#include <string>

#include "test_util.hpp"

using jolt::prover::Fr;
using namespace jolt::prover::pcs;

namespace {

// Reference multilinear evaluation by folding variable 0 (the LSB) first: independent of
// eq_table_le.
Fr evaluate_le(std::vector<Fr> f, std::span<const Fr> r) {
  for (const Fr& rk : r) {
    std::vector<Fr> g(f.size() / 2);
    for (std::size_t y = 0; y < g.size(); ++y) g[y] = f[2 * y] + rk * (f[2 * y + 1] - f[2 * y]);
    f = std::move(g);
  }
  return f[0];
}

struct Instance {
  std::vector<std::vector<Fr>> tables;
  std::vector<Fr> point, evals;
  std::vector<std::span<const Fr>> spans() const {
    return std::vector<std::span<const Fr>>(tables.begin(), tables.end());
  }
};

Instance make_instance(unsigned n, unsigned k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Instance in;
  for (unsigned i = 0; i < k; ++i) in.tables.push_back(pcs_test::random_frs(rng, 1u << n));
  in.point = pcs_test::random_frs(rng, n);
  for (const auto& t : in.tables) in.evals.push_back(evaluate_le(t, in.point));
  return in;
}

// A transcript whose draws ignore the absorbs: lets a test change the proof without moving the
// query positions, so each check is exercised on its own.
class FixedTranscript final : public Transcript {
 public:
  void absorb(std::string_view, std::span<const std::uint8_t>) override {}
  Fr challenge_fr(std::string_view) override { return Fr::from_u64(0x9e3779b9u + 7 * ++n_); }
  std::uint64_t challenge_u64(std::string_view) override {
    return 0x9e3779b97f4a7c15ULL * ++n_ + 12345;
  }

 private:
  std::uint64_t n_ = 0;
};

struct Opened {
  CommitOutput com;
  LigeroProof proof;
};

Opened commit_and_prove(const LigeroPCS& pcs, const Instance& in, Transcript& t) {
  Opened o;
  auto spans = in.spans();
  o.com = pcs.commit(spans);
  o.proof = pcs.prove(dynamic_cast<const LigeroProverData&>(*o.com.data), in.point, in.evals, t);
  return o;
}

bool contains(const jolt::Status& st, const std::string& what) {
  return st.message.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("query count: 148 at 100 bits and 189 at 128 bits for rate 1/4") {
  CHECK(LigeroParams{}.num_queries() == 148);
  CHECK(LigeroParams{2, 128}.num_queries() == 189);
  CHECK(LigeroParams{}.decoding_radius() == doctest::Approx(0.375));
}

TEST_CASE("eq_table_le puts point[i] on bit i") {
  std::mt19937_64 rng(11);
  const auto r = pcs_test::random_frs(rng, 4);
  const auto t = eq_table_le(r);
  // Entry 0b0101: r0 · (1 − r1) · r2 · (1 − r3).
  CHECK(t[5] == r[0] * (Fr::one() - r[1]) * r[2] * (Fr::one() - r[3]));
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
    Blake2bTranscript tp("pcs-test"), tv("pcs-test");
    auto spans = in.spans();
    auto com = pcs.commit(spans);
    CHECK(com.commitment.num_vars == n);
    CHECK(com.commitment.num_polys == k);
    CHECK(com.commitment.bytes.size() == 32);
    const auto bytes = pcs.open(*com.data, in.point, in.evals, tp);
    CHECK(bytes.size() <= pcs.max_proof_size(n, k));
    const jolt::Status st = pcs.verify(com.commitment, in.point, in.evals, bytes, tv);
    CHECK_MESSAGE(st.ok, st.message);
    CHECK(tp.state() == tv.state());  // both sides end in the same transcript state

    // Round trip of the typed proof through the codec.
    LigeroProof decoded;
    REQUIRE(LigeroProof::decode(bytes, decoded).ok);
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
    Blake2bTranscript tp("pcs-test"), tv("pcs-test"), tv2("pcs-test");
    const auto bytes = pcs.open(*com.data, in.point, in.evals, tp);
    const auto st = pcs.verify(com.commitment, in.point, in.evals, bytes, tv);
    CHECK_MESSAGE(st.ok, st.message);
    // A verifier with the square geometry rejects the proof (shape and transcript differ).
    CHECK_FALSE(square.verify(com.commitment, in.point, in.evals, bytes, tv2).ok);
    Blake2bTranscript tp2("pcs-test");
    CHECK_THROWS_AS(square.open(*com.data, in.point, in.evals, tp2), std::invalid_argument);
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

TEST_CASE("tampering is rejected") {
  const LigeroPCS pcs;
  const Instance in = make_instance(7, 3, 42);  // odd n: 16 columns × 8 rows
  Blake2bTranscript tp("pcs-test");
  const Opened o = commit_and_prove(pcs, in, tp);
  const Commitment& com = o.com.commitment;
  auto verify = [&](const Commitment& c, const std::vector<Fr>& evals, const LigeroProof& p) {
    Blake2bTranscript tv("pcs-test");
    return pcs.verify_proof(c, in.point, evals, p, tv);
  };
  REQUIRE(verify(com, in.evals, o.proof).ok);

  SUBCASE("a changed claimed evaluation") {
    for (std::size_t i = 0; i < in.evals.size(); ++i) {
      auto evals = in.evals;
      evals[i] += Fr::one();
      CHECK_FALSE(verify(com, evals, o.proof).ok);
    }
  }
  SUBCASE("a changed root") {
    Commitment c = com;
    c.bytes[0] ^= 1;
    CHECK_FALSE(verify(c, in.evals, o.proof).ok);
  }
  SUBCASE("a changed shape in the commitment") {
    Commitment c = com;
    c.num_polys = 2;
    auto evals = in.evals;
    evals.pop_back();
    CHECK_FALSE(verify(c, evals, o.proof).ok);
    c = com;
    c.bytes.pop_back();
    CHECK_FALSE(verify(c, in.evals, o.proof).ok);
  }
  SUBCASE("a changed opened column value") {
    LigeroProof p = o.proof;
    p.columns[3].values[5] += Fr::one();
    const auto st = verify(com, in.evals, p);
    CHECK_FALSE(st.ok);
    CHECK(contains(st, "Merkle path"));
  }
  SUBCASE("a changed Merkle sibling or column index") {
    LigeroProof p = o.proof;
    p.columns[0].path[1][7] ^= 2;
    CHECK_FALSE(verify(com, in.evals, p).ok);
    p = o.proof;
    p.columns[0].index ^= 1;
    CHECK_FALSE(verify(com, in.evals, p).ok);
    p = o.proof;
    p.columns.pop_back();
    CHECK_FALSE(verify(com, in.evals, p).ok);
  }
  SUBCASE("a changed u or w") {
    LigeroProof p = o.proof;
    p.eval_row[2] += Fr::one();
    CHECK_FALSE(verify(com, in.evals, p).ok);
    p = o.proof;
    p.proximity_row[0] += Fr::one();
    CHECK_FALSE(verify(com, in.evals, p).ok);
    p = o.proof;
    p.eval_row.pop_back();
    CHECK_FALSE(verify(com, in.evals, p).ok);
  }
  SUBCASE("a different verifier transcript") {
    Blake2bTranscript tv("other-domain");
    CHECK_FALSE(pcs.verify_proof(com, in.point, in.evals, o.proof, tv).ok);
  }
  SUBCASE("a wrong point") {
    auto point = in.point;
    point[6] += Fr::one();
    Blake2bTranscript tv("pcs-test");
    CHECK_FALSE(pcs.verify_proof(com, point, in.evals, o.proof, tv).ok);
    point.pop_back();
    Blake2bTranscript tv2("pcs-test");
    CHECK_FALSE(pcs.verify_proof(com, point, in.evals, o.proof, tv2).ok);
  }
}

TEST_CASE("with the query positions held fixed, each column check catches its own row") {
  const LigeroPCS pcs;
  const Instance in = make_instance(8, 2, 9);
  FixedTranscript tp;
  const Opened o = commit_and_prove(pcs, in, tp);
  auto verify = [&](const std::vector<Fr>& evals, const LigeroProof& p) {
    FixedTranscript tv;
    return pcs.verify_proof(o.com.commitment, in.point, evals, p, tv);
  };
  REQUIRE(verify(in.evals, o.proof).ok);
  const auto eq_lo = eq_table_le(std::span<const Fr>(in.point).first(4));

  SUBCASE("u shifted by a vector orthogonal to eq(r_lo): only the column check sees it") {
    LigeroProof p = o.proof;
    p.eval_row[0] += eq_lo[1];
    p.eval_row[1] -= eq_lo[0];
    const auto st = verify(in.evals, p);
    CHECK_FALSE(st.ok);
    CHECK(contains(st, "evaluation row is inconsistent"));
  }
  SUBCASE("a false claim with a u that satisfies ⟨u, eq(r_lo)⟩ is caught at the columns") {
    // Claim v_0 + 1; the verifier's γ is the first... second draw of the fixed transcript, and
    // the combined claim moves by 1 (γ^0 = 1), so shift u by e_0 / eq_lo[0].
    auto evals = in.evals;
    evals[0] += Fr::one();
    LigeroProof p = o.proof;
    p.eval_row[0] += eq_lo[0].inverse();
    const auto st = verify(evals, p);
    CHECK_FALSE(st.ok);
    CHECK(contains(st, "evaluation row is inconsistent"));
  }
  SUBCASE("a changed proximity row fails the proximity test") {
    LigeroProof p = o.proof;
    p.proximity_row[3] += Fr::one();
    const auto st = verify(in.evals, p);
    CHECK_FALSE(st.ok);
    CHECK(contains(st, "proximity test"));
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
  Blake2bTranscript tp("pcs-test"), tv("pcs-test");
  const LigeroProof p = pcs.prove(data, in.point, in.evals, tp);
  const auto st = pcs.verify_proof(c, in.point, in.evals, p, tv);
  CHECK_FALSE(st.ok);
  CHECK(contains(st, "proximity test"));
}

TEST_CASE("the prover refuses wrong claims and mismatched shapes") {
  const LigeroPCS pcs;
  const Instance in = make_instance(5, 2, 3);
  auto spans = in.spans();
  auto com = pcs.commit(spans);
  Blake2bTranscript t("pcs-test");
  auto evals = in.evals;
  evals[1] += Fr::one();
  CHECK_THROWS_AS(pcs.open(*com.data, in.point, evals, t), std::invalid_argument);
  CHECK_THROWS_AS(pcs.open(*com.data, std::span<const Fr>(in.point).first(4), in.evals, t),
                  std::invalid_argument);
  std::vector<Fr> a(8), b(16);
  std::vector<std::span<const Fr>> bad = {a, b};
  CHECK_THROWS_AS(pcs.commit(bad), std::invalid_argument);
  std::vector<Fr> c(6);
  std::vector<std::span<const Fr>> bad2 = {c};
  CHECK_THROWS_AS(pcs.commit(bad2), std::invalid_argument);
  CHECK_THROWS_AS(pcs.commit({}), std::invalid_argument);
}

TEST_CASE("the decoder rejects truncated, padded and corrupt encodings") {
  const LigeroPCS pcs;
  const Instance in = make_instance(4, 2, 8);
  Blake2bTranscript tp("pcs-test");
  const Opened o = commit_and_prove(pcs, in, tp);
  const std::vector<std::uint8_t> bytes = o.proof.encode();
  LigeroProof out;
  REQUIRE(LigeroProof::decode(bytes, out).ok);
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    const auto st = LigeroProof::decode(std::span(bytes).first(len), out);
    CHECK_FALSE(st.ok);
    CHECK(contains(st, "LigeroProof::decode"));
  }
  auto padded = bytes;
  padded.push_back(0);
  CHECK_FALSE(LigeroProof::decode(padded, out).ok);
  auto bad_magic = bytes;
  bad_magic[0] = 'X';
  CHECK(contains(LigeroProof::decode(bad_magic, out), "magic"));
  auto bad_version = bytes;
  bad_version[4] = 9;
  CHECK(contains(LigeroProof::decode(bad_version, out), "version"));
  auto huge = bytes;
  for (std::size_t i = 8; i < 16; ++i) huge[i] = 0xff;  // row length 2^64 − 1
  CHECK_FALSE(LigeroProof::decode(huge, out).ok);
  auto huge_cols = bytes;
  for (std::size_t i = 32; i < 40; ++i) huge_cols[i] = 0xff;
  CHECK_FALSE(LigeroProof::decode(huge_cols, out).ok);
  auto non_canonical = bytes;
  for (std::size_t i = 40; i < 72; ++i) non_canonical[i] = 0xff;  // first element of u ≥ r
  CHECK(contains(LigeroProof::decode(non_canonical, out), "non-canonical"));
  // The byte-level verify reports the decoder's error rather than crashing.
  Blake2bTranscript tv("pcs-test");
  const auto st = pcs.verify(o.com.commitment, in.point, in.evals,
                             std::span(bytes).first(bytes.size() / 2), tv);
  CHECK_FALSE(st.ok);
  CHECK(contains(st, "decode"));
}

TEST_CASE("TranscriptAdapter forwards to an engine-style transcript") {
  struct FakeEngine {
    std::size_t absorbs = 0, draws = 0;
    void absorb_bytes(std::string_view, std::span<const std::uint8_t>) { ++absorbs; }
    Fr challenge(std::string_view) { return Fr::from_u64(++draws); }
    std::array<std::uint8_t, 32> challenge_bytes(std::string_view) {
      ++draws;
      std::array<std::uint8_t, 32> b{};
      b[0] = 0x34;
      b[1] = 0x12;
      return b;
    }
  } engine;
  TranscriptAdapter t(engine);
  t.absorb_u64("x", 5);
  CHECK(t.challenge_fr("c") == Fr::from_u64(1));
  CHECK(t.challenge_u64("q") == 0x1234);
  CHECK(engine.absorbs == 1);
  CHECK(engine.draws == 2);
}

TEST_CASE("prover data reports its heap bytes") {
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
  // n = 6: 8 rows × 8 columns, codewords of 32 → matrix 64 + encoded 256 Fr, 2·32 digests.
  CHECK(v.total >= (64 + 256) * sizeof(Fr) + 2 * 32 * 32);
}

TEST_CASE("every single-byte corruption of an encoded proof is rejected without a crash") {
  const LigeroPCS pcs;
  const Instance in = make_instance(6, 2, 21);
  auto spans = in.spans();
  const auto com = pcs.commit(spans);
  Blake2bTranscript tp("pcs-test");
  const auto bytes = pcs.open(*com.data, in.point, in.evals, tp);
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    auto bad = bytes;
    const std::size_t pos = rng() % bad.size();
    bad[pos] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    Blake2bTranscript tv("pcs-test");
    CAPTURE(pos);
    CHECK_FALSE(pcs.verify(com.commitment, in.point, in.evals, bad, tv).ok);
  }
}

TEST_CASE("the verifier rejects absurd commitment shapes with an error, not a crash") {
  const LigeroPCS pcs;
  const Instance in = make_instance(4, 1, 2);
  auto spans = in.spans();
  const auto com = pcs.commit(spans);
  Blake2bTranscript tp("pcs-test");
  const auto bytes = pcs.open(*com.data, in.point, in.evals, tp);
  for (std::uint32_t n : {52u, 60u, 0xffffffffu}) {
    Commitment c = com.commitment;
    c.num_vars = n;
    std::vector<Fr> point(n <= 60 ? n : 4);
    Blake2bTranscript tv("pcs-test");
    CHECK_FALSE(pcs.verify(c, point, in.evals, bytes, tv).ok);
  }
  Commitment c = com.commitment;
  c.num_polys = 0;
  Blake2bTranscript tv("pcs-test");
  CHECK_FALSE(pcs.verify(c, in.point, {}, bytes, tv).ok);
}
