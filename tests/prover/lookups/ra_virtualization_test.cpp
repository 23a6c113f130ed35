// RA virtualization (lookups/ra_virtualization.hpp): the kernel with pattern tables in its first
// rounds (pattern_tables = true) gives the direct path's round polynomials and output claims —
// the same proof — for instruction-like (64 key bits in chunks of 16), bytecode-like (one chunk
// of 11 bits), RAM-like (one chunk of 12 bits with a 0/1 gate) and small or odd chunks, with
// random keys, keys that mostly repeat and keys that are mostly zero, at sizes where all three
// tabled rounds are large enough for tables and at sizes where some or none are. Both kernels are
// also checked as the verifier would check them: round 0's s(0) + s(1) is the relation's sum from
// its definition, every later round's s(0) + s(1) is the previous claim, the outputs are the bit
// tables' (and the gate's) extensions at the challenges, and the last claim is
// ra_virtualization_final there; where the chunks are small enough to expand, every round also
// equals the dense NaiveKernel oracle's. The tabled kernel's rounds are the same at 1 and 2
// threads.
#include <doctest/doctest.h>

#include <tbb/global_control.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <jolt/prover/lookups/ra_virtualization.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/expression.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>
#include <jolt/prover/sumcheck/univariate.hpp>

using namespace jolt::prover;
using namespace jolt::prover::lookups;

namespace doctest {
template <>
struct StringMaker<Fr> {
  static String convert(const Fr& v) { return String(v.to_hex().c_str()); }
};
}  // namespace doctest

namespace {

constexpr KernelLabels kLabels = {"RaVirtualizationTest::prepare",
                                  "RaVirtualizationTest::prove_round",
                                  "RaVirtualizationTest::finish_rounds"};
constexpr KernelLabels kOracleLabels = {"RaOracle::prepare", "RaOracle::prove_round",
                                        "RaOracle::finish_rounds"};

// A uniformly random field element (64 random bytes reduced).
Fr rand_fr(std::mt19937_64& rng) {
  std::array<std::uint8_t, 64> b{};
  for (std::size_t i = 0; i < b.size(); i += 8) {
    const std::uint64_t w = rng();
    for (std::size_t k = 0; k < 8; ++k) b[i + k] = static_cast<std::uint8_t>(w >> (8 * k));
  }
  return Fr::from_bytes_wide(b);
}

std::vector<Fr> rand_point(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> r(n);
  for (auto& x : r) x = rand_fr(rng);
  return r;
}

Fr mle(std::span<const Fr> table, std::span<const Fr> point) {
  return DenseMultilinear::evaluate(table, point);
}

std::string show(const std::vector<Fr>& v) {
  std::ostringstream s;
  s << "[";
  for (std::size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i].to_hex();
  s << "]";
  return s.str();
}

// ---- instances ------------------------------------------------------------------------------

enum class Keys {
  Random,      // uniform over key_bits bits
  Repeating,   // three distinct keys; the upper half of the cycles all the same key
  MostlyZero,  // 0 in about 15 of 16 cycles, else random or all ones
};

struct Config {
  unsigned log_t = 0;
  unsigned key_bits = 0;
  unsigned chunk_bits = 0;
  bool gated = false;
  Keys keys = Keys::Random;
  std::uint64_t seed = 0;
};

std::string describe(const Config& c) {
  std::ostringstream s;
  s << "log T = " << c.log_t << ", key_bits = " << c.key_bits << ", chunk_bits = " << c.chunk_bits
    << (c.gated ? ", gated" : ", no gate") << ", keys "
    << (c.keys == Keys::Random      ? "random"
        : c.keys == Keys::Repeating ? "repeating"
                                    : "mostly 0")
    << ", seed " << c.seed;
  return s.str();
}

// The kernel's input with the dense tables it stands for.
struct Instance {
  Config c;
  std::vector<std::uint64_t> keys;
  std::vector<std::uint8_t> gate;  // empty: no gate
  std::vector<Fr> weights, r_addr, beta_powers, rho;
  Fr zeta;
  std::vector<std::vector<Fr>> bits;  // bits[b][j]: bit key_bits − 1 − b of keys[j]
  std::vector<Fr> gate_fr;            // the gate as a table (all ones without one)
};

Instance make_instance(const Config& c) {
  std::mt19937_64 rng(c.seed);
  Instance in;
  in.c = c;
  const std::size_t T = std::size_t{1} << c.log_t;
  const std::uint64_t mask =
      c.key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << c.key_bits) - 1;
  const std::uint64_t pool[3] = {rng() & mask, rng() & mask, rng() & mask};
  for (std::size_t j = 0; j < T; ++j) {
    std::uint64_t k = 0;
    switch (c.keys) {
      case Keys::Random:
        k = rng() & mask;
        break;
      case Keys::Repeating:
        k = j < T / 2 ? pool[rng() % 3] : pool[0];
        break;
      case Keys::MostlyZero: {
        const std::uint64_t u = rng() % 32;
        k = u == 0 ? mask : u == 1 ? rng() & mask : 0;
        break;
      }
    }
    in.keys.push_back(k);
  }
  if (c.gated)
    for (std::size_t j = 0; j < T; ++j) in.gate.push_back(static_cast<std::uint8_t>(rng() & 1));
  in.weights = rand_point(rng, T);
  in.r_addr = rand_point(rng, c.key_bits);
  const Fr beta = rand_fr(rng);
  Fr p = Fr::one();
  for (unsigned v = 0; v < c.key_bits / c.chunk_bits; ++v, p = p * beta)
    in.beta_powers.push_back(p);
  in.rho = rand_point(rng, c.log_t);
  in.zeta = rand_fr(rng);
  in.bits.assign(c.key_bits, std::vector<Fr>(T));
  for (std::size_t j = 0; j < T; ++j)
    for (unsigned b = 0; b < c.key_bits; ++b)
      in.bits[b][j] = Fr::from_u64((in.keys[j] >> (c.key_bits - 1 - b)) & 1);
  in.gate_fr.assign(T, Fr::one());
  for (std::size_t j = 0; j < in.gate.size(); ++j) in.gate_fr[j] = Fr::from_u64(in.gate[j]);
  return in;
}

