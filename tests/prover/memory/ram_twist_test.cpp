// RAM Twist (memory/ram_twist.hpp): the layout packs regions into aligned blocks and maps them
// both ways; the MLE helpers are the dense tables' extensions; replay gives the honest values;
// every member kernel gives the dense NaiveKernel oracle's rounds and outputs, its claimed sum is
// the member's input claim and its `final` function the oracle's summand at the final point;
// honest proofs verify with the witness's openings and are the same at 1 and 2 threads; a
// malicious prover — the honest prover on a witness altered in one way, with the claims the R1CS
// side would make for it — and tampered proofs are rejected at the named check.
#include <doctest/doctest.h>

#include <tbb/global_control.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <jolt/prover/memory/ram_twist.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/expression.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>

using namespace jolt::prover;
using namespace jolt::prover::memory;

namespace doctest {
template <>
struct StringMaker<Fr> {
  static String convert(const Fr& v) { return String(v.to_hex().c_str()); }
};
}  // namespace doctest

namespace {

constexpr std::uint64_t kNoAddress = std::uint64_t{1} << 32;
constexpr const char* kDomain = "ram-twist-test";
constexpr KernelLabels kOracleLabels = {"RamOracle::prepare", "RamOracle::prove_round",
                                        "RamOracle::finish_rounds"};

Fr rand_fr(std::mt19937_64& rng) {
  return Fr::from_u128(rng(), rng() >> 2);
}

std::vector<Fr> rand_point(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> r(n);
  for (auto& x : r) x = rand_fr(rng);
  return r;
}

// A non-zero 32-bit word (stores of 0 are avoided so that no convention about them matters).
std::uint32_t rand_word(std::mt19937_64& rng) {
  return static_cast<std::uint32_t>(1 + rng() % 0xFFFFFFFEull);
}

Fr fr(std::uint64_t x) {
  return Fr::from_u64(x);
}

// The Boolean point of x's n bits, MSB first.
std::vector<Fr> bool_point(std::uint64_t x, std::size_t n) {
  std::vector<Fr> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = ((x >> (n - 1 - i)) & 1) ? Fr::one() : Fr::zero();
  return p;
}

std::size_t reverse_bits(std::size_t x, std::size_t n) {
  std::size_t y = 0;
  for (std::size_t i = 0; i < n; ++i) y |= ((x >> i) & 1) << (n - 1 - i);
  return y;
}

std::vector<Fr> concat(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  std::vector<Fr> c = a;
  c.insert(c.end(), b.begin(), b.end());
  return c;
}

Fr mle(const std::vector<Fr>& table, std::span<const Fr> point) {
  return DenseMultilinear::evaluate(table, point);
}

std::string show(const std::vector<Fr>& v) {
  std::ostringstream s;
  s << "[";
  for (std::size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i].to_hex();
  s << "]";
  return s.str();
}

// ---- layouts and runs -----------------------------------------------------------------------

// A layout of K = 2^log_k words with a few unmapped ones: a block of 2^(log_k − 1) words, one of
// a single word and (from log_k = 4 on) one of 4 words; K = 2 with one word for log_k = 1.
RamLayout layout_with_log_k(unsigned log_k) {
  std::vector<RamRegion> regions;
  if (log_k == 1) {
    regions = {{0x80000000u, 1}};
  } else {
    regions = {{0x80000000u, 1u << (log_k - 1)}, {0x7FFFF000u, 1}};
    if (log_k >= 4) regions.push_back({0x20000000u, 3});
  }
  RamLayout l = RamLayout::pack(regions);
  REQUIRE(l.log_k() == log_k);
  return l;
}

std::vector<std::uint32_t> mapped_words(const RamLayout& l) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t k = 0; k < l.k(); ++k)
    if (l.unmap(k) != kNoAddress) out.push_back(k);
  return out;
}

// Before replay: a load names only its word, a store its word and value.
RamAccess load_of(std::uint32_t k) {
  return RamAccess{true, false, k, 0, 0};
}
RamAccess store_of(std::uint32_t k, std::uint32_t v) {
  return RamAccess{true, true, k, 0, v};
}
RamAccess idle_at(std::uint32_t k) {
  return RamAccess{false, false, k, 0, 0};
}

// A random run: about half the cycles access a random word (of the blocks, or of all K words),
// half of those store a random value; a random image over the candidate words. `pre` is the
// witness before replay, `w` after it; `expect` and `final_words` are simulated here.
struct Run {
  unsigned log_t = 0, log_k = 0;
  RamLayout layout;
  RamWords init;
  RamWitness pre, w, expect;
  std::vector<bool> store;
  std::vector<std::uint32_t> final_words;
  std::vector<Fr> final_replay;  // replay's return value
  std::vector<std::uint32_t> candidates;
};

Run make_run(unsigned log_t, unsigned log_k, std::uint64_t seed, bool mapped_only) {
  std::mt19937_64 rng(seed);
  Run run;
  run.log_t = log_t;
  run.log_k = log_k;
  run.layout = layout_with_log_k(log_k);
  const std::size_t K = std::size_t{1} << log_k, T = std::size_t{1} << log_t;
  if (mapped_only) {
    run.candidates = mapped_words(run.layout);
  } else {
    for (std::uint32_t k = 0; k < K; ++k) run.candidates.push_back(k);
  }
  std::vector<std::uint32_t> mem(K, 0);
  for (std::uint32_t k : run.candidates)
    if (rng() % 2) {
      const std::uint32_t v = rand_word(rng);
      run.init.push_back({k, v});
      mem[k] = v;
    }
  std::shuffle(run.init.begin(), run.init.end(), rng);  // any order
  run.pre.log_k = log_k;
  run.expect.log_k = log_k;
  for (std::size_t j = 0; j < T; ++j) {
    const std::uint32_t k = run.candidates[static_cast<std::size_t>(rng() % run.candidates.size())];
    const bool accessed = j == 0 || (rng() & 1);
    if (!accessed) {
      run.pre.cycles.push_back(idle_at(k));
      run.expect.cycles.push_back(idle_at(k));
      run.store.push_back(false);
    } else if (rng() & 1) {
      const std::uint32_t v = rand_word(rng);
      run.pre.cycles.push_back(store_of(k, v));
      run.expect.cycles.push_back(RamAccess{true, true, k, mem[k], v});
      mem[k] = v;
      run.store.push_back(true);
    } else {
      run.pre.cycles.push_back(load_of(k));
      run.expect.cycles.push_back(RamAccess{true, false, k, mem[k], mem[k]});
      run.store.push_back(false);
    }
  }
  run.final_words = mem;
  run.w = run.pre;
  run.final_replay = replay(run.w, run.init);
  return run;
}

