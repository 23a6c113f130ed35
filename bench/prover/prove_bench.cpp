// Prove/verify benchmark: prints prove time, verify time and proof size per trace size for a
// hand-assembled loop program (see tests/prover/mini_trace.hpp).
//   prove_bench [max_log_t=14] [pcs=basefold|ligero|reveal (default: default_pcs_kind())] [detail]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <jolt/prover/pipeline/proof.hpp>
#include <jolt/prover/poly/multilinear.hpp>
#include <jolt/recorder.hpp>
#include <jolt/spans.hpp>
#include <map>
#include <string>
#include <vector>

#include "mini_trace.hpp"

using Clock = std::chrono::steady_clock;
using namespace jolt::prover;

int main(int argc, char** argv) {
  const int max_log = argc > 1 ? std::atoi(argv[1]) : 14;
  ProverOptions opt;
  if (argc > 2) {
    const auto kind = parse_pcs_kind(argv[2]);
    if (!kind) {
      std::fprintf(stderr,
                   "prove_bench: unknown commitment scheme '%s' (basefold, ligero or reveal)\n",
                   argv[2]);
      return 2;
    }
    opt.pcs = *kind;
  }
  const bool detail = argc > 3 && std::strcmp(argv[3], "detail") == 0;
  std::printf("%-6s %-8s %12s %12s %12s\n", "log_T", "cycles", "prove_ms", "verify_ms",
              "proof_bytes");
  for (int log_t = 8; log_t <= max_log; log_t += 2) {
    const std::size_t target = (std::size_t{1} << log_t) - 1;
    const auto iters = static_cast<std::int32_t>((target - 12) / 10);
    auto tr = testutil::sample_trace(iters);
    jolt::RecordingSession::start({});
    auto t0 = Clock::now();
    auto proof = prove(tr.statement, tr.rows, opt);
    auto t1 = Clock::now();
    jolt::Profile prof = jolt::RecordingSession::stop();
    // Inclusive time per label (stage and batch breakdown), spans as the SDK replays them.
    std::map<std::string, double> incl;
    for (const jolt::ReplayedSpan& s : jolt::replay_spans(prof).spans)
      incl[std::string(s.name)] += static_cast<double>(s.duration_ns) / 1e6;
    auto v = verify(tr.statement, proof, VerifierConfig{opt.pcs});
    auto t2 = Clock::now();
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::printf("%-6zu %-8llu %12.1f %12.1f %12zu %s\n", log2_exact(tr.rows.size()),
                static_cast<unsigned long long>(tr.statement.trace_length), ms(t1 - t0),
                ms(t2 - t1), proof.size(), v ? v->check.c_str() : "ok");
    if (detail) {
      for (const char* l :
           {"prove_stage0", "commit_witness", "prove_stage1", "SpartanOuter::prepare",
            "prove_stage2", "prove_stage3", "prove_stage6a", "prove_stage7", "prove_stage8"})
        std::printf("    %-24s %10.1f ms\n", l, incl[l]);
      Proof d;
      if (!decode_proof(proof, d))
        std::printf("    %-24s %10zu B\n    %-24s %10zu B\n", "proof: PCS opening",
                    d.pcs_opening.size(), "proof: everything else",
                    proof.size() - d.pcs_opening.size());
    }
  }
  return 0;
}
