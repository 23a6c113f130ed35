// Micro-costs behind the prover cost model (docs/prover-design.md): Fr arithmetic, NTT and
// Reed–Solomon encoding, BLAKE2b hashing and Merkle trees, sumcheck round terms, eq tables,
// codeword folding. Every figure is process CPU time per unit, the median of `reps` timed
// repetitions (min and max shown, spread = (max − min) / median), plus the median wall time;
// run the whole binary several times on a shared machine and take the median of the medians.
//   cost_bench [reps=7] [max_log_ntt=22] [field|ntt|hash|sumcheck|eq|memory]
// Single-threaded unless a row says "2 threads" (those run in a TBB arena of 2). Not a test.
#include <sodium.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <new>
#include <random>
#include <string>
#include <vector>

#include <jolt/prover/field/fr.hpp>
#include <jolt/prover/pcs/hash.hpp>
#include <jolt/prover/pcs/merkle_tree.hpp>
#include <jolt/prover/pcs/reed_solomon.hpp>
#include <jolt/prover/poly/eq.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/prover/sumcheck/naive_kernel.hpp>

using jolt::prover::Fr;
using Clock = std::chrono::steady_clock;
namespace pcs = jolt::prover::pcs;

namespace {

unsigned g_reps = 7;
volatile std::uint64_t g_sink = 0;  // defeats dead-code elimination of checksums

void sink(const Fr& x) {
  g_sink = g_sink + x.mont_limbs()[0];
}

std::vector<Fr> random_vec(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::from_u128(rng(), rng() >> 8);
  return v;
}

// CPU time of the whole process (all threads), in ns. On a shared machine wall time mostly
// measures how long the scheduler kept us waiting; CPU time measures the work.
double process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

// Times `body` (which performs `units` units of work) g_reps times after one warm-up call and
// prints CPU ns per unit (median, min, max, spread) and the median wall ns per unit. Rows run
// on 2 threads report CPU ns summed over both threads (divide by 2 for ideal wall time).
void measure(const std::string& name, const char* unit, double units,
             const std::function<void()>& body) {
  body();  // warm-up: page faults, caches, lazy initialisation
  std::vector<double> cpu, wall;
  for (unsigned r = 0; r < g_reps; ++r) {
    const auto t0 = Clock::now();
    const double c0 = process_cpu_ns();
    body();
    cpu.push_back((process_cpu_ns() - c0) / units);
    wall.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / units);
  }
  std::sort(cpu.begin(), cpu.end());
  std::sort(wall.begin(), wall.end());
  const double med = cpu[cpu.size() / 2];
  std::printf("%-44s %-10s %10.3f %10.3f %10.3f %7.1f%% %10.3f\n", name.c_str(), unit, med,
              cpu.front(), cpu.back(), 100.0 * (cpu.back() - cpu.front()) / med,
              wall[wall.size() / 2]);
  std::fflush(stdout);
}

void field_ops() {
  constexpr std::size_t kChain = 1u << 22;
  const Fr b = Fr::from_u64(0x89abcdef).inverse();
  measure("fr_mul dependent chain", "ns/mul", kChain, [&] {
    Fr a = Fr::from_u64(0x1234567);
    for (std::size_t i = 0; i < kChain; ++i) a = a * b;
    sink(a);
  });
  measure("fr_add dependent chain", "ns/add", kChain, [&] {
    Fr a = Fr::from_u64(0x1234567);
    for (std::size_t i = 0; i < kChain; ++i) a = a + b;
    sink(a);
  });
  // Independent streams: element-wise over cache-resident arrays (L1/L2), repeated.
  constexpr std::size_t kLen = 512, kPasses = 4096;
  const std::vector<Fr> x = random_vec(kLen, 1), y = random_vec(kLen, 2);
  std::vector<Fr> z(kLen);
  measure("fr_mul independent (z=x*y, L1-resident)", "ns/mul", double(kLen) * kPasses, [&] {
    for (std::size_t p = 0; p < kPasses; ++p) {
      for (std::size_t i = 0; i < kLen; ++i) z[i] = x[i] * y[i];
      sink(z[p % kLen]);
    }
  });
  measure("fr_add independent (z=x+y, L1-resident)", "ns/add", double(kLen) * kPasses, [&] {
    for (std::size_t p = 0; p < kPasses; ++p) {
      for (std::size_t i = 0; i < kLen; ++i) z[i] = x[i] + y[i];
      sink(z[p % kLen]);
    }
  });
  measure("fr_fma independent (acc+=x*y, 4 lanes)", "ns/fma", double(kLen) * kPasses, [&] {
    Fr a0, a1, a2, a3;
    for (std::size_t p = 0; p < kPasses; ++p)
      for (std::size_t i = 0; i < kLen; i += 4) {
        a0 += x[i] * y[i];
        a1 += x[i + 1] * y[i + 1];
        a2 += x[i + 2] * y[i + 2];
        a3 += x[i + 3] * y[i + 3];
      }
    sink(a0 + a1 + a2 + a3);
  });
  // DRAM-streaming: 3 arrays of 2^21 Fr (64 MiB each).
  constexpr std::size_t kBig = 1u << 21;
  const std::vector<Fr> bx = random_vec(kBig, 3), by = random_vec(kBig, 4);
  std::vector<Fr> bz(kBig);
  measure("fr_mul streaming from DRAM (2^21)", "ns/mul", kBig, [&] {
    for (std::size_t i = 0; i < kBig; ++i) bz[i] = bx[i] * by[i];
    sink(bz[kBig / 3]);
  });
}