// Up to `n` words of the final memory (never one of `exclude`) as the claimed output.
RamWords pick_io(const Run& run, std::size_t n, std::uint64_t seed,
                 const std::set<std::uint32_t>& exclude = {}) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> c;
  for (std::uint32_t k : run.candidates)
    if (!exclude.count(k)) c.push_back(k);
  std::shuffle(c.begin(), c.end(), rng);
  RamWords io;
  for (std::size_t i = 0; i < n && i < c.size(); ++i) io.push_back({c[i], run.final_words[c[i]]});
  return io;
}

// The witness as dense tables, from its own Inc column: Val(k, j) at val[k·T + j].
struct Dense {
  std::size_t T = 0, K = 0;
  std::vector<Fr> inc, h, init, val, fin;
  std::vector<std::vector<Fr>> bits;  // bits[b][j]: bit b (MSB first) of a(j)
};

std::vector<Fr> my_dense_words(const RamWords& words, unsigned log_k) {
  std::vector<Fr> t(std::size_t{1} << log_k);
  for (const auto& [k, v] : words) t[k] = fr(v);
  return t;
}

Dense dense_of(const RamWitness& w, const RamWords& init) {
  Dense d;
  d.T = w.cycles.size();
  d.K = std::size_t{1} << w.log_k;
  d.init = my_dense_words(init, w.log_k);
  d.val.assign(d.K * d.T, Fr::zero());
  d.bits.assign(w.log_k, std::vector<Fr>(d.T));
  std::vector<Fr> mem = d.init;
  for (std::size_t j = 0; j < d.T; ++j) {
    const RamAccess& c = w.cycles[j];
    for (std::size_t k = 0; k < d.K; ++k) d.val[k * d.T + j] = mem[k];
    const Fr inc = fr(c.written) - fr(c.read);
    d.inc.push_back(inc);
    d.h.push_back(c.accessed ? Fr::one() : Fr::zero());
    if (c.accessed) mem[c.address] += inc;
    for (unsigned b = 0; b < w.log_k; ++b)
      d.bits[b][j] = ((c.address >> (w.log_k - 1 - b)) & 1) ? Fr::one() : Fr::zero();
  }
  d.fin = mem;
  return d;
}

// ---- driving a kernel next to its oracle ----------------------------------------------------

struct Driven {
  std::vector<Fr> point;  // the challenges, in round order
  Fr first_sum;           // the oracle's s(0) + s(1) in round 0
  Fr final_claim;         // the running claim after the last round
  std::vector<Fr> kernel_out, oracle_out;
};

// Both kernels round by round with the same challenges; every round's evaluations must agree.
Driven drive(SumcheckKernel& k, NaiveKernel& oracle, std::mt19937_64& rng) {
  REQUIRE(k.num_rounds() == oracle.num_rounds());
  REQUIRE(k.degree() == oracle.degree());
  Driven d;
  std::optional<Fr> bind;
  Fr claim;
  for (std::size_t round = 0; round < oracle.num_rounds(); ++round) {
    const std::vector<Fr> eo = oracle.prove_round(bind, round, claim);
    REQUIRE(eo.size() == oracle.degree() + 1);
    if (round == 0) {
      d.first_sum = eo[0] + eo[1];
      claim = d.first_sum;
    }
    const std::vector<Fr> ek = k.prove_round(bind, round, claim);
    CHECK_MESSAGE(ek == eo, "round ", round, ": kernel ", show(ek), " oracle ", show(eo));
    const Fr r = rand_fr(rng);
    claim = UniPoly::from_evals(eo).evaluate(r);
    bind = r;
    d.point.push_back(r);
  }
  k.finish_rounds(*bind);
  oracle.finish_rounds(*bind);
  d.final_claim = claim;
  d.kernel_out = k.output_claims();
  d.oracle_out = oracle.output_claims();
  return d;
}

// ---- proving and verifying ------------------------------------------------------------------

RamProof prove(const RamWitness& w, const RamLayout& layout, const RamWords& init,
               const RamWords& io, std::span<const Fr> r, const RamCycleClaims& claims,
               bool self_check) {
  const RamStatement s{&layout, &init, &io,
                       static_cast<std::size_t>(std::countr_zero(w.cycles.size()))};
  Transcript tr(kDomain);
  return prove_ram(w, s, r, claims, tr, self_check);
}

std::optional<VerifyError> verify(const RamLayout& layout, const RamWords& init, const RamWords& io,
                                  std::size_t log_t, std::span<const Fr> r,
                                  const RamCycleClaims& claims, const RamProof& proof,
                                  RamOpenings& o) {
  const RamStatement s{&layout, &init, &io, log_t};
  Transcript tr(kDomain);
  return verify_ram(s, r, claims, proof, tr, o);
}

std::string rejected_at(const RamLayout& layout, const RamWords& init, const RamWords& io,
                        std::size_t log_t, std::span<const Fr> r, const RamCycleClaims& claims,
                        const RamProof& proof) {
  RamOpenings o;
  auto e = verify(layout, init, io, log_t, r, claims, proof, o);
  return e ? e->check : "accepted";
}

std::vector<Fr> flatten(const RamProof& p) {
  std::vector<Fr> all = p.read_write_outputs;
  all.insert(all.end(), p.val_check_outputs.begin(), p.val_check_outputs.end());
  all.insert(all.end(), p.ra_outputs.begin(), p.ra_outputs.end());
  for (const auto* sc : {&p.read_write, &p.val_check, &p.ra}) {
    all.push_back(fr(sc->round_polys.size()));
    for (const auto& u : sc->round_polys) {
      all.push_back(fr(u.coeffs.size()));
      all.insert(all.end(), u.coeffs.begin(), u.coeffs.end());
    }
  }
  return all;
}

}  // namespace

// ---- A. layout ------------------------------------------------------------------------------

