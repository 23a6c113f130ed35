// Ligero PCS benchmark: for 2^16..2^20 total evaluations (one polynomial, and a batch of 4),
// prints commit, open and verify wall time and the encoded proof size. Not a test.
//   pcs_bench [max_log_total=20] [extra_log_cols=0] [threads]
#include <tbb/global_control.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <random>
#include <vector>

#include <jolt/prover/pcs/ligero.hpp>
#include <jolt/prover/transcript/transcript.hpp>

using jolt::prover::Fr;
using namespace jolt::prover::pcs;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
// Process CPU seconds (all threads): steadier than wall time on a shared machine.
double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}
}  // namespace

int main(int argc, char** argv) {
  const unsigned max_log = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 20;
  std::unique_ptr<tbb::global_control> limit;
  LigeroParams params;
  if (argc > 2) params.extra_log_cols = static_cast<unsigned>(std::atoi(argv[2]));
  if (argc > 3)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  static_cast<std::size_t>(std::atoi(argv[3])));
  const LigeroPCS pcs(params);
  std::printf("Ligero over BN254 Fr, rate 1/4, q = %u queries (%u-bit), extra_log_cols = %u\n",
              pcs.params().num_queries(), pcs.params().security_bits, params.extra_log_cols);
  std::printf("%-8s %-6s %-5s %-12s %10s %10s %10s %10s %10s %12s\n", "total", "n", "k",
              "rows x cols", "commit_ms", "commit_cpu", "open_ms", "open_cpu", "verify_ms",
              "proof_bytes");
  std::mt19937_64 rng(1);
  for (unsigned log_total = 16; log_total <= max_log; ++log_total) {
    for (unsigned log_k : {0u, 2u}) {
      const unsigned n = log_total - log_k, k = 1u << log_k;
      std::vector<std::vector<Fr>> tables(k, std::vector<Fr>(std::size_t{1} << n));
      for (auto& t : tables)
        for (auto& x : t) x = Fr::from_u64(rng());
      std::vector<std::span<const Fr>> spans(tables.begin(), tables.end());
      std::vector<Fr> point(n);
      for (auto& x : point) x = Fr::from_u64(rng());
      // Claimed evaluations by folding (not timed).
      std::vector<Fr> evals;
      for (const auto& t : tables) {
        std::vector<Fr> f = t;
        for (const Fr& r : point) {
          const std::size_t half = f.size() / 2;  // point[0] is the MSB (scheme.hpp)
          for (std::size_t y = 0; y < half; ++y) f[y] += r * (f[y + half] - f[y]);
          f.resize(f.size() / 2);
        }
        evals.push_back(f[0]);
      }
      auto t0 = std::chrono::steady_clock::now();
      double c0 = cpu_seconds();
      jolt::prover::CommitOutput com = pcs.commit(spans);
      const double commit_s = seconds_since(t0), commit_cpu = cpu_seconds() - c0;
      jolt::prover::Transcript tp("pcs-bench"), tv("pcs-bench");
      t0 = std::chrono::steady_clock::now();
      c0 = cpu_seconds();
      const std::vector<std::uint8_t> proof = pcs.open(*com.data, spans, point, evals, tp);
      const double open_s = seconds_since(t0), open_cpu = cpu_seconds() - c0;
      t0 = std::chrono::steady_clock::now();
      const auto err = pcs.verify(com.commitment, point, evals, proof, tv);
      const double verify_s = seconds_since(t0);
      if (err) {
        std::fprintf(stderr, "verification failed at %s: %s\n", err->check.c_str(),
                     err->message.c_str());
        return 1;
      }
      const auto shape = LigeroShape::make(n, k, pcs.params());
      char geom[64];
      std::snprintf(geom, sizeof geom, "%zux%zu", shape.rows(), shape.cols());
      std::printf("2^%-6u %-6u %-5u %-12s %10.1f %10.1f %10.1f %10.1f %10.1f %12zu\n", log_total, n,
                  k, geom, commit_s * 1e3, commit_cpu * 1e3, open_s * 1e3, open_cpu * 1e3,
                  verify_s * 1e3, proof.size());
    }
  }
  return 0;
}