// The kernel's input for `in` (whose keys and gate must outlive the kernel), W as a table.
RaVirtualizationInput input_of(const Instance& in, bool pattern_tables) {
  RaVirtualizationInput r;
  r.keys = in.keys;
  r.key_bits = in.c.key_bits;
  r.chunk_bits = in.c.chunk_bits;
  r.weights = in.weights;
  r.r_addr = in.r_addr;
  r.beta_powers = in.beta_powers;
  r.rho = in.rho;
  r.zeta = in.zeta;
  r.gate = in.gate;
  r.pattern_tables = pattern_tables;
  return r;
}

std::unique_ptr<SumcheckKernel> make_kernel(const Instance& in, bool pattern_tables) {
  return make_ra_virtualization_kernel(input_of(in, pattern_tables), kLabels);
}

// Σ_j W(j)·g(j)·Σ_v β^v·ra_v(r_addr, j) from the definition (booleanity is 0 for 0/1 bits).
Fr expected_sum(const Instance& in) {
  const unsigned cb = in.c.chunk_bits;
  Fr sum;
  for (std::size_t j = 0; j < in.keys.size(); ++j) {
    Fr ra;
    for (std::size_t v = 0; v < in.beta_powers.size(); ++v) {
      Fr prod = Fr::one();
      for (unsigned q = 0; q < cb; ++q) {
        const std::size_t b = v * cb + q;
        const Fr& r = in.r_addr[b];
        const Fr& x = in.bits[b][j];
        prod = prod * (r * x + (Fr::one() - r) * (Fr::one() - x));
      }
      ra += in.beta_powers[v] * prod;
    }
    sum += in.weights[j] * in.gate_fr[j] * ra;
  }
  return sum;
}

