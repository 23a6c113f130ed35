// Basefold PCS benchmark: for the pipeline's shape (k polynomials of 2^n entries, default k = 36)
// prints commit / open / verify time (median of `reps`), proof size and where its bytes go
// (multi-proof siblings vs one path per opened leaf), prover memory per committed entry and peak
// RSS; with compare_n, Basefold and today's Ligero (rate 1/4, q = 148) on the same tables,
// interleaved rep by rep, medians side by side. Not a test.
//   basefold_bench [sizes=16,18,20] [k=36] [reps=3] [compare_n=18 (0: none)] [threads]
#include <sys/resource.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <jolt/prover/pcs/basefold.hpp>
#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/pcs/reed_solomon.hpp>

using jolt::prover::Fr;
namespace bf = jolt::prover::basefold;
namespace pcs = jolt::prover::pcs;

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}
double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
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
  in.tables.assign(k, std::vector<Fr>(std::size_t{1} << n));
  for (auto& t : in.tables)
    for (auto& x : t) x = Fr::from_u64(rng());
  in.point.resize(n);
  for (auto& x : in.point) x = Fr::from_u64(rng());
  // Big-endian evaluation (point[0] ↔ MSB), untimed.
  for (const auto& t : in.tables) {
    std::vector<Fr> f = t;
    for (const Fr& r : in.point) {
      const std::size_t h = f.size() / 2;
      for (std::size_t y = 0; y < h; ++y) f[y] = f[y] + r * (f[y + h] - f[y]);
      f.resize(h);
    }
    in.evals.push_back(f[0]);
  }
  return in;
}

struct BasefoldTimes {
  double commit_ms = 0, open_ms = 0, verify_ms = 0;
  std::size_t proof_bytes = 0, data_bytes = 0;
  bf::ProofBreakdown b;
};

BasefoldTimes run_basefold(const bf::Basefold& pcs, const Instance& in) {
  BasefoldTimes r;
  const auto spans = in.spans();
  auto t0 = Clock::now();
  bf::Committed c = pcs.commit(spans);
  r.commit_ms = ms_since(t0);
  r.data_bytes = c.data->heap_bytes();
  jolt::prover::Transcript tp("bench"), tv("bench");
  tp.absorb_bytes("commitment", c.root);
  tv.absorb_bytes("commitment", c.root);
  t0 = Clock::now();
  const auto proof = pcs.open(*c.data, spans, in.point, in.evals, tp);
  r.open_ms = ms_since(t0);
  t0 = Clock::now();
  const auto err = pcs.verify(c.root, c.num_vars, c.num_polys, in.point, in.evals, proof, tv);
  r.verify_ms = ms_since(t0);
  if (err) {
    std::fprintf(stderr, "basefold verification failed: %s: %s\n", err->check.c_str(),
                 err->message.c_str());
    std::exit(1);
  }
  r.proof_bytes = proof.size();
  r.b = *pcs.breakdown(proof, c.num_vars, c.num_polys);
  return r;
}

struct LigeroTimes {
  double commit_ms = 0, open_ms = 0;
  std::size_t proof_bytes = 0;
};

LigeroTimes run_ligero(const pcs::LigeroPCS& lig, const Instance& in) {
  LigeroTimes r;
  const auto spans = in.spans();
  auto t0 = Clock::now();
  jolt::prover::CommitOutput c = lig.commit(spans);
  r.commit_ms = ms_since(t0);
  jolt::prover::Transcript tp("bench"), tv("bench");
  tp.absorb_bytes("commitment", c.commitment.bytes);
  tv.absorb_bytes("commitment", c.commitment.bytes);
  t0 = Clock::now();
  const auto proof = lig.open(*c.data, spans, in.point, in.evals, tp);
  r.open_ms = ms_since(t0);
  const auto err = lig.verify(c.commitment, in.point, in.evals, proof, tv);
  if (err) {
    std::fprintf(stderr, "ligero verification failed: %s: %s\n", err->check.c_str(),
                 err->message.c_str());
    std::exit(1);
  }
  r.proof_bytes = proof.size();
  return r;
}

std::vector<unsigned> parse_list(const char* s) {
  std::vector<unsigned> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(static_cast<unsigned>(std::stoul(item)));
  return v;
}
}  // namespace