void ntt(unsigned max_log) {
  for (unsigned log_n : {10u, 14u, 18u, 20u, 22u, 24u}) {
    if (log_n > max_log + 2) break;
    const pcs::NttDomain d(log_n);
    const std::size_t n = d.size();
    std::vector<Fr> v = random_vec(n, log_n);
    const double butterflies = double(n) / 2 * log_n;
    measure("ntt forward 2^" + std::to_string(log_n), "ns/bfly", butterflies,
            [&] { d.forward(v); });
  }
  // RS encoding at rate 1/4 (zero-padded NTT, first 2 layers skipped), per message element.
  for (unsigned log_m : {10u, 16u, 18u, 20u, 22u}) {
    if (log_m > max_log) break;
    const pcs::ReedSolomonCode code(log_m, 2);
    const std::vector<Fr> msg = random_vec(code.message_len(), 100 + log_m);
    std::vector<Fr> out(code.codeword_len());
    measure("rs_encode rate 1/4, msg 2^" + std::to_string(log_m), "ns/msg_elt",
            double(code.message_len()), [&] { code.encode(msg, out); });
  }
  // Many independent row encodes in parallel (Ligero's commit shape), 1 and 2 threads.
  for (int threads : {1, 2}) {
    const pcs::ReedSolomonCode code(10, 2);
    constexpr std::size_t kRows = 256;
    const std::vector<Fr> msgs = random_vec(kRows * code.message_len(), 7);
    std::vector<Fr> out(kRows * code.codeword_len());
    tbb::task_arena arena(threads);
    measure("rs_encode 256 rows of 2^10, " + std::to_string(threads) + " thread(s)", "ns/msg_elt",
            double(msgs.size()), [&] {
              arena.execute([&] {
                tbb::parallel_for(std::size_t{0}, kRows, [&](std::size_t r) {
                  code.encode(
                      std::span<const Fr>(msgs).subspan(r * code.message_len(), code.message_len()),
                      std::span<Fr>(out).subspan(r * code.codeword_len(), code.codeword_len()));
                });
              });
            });
  }
}

void hashing() {
  std::vector<std::uint8_t> buf(1u << 20);
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<std::uint8_t>(i * 131);
  measure("blake2b-256 over 1 MiB", "ns/byte", double(buf.size()), [&] {
    const pcs::Digest d = pcs::blake2b_256(buf);
    g_sink = g_sink + d[0];
  });
  constexpr std::size_t kNodes = 1u << 16;
  std::vector<pcs::Digest> digests(kNodes);
  for (std::size_t i = 0; i < kNodes; ++i) digests[i] = pcs::blake2b_256(std::span(&buf[i], 8));
  measure("hash_node (0x01|32B|32B)", "ns/node", kNodes - 1, [&] {
    pcs::Digest acc = digests[0];
    for (std::size_t i = 1; i < kNodes; ++i) acc = pcs::hash_node(acc, digests[i]);
    g_sink = g_sink + acc[0];
  });
  for (std::size_t k : {2u, 16u, 36u, 128u}) {
    constexpr std::size_t kLeaves = 4096;
    const std::vector<Fr> vals = random_vec(kLeaves * k, k);
    measure("hash_leaf of " + std::to_string(k) + " Fr", "ns/Fr", double(kLeaves * k), [&] {
      for (std::size_t j = 0; j < kLeaves; ++j) {
        const pcs::Digest d = pcs::hash_leaf(std::span<const Fr>(vals).subspan(j * k, k));
        g_sink = g_sink + d[0];
      }
    });
  }
  {
    constexpr std::size_t kLeaves = 1u << 18;
    std::vector<pcs::Digest> leaves(kLeaves);
    for (std::size_t i = 0; i < kLeaves; ++i) leaves[i] = digests[i % kNodes];
    tbb::task_arena arena(1);
    measure("merkle build from 2^18 leaf digests", "ns/leaf", kLeaves, [&] {
      arena.execute([&] {
        const pcs::MerkleTree t = pcs::MerkleTree::from_leaves(leaves);
        g_sink = g_sink + t.root()[0];
      });
    });
  }
}