// The dense oracle: leaves bit_0 .. bit_{k−1}, W, eq(ρ, ·), then the gate if there is one;
//   Σ_v β^v·W·g·Π_{b ∈ v} ((1 − r_b) + (2r_b − 1)·bit_b) + Σ_b ζ^(b+1)·eq·(bit_b² − bit_b).
// The products are expanded into 2^chunk_bits monomials, so only for small chunks.
std::unique_ptr<NaiveKernel> make_oracle(const Instance& in) {
  const unsigned kb = in.c.key_bits, cb = in.c.chunk_bits;
  std::vector<std::vector<Fr>> leaves = in.bits;
  leaves.push_back(in.weights);
  leaves.push_back(EqPolynomial::evals(in.rho));
  if (in.c.gated) leaves.push_back(in.gate_fr);
  Expr e;
  for (std::size_t v = 0; v < in.beta_powers.size(); ++v) {
    std::vector<Linear> factors{Linear::leaf(kb)};
    if (in.c.gated) factors.push_back(Linear::leaf(kb + 2));
    for (unsigned q = 0; q < cb; ++q) {
      const auto b = static_cast<std::uint32_t>(v * cb + q);
      factors.push_back(Linear{Fr::one() - in.r_addr[b], {{b, in.r_addr[b].dbl() - Fr::one()}}});
    }
    e.add_product(in.beta_powers[v], factors);
  }
  Fr z = in.zeta;
  for (std::uint32_t b = 0; b < kb; ++b, z = z * in.zeta) {
    e.add_product(z, {Linear::leaf(kb + 1), Linear::leaf(b), Linear::leaf(b)});
    e.add_product(-z, {Linear::leaf(kb + 1), Linear::leaf(b)});
  }
  return std::make_unique<NaiveKernel>(kOracleLabels, std::move(leaves), std::move(e));
}

// ---- driving kernels ------------------------------------------------------------------------

struct Trace {
  std::vector<std::vector<Fr>> evals;  // per round: s(0), s(1), ..., s(degree)
  std::vector<Fr> claims;              // the claim entering each round, then the last one
  std::vector<Fr> outputs;
};

struct Driven {
  std::vector<Fr> point;      // the challenges, in round order
  std::vector<Trace> traces;  // per kernel
};

// The kernels round by round with the same challenges (drawn from `seed` alone, so separate
// calls with one seed see the same challenges). Each kernel is given its own running claim
// (input, then s(r) of its last round), which is the same for all while they agree.
Driven drive(const std::vector<SumcheckKernel*>& ks, const Fr& input, std::uint64_t seed) {
  REQUIRE(!ks.empty());
  std::mt19937_64 rng(seed);
  const std::size_t rounds = ks[0]->num_rounds(), degree = ks[0]->degree();
  for (SumcheckKernel* k : ks) {
    REQUIRE(k->num_rounds() == rounds);
    REQUIRE(k->degree() == degree);
  }
  REQUIRE(rounds > 0);
  Driven d;
  d.traces.resize(ks.size());
  for (Trace& t : d.traces) t.claims.push_back(input);
  std::optional<Fr> bind;
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < ks.size(); ++i) {
      std::vector<Fr> e = ks[i]->prove_round(bind, round, d.traces[i].claims.back());
      REQUIRE(e.size() == degree + 1);
      d.traces[i].evals.push_back(std::move(e));
    }
    const Fr r = rand_fr(rng);
    for (Trace& t : d.traces) t.claims.push_back(UniPoly::from_evals(t.evals.back()).evaluate(r));
    bind = r;
    d.point.push_back(r);
  }
  for (std::size_t i = 0; i < ks.size(); ++i) {
    ks[i]->finish_rounds(*bind);
    d.traces[i].outputs = ks[i]->output_claims();
  }
  return d;
}