TEST_CASE("RamLayout packs regions into aligned, disjoint blocks and maps them both ways") {
  const std::vector<RamRegion> regions = {
      {0x80000000u, 300}, {0x83FFF000u, 100}, {0x20000000u, 3}, {0x30000000u, 2}};
  const RamLayout l = RamLayout::pack(regions);
  const std::size_t total = 512 + 128 + 4 + 2;
  CHECK(l.k() == 1024u);  // the next power of two of the blocks' 646 words
  CHECK(l.log_k() == 10u);
  CHECK(l.k() == (std::size_t{1} << l.log_k()));
  REQUIRE(l.segments().size() == regions.size());
  std::size_t sum = 0;
  for (const RamRegion& g : regions) {
    INFO("region at ", g.address);
    const auto it = std::find_if(l.segments().begin(), l.segments().end(),
                                 [&](const RamSegment& s) { return s.address == g.address; });
    REQUIRE(it != l.segments().end());
    CHECK((std::size_t{1} << it->log_words) == std::bit_ceil(std::size_t{g.words}));
  }
  std::vector<RamSegment> segs = l.segments();
  std::sort(segs.begin(), segs.end(), [](const RamSegment& a, const RamSegment& b) {
    return a.compact_base < b.compact_base;
  });
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const std::size_t size = std::size_t{1} << segs[i].log_words;
    sum += size;
    CHECK(segs[i].compact_base % size == 0);
    CHECK(segs[i].compact_base + size <= l.k());
    if (i + 1 < segs.size()) CHECK(segs[i].compact_base + size <= segs[i + 1].compact_base);
  }
  CHECK(sum == total);
  CHECK(l.k() >= total);

  std::size_t unmapped = 0;
  for (std::uint32_t k = 0; k < l.k(); ++k) {
    INFO("k = ", k);
    const auto it = std::find_if(segs.begin(), segs.end(), [&](const RamSegment& s) {
      return k >= s.compact_base && k < s.compact_base + (std::uint32_t{1} << s.log_words);
    });
    if (it == segs.end()) {
      ++unmapped;
      CHECK(l.unmap(k) == kNoAddress);
    } else {
      CHECK(l.unmap(k) == std::uint64_t{it->address} + 4ull * (k - it->compact_base));
      const auto back = l.compact_index(static_cast<std::uint32_t>(l.unmap(k)));
      REQUIRE(back.has_value());
      CHECK(*back == k);
    }
  }
  CHECK(unmapped == l.k() - total);

  auto base_of = [&](std::uint32_t address) {
    for (const RamSegment& s : segs)
      if (s.address == address) return s.compact_base;
    FAIL("no block at ", address);
    return 0u;
  };
  CHECK_FALSE(l.compact_index(0x80000002u).has_value());  // misaligned
  CHECK_FALSE(l.compact_index(0x80000001u).has_value());
  CHECK_FALSE(l.compact_index(0x80000000u + 4 * 512).has_value());  // just past the block
  CHECK_FALSE(l.compact_index(0x83FFF000u + 4 * 128).has_value());
  CHECK_FALSE(l.compact_index(0x20000000u + 4 * 4).has_value());
  CHECK_FALSE(l.compact_index(0x30000000u + 4 * 2).has_value());
  CHECK_FALSE(l.compact_index(0x83FFF000u - 4).has_value());  // just before one
  CHECK_FALSE(l.compact_index(0).has_value());
  CHECK_FALSE(l.compact_index(0xFFFFFFFCu).has_value());
  // Inside the block beyond the region: still a word of the block.
  CHECK(l.compact_index(0x80000000u + 4 * 300) == base_of(0x80000000u) + 300);
  CHECK(l.compact_index(0x83FFF000u + 4 * 127) == base_of(0x83FFF000u) + 127);
  CHECK(l.compact_index(0x20000000u) == base_of(0x20000000u));

  std::vector<Fr> table(l.k());
  for (std::uint32_t k = 0; k < l.k(); ++k) table[k] = fr(l.unmap(k));
  std::mt19937_64 rng(11);
  for (int t = 0; t < 4; ++t) {
    const std::vector<Fr> r = rand_point(rng, l.log_k());
    CHECK(l.unmap_mle(r) == mle(table, r));
  }
  for (std::uint32_t k : {0u, 5u, 511u, 512u, 700u, 1023u})
    CHECK(l.unmap_mle(bool_point(k, l.log_k())) == table[k]);
}

TEST_CASE("RamLayout: small layouts, empty regions, and the regions it refuses") {
  {
    const std::vector<RamRegion> one = {{0x1000u, 1}};
    const RamLayout l = RamLayout::pack(one);
    CHECK(l.k() == 2u);  // at least 2
    REQUIRE(l.segments().size() == 1u);
    CHECK(l.segments()[0].log_words == 0u);
    CHECK(l.compact_index(0x1000u) == l.segments()[0].compact_base);
    CHECK_FALSE(l.compact_index(0x1004u).has_value());
    CHECK(l.unmap(1 - l.segments()[0].compact_base) == kNoAddress);
    std::mt19937_64 rng(3);
    const std::vector<Fr> r = rand_point(rng, 1);
    CHECK(l.unmap_mle(r) == mle({fr(l.unmap(0)), fr(l.unmap(1))}, r));
  }
  {
    const std::vector<RamRegion> with_empty = {{0x1000u, 5}, {0x9000u, 0}, {0x2000u, 8}};
    const RamLayout l = RamLayout::pack(with_empty);
    CHECK(l.segments().size() == 2u);
    CHECK(l.k() == 16u);
    CHECK_FALSE(l.compact_index(0x9000u).has_value());
  }
  const std::vector<RamRegion> overlap = {{0x80000000u, 10}, {0x80000020u, 10}};
  CHECK_THROWS_AS(RamLayout::pack(overlap), std::invalid_argument);
  const std::vector<RamRegion> same_start = {{0x1000u, 4}, {0x1000u, 1}};
  CHECK_THROWS_AS(RamLayout::pack(same_start), std::invalid_argument);
  const std::vector<RamRegion> misaligned = {{0x80000000u, 4}, {0x80001002u, 4}};
  CHECK_THROWS_AS(RamLayout::pack(misaligned), std::invalid_argument);
  const std::vector<RamRegion> wraps = {{0xFFFFFFF0u, 8}};
  CHECK_THROWS_AS(RamLayout::pack(wraps), std::invalid_argument);
}

