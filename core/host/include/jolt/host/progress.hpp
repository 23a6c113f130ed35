// The progress line of a long proof: which stage runs, how long the proof has taken, and — when
// an earlier run of the same workload and scale left a summary.json — how long it should still
// take by that run's stage times.
//
//   ProveProgress progress(ProveProgress::mode_for(quiet), previous_stage_times);
//   options.on_stage = [&](std::size_t k, std::string_view label) { progress.stage(k, label); };
//   ... prove ...
//   progress.finish();
//
// On a terminal (stderr is a tty) one line is redrawn in place, once a second and at each stage:
//   "proving: stage 4/10 prove_stage3   12.3 s elapsed, ~41 s left"
// Otherwise each stage start is one plain log line (spdlog info), so logs and CI output show the
// stages without control characters. kOff (--quiet) prints nothing. Thread-safe: stage() is
// called by the prover's thread, the redraw runs on a thread of its own.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace jolt::host {

class ProveProgress {
 public:
  enum class Mode { kTerminal, kLines, kOff };
  // kOff when quiet, kTerminal when stderr is a terminal, kLines otherwise.
  static Mode mode_for(bool quiet);

  // previous_stage_ns: an earlier run's wall time per stage, in stage order (empty: no ETA).
  ProveProgress(Mode mode, std::size_t num_stages, std::vector<std::uint64_t> previous_stage_ns);
  ~ProveProgress();
  ProveProgress(const ProveProgress&) = delete;
  ProveProgress& operator=(const ProveProgress&) = delete;

  void stage(std::size_t index, std::string_view label);
  // Clears the terminal line (or does nothing); the destructor calls it.
  void finish();

  // The line's text at `elapsed` into the proof, stage `index` started `in_stage` ago (for tests).
  std::string line(std::size_t index, std::string_view label, std::chrono::nanoseconds elapsed,
                   std::chrono::nanoseconds in_stage) const;

 private:
  void redraw_locked();
  void ticker();

  Mode mode_;
  std::size_t num_stages_;
  std::vector<std::uint64_t> previous_ns_;
  std::chrono::steady_clock::time_point start_, stage_start_;
  std::size_t index_ = 0;
  std::string label_;
  bool started_ = false, done_ = false;
  std::size_t last_width_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace jolt::host