// Every round of `got` is `want`'s (and, unless `rounds_only`, so are the outputs).
void check_same(const Trace& got, const Trace& want, const std::string& what,
                bool rounds_only = false) {
  REQUIRE(got.evals.size() == want.evals.size());
  for (std::size_t round = 0; round < want.evals.size(); ++round)
    CHECK_MESSAGE(got.evals[round] == want.evals[round], what, ", round ", round, ": ",
                  show(got.evals[round]), " vs ", show(want.evals[round]));
  if (!rounds_only)
    CHECK_MESSAGE(got.outputs == want.outputs, what, ", outputs: ", show(got.outputs), " vs ",
                  show(want.outputs));
}

// The verifier's checks of one kernel's rounds, with the outputs checked against the dense
// tables' extensions at the point.
void check_as_verifier(const Instance& in, const Driven& d, const Trace& t, const Fr& sum,
                       const std::string& what) {
  const unsigned kb = in.c.key_bits;
  REQUIRE(t.evals.size() == in.c.log_t);
  CHECK_MESSAGE(t.evals[0][0] + t.evals[0][1] == sum, what, ": round 0's s(0) + s(1) ",
                (t.evals[0][0] + t.evals[0][1]).to_hex(), " is not the relation's sum ",
                sum.to_hex());
  for (std::size_t round = 1; round < t.evals.size(); ++round)
    CHECK_MESSAGE(t.evals[round][0] + t.evals[round][1] == t.claims[round], what, ", round ", round,
                  ": s(0) + s(1) is not the previous round's s(r)");
  std::vector<Fr> want;
  for (unsigned b = 0; b < kb; ++b) want.push_back(mle(in.bits[b], d.point));
  if (in.c.gated) want.push_back(mle(in.gate_fr, d.point));
  REQUIRE_MESSAGE(t.outputs.size() == want.size(), what, ": ", t.outputs.size(), " outputs");
  CHECK_MESSAGE(t.outputs == want, what, ": outputs ", show(t.outputs), ", the bits' ", show(want));
  const Fr weight = mle(in.weights, d.point) * (in.c.gated ? t.outputs[kb] : Fr::one());
  const Fr final_want =
      ra_virtualization_final(in.r_addr, in.c.chunk_bits, in.beta_powers, weight, in.rho, in.zeta,
                              d.point, std::span<const Fr>(t.outputs).subspan(0, kb));
  CHECK_MESSAGE(t.claims.back() == final_want, what, ": the last claim ", t.claims.back().to_hex(),
                " is not ra_virtualization_final's ", final_want.to_hex());
}

// Tables against the direct path (and the dense oracle for small chunks), every check above.
void check_config(const Config& c) {
  const std::string desc = describe(c);
  INFO(desc);
  const Instance in = make_instance(c);
  const Fr sum = expected_sum(in);
  auto direct = make_kernel(in, false);
  auto tabled = make_kernel(in, true);
  CHECK(direct->num_rounds() == c.log_t);
  CHECK(direct->degree() == ra_virtualization_degree(c.chunk_bits, c.gated));
  std::vector<SumcheckKernel*> ks{direct.get(), tabled.get()};
  std::unique_ptr<NaiveKernel> oracle;
  if (c.chunk_bits <= 5) {
    oracle = make_oracle(in);
    ks.push_back(oracle.get());
  }
  const Driven d = drive(ks, sum, c.seed ^ 0x5eed);
  check_same(d.traces[1], d.traces[0], "pattern tables vs direct");
  check_as_verifier(in, d, d.traces[0], sum, "direct");
  check_as_verifier(in, d, d.traces[1], sum, "pattern tables");
  if (oracle) check_same(d.traces[0], d.traces[2], "direct vs the dense oracle", true);
}

}  // namespace