// ---- B. the MLE helpers ---------------------------------------------------------------------

TEST_CASE("words_mle, words_mask_mle and dense_words are the image's dense MLEs") {
  std::mt19937_64 rng(21);
  for (unsigned n = 1; n <= 5; ++n) {
    INFO("n = ", n);
    const std::size_t K = std::size_t{1} << n;
    RamWords words;  // about two thirds of the words, word 0 (when drawn) holding 2^32 − 1
    for (std::uint32_t k = 0; k < K; ++k)
      if (rng() % 3 != 0)
        words.push_back({k, k == 0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(rng())});
    std::shuffle(words.begin(), words.end(), rng);  // any order
    std::vector<Fr> table(K), mask(K);
    for (const auto& [k, v] : words) {
      table[k] = fr(v);
      mask[k] = Fr::one();
    }
    CHECK(dense_words(words, n) == table);
    for (int t = 0; t < 3; ++t) {
      const std::vector<Fr> r = rand_point(rng, n);
      CHECK(words_mle(words, r) == mle(table, r));
      CHECK(words_mask_mle(words, r) == mle(mask, r));
    }
    for (std::uint32_t k = 0; k < K; ++k) {
      CHECK(words_mle(words, bool_point(k, n)) == table[k]);
      CHECK(words_mask_mle(words, bool_point(k, n)) == mask[k]);
    }
    const RamWords none;
    const std::vector<Fr> r = rand_point(rng, n);
    CHECK(words_mle(none, r) == Fr::zero());
    CHECK(words_mask_mle(none, r) == Fr::zero());
  }
}

TEST_CASE("less_than_mle is the MLE of [x < y] in both arguments") {
  std::mt19937_64 rng(22);
  for (std::size_t n = 1; n <= 5; ++n) {
    INFO("n = ", n);
    const std::size_t N = std::size_t{1} << n;
    std::vector<Fr> table(N * N);
    for (std::size_t x = 0; x < N; ++x)
      for (std::size_t y = 0; y < N; ++y) table[x * N + y] = x < y ? Fr::one() : Fr::zero();
    for (int t = 0; t < 3; ++t) {
      const std::vector<Fr> x = rand_point(rng, n), y = rand_point(rng, n);
      CHECK(less_than_mle(x, y) == mle(table, concat(x, y)));
      // one Boolean argument
      const std::size_t b = static_cast<std::size_t>(rng() % N);
      CHECK(less_than_mle(bool_point(b, n), y) == mle(table, concat(bool_point(b, n), y)));
      CHECK(less_than_mle(x, bool_point(b, n)) == mle(table, concat(x, bool_point(b, n))));
    }
    if (n <= 3)
      for (std::size_t x = 0; x < N; ++x)
        for (std::size_t y = 0; y < N; ++y) {
          INFO("x = ", x, ", y = ", y);
          CHECK(less_than_mle(bool_point(x, n), bool_point(y, n)) ==
                (x < y ? Fr::one() : Fr::zero()));
        }
  }
}

// ---- C. replay ------------------------------------------------------------------------------

TEST_CASE("replay fills the values a hand-run memory gives") {
  RamWitness w;
  w.log_k = 2;
  w.cycles = {
      store_of(0, 5),                    // 0: an untouched word: reads 0
      RamAccess{false, false, 3, 9, 9},  // 1: no access; replay zeroes the values
      load_of(0),                        // 2: sees the store: 5
      load_of(1),                        // 3: an image word: 10
      RamAccess{true, true, 1, 77, 11},  // 4: reads 10 (replay sets the read)
      load_of(3),                        // 5: untouched: 0
      RamAccess{true, false, 1, 1, 2},   // 6: 11 (replay sets both)
      store_of(2, 7),                    // 7: reads the image's 20
  };
  const RamWords init = {{2u, 20u}, {1u, 10u}};
  const std::vector<Fr> fin = replay(w, init);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> want = {
      {0, 5}, {0, 0}, {5, 5}, {10, 10}, {10, 11}, {0, 0}, {11, 11}, {20, 7}};
  REQUIRE(w.cycles.size() == want.size());
  for (std::size_t j = 0; j < want.size(); ++j) {
    INFO("cycle ", j);
    CHECK(w.cycles[j].read == want[j].first);
    CHECK(w.cycles[j].written == want[j].second);
  }
  CHECK(w.cycles[1].accessed == false);
  CHECK(w.cycles[1].address == 3u);
  CHECK(fin == std::vector<Fr>{fr(5), fr(11), fr(7), fr(0)});
  CHECK(w.inc(0) == fr(5));
  CHECK(w.inc(4) == Fr::one());
  CHECK(w.inc(7) == fr(7) - fr(20));
  CHECK_NOTHROW(w.validate());
}

TEST_CASE("replay agrees with a direct simulation on random runs") {
  for (const auto& shape : {std::pair{3u, 1u}, std::pair{6u, 3u}, std::pair{8u, 5u}}) {
    const unsigned lt = shape.first, lk = shape.second;
    const Run run = make_run(lt, lk, 100 + lt, false);
    INFO("log T = ", lt, ", log K = ", lk);
    for (std::size_t j = 0; j < run.w.cycles.size(); ++j) {
      INFO("cycle ", j);
      CHECK(run.w.cycles[j].accessed == run.expect.cycles[j].accessed);
      CHECK(run.w.cycles[j].address == run.expect.cycles[j].address);
      CHECK(run.w.cycles[j].read == run.expect.cycles[j].read);
      CHECK(run.w.cycles[j].written == run.expect.cycles[j].written);
    }
    std::vector<Fr> fin;
    for (std::uint32_t v : run.final_words) fin.push_back(fr(v));
    CHECK(run.final_replay == fin);
    CHECK(dense_of(run.w, run.init).fin == fin);
  }
}

TEST_CASE("RamWitness::validate refuses malformed witnesses") {
  const Run run = make_run(3, 2, 7, false);
  CHECK_NOTHROW(run.w.validate());
  RamWitness w = run.w;
  w.cycles[5].address = 4;  // K = 4
  CHECK_THROWS_AS(w.validate(), std::invalid_argument);
  w = run.w;
  w.cycles[2] = RamAccess{false, false, 1, 0, 3};  // no access but a value
  CHECK_THROWS_AS(w.validate(), std::invalid_argument);
  w = run.w;
  w.cycles.pop_back();  // 7 cycles
  CHECK_THROWS_AS(w.validate(), std::invalid_argument);
  w.cycles.resize(1);
  CHECK_THROWS_AS(w.validate(), std::invalid_argument);
}

