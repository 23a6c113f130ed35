// posix_spawn-based child processes for benchmark / overhead / measure-objectives.
#include "jolt/host/subprocess.hpp"

#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace jolt::host {

namespace {
constexpr const char* kParentPidVariable = "JOLT_RUN_PARENT_PID";

volatile std::sig_atomic_t g_child_pid = 0;  // the child run_process waits for, or 0
volatile std::sig_atomic_t g_interrupt = 0;

void on_interrupt(int sig) {
  g_interrupt = sig;
  const pid_t child = static_cast<pid_t>(g_child_pid);
  if (child > 0) ::kill(child, sig);  // async-signal-safe
}
}  // namespace

void end_with_parent() {
  const char* value = std::getenv(kParentPidVariable);
  if (!value) return;
  char* end = nullptr;
  const long parent = std::strtol(value, &end, 10);
  if (end == value || *end != '\0' || parent <= 1) return;
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  // The parent may have died before the call: this process was then handed to init (or a
  // subreaper), and no death signal will come.
  if (::getppid() != static_cast<pid_t>(parent) && ::getppid() == 1) ::raise(SIGTERM);
}

void forward_interrupts_to_children() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking reads return EINTR and are retried by the caller
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

int pending_interrupt() {
  return static_cast<int>(g_interrupt);
}

std::string ProcessResult::describe() const {
  if (!spawned) return "spawn failed: " + spawn_error;
  if (term_signal != 0)
    return "killed by signal " + std::to_string(term_signal) + " (" + strsignal(term_signal) + ")";
  return "exit status " + std::to_string(exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, ChildStdout out) {
  ProcessResult result;
  if (argv.empty()) {
    result.spawn_error = "empty command";
    return result;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  int pipe_fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (out == ChildStdout::kToStderr) {
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  } else if (out == ChildStdout::kTeeCapture) {
    if (::pipe(pipe_fds) != 0) {
      result.spawn_error = std::string("pipe: ") + std::strerror(errno);
      posix_spawn_file_actions_destroy(&actions);
      return result;
    }
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  // The child starts with SIGINT/SIGTERM at their defaults and unblocked, whatever ours are.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  // Our environment, with JOLT_RUN_PARENT_PID naming us (end_with_parent in the child).
  const std::string parent_entry =
      std::string(kParentPidVariable) + "=" + std::to_string(::getpid());
  std::vector<char*> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, kParentPidVariable, std::strlen(kParentPidVariable)) != 0 ||
        (*e)[std::strlen(kParentPidVariable)] != '=')
      env.push_back(*e);
  env.push_back(const_cast<char*>(parent_entry.c_str()));
  env.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc == 0) {
    g_child_pid = pid;
    // A signal that arrived while we were spawning did not reach the child yet.
    if (g_interrupt != 0) ::kill(pid, g_interrupt);
  }
  if (pipe_fds[1] >= 0) ::close(pipe_fds[1]);
  if (rc != 0) {
    if (pipe_fds[0] >= 0) ::close(pipe_fds[0]);
    result.spawn_error = std::strerror(rc);
    return result;
  }
  result.spawned = true;
  if (pipe_fds[0] >= 0) {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(pipe_fds[0], buf, sizeof(buf));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      result.captured_stdout.append(buf, static_cast<std::size_t>(n));
      std::fwrite(buf, 1, static_cast<std::size_t>(n), stdout);
      std::fflush(stdout);
    }
    ::close(pipe_fds[0]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.spawn_error = std::string("waitpid: ") + std::strerror(errno);
      result.spawned = false;
      g_child_pid = 0;
      return result;
    }
  }
  g_child_pid = 0;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return result;
}

std::string self_executable() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0)
    throw std::runtime_error(std::string("readlink /proc/self/exe: ") + std::strerror(errno));
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& a : argv) {
    if (!line.empty()) line += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos;
    if (plain) {
      line += a;
    } else {
      line += '\'';
      for (char c : a) line += (c == '\'') ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
  }
  return line;
}

std::string format_duration(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  char buf[32];
  if (seconds < 60) {
    std::snprintf(buf, sizeof(buf), "%.1fs", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(buf, sizeof(buf), "%ldm%02lds", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(buf, sizeof(buf), "%ldh%02ldm", m / 60, m % 60);
  }
  return buf;
}

}  // namespace jolt::host
