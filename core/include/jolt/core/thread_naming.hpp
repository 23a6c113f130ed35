// Names oneTBB worker threads "tbb-worker-N" in the trace as they join the scheduler.
//
//   jolt::core::TbbThreadNamer namer;   // keep alive for the run
//
// Construct on the main thread before the parallel work starts.
#pragma once
#include <atomic>

#include <tbb/task_scheduler_observer.h>

namespace jolt::core {

class TbbThreadNamer final : public tbb::task_scheduler_observer {
 public:
  TbbThreadNamer();
  ~TbbThreadNamer() override;
  void on_scheduler_entry(bool is_worker) override;

 private:
  std::atomic<int> next_{0};
};

}  // namespace jolt::core