TEST_CASE("RA virtualization: pattern tables give the direct path's rounds and outputs") {
  // T = 2^12 reaches the tables in all three first rounds (T/2, T/4, T/8 pairs); 2^11 in the
  // first two.
  const std::vector<Config> configs = {
      // Instruction lookups: 64 key bits in chunks of 16.
      {12, 64, 16, false, Keys::Random, 1},
      {11, 64, 16, false, Keys::Repeating, 2},
      {11, 64, 16, false, Keys::MostlyZero, 3},
      // Bytecode: one chunk of all the index bits.
      {12, 11, 11, false, Keys::Random, 4},
      {12, 11, 11, false, Keys::Repeating, 5},
      {11, 11, 11, false, Keys::MostlyZero, 6},
      // RAM: one chunk of the address bits, gated by the access flag.
      {12, 12, 12, true, Keys::Random, 7},
      {12, 12, 12, true, Keys::Repeating, 8},
      {11, 12, 12, true, Keys::MostlyZero, 9},
  };
  for (const Config& c : configs) check_config(c);
}

TEST_CASE(
    "RA virtualization: pattern tables give the direct path's rounds and outputs with small and "
    "odd chunks") {
  // Chunks of up to 5 bits are also checked against the dense oracle.
  const std::vector<Config> configs = {
      {12, 8, 4, false, Keys::Random, 10},
      {11, 8, 4, false, Keys::Repeating, 11},
      {11, 8, 4, false, Keys::MostlyZero, 12},
      {12, 8, 4, true, Keys::Random, 13},
      {12, 6, 3, false, Keys::Random, 14},
      {11, 6, 3, false, Keys::Repeating, 15},
      {11, 5, 5, true, Keys::Random, 16},
      {12, 3, 1, false, Keys::Random, 17},
      {12, 2, 2, true, Keys::MostlyZero, 18},
      {12, 16, 8, false, Keys::Random, 19},
      {11, 21, 7, true, Keys::Repeating, 20},
      // Chunk widths the sub-chunks (4, 2, 1 bits) do not divide, so each chunk's last
      // sub-chunk is shorter than its tables' points assume: 15, 17 and 29 bits have 8 or more
      // two-bit sub-chunks per chunk (tabled at s + 1 points, extended by the product tree), 9
      // and 13 fewer (every point tabled).
      {12, 15, 15, true, Keys::Random, 21},
      {12, 17, 17, false, Keys::Random, 22},
      {12, 30, 15, false, Keys::Repeating, 23},
      {12, 29, 29, true, Keys::Random, 24},
      {12, 9, 9, true, Keys::Random, 25},
      {12, 13, 13, false, Keys::MostlyZero, 26},
  };
  for (const Config& c : configs) check_config(c);
}