// Hand-written sumcheck round terms over tables of 2^log_n entries (half = pairs per round).
// "per pair" = per index i < half, which is per entry of the table after this round's bind.
void sumcheck_terms(unsigned log_n) {
  const std::size_t n = std::size_t{1} << log_n, half = n / 2;
  const std::vector<Fr> eq = random_vec(n, 11), a = random_vec(n, 12), b = random_vec(n, 13);
  const std::string sz = " (2^" + std::to_string(log_n) + ")";
  measure("deg-2 round eq*a, evals {0,2}" + sz, "ns/pair", double(half), [&] {
    Fr s0, s2;
    for (std::size_t i = 0; i < half; ++i) {
      const Fr e0 = eq[i], e1 = eq[i + half], a0 = a[i], a1 = a[i + half];
      s0 += e0 * a0;
      s2 += (e1.dbl() - e0) * (a1.dbl() - a0);
    }
    sink(s0 + s2);
  });
  measure("deg-3 round eq*a*b, evals {0,2,3}" + sz, "ns/pair", double(half), [&] {
    Fr s0, s2, s3;
    for (std::size_t i = 0; i < half; ++i) {
      const Fr e0 = eq[i], de = eq[i + half] - e0;
      const Fr a0 = a[i], da = a[i + half] - a0;
      const Fr b0 = b[i], db = b[i + half] - b0;
      s0 += e0 * a0 * b0;
      Fr e = e0 + de + de, x = a0 + da + da, y = b0 + db + db;
      s2 += e * x * y;
      e += de;
      x += da;
      y += db;
      s3 += e * x * y;
    }
    sink(s0 + s2 + s3);
  });
  std::vector<Fr> t = a;
  const Fr r = Fr::from_u64(0xdeadbeef);
  measure("bind one table (t[i]+=r*(t[i+h]-t[i]))" + sz, "ns/pair", double(half), [&] {
    for (std::size_t i = 0; i < half; ++i) t[i] = t[i] + r * (t[i + half] - t[i]);
    sink(t[1]);
  });
  // The repository's generic NaiveKernel (Expr interpreter), as stages 2–3 use it today:
  // one round of eq·a·b (degree 3, 4 evaluation points) with its bind, single thread.
  {
    tbb::task_arena arena(1);
    const jolt::prover::KernelLabels labels{"bench::prepare", "bench::round", "bench::finish"};
    jolt::prover::Expr expr;
    using jolt::prover::Linear;
    expr.add_product(Fr::one(), {Linear::leaf(0), Linear::leaf(1), Linear::leaf(2)});
    // The first round binds nothing, so the kernel is built once and the round repeated.
    jolt::prover::NaiveKernel k(labels, {eq, a, b}, expr);
    measure("NaiveKernel eq*a*b first round" + sz, "ns/pair", double(half), [&] {
      arena.execute([&] {
        const auto p = k.prove_round(std::nullopt, 0, Fr::zero());
        sink(p[0]);
      });
    });
  }
  // eq · Π_{i<d} f_i evaluated at d+2 points (d+1 needed with s(1) = claim − s(0)): the RA
  // virtualization term for d committed chunks per virtual chunk (degree d+1).
  for (std::size_t d : {4u, 8u, 16u}) {
    std::vector<std::vector<Fr>> f;
    for (std::size_t i = 0; i < d; ++i) f.push_back(random_vec(half * 2 >> 4, 20 + i));
    const std::size_t h = f[0].size() / 2;
    measure("deg-" + std::to_string(d + 1) + " round eq*prod of " + std::to_string(d) +
                " (naive evals)",
            "ns/pair", double(h), [&] {
              std::vector<Fr> acc(d + 1), lo(d), df(d);
              for (std::size_t i = 0; i < h; ++i) {
                const Fr e0 = eq[i], de = eq[i + h] - e0;
                for (std::size_t k = 0; k < d; ++k) {
                  lo[k] = f[k][i];
                  df[k] = f[k][i + h] - lo[k];
                }
                // points 0, 2, 3, …, d+1 (point 1 from the claim)
                Fr e = e0;
                for (std::size_t x = 0; x <= d; ++x) {
                  if (x == 1) {
                    e += de + de;
                    for (std::size_t k = 0; k < d; ++k) lo[k] += df[k] + df[k];
                  } else if (x > 1) {
                    e += de;
                    for (std::size_t k = 0; k < d; ++k) lo[k] += df[k];
                  }
                  Fr p = e;
                  for (std::size_t k = 0; k < d; ++k) p *= lo[k];
                  acc[x] += p;
                }
              }
              sink(acc[0] + acc[d]);
            });
  }
}

