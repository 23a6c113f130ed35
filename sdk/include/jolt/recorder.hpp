// Recording sessions: the host (jolt-run) starts one around the measured run and collects the
// per-thread buffers into a Profile afterwards.
//
// clang-format off
//   jolt::RecordingSession::start({.heap_snapshots = false});
//   run_the_prover();                                   // spans, instants, counters, any thread
//   jolt::Profile p = jolt::RecordingSession::stop();   // once no instrumented code runs
// clang-format on
//
// stop() returns what was recorded: threads, counters, stage RSS rows and heap snapshots; the
// host adds what only it knows (RunInfo, prove time, proof size, ...) to that Profile.
//
// start/stop are not thread-safe with respect to each other; call them from one thread, and
// call stop only when no other thread is inside an instrumented scope (the monitor is stopped
// first, the prover has returned).
#pragma once
#include <jolt/profile.hpp>

namespace jolt {

struct RecordingOptions {
  bool heap_snapshots = false;  // kernels visit their memory at each batch's prepare
};

class RecordingSession {
 public:
  static void start(const RecordingOptions& options);
  static Profile stop();
  static bool active() noexcept;
  // Since ABI 4.1. With heap snapshots on, also ask for snapshots at the start and end of the
  // prover's stages 2-7 (`Stage3_start`, `Stage3_end`: the legacy lane's flame charts), besides
  // the per-batch ones. Call after start(); stop() turns it off. No effect without heap_snapshots.
  // A separate call rather than a RecordingOptions field: a caller built against 4.0 passes the
  // 4.0 struct, which start() must keep reading as it is.
  static void want_stage_boundary_heap_snapshots(bool on) noexcept;
};

}  // namespace jolt