TEST_CASE("ram_cycle_claims are the columns' MLEs") {
  const Run run = make_run(5, 3, 8, false);
  std::mt19937_64 rng(9);
  const std::vector<Fr> r = rand_point(rng, 5);
  const std::vector<Fr> e = EqPolynomial::evals(r);
  Fr rv, wv, addr;
  for (std::size_t j = 0; j < e.size(); ++j) {
    const RamAccess& c = run.w.cycles[j];
    rv += e[j] * fr(c.read);
    wv += e[j] * fr(c.written);
    if (c.accessed) addr += e[j] * fr(run.layout.unmap(c.address));
  }
  const RamCycleClaims c = ram_cycle_claims(run.w, run.layout, r);
  CHECK(c.read == rv);
  CHECK(c.written == wv);
  CHECK(c.address == addr);
}

// ---- D. the member kernels against the dense oracle -----------------------------------------

namespace {
const std::pair<unsigned, unsigned> kKernelShapes[] = {{2, 1}, {3, 3}, {5, 2}, {4, 5}, {6, 4}};
}

TEST_CASE("the read-write kernel gives the dense oracle's rounds and outputs") {
  for (const auto& shape : kKernelShapes) {
    const unsigned lt = shape.first, lk = shape.second;
    INFO("log T = ", lt, ", log K = ", lk);
    const Run run = make_run(lt, lk, 200 + 10 * lt + lk, false);
    const Dense d = dense_of(run.w, run.init);
    std::mt19937_64 rng(300 + lt);
    const std::vector<Fr> r = rand_point(rng, lt);
    const Fr gamma = rand_fr(rng);
    const RamCycleClaims claims = ram_cycle_claims(run.w, run.layout, r);
    const std::size_t T = d.T, K = d.K;
    const std::vector<Fr> eq = EqPolynomial::evals(r);
    // Index i = rev(j)·K + k: the oracle binds i's MSB first, i.e. j's LSB first, then k's MSB.
    std::vector<Fr> l_eq(T * K), l_ra(T * K), l_val(T * K), l_inc(T * K);
    for (std::size_t j = 0; j < T; ++j)
      for (std::size_t k = 0; k < K; ++k) {
        const std::size_t i = reverse_bits(j, lt) * K + k;
        l_eq[i] = eq[j];
        l_ra[i] = run.w.cycles[j].accessed && run.w.cycles[j].address == k ? Fr::one() : Fr::zero();
        l_val[i] = d.val[k * T + j];
        l_inc[i] = d.inc[j];
      }
    Expr e;
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1),
                              Linear{Fr::zero(), {{2, Fr::one() + gamma}, {3, gamma}}}});
    NaiveKernel oracle(kOracleLabels, {l_eq, l_ra, l_val, l_inc}, e);
    auto kernel = make_read_write_kernel(run.w, d.init, r, gamma);
    CHECK(kernel->num_rounds() == lt + lk);
    CHECK(kernel->degree() == 3u);
    const Driven dr = drive(*kernel, oracle, rng);
    CHECK(dr.first_sum == claims.read + gamma * claims.written);
    REQUIRE(dr.kernel_out.size() == 3u);
    CHECK(dr.kernel_out[0] == dr.oracle_out[1]);
    CHECK(dr.kernel_out[1] == dr.oracle_out[2]);
    CHECK(dr.kernel_out[2] == dr.oracle_out[3]);
    // The point: the cycle challenges reversed, then the address challenges.
    const ReadWritePoints pts = read_write_points(dr.point, lt);
    std::vector<Fr> rc(dr.point.begin(), dr.point.begin() + lt);
    std::reverse(rc.begin(), rc.end());
    CHECK(pts.r_cycle == rc);
    CHECK(pts.r_addr == std::vector<Fr>(dr.point.begin() + lt, dr.point.end()));
    CHECK(dr.oracle_out[0] == EqPolynomial::evaluate(r, pts.r_cycle));
    CHECK(dr.kernel_out[1] == mle(d.val, concat(pts.r_addr, pts.r_cycle)));
    CHECK(dr.kernel_out[2] == mle(d.inc, pts.r_cycle));
    CHECK(e.evaluate(dr.oracle_out) == dr.final_claim);
    CHECK(read_write_final(r, gamma, dr.point, lt, dr.kernel_out) == dr.final_claim);
    // Another claim at the final point is not accepted.
    std::vector<Fr> bad = dr.kernel_out;
    bad[1] += Fr::one();
    CHECK(read_write_final(r, gamma, dr.point, lt, bad) != dr.final_claim);
  }
}

TEST_CASE("the RAF kernel gives the dense oracle's rounds and outputs") {
  for (const auto& shape : kKernelShapes) {
    const unsigned lt = shape.first, lk = shape.second;
    INFO("log T = ", lt, ", log K = ", lk);
    const Run run = make_run(lt, lk, 400 + 10 * lt + lk, false);
    std::mt19937_64 rng(500 + lt);
    const std::vector<Fr> r = rand_point(rng, lt);
    const RamCycleClaims claims = ram_cycle_claims(run.w, run.layout, r);
    const std::size_t K = run.layout.k();
    const std::vector<Fr> eq = EqPolynomial::evals(r);
    std::vector<Fr> l_unmap(K), l_ra(K);
    for (std::uint32_t k = 0; k < K; ++k) l_unmap[k] = fr(run.layout.unmap(k));
    for (std::size_t j = 0; j < eq.size(); ++j)
      if (run.w.cycles[j].accessed) l_ra[run.w.cycles[j].address] += eq[j];
    Expr e;
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1)});
    NaiveKernel oracle(kOracleLabels, {l_unmap, l_ra}, e);
    auto kernel = make_raf_kernel(run.w, run.layout, r);
    CHECK(kernel->num_rounds() == lk);
    CHECK(kernel->degree() == 2u);
    const Driven dr = drive(*kernel, oracle, rng);
    CHECK(dr.first_sum == claims.address);
    REQUIRE(dr.kernel_out.size() == 1u);
    CHECK(dr.kernel_out[0] == dr.oracle_out[1]);
    CHECK(dr.kernel_out[0] == mle(l_ra, dr.point));
    CHECK(e.evaluate(dr.oracle_out) == dr.final_claim);
    CHECK(raf_final(run.layout, dr.point, dr.kernel_out) == dr.final_claim);
    CHECK(raf_final(run.layout, dr.point, std::vector<Fr>{dr.kernel_out[0] + Fr::one()}) !=
          dr.final_claim);
  }
}

