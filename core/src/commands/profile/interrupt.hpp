// SIGINT/SIGTERM for `jolt-run profile`: a watcher thread takes the signal (it is blocked in every
// other thread), says "interrupted", removes the unfinished run directory, releases the run lock
// and ends the process with 128 + signal (130 for SIGINT, 143 for SIGTERM). The sinks and the
// latest_ switch run under finishing(): a signal that arrives then waits for them, so a run
// directory is either published whole or removed.
//
//   InterruptWatcher::start();                 // first thing, before any thread exists
//   RunLock lock(...); RunDirectory run = ...;
//   InterruptWatcher::Armed armed(lock, run);  // from here a signal removes `run`
//   { InterruptWatcher::Finishing f; sinks...; publish_latest(...); armed.published(); }
#pragma once
#include <atomic>
#include <mutex>

#include "jolt/core/run_directory.hpp"

namespace jolt::core {

class InterruptWatcher {
 public:
  // Blocks SIGINT and SIGTERM in the calling thread (threads started later inherit the mask)
  // and starts the watcher thread. Idempotent.
  static void start();
  static std::recursive_mutex& finishing();

  class Armed {
   public:
    Armed(RunLock& lock, const RunDirectory& run);
    ~Armed();
    Armed(const Armed&) = delete;
    Armed& operator=(const Armed&) = delete;
    void published();  // the run is finished: a later signal keeps its directory
  };

  // Holds finishing() for a scope. A signal that arrived while it was held is the watcher's to
  // finish: on leaving the scope (returning or throwing) the calling thread waits for the watcher,
  // which ends the process with 128 + signal, instead of racing it to exit with its own status.
  class Finishing {
   public:
    Finishing();
    ~Finishing();
    Finishing(const Finishing&) = delete;
    Finishing& operator=(const Finishing&) = delete;
  };
};

}  // namespace jolt::core