TEST_CASE("RA virtualization: 1 and 2 threads give the same rounds with pattern tables") {
  const std::vector<Config> configs = {
      {12, 64, 16, false, Keys::Random, 21},
      {12, 12, 12, true, Keys::Random, 22},
      {12, 8, 4, false, Keys::Repeating, 23},
  };
  for (const Config& c : configs) {
    const std::string desc = describe(c);
    INFO(desc);
    const Instance in = make_instance(c);
    const Fr sum = expected_sum(in);
    auto run = [&](int threads, bool tables) {
      tbb::global_control g(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
      auto k = make_kernel(in, tables);
      return drive({k.get()}, sum, c.seed).traces[0];
    };
    const Trace one = run(1, true), two = run(2, true), direct = run(2, false);
    check_same(two, one, "pattern tables at 2 threads vs 1");
    check_same(two, direct, "pattern tables vs direct at 2 threads");
  }
}

TEST_CASE(
    "RA virtualization: tables and the direct path agree where rounds are too small for "
    "tables") {
  // From one round (T = 2: fewer rounds than the three tabled ones) up to T = 2^11, across the
  // sizes where the first rounds have too few pairs for the tables, then only some have enough.
  for (unsigned log_t = 1; log_t <= 11; ++log_t) {
    std::vector<Config> configs = {
        {log_t, 8, 4, true, Keys::Random, 100 + log_t},
        {log_t, 6, 3, false, Keys::Repeating, 200 + log_t},
        {log_t, 11, 11, false, Keys::Random, 300 + log_t},
    };
    if (log_t <= 4 || log_t % 2 == 0) {
      configs.push_back({log_t, 64, 16, false, Keys::Random, 400 + log_t});
      configs.push_back({log_t, 12, 12, true, Keys::MostlyZero, 500 + log_t});
    }
    for (const Config& c : configs) check_config(c);
  }
}

TEST_CASE(
    "RA virtualization: W given as its eq point (split per round) gives the rounds and outputs of "
    "W as a table") {
  // Configs of every shape above, with tables and without; then points with a coordinate 0 (the
  // round evaluates q(1) itself) or 1, and T = 2 .. 2^4 (rounds too small for tables).
  std::vector<Config> configs = {
      {12, 64, 16, false, Keys::Random, 31},     {11, 64, 16, false, Keys::MostlyZero, 32},
      {12, 11, 11, false, Keys::Repeating, 33},  {12, 12, 12, true, Keys::Random, 34},
      {12, 8, 4, false, Keys::Random, 35},       {11, 5, 5, true, Keys::Random, 36},
      {12, 3, 1, false, Keys::Random, 37},       {12, 2, 2, true, Keys::MostlyZero, 38},
      {12, 15, 15, true, Keys::Random, 70},      {12, 17, 17, false, Keys::Random, 71},
      {12, 30, 15, false, Keys::Repeating, 72},  {12, 29, 29, true, Keys::Random, 73},
      {12, 13, 13, false, Keys::MostlyZero, 75},
  };
  for (unsigned log_t = 1; log_t <= 4; ++log_t)
    configs.push_back({log_t, 8, 4, log_t % 2 == 0, Keys::Random, 40 + log_t});
  for (std::size_t n = 0; n < configs.size() + 2; ++n) {
    const Config c =
        n < configs.size() ? configs[n] : Config{12, 16, 8, n % 2 == 0, Keys::Random, 50 + n};
    const std::string desc = describe(c);
    INFO(desc);
    Instance in = make_instance(c);
    std::mt19937_64 rng(c.seed ^ 0xe9);
    std::vector<Fr> point = rand_point(rng, c.log_t);
    if (n >= configs.size()) {
      point[0] = Fr::zero();
      point[c.log_t - 1] = Fr::zero();
      point[1] = Fr::one();
    }
    in.weights = EqPolynomial::evals(point);
    const Fr sum = expected_sum(in);
    auto split = [&](bool tables) {
      RaVirtualizationInput r = input_of(in, tables);
      r.weights.clear();
      r.weight_point = point;
      return make_ra_virtualization_kernel(std::move(r), kLabels);
    };
    auto table = make_kernel(in, true);
    auto split_direct = split(false), split_tabled = split(true);
    const Driven d = drive({table.get(), split_direct.get(), split_tabled.get()}, sum, c.seed);
    check_same(d.traces[1], d.traces[0], "split, direct vs W as a table");
    check_same(d.traces[2], d.traces[0], "split, pattern tables vs W as a table");
    check_as_verifier(in, d, d.traces[2], sum, "split, pattern tables");
  }
}

TEST_CASE(
    "RA virtualization: a weight point with a weight table, or of the wrong length, is refused") {
  const Instance in = make_instance({4, 8, 4, false, Keys::Random, 60});
  std::mt19937_64 rng(61);
  for (const std::size_t coords : {std::size_t{4}, std::size_t{3}}) {
    RaVirtualizationInput r = input_of(in, true);
    r.weight_point = rand_point(rng, coords);
    if (coords == 3) r.weights.clear();
    CHECK_THROWS_WITH_AS(make_ra_virtualization_kernel(std::move(r), kLabels),
                         doctest::Contains("weight point"), std::invalid_argument);
  }
}