TEST_CASE("the output-check kernel gives the dense oracle's rounds and outputs") {
  for (const auto& shape : kKernelShapes) {
    const unsigned lt = shape.first, lk = shape.second;
    INFO("log T = ", lt, ", log K = ", lk);
    const Run run = make_run(lt, lk, 600 + 10 * lt + lk, false);
    const Dense d = dense_of(run.w, run.init);
    std::mt19937_64 rng(700 + lt);
    for (bool honest : {true, false}) {
      INFO((honest ? "honest io" : "an io word that is not the final memory's"));
      RamWords io = pick_io(run, 3, 800 + lt);
      REQUIRE(!io.empty());
      if (!honest) io[0].second += 1;
      const std::size_t K = d.K;
      const std::vector<Fr> r_prime = rand_point(rng, lk);
      std::vector<Fr> l_mask(K), l_io(K);
      for (const auto& [k, v] : io) {
        l_mask[k] = Fr::one();
        l_io[k] = fr(v);
      }
      Expr e;
      e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
      e.add_product(-Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(3)});
      NaiveKernel oracle(kOracleLabels, {EqPolynomial::evals(r_prime), l_mask, d.fin, l_io}, e);
      auto kernel = make_output_check_kernel(d.fin, io, r_prime);
      CHECK(kernel->num_rounds() == lk);
      CHECK(kernel->degree() == 3u);
      const Driven dr = drive(*kernel, oracle, rng);
      if (honest) {
        CHECK(dr.first_sum == Fr::zero());
      } else {
        CHECK(dr.first_sum == -EqPolynomial::evals(r_prime)[io[0].first]);
      }
      REQUIRE(dr.kernel_out.size() == 1u);
      CHECK(dr.kernel_out[0] == dr.oracle_out[2]);
      CHECK(dr.kernel_out[0] == mle(d.fin, dr.point));
      CHECK(e.evaluate(dr.oracle_out) == dr.final_claim);
      CHECK(output_check_final(io, r_prime, dr.point, dr.kernel_out) == dr.final_claim);
      CHECK(output_check_final(io, r_prime, dr.point,
                               std::vector<Fr>{dr.kernel_out[0] + Fr::one()}) != dr.final_claim);
    }
  }
}

TEST_CASE("the Val-check kernel gives the dense oracle's rounds and outputs") {
  for (const auto& shape : kKernelShapes) {
    const unsigned lt = shape.first, lk = shape.second;
    INFO("log T = ", lt, ", log K = ", lk);
    const Run run = make_run(lt, lk, 900 + 10 * lt + lk, false);
    const Dense d = dense_of(run.w, run.init);
    std::mt19937_64 rng(1000 + lt);
    const std::vector<Fr> r_addr = rand_point(rng, lk), r_c = rand_point(rng, lt);
    const Fr gamma = rand_fr(rng);
    const std::size_t T = d.T;
    const std::vector<Fr> eq_addr = EqPolynomial::evals(r_addr), eq_c = EqPolynomial::evals(r_c);
    std::vector<Fr> l_ra(T), l_lt(T);
    for (std::size_t j = 0; j < T; ++j) {
      if (run.w.cycles[j].accessed) l_ra[j] = eq_addr[run.w.cycles[j].address];
      // LT(j, ·) = [j < y] as a function of y, extended at r_c.
      Fr lt_j;
      for (std::size_t y = j + 1; y < T; ++y) lt_j += eq_c[y];
      l_lt[j] = lt_j + gamma;
    }
    Expr e;
    e.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
    NaiveKernel oracle(kOracleLabels, {d.inc, l_ra, l_lt}, e);
    auto kernel = make_val_check_kernel(run.w, r_addr, r_c, gamma);
    CHECK(kernel->num_rounds() == lt);
    CHECK(kernel->degree() == 3u);
    const Driven dr = drive(*kernel, oracle, rng);
    const Fr val = mle(d.val, concat(r_addr, r_c)), val_final = mle(d.fin, r_addr),
             init = mle(d.init, r_addr);
    CHECK(val_check_input(val, val_final, init, gamma) ==
          (val - init) + gamma * (val_final - init));
    CHECK(dr.first_sum == val_check_input(val, val_final, init, gamma));
    REQUIRE(dr.kernel_out.size() == 2u);
    CHECK(dr.kernel_out[0] == dr.oracle_out[0]);
    CHECK(dr.kernel_out[1] == dr.oracle_out[1]);
    CHECK(dr.kernel_out[0] == mle(d.inc, dr.point));
    CHECK(dr.kernel_out[1] == mle(l_ra, dr.point));
    CHECK(e.evaluate(dr.oracle_out) == dr.final_claim);
    CHECK(val_check_final(r_c, gamma, dr.point, dr.kernel_out) == dr.final_claim);
    std::vector<Fr> bad = dr.kernel_out;
    bad[0] += Fr::one();
    CHECK(val_check_final(r_c, gamma, dr.point, bad) != dr.final_claim);
  }
}

// ---- E. end to end --------------------------------------------------------------------------

