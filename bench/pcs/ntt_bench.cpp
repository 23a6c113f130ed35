// Reed–Solomon encoding benchmark: rs_encode of one random message of 2^n entries at rate 1/2,
// median of `reps`, as ns per butterfly and per codeword entry, with 1 thread and with all
// threads, for the portable butterflies and (when the CPU has AVX-512 IFMA) the eight-lane ones,
// interleaved rep by rep; then, at the commitment's rate 1/4 with all threads, a message of
// random field elements against one of random 0/1 values (whose groups of 8 slots take their
// first three layers from a table), interleaved; last, the prover's own paths at rate 1/4 with
// all threads: the commitment's CosetEncoder (the four cosets of a codeword, one at a time) and
// the opening's PositionEncoder (one plan, then the 704 positions of 88 queries' four-leaf quads
// re-encoded per message), for a random and a 0/1 message; then the opening's re-encoding at the
// stacked commitment's parameters (rate 1/2, 185 queries), 1 thread: the eight positions of the
// four leaves under each opened leaf's level-2 node, which lie M/8 apart in the tree's order
// (one Horner base each), against four consecutive leaves (two bases), with the planned block
// size and a sweep over block sizes, interleaved rep by rep. Not a test.
//   ntt_bench [sizes=16,18,20] [reps=5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/scheme.hpp>

#include "ntt_lanes.hpp"

using jolt::prover::Fr;
namespace bf = jolt::prover::basefold;
namespace lanes = jolt::prover::basefold::lanes;

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A message of 2^n random field elements and one of 2^n random 0/1 values, from one seed.
std::pair<std::vector<Fr>, std::vector<Fr>> random_and_bits(std::uint64_t seed, unsigned n) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> random(std::size_t{1} << n), bits(random.size());
  for (std::size_t i = 0; i < random.size(); ++i) {
    random[i] = Fr::from_u64(rng()) * Fr::from_u64(rng());
    bits[i] = (rng() & 1) != 0 ? Fr::one() : Fr::zero();
  }
  return {std::move(random), std::move(bits)};
}
}  // namespace

// The opening's re-encoding of one table at rate 1/2 with 185 queries (the stacked commitment's
// parameters), 1 thread, ms per message (median): per query the four leaves under its level-2
// node, each leaf's two positions ℓ and ℓ + M/2 — the leaves M/8 apart (the commitment tree's
// order: positions in one class mod M/8) or consecutive (4m … 4m + 3) —, each with the planned
// block size S and with S forced over a sweep, all interleaved rep by rep.
void reencode_sweep(const std::vector<unsigned>& sizes, int reps) {
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  std::printf(
      "\nthe opening's re-encoding at rate 1/2, 185 queries × 4 leaves × 2 positions, 1 thread "
      "(ms per message; K = Horner classes, S = block size)\n");
  std::printf("%-4s %-12s %-9s %4s %10s %10s\n", "n", "leaves", "S", "K", "0/1 ms", "random ms");
  for (unsigned n : sizes) {
    const auto [random, bits] = random_and_bits(n + 400, n);
    const std::size_t M = random.size() * 2;
    std::mt19937_64 rng(n + 500);
    std::vector<std::uint64_t> apart, consecutive;
    for (int q = 0; q < 185; ++q) {
      const std::uint64_t j = rng() % (M / 2);
      for (std::uint64_t e = 0; e < 4; ++e) {
        const std::uint64_t a = j % (M / 8) + e * (M / 8), c = (j & ~std::uint64_t{3}) + e;
        apart.insert(apart.end(), {a, a + M / 2});
        consecutive.insert(consecutive.end(), {c, c + M / 2});
      }
    }
    struct Row {
      const char* leaves;
      std::size_t forced;
      bf::PositionEncoder enc;
      std::vector<double> ms[2];
    };
    std::vector<Row> rows;
    rows.push_back({"M/8 apart", 0, bf::PositionEncoder(n, 1, apart, {}), {}});
    for (std::size_t S = 256; S <= 2048 && S <= M / 8; S *= 2)
      rows.push_back({"M/8 apart", S, bf::PositionEncoder(n, 1, apart, {}, S), {}});
    rows.push_back({"consecutive", 0, bf::PositionEncoder(n, 1, consecutive, {}), {}});
    // The block size the plan took before it weighed per-block work: the bit_ceil of the bases
    // (up to 740 distinct p mod M/2).
    const std::size_t before = std::min<std::size_t>(1024, M / 2);
    rows.push_back({"consecutive", before, bf::PositionEncoder(n, 1, consecutive, {}, before), {}});
    std::vector<Fr> got(apart.size());
    for (int r = 0; r < reps; ++r)
      for (auto& row : rows)
        for (int k = 0; k < 2; ++k) {
          const auto t0 = std::chrono::steady_clock::now();
          row.enc.encode(k == 0 ? bits : random, got);
          row.ms[k].push_back(ms_since(t0));
        }
    for (const auto& row : rows) {
      const std::string s = row.forced == 0 ? "plan " + std::to_string(row.enc.block_size())
                                            : std::to_string(row.forced);
      std::printf("%-4u %-12s %-9s %4zu %10.2f %10.2f\n", n, row.leaves, s.c_str(),
                  row.enc.classes(), median(row.ms[0]), median(row.ms[1]));
    }
  }
}

