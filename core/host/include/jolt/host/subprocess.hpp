// Child processes for the sweep-style commands (benchmark, overhead, measure-objectives): find
// the jolt-run executable, spawn it with an argument vector, wait for it, optionally capture its
// stdout while echoing it.
//
//   auto r = jolt::host::run_process({self_executable(), "profile", "--workload", "fibonacci"});
//   if (!r.ok()) std::cerr << "failed: " << r.describe() << "\n";
//
// Not thread-safe (one child at a time per caller); no shell is involved, so arguments are
// passed verbatim.
#pragma once
#include <string>
#include <vector>

namespace jolt::host {

// Where the child's stdout goes.
enum class ChildStdout {
  kInherit,    // same as ours
  kToStderr,   // our stderr (keeps our stdout clean, e.g. for --json)
  kTeeCapture  // echoed to our stdout and captured into ProcessResult::captured_stdout
};

struct ProcessResult {
  bool spawned = false;
  int exit_code = -1;   // valid when exited normally
  int term_signal = 0;  // non-zero when killed by a signal
  std::string spawn_error;
  std::string captured_stdout;
  bool ok() const { return spawned && term_signal == 0 && exit_code == 0; }
  // "exit status 1", "killed by signal 9", "spawn failed: No such file or directory".
  std::string describe() const;
};

// The child's environment is ours plus JOLT_RUN_PARENT_PID=<our pid>.
ProcessResult run_process(const std::vector<std::string>& argv,
                          ChildStdout out = ChildStdout::kInherit);

// In a process run_process started (JOLT_RUN_PARENT_PID is set): the kernel sends it SIGTERM when
// its parent dies — a sweep killed with SIGKILL leaves no child running on, holding its run's
// lock — and it sends itself SIGTERM now if the parent is already gone. Call first thing in
// main(); without the variable it does nothing.
void end_with_parent();

// From now on SIGINT and SIGTERM do not end this process: they are recorded (see
// pending_interrupt) and passed on to the child that run_process is waiting for, so the child
// stops and cleans up, and the caller decides what to do next. Children start with the default
// signal mask and dispositions.
void forward_interrupts_to_children();
// The SIGINT/SIGTERM received since forward_interrupts_to_children(), or 0.
int pending_interrupt();

// Absolute path of the running executable (/proc/self/exe).
std::string self_executable();

// The argument vector as one shell-quoted line, for messages a user can paste.
std::string command_line(const std::vector<std::string>& argv);

// "1m02s", "12.3s", "1h05m".
std::string format_duration(double seconds);

}  // namespace jolt::host