TEST_CASE("honest RAM proofs verify, and the openings are the witness's") {
  const std::pair<unsigned, unsigned> shapes[] = {{2, 1}, {3, 2}, {5, 3}, {6, 4}, {8, 5}, {4, 5}};
  for (const auto& shape : shapes) {
    const unsigned lt = shape.first, lk = shape.second;
    INFO("log T = ", lt, ", log K = ", lk);
    const Run run = make_run(lt, lk, 1100 + 10 * lt + lk, true);
    const RamWords io = pick_io(run, 3, 1200 + lt);
    const Dense d = dense_of(run.w, run.init);
    std::mt19937_64 rng(1300 + lt);
    const std::vector<Fr> r = rand_point(rng, lt);
    const RamCycleClaims claims = ram_cycle_claims(run.w, run.layout, r);
    const RamProof proof = prove(run.w, run.layout, run.init, io, r, claims, true);
    RamOpenings o;
    const auto e = verify(run.layout, run.init, io, lt, r, claims, proof, o);
    INFO((e ? "rejected at " + e->check + ": " + e->message : std::string("accepted")));
    REQUIRE(!e);
    REQUIRE(o.address_point.size() == lk);
    REQUIRE(o.read_write_cycle.size() == lt);
    REQUIRE(o.val_check_cycle.size() == lt);
    REQUIRE(o.bit_point.size() == lt);
    REQUIRE(o.address_bits.size() == lk);
    CHECK(o.inc_at_read_write == mle(d.inc, o.read_write_cycle));
    CHECK(o.inc_at_val_check == mle(d.inc, o.val_check_cycle));
    for (unsigned b = 0; b < lk; ++b) {
      INFO("bit ", b);
      CHECK(o.address_bits[b] == mle(d.bits[b], o.bit_point));
    }
    CHECK(o.accessed == mle(d.h, o.bit_point));
    // The proof's own openings are these.
    REQUIRE(proof.read_write_outputs.size() == 5u);
    REQUIRE(proof.val_check_outputs.size() == 2u);
    REQUIRE(proof.ra_outputs.size() == lk + 1);
    CHECK(proof.read_write_outputs[2] == o.inc_at_read_write);
    CHECK(proof.read_write_outputs[1] == mle(d.val, concat(o.address_point, o.read_write_cycle)));
    CHECK(proof.read_write_outputs[4] == mle(d.fin, o.address_point));
    CHECK(proof.val_check_outputs[0] == o.inc_at_val_check);
  }
}

TEST_CASE("the RAM proof is the same at 1 and 2 threads") {
  const Run run = make_run(8, 5, 77, true);
  const RamWords io = pick_io(run, 4, 78);
  std::mt19937_64 rng(79);
  const std::vector<Fr> r = rand_point(rng, 8);
  const RamCycleClaims claims = ram_cycle_claims(run.w, run.layout, r);
  auto proof_frs = [&](int threads) {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism,
                          static_cast<std::size_t>(threads));
    return flatten(prove(run.w, run.layout, run.init, io, r, claims, true));
  };
  const std::vector<Fr> one = proof_frs(1), two = proof_frs(2);
  CHECK(one.size() > 10u);
  CHECK(one == two);
}

// ---- F. malicious provers and tampered proofs -----------------------------------------------

namespace {

// The run the malicious provers alter, with the cycles each alteration needs; io avoids the
// words they touch, so that only the named check can see the change.
struct Target {
  Run run;
  std::size_t load = 0;          // a load
  std::size_t store = 0;         // a store whose word's next access is a load
  std::size_t first_load = 0;    // the first access to an image word, a load
  std::uint32_t image_word = 0;  // its word
  RamWords io;
  std::vector<Fr> r;
};

Target make_target() {
  Target t;
  t.run = make_run(6, 4, 4242, true);
  const RamWitness& w = t.run.w;
  const std::size_t T = w.cycles.size();
  auto next_access = [&](std::size_t j) -> std::optional<std::size_t> {
    for (std::size_t i = j + 1; i < T; ++i)
      if (w.cycles[i].accessed && w.cycles[i].address == w.cycles[j].address) return i;
    return std::nullopt;
  };
  bool have_load = false, have_store = false, have_image = false;
  for (std::size_t j = 0; j < T && !have_load; ++j)
    if (w.cycles[j].accessed && !t.run.store[j]) {
      t.load = j;
      have_load = true;
    }
  for (std::size_t j = 0; j < T && !have_store; ++j)
    if (t.run.store[j]) {
      const auto n = next_access(j);
      if (n && !t.run.store[*n] && w.cycles[j].address != w.cycles[t.load].address) {
        t.store = j;
        have_store = true;
      }
    }
  for (const auto& [k, v] : t.run.init) {
    if (have_image || k == w.cycles[t.load].address || k == w.cycles[t.store].address) continue;
    for (std::size_t j = 0; j < T; ++j)
      if (w.cycles[j].accessed && w.cycles[j].address == k) {
        if (!t.run.store[j]) {
          t.first_load = j;
          t.image_word = k;
          have_image = true;
        }
        break;
      }
  }
  REQUIRE(have_load);
  REQUIRE(have_store);
  REQUIRE(have_image);
  t.io =
      pick_io(t.run, 3, 4343, {w.cycles[t.load].address, w.cycles[t.store].address, t.image_word});
  REQUIRE(t.io.size() == 3u);
  std::mt19937_64 rng(4444);
  t.r = rand_point(rng, 6);
  return t;
}

}  // namespace

TEST_CASE("the malicious provers' target run is accepted when honest") {
  const Target t = make_target();
  const RamCycleClaims claims = ram_cycle_claims(t.run.w, t.run.layout, t.r);
  const RamProof proof = prove(t.run.w, t.run.layout, t.run.init, t.io, t.r, claims, false);
  CHECK(rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, proof) == "accepted");
}

TEST_CASE("a load returning a value never stored is rejected at the Val check") {
  // Read-write checking holds for the Val the reads describe; the Val check computes Val from
  // the Incs and the image, where the load's word still holds what was stored.
  const Target t = make_target();
  RamWitness w = t.run.w;
  RamAccess& c = w.cycles[t.load];
  c.read += 1;
  c.written = c.read;
  const RamCycleClaims claims = ram_cycle_claims(w, t.run.layout, t.r);
  const RamProof proof = prove(w, t.run.layout, t.run.init, t.io, t.r, claims, false);
  CHECK(rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, proof) ==
        "ram.val_check.sumcheck.round_sum");
}

TEST_CASE("a store a later load misses is rejected at the Val check") {
  // The store writes one more than the honest run, the next load of its word still reads the
  // honest value: the reads describe a Val the Incs do not.
  const Target t = make_target();
  RamWitness w = t.run.w;
  w.cycles[t.store].written += 1;
  const RamCycleClaims claims = ram_cycle_claims(w, t.run.layout, t.r);
  const RamProof proof = prove(w, t.run.layout, t.run.init, t.io, t.r, claims, false);
  CHECK(rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, proof) ==
        "ram.val_check.sumcheck.round_sum");
}

