// What the end-to-end tests share (tests/e2e/ and tests/cpu_profile/pprof_e2e_test.cpp): run the
// real jolt-run binary (JOLT_RUN_EXE) or another command in a folder and capture its exit code and
// output, read a file, and a temporary workspace folder.
#pragma once
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <boost/filesystem.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = boost::filesystem;

namespace {

struct Result {
  int code = -1;
  std::string output;
};

// `command_line` run by the shell in cwd, stderr merged into the output.
inline Result run_shell(const std::string& command_line, const fs::path& cwd) {
  const std::string cmd = "cd '" + cwd.string() + "' && " + command_line + " 2>&1";
  Result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof(buf), p)) r.output.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `jolt-run args` in cwd; `env`: assignments put before the command, e.g. "MONITOR_INTERVAL=0.05".
inline Result run(const std::string& args, const fs::path& cwd, const std::string& env = "") {
  return run_shell(env + (env.empty() ? "" : " ") + "'" JOLT_RUN_EXE "' " + args, cwd);
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p.string(), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Workspace {
  fs::path dir = fs::temp_directory_path() / fs::unique_path("jolt-e2e-%%%%%%");
  Workspace() { fs::create_directories(dir); }
  ~Workspace() { fs::remove_all(dir); }
  fs::path runs() const { return dir / "benchmark-runs"; }
};

}  // namespace