// First touch of freshly allocated memory: the kernel maps and zeroes a page per 4 KiB touched
// (every T-sized table, codeword and Merkle tree a prover allocates pays this once).
void first_touch() {
  constexpr std::size_t kBytes = std::size_t{256} << 20;
  measure("first touch of fresh malloc memory (256 MiB)", "ns/4KiB", double(kBytes / 4096), [&] {
    auto* p = static_cast<std::uint8_t*>(std::malloc(kBytes));
    if (p == nullptr) throw std::bad_alloc();
    for (std::size_t i = 0; i < kBytes; i += 4096) p[i] = static_cast<std::uint8_t>(i >> 12);
    g_sink = g_sink + p[kBytes / 2];
    std::free(p);
  });
}

void eq_and_fold() {
  for (unsigned log_n : {16u, 20u}) {
    std::vector<Fr> r = random_vec(log_n, 30);
    for (int threads : {1, 2}) {
      tbb::task_arena arena(threads);
      measure("eq table 2^" + std::to_string(log_n) + ", " + std::to_string(threads) + " thread(s)",
              "ns/elt", double(std::size_t{1} << log_n), [&] {
                arena.execute([&] {
                  const std::vector<Fr> e = jolt::prover::EqPolynomial::evals(r);
                  sink(e[7]);
                });
              });
    }
  }
  // FRI/Basefold 2-to-1 fold of a codeword of 2^20: out[i] = (a+b)/2 + r·(a−b)·inv2w[i], with
  // the (1/2)·ω^−i table precomputed: two multiplications per output element.
  constexpr std::size_t kN = 1u << 20;
  const std::vector<Fr> cw = random_vec(kN, 40), inv2w = random_vec(kN / 2, 41);
  std::vector<Fr> out(kN / 2);
  const Fr r = Fr::from_u64(0x1234567), half = Fr::from_u64(2).inverse();
  measure("codeword 2-to-1 fold (2^20 -> 2^19)", "ns/out", double(kN / 2), [&] {
    for (std::size_t i = 0; i < kN / 2; ++i) {
      const Fr a = cw[i], b = cw[i + kN / 2];
      out[i] = (a + b) * half + r * ((a - b) * inv2w[i]);
    }
    sink(out[3]);
  });
  // Random linear combination of k committed columns (the batched opening's first step).
  constexpr std::size_t kCols = 32, kLen = 1u << 16;
  const std::vector<Fr> cols = random_vec(kCols * kLen, 42), g = random_vec(kCols, 43);
  std::vector<Fr> comb(kLen);
  measure("RLC of 32 columns of 2^16 (Fr coefficients)", "ns/elt", double(kCols * kLen), [&] {
    std::fill(comb.begin(), comb.end(), Fr::zero());
    for (std::size_t c = 0; c < kCols; ++c)
      for (std::size_t i = 0; i < kLen; ++i) comb[i] += g[c] * cols[c * kLen + i];
    sink(comb[5]);
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_reps = static_cast<unsigned>(std::max(1, std::atoi(argv[1])));
  const unsigned max_log = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 22;
  if (sodium_init() < 0) {
    std::fprintf(stderr, "cost_bench: libsodium initialisation failed\n");
    return 1;
  }
  const std::string only = argc > 3 ? argv[3] : "";
  const std::vector<std::string> sections = {"field", "ntt",    "hash", "sumcheck",
                                             "eq",    "memory", ""};
  if (std::find(sections.begin(), sections.end(), only) == sections.end()) {
    std::fprintf(stderr,
                 "cost_bench: unknown section '%s'; use field, ntt, hash, sumcheck, eq or memory "
                 "(or none for all)\n",
                 only.c_str());
    return 2;
  }
  std::printf(
      "cost_bench: %u repetitions per row; process CPU ns per unit: median (min, max, "
      "spread), and the median wall ns\n",
      g_reps);
  std::printf("%-44s %-10s %10s %10s %10s %8s %10s\n", "measurement", "unit", "cpu_med", "cpu_min",
              "cpu_max", "spread", "wall_med");
  auto want = [&](const char* section) { return only.empty() || only == section; };
  if (want("field")) field_ops();
  if (want("ntt")) ntt(max_log);
  if (want("hash")) hashing();
  if (want("sumcheck")) sumcheck_terms(20);
  if (want("eq")) eq_and_fold();
  if (want("memory")) first_touch();
  std::printf("(sink %llu)\n", static_cast<unsigned long long>(g_sink));
  return 0;
}