TEST_CASE("a claimed output word the final memory does not hold is rejected at read-write") {
  // The public io says one word ends holding one more than it does: the output check's sum is
  // not the 0 its input claim says, which shows when that member becomes active in the batch.
  const Target t = make_target();
  RamWords io = t.io;
  io[1].second += 1;
  const RamCycleClaims claims = ram_cycle_claims(t.run.w, t.run.layout, t.r);
  const RamProof proof = prove(t.run.w, t.run.layout, t.run.init, io, t.r, claims, false);
  CHECK(rejected_at(t.run.layout, t.run.init, io, 6, t.r, claims, proof) ==
        "ram.read_write.sumcheck.round_sum");
}

TEST_CASE("a prover whose initial memory is not the public image is rejected at the Val check") {
  // The prover's image holds one more in a word the run loads (before any store to it); the
  // verifier's Init(r_addr) is the public image's.
  const Target t = make_target();
  RamWords init = t.run.init;
  for (auto& [k, v] : init)
    if (k == t.image_word) v += 1;
  RamWitness w = t.run.pre;
  replay(w, init);
  REQUIRE(w.cycles[t.first_load].read == t.run.w.cycles[t.first_load].read + 1);
  const RamCycleClaims claims = ram_cycle_claims(w, t.run.layout, t.r);
  const RamProof proof = prove(w, t.run.layout, init, t.io, t.r, claims, false);
  CHECK(rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, proof) ==
        "ram.val_check.sumcheck.round_sum");
}

TEST_CASE("an address claim that is not the accessed word's address is rejected at read-write") {
  const Target t = make_target();
  const std::vector<std::uint32_t> mapped = mapped_words(t.run.layout);
  {
    // The R1CS side's address for one access is another block word's.
    RamWitness other = t.run.w;
    RamAccess& c = other.cycles[t.store];
    const auto it =
        std::find_if(mapped.begin(), mapped.end(), [&](std::uint32_t k) { return k != c.address; });
    REQUIRE(it != mapped.end());
    c.address = *it;
    RamCycleClaims claims = ram_cycle_claims(t.run.w, t.run.layout, t.r);
    claims.address = ram_cycle_claims(other, t.run.layout, t.r).address;
    const RamProof proof = prove(t.run.w, t.run.layout, t.run.init, t.io, t.r, claims, false);
    CHECK(rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, proof) ==
          "ram.read_write.sumcheck.round_sum");
  }
  {
    // An access at a guest address no block holds: no compact word unmaps to it, so the RAF sum
    // cannot be the claim.
    const std::uint32_t outside = 0x50000000u;
    REQUIRE_FALSE(t.run.layout.compact_index(outside).has_value());
    const std::size_t j = t.load;
    RamCycleClaims claims = ram_cycle_claims(t.run.w, t.run.layout, t.r);
    claims.address += EqPolynomial::evals(t.r)[j] *
                      (fr(outside) - fr(t.run.layout.unmap(t.run.w.cycles[j].address)));
    const RamProof proof = prove(t.run.w, t.run.layout, t.run.init, t.io, t.r, claims, false);
    CHECK(rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, proof) ==
          "ram.read_write.sumcheck.round_sum");
  }
}

TEST_CASE("tampered RAM proofs are rejected at the named check") {
  const Target t = make_target();
  const RamCycleClaims claims = ram_cycle_claims(t.run.w, t.run.layout, t.r);
  const RamProof honest = prove(t.run.w, t.run.layout, t.run.init, t.io, t.r, claims, true);
  auto at = [&](const RamProof& p) {
    return rejected_at(t.run.layout, t.run.init, t.io, 6, t.r, claims, p);
  };
  REQUIRE(at(honest) == "accepted");
  // Each output of a batch enters its final check (the batch's summands at its point) with a
  // non-zero factor (w.h.p.): ra, val, inc through eq(r, r_c)·((1 + γ)val + γ·inc) resp.
  // eq·ra·(1 + γ) resp. eq·ra·γ; ra_raf through unmap(r_addr); val_final through
  // eq(r', r_addr)·mask(r_addr); Inc(r4), ra(r_addr, r4) through each other and LT + γ; a bit
  // through its eq factor and its booleanity term, h through the RA product. That check is the
  // first to read it: nothing before a batch's final check uses the batch's outputs (they are
  // absorbed, and the next stage's input claim — Val and Val_final for the Val check, the three
  // ra claims for the RA batch — is formed from them, only after it), and the sumcheck rounds of
  // the same batch do not depend on them.
  for (std::size_t i = 0; i < honest.read_write_outputs.size(); ++i) {
    INFO("read-write output ", i);
    RamProof p = honest;
    p.read_write_outputs[i] += Fr::one();
    CHECK(at(p) == "ram.read_write.final");
  }
  for (std::size_t i = 0; i < honest.val_check_outputs.size(); ++i) {
    INFO("val-check output ", i);
    RamProof p = honest;
    p.val_check_outputs[i] += Fr::one();
    CHECK(at(p) == "ram.val_check.final");
  }
  for (std::size_t i = 0; i < honest.ra_outputs.size(); ++i) {
    INFO("ra output ", i);
    RamProof p = honest;
    p.ra_outputs[i] += Fr::one();
    CHECK(at(p) == "ram.ra.final");
  }
  // A round polynomial's constant term: s(0) + s(1) moves by 2 in that round.
  {
    RamProof p = honest;
    p.read_write.round_polys[1].coeffs[0] += Fr::one();
    CHECK(at(p) == "ram.read_write.sumcheck.round_sum");
  }
  {
    RamProof p = honest;
    p.val_check.round_polys[1].coeffs[0] += Fr::one();
    CHECK(at(p) == "ram.val_check.sumcheck.round_sum");
  }
  {
    RamProof p = honest;
    p.ra.round_polys[1].coeffs[0] += Fr::one();
    CHECK(at(p) == "ram.ra.sumcheck.round_sum");
  }
  // Output counts.
  {
    RamProof p = honest;
    p.read_write_outputs.pop_back();
    CHECK(at(p) == "ram.shape");
  }
  {
    RamProof p = honest;
    p.val_check_outputs.push_back(Fr::one());
    CHECK(at(p) == "ram.shape");
  }
  {
    RamProof p = honest;
    p.ra_outputs.pop_back();
    CHECK(at(p) == "ram.shape");
  }
}