// ns per product of out[i] = a[i]·b[i] over 2^16 independent pairs (L1/L2-resident), one thread:
// Fr's operator* and, where the CPU has them, the IFMA lanes.
void multiply_arrays(int reps) {
  const std::size_t n = std::size_t{1} << 16;
  std::mt19937_64 rng(99);
  std::vector<Fr> a(n), b(n), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = Fr::from_u64(rng()) * Fr::from_u64(rng());
    b[i] = Fr::from_u64(rng()) * Fr::from_u64(rng());
  }
  std::vector<double> ns[2];
  for (int r = 0; r < reps * 4; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
    ns[0].push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        static_cast<double>(n));
    if (!lanes::available()) continue;
    t0 = std::chrono::steady_clock::now();
    lanes::mul_arrays(a.data(), b.data(), out.data(), n);
    ns[1].push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        static_cast<double>(n));
  }
  std::printf("multiply over 2^16 independent pairs, 1 thread: Fr operator* %.2f ns",
              median(ns[0]));
  if (!ns[1].empty()) std::printf(", IFMA lanes %.2f ns", median(ns[1]));
  std::printf(" per product\n");
}

int main(int argc, char** argv) {
  std::vector<unsigned> sizes;
  {
    std::stringstream ss(argc > 1 ? argv[1] : "16,18,20");
    std::string item;
    while (std::getline(ss, item, ',')) sizes.push_back(static_cast<unsigned>(std::stoul(item)));
  }
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  multiply_arrays(reps);
  const int all = tbb::info::default_concurrency();
  const bool have_lanes = lanes::enabled();
  std::printf("%-4s %-8s %-9s %12s %14s %14s\n", "n", "threads", "kernel", "encode ms",
              "ns/butterfly", "ns/entry");
  for (unsigned n : sizes) {
    std::mt19937_64 rng(n);
    std::vector<Fr> msg(std::size_t{1} << n);
    for (auto& x : msg) x = Fr::from_u64(rng());
    const bf::Twiddles tw = bf::twiddles(n + 1);
    std::vector<Fr> out(msg.size() * 2);
    for (int threads : {1, all}) {
      tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
                             static_cast<std::size_t>(threads));
      std::vector<double> ms[2];
      for (int r = 0; r < reps; ++r)
        for (int k = 0; k < (have_lanes ? 2 : 1); ++k) {
          lanes::set_enabled(k == 1);
          const auto t0 = std::chrono::steady_clock::now();
          bf::rs_encode(msg, 1, out, tw, 1);
          ms[k].push_back(ms_since(t0));
        }
      const double butterflies = static_cast<double>(out.size()) / 2 * n;  // layers after the copy
      for (int k = 0; k < (have_lanes ? 2 : 1); ++k) {
        const double m = median(ms[k]);
        std::printf("%-4u %-8d %-9s %12.2f %14.2f %14.2f\n", n, threads,
                    k == 0 ? "portable" : "ifma", m, m * 1e6 / butterflies * threads,
                    m * 1e6 / static_cast<double>(out.size()));
      }
      if (have_lanes)
        std::printf("%-4u %-8d ifma/portable %.2f\n", n, threads, median(ms[1]) / median(ms[0]));
      if (threads == all) break;
    }
  }
  std::printf("\nrate 1/4, %d threads, %s butterflies: random message vs 0/1 message\n", all,
              have_lanes ? "ifma" : "portable");
  std::printf("%-4s %14s %14s %10s\n", "n", "random ms", "0/1 ms", "0/1/random");
  for (unsigned n : sizes) {
    const auto [random, bits] = random_and_bits(n + 100, n);
    const bf::Twiddles tw = bf::twiddles(n + 2);
    std::vector<Fr> out(random.size() * 4);
    std::vector<double> ms[2];
    for (int r = 0; r < reps; ++r)
      for (int k = 0; k < 2; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        bf::rs_encode(k == 0 ? random : bits, 2, out, tw, 1);
        ms[k].push_back(ms_since(t0));
      }
    std::printf("%-4u %14.2f %14.2f %10.2f\n", n, median(ms[0]), median(ms[1]),
                median(ms[1]) / median(ms[0]));
  }
  std::printf(
      "\nthe prover's paths at rate 1/4, %d threads: commit = CosetEncoder, 4 cosets (ms and ns "
      "per butterfly of the whole codeword); open = PositionEncoder at 704 positions (plan ms, "
      "then ms per message)\n",
      all);
  std::printf("%-4s %-7s %12s %14s %12s %14s\n", "n", "message", "commit ms", "ns/butterfly",
              "plan ms", "open ms/msg");
  for (unsigned n : sizes) {
    const auto [random, bits] = random_and_bits(n + 200, n);
    std::mt19937_64 rng(n + 300);  // the query positions
    const std::size_t R = 4, M = random.size() * R;
    const bf::CosetTwiddles tw(n, 2);
    std::vector<bf::CosetEncoder> cosets;
    for (std::size_t r = 0; r < R; ++r) cosets.emplace_back(n, 2, r, tw);
    // 88 query leaves j < M/2, each opened with its level-2 quad: both values of 4 leaves, M/8
    // apart in the commitment tree's order.
    std::vector<std::uint64_t> at;
    for (int q = 0; q < 88; ++q) {
      const std::uint64_t m = (rng() % (M / 2)) % (M / 8);
      for (std::uint64_t e = 0; e < 4; ++e)
        at.insert(at.end(), {m + e * (M / 8), m + e * (M / 8) + M / 2});
    }
    std::vector<Fr> coset(random.size()), got(at.size());
    for (int k = 0; k < 2; ++k) {
      const std::vector<Fr>& msg = k == 0 ? random : bits;
      const std::span<const Fr> one[1] = {msg};
      const jolt::prover::SpanBatch batch(one);
      std::vector<double> commit_ms, plan_ms, open_ms;
      for (int r = 0; r < reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (const auto& c : cosets) c.encode(batch, 0, coset);
        commit_ms.push_back(ms_since(t0));
        t0 = std::chrono::steady_clock::now();
        const bf::PositionEncoder enc(n, 2, at, {});
        plan_ms.push_back(ms_since(t0));
        t0 = std::chrono::steady_clock::now();
        enc.encode(msg, got);
        open_ms.push_back(ms_since(t0));
      }
      const double butterflies = static_cast<double>(M) / 2 * n;  // R cosets of n layers
      std::printf("%-4u %-7s %12.2f %14.2f %12.2f %14.2f\n", n, k == 0 ? "random" : "0/1",
                  median(commit_ms), median(commit_ms) * 1e6 / butterflies * all, median(plan_ms),
                  median(open_ms));
    }
  }
  reencode_sweep(sizes, reps);
}