int main(int argc, char** argv) {
  const std::vector<unsigned> sizes = parse_list(argc > 1 ? argv[1] : "16,18,20");
  const unsigned k = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 36;
  const unsigned reps = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 3;
  const unsigned compare_n = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 18;
  std::unique_ptr<tbb::global_control> limit;
  if (argc > 5)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  static_cast<std::size_t>(std::atoi(argv[5])));
  const bf::Basefold pcs;
  std::printf("%s\n", pcs.parameters().c_str());
  std::printf("%-4s %-4s %10s %10s %10s %11s %11s %11s %11s %11s %13s %10s %9s\n", "n", "k",
              "commit_ms", "open_ms", "verify_ms", "proof_B", "layer0_B", "cosets_B", "sibs_B",
              "sibs_noshare", "proof_noshare", "data_B/ent", "rss_MiB");
  for (unsigned n : sizes) {
    const Instance in = make_instance(n, k, n);
    std::vector<double> c, o, v;
    BasefoldTimes last;
    for (unsigned r = 0; r < reps; ++r) {
      last = run_basefold(pcs, in);
      c.push_back(last.commit_ms);
      o.push_back(last.open_ms);
      v.push_back(last.verify_ms);
    }
    const double entries = static_cast<double>(k) * static_cast<double>(std::size_t{1} << n);
    std::printf("%-4u %-4u %10.1f %10.1f %10.1f %11zu %11zu %11zu %11zu %11zu %13zu %10.1f %9.0f\n",
                n, k, median(c), median(o), median(v), last.proof_bytes, last.b.first_layer_values,
                last.b.coset_values, last.b.siblings, last.b.siblings_without_sharing,
                last.proof_bytes - last.b.siblings + last.b.siblings_without_sharing,
                static_cast<double>(last.data_bytes) / entries, peak_rss_mib());
    std::fflush(stdout);
  }

  if (compare_n != 0) {
    const Instance in = make_instance(compare_n, k, 1234);
    const pcs::LigeroPCS lig;
    std::vector<double> bc, bo, lc, lo;
    std::size_t bproof = 0, lproof = 0;
    for (unsigned r = 0; r < reps; ++r) {
      const BasefoldTimes b = run_basefold(pcs, in);
      const LigeroTimes l = run_ligero(lig, in);
      bc.push_back(b.commit_ms);
      bo.push_back(b.open_ms);
      lc.push_back(l.commit_ms);
      lo.push_back(l.open_ms);
      bproof = b.proof_bytes;
      lproof = l.proof_bytes;
    }
    std::vector<double> bt, lt;
    for (unsigned r = 0; r < reps; ++r) {
      bt.push_back(bc[r] + bo[r]);
      lt.push_back(lc[r] + lo[r]);
    }
    std::printf("\nside by side at 2^%u x %u, median of %u interleaved reps\n", compare_n, k, reps);
    std::printf("%-9s %10s %10s %14s %12s\n", "scheme", "commit_ms", "open_ms", "commit+open_ms",
                "proof_B");
    std::printf("%-9s %10.1f %10.1f %14.1f %12zu\n", "basefold", median(bc), median(bo), median(bt),
                bproof);
    std::printf("%-9s %10.1f %10.1f %14.1f %12zu\n", "ligero", median(lc), median(lo), median(lt),
                lproof);
    std::printf("basefold / ligero commit+open: %.2f\n", median(bt) / median(lt));

    // The first oracle: combine the k codewords (k·4·2^n mult-adds, then fold) versus combine
    // the tables (k·2^n) and encode the folded table (NTT of 2^(n+1)), as open() does.
    const std::size_t N = std::size_t{1} << compare_n, M = 4 * N;
    std::vector<Fr> cw(M), acc(M), f(N);
    const Fr g = Fr::from_u64(12345);
    auto t0 = Clock::now();
    for (unsigned i = 0; i < k; ++i)
      for (std::size_t x = 0; x < M; ++x) acc[x] += g * cw[x];
    const double codeword_ms = ms_since(t0);
    t0 = Clock::now();
    for (unsigned i = 0; i < k; ++i)
      for (std::size_t x = 0; x < N; ++x) f[x] += g * in.tables[i][x];
    std::vector<Fr> half(N / 2, Fr::one()), enc(2 * N);
    pcs::ReedSolomonCode(compare_n - 1, 2).encode(half, enc);
    const double table_ms = ms_since(t0);
    std::printf(
        "first oracle, one thread: combine codewords %.1f ms vs combine tables + encode "
        "%.1f ms\n",
        codeword_ms, table_ms);
  }
  return 0;
}
