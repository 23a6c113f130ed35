// The SIGINT/SIGTERM watcher of `jolt-run profile` (see interrupt.hpp).
#include "commands/profile/interrupt.hpp"

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace jolt::core {
namespace {

struct State {
  std::recursive_mutex mutex;  // held by the main thread while sinks write and latest_ moves
  RunLock* lock = nullptr;
  const RunDirectory* run = nullptr;
  bool published = false;
  std::string published_path;          // the run last published, kept after its Armed scope ends
  std::atomic<bool> signalled{false};  // the watcher took a signal (set before it locks)
};

// Never destroyed: the detached watcher may still read it while the process exits.
State& state() {
  static State* s = new State;
  return *s;
}

void watch(sigset_t set) {
  int sig = 0;
  while (::sigwait(&set, &sig) != 0) {
  }
  State& s = state();
  s.signalled.store(true);
  std::fprintf(stderr, "\njolt-run profile: interrupted (%s)%s\n", ::strsignal(sig),
               s.mutex.try_lock() ? "" : "; waiting for the sinks to finish");
  std::lock_guard<std::recursive_mutex> g(s.mutex);  // recursive: try_lock may have taken it
  if (s.run && !s.published) {
    if (remove_unfinished_run(*s.run))
      std::fprintf(stderr, "jolt-run profile: removed the unfinished run directory %s\n",
                   s.run->path.c_str());
    else
      std::fprintf(stderr,
                   "jolt-run profile: could not remove the unfinished run directory %s (it is "
                   "marked with %s and no latest_ link names it)\n",
                   s.run->path.c_str(), kIncompleteMarker);
  } else if (!s.published_path.empty()) {
    std::fprintf(stderr,
                 "jolt-run profile: the run had already finished: %s is kept and its latest_ link "
                 "names it\n",
                 s.published_path.c_str());
  }
  if (s.lock) s.lock->release();
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(128 + sig);
}

}  // namespace

void InterruptWatcher::start() {
  static std::once_flag once;
  std::call_once(once, [] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    state();
    std::thread(watch, set).detach();
  });
}

std::recursive_mutex& InterruptWatcher::finishing() {
  return state().mutex;
}

InterruptWatcher::Armed::Armed(RunLock& lock, const RunDirectory& run) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> g(s.mutex);
  s.lock = &lock;
  s.run = &run;
  s.published = false;
  s.published_path.clear();
}

InterruptWatcher::Armed::~Armed() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> g(s.mutex);
  s.lock = nullptr;
  s.run = nullptr;
}

InterruptWatcher::Finishing::Finishing() {
  state().mutex.lock();
}

InterruptWatcher::Finishing::~Finishing() {
  State& s = state();
  s.mutex.unlock();
  if (!s.signalled.load()) return;
  for (;;) ::pause();  // the watcher holds the mutex next and ends the process
}

void InterruptWatcher::Armed::published() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> g(s.mutex);
  s.published = true;
  if (s.run) s.published_path = s.run->path;
}

}  // namespace jolt::core
