// Test support for the heap tests: load the built `folded` plugin, build a synthetic Profile
// with a root span, stage spans, a memory_gib counter and two heap snapshots, read files back.
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include <jolt/host/plugin_loader.hpp>
#include <jolt/plugin.hpp>
#include <jolt/profile.hpp>
#include <jolt/sink.hpp>

namespace heap_test {

// The built `folded` plugin through the host's plugin loader (ABI and kind checked); the library
// stays loaded for as long as the sink object lives.
class LoadedFoldedSink {
 public:
  LoadedFoldedSink()
      : plugin_(jolt::host::PluginLoader({JOLT_PLUGIN_BUILD_DIR}).load("folded", JOLT_PLUGIN_SINK)),
        sink_(plugin_.create<jolt::Sink>()) {}

  const jolt_plugin_descriptor& descriptor() const { return plugin_.descriptor(); }
  jolt::Status configure(const jolt::SinkOptions& options) { return sink_->configure(options); }
  jolt::Status write(const jolt::Profile& p) {
    return sink_->write(p, jolt::SinkContext{p.run.run_dir, p.run.out_dir});
  }

 private:
  jolt::host::LoadedPlugin plugin_;
  std::shared_ptr<jolt::Sink> sink_;
};

inline std::string fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(JOLT_HEAP_TEST_OUT) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline constexpr std::uint64_t kMs = 1'000'000;
inline constexpr std::uint64_t kGiB = 1ull << 30;

inline jolt::TraceEvent begin(const std::string& name, std::uint64_t ts) {
  return {jolt::Phase::kBegin, name, ts, {}};
}
inline jolt::TraceEvent end(const std::string& name, std::uint64_t ts) {
  return {jolt::Phase::kEnd, name, ts, {}};
}
inline jolt::TraceEvent snapshot_instant(const std::string& label, std::uint64_t ts) {
  return {jolt::Phase::kInstant, "heap_snapshot", ts, {jolt::Arg{"snapshot", label}}};
}

// Root 10..1210 ms on thread 1 with stages 0..3, snapshots after stage 1's and stage 2's
// prepare, and 3000 memory_gib samples (so the page must decimate) rising to ~3.1 GiB.
inline jolt::Profile synthetic_profile(const std::string& run_dir) {
  jolt::Profile p;
  p.run.workload = "fibonacci";
  p.run.scale_log2 = 13;
  p.run.backend = "reference";
  p.run.git_rev = "abc1234";
  p.run.trace_name = "modular_fibonacci_13";
  p.run.run_dir = run_dir;
  p.run.out_dir = std::filesystem::path(run_dir).parent_path().string();
  p.peak_rss_bytes = 3'400'000'000ull;
  p.prove_time_ns = 1200 * kMs;

  jolt::ThreadTrack main{1, "main", {}};
  main.events = {
      begin("jolt_prover::prove", 10 * kMs),  begin("prove_stage0", 10 * kMs),
      end("prove_stage0", 200 * kMs),         begin("prove_stage1", 200 * kMs),
      begin("Stage1Batch::prove", 210 * kMs), snapshot_instant("Stage1Batch_prepared", 260 * kMs),
      end("Stage1Batch::prove", 480 * kMs),   end("prove_stage1", 500 * kMs),
      begin("prove_stage2", 500 * kMs),       snapshot_instant("Stage2Batch_prepared", 560 * kMs),
      end("prove_stage2", 900 * kMs),         begin("prove_stage3", 900 * kMs),
      end("prove_stage3", 1150 * kMs),        end("jolt_prover::prove", 1210 * kMs)};
  jolt::ThreadTrack worker{
      2, "tbb-worker-0", {begin("sumcheck_round", 300 * kMs), end("sumcheck_round", 310 * kMs)}};
  p.threads = {main, worker};

  jolt::CounterTrack rss{"memory_gib", 3, {}};
  for (int i = 0; i < 3000; ++i) {
    const double t = i * 0.4;  // ms, 0..1200
    double gib = 0.2 + 0.0005 * t;
    if (t > 250 && t < 480) gib = 2.9 + 0.1 * (t > 300 && t < 310);
    if (t >= 480 && t < 550) gib = 1.3;
    if (t >= 550 && t < 880) gib = 2.2;
    rss.samples.push_back({static_cast<std::uint64_t>(t * kMs), gib});
  }
  p.counters = {rss};

  p.heap = {
      {"Stage1Batch_prepared",
       {{"SpartanOuter;az_table", 768ull << 20},
        {"SpartanOuter;bz_table", 768ull << 20},
        {"SpartanOuter;eq_evals", 256ull << 20},
        {"ProofSession;carries;RamInc", 96ull << 20},
        {"LigeroCommitment;row_hints", (200ull << 20) + 7},
        {"Witness;columns", 96ull << 20},
        {"BasefoldCommitment;merkle_tree", 8ull << 20}},
       1,
       260 * kMs},  // each record carries its instant's thread and timestamp
      {"Stage2Batch_prepared",
       {{"RamReadWriteChecking;ra", 1200ull << 20},
        {"RamReadWriteChecking;val;inner", 300ull << 20},
        {"ProductRemainder;left", 150ull << 20},
        {"InstructionClaimReduction;eq", 123'456'789},
        {"SpartanProduct;tau", 64ull << 20},
        {"ProofSession;carries;SpartanShift", 32ull << 20 | 5},
        {"Witness;columns", 96ull << 20},
        {"BasefoldCommitment;merkle_tree", 8ull << 20}},
       1,
       560 * kMs},
  };
  return p;
}

// Per-root byte totals of a folded file, by the format's rules ("stack BYTES", root = first
// frame).
inline std::map<std::string, std::uint64_t> roots_of_folded(const std::string& text) {
  std::map<std::string, std::uint64_t> roots;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto space = line.rfind(' ');
    if (space == std::string::npos) throw std::runtime_error("bad folded line: " + line);
    const std::string stack = line.substr(0, space);
    roots[stack.substr(0, stack.find(';'))] += std::stoull(line.substr(space + 1));
  }
  return roots;
}

}  // namespace heap_test
