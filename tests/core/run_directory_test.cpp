// Run directory naming, the per-trace lock, latest_ links and atomic writes.
#include <doctest/doctest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

#include <boost/filesystem.hpp>
#include <fstream>
#include <memory>

#include "jolt/core/run_directory.hpp"
#include "temp_dir.hpp"

namespace fs = boost::filesystem;
using namespace jolt::core;
using jolt::core::testing::TempDir;

TEST_CASE("trace names map hyphens and carry the scale") {
  CHECK(trace_name_for("sha2-chain", 22) == "modular_sha2_chain_22");
  CHECK(trace_name_for("fibonacci", 16) == "modular_fibonacci_16");
  CHECK(utc_timestamp(0) == "19700101-000000");
  CHECK(utc_timestamp(1785542400) == "20260801-000000");
}

TEST_CASE("a second run of the same trace is refused while the lock is held") {
  TempDir t;
  {
    RunLock lock(t.path.string(), "modular_fibonacci_13");
    CHECK(fs::exists(lock.path()));
    try {
      RunLock second(t.path.string(), "modular_fibonacci_13");
      FAIL("second lock should throw");
    } catch (const RunError& e) {
      const std::string msg = e.what();
      CHECK(msg.find("another profile run for modular_fibonacci_13 is active") !=
            std::string::npos);
      CHECK(msg.find("by pid " + std::to_string(::getpid())) != std::string::npos);
    }
    RunLock other(t.path.string(), "modular_fibonacci_14");  // a different trace is fine
  }
  CHECK_FALSE(fs::exists(t.path / "modular_fibonacci_13.lock"));
}

TEST_CASE("run directories are never reused and latest_ is a relative link moved atomically") {
  TempDir t;
  auto a = create_run_directory(t.path.string(), "modular_x_10");
  auto b = create_run_directory(t.path.string(), "modular_x_10");
  CHECK(a.name != b.name);
  CHECK(a.name.size() == 15 + std::string("_modular_x_10").size());
  CHECK(a.name[8] == '-');
  publish_latest(t.path.string(), "modular_x_10", a);
  fs::path link = t.path / "latest_modular_x_10";
  CHECK(fs::read_symlink(link).string() == a.name);
  publish_latest(t.path.string(), "modular_x_10", b);
  CHECK(fs::read_symlink(link).string() == b.name);
  CHECK(fs::exists(a.path));  // the earlier run stays
}

TEST_CASE("a lock file left by a dead run never blocks, and is removed by the next run") {
  TempDir t;
  const fs::path lock_file = t.path / "modular_fibonacci_13.lock";
  std::ofstream(lock_file.string()) << "999999\n";  // what a killed run leaves behind
  {
    RunLock lock(t.path.string(), "modular_fibonacci_13");
    std::ifstream in(lock_file.string());
    std::string pid;
    in >> pid;
    CHECK(pid == std::to_string(::getpid()));
  }
  CHECK_FALSE(fs::exists(lock_file));
}

TEST_CASE("a lock held by a process that is killed with SIGKILL is free afterwards") {
  TempDir t;
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    try {
      RunLock lock(t.path.string(), "modular_fibonacci_13");
      [[maybe_unused]] auto n = ::write(ready[1], "k", 1);
      ::pause();
    } catch (...) {
    }
    ::_exit(3);
  }
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  CHECK_THROWS_AS(RunLock(t.path.string(), "modular_fibonacci_13"), RunError);  // live holder
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(fs::exists(t.path / "modular_fibonacci_13.lock"));  // the file stays behind...
  RunLock lock(t.path.string(), "modular_fibonacci_13");    // ...and does not block
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST_CASE("a run never deletes a lock file it does not hold") {
  TempDir t;
  const fs::path lock_file = t.path / "modular_fibonacci_13.lock";
  auto first = std::make_unique<RunLock>(t.path.string(), "modular_fibonacci_13");
  fs::remove(lock_file);  // a user deletes the "stale" lock while the first run is alive
  RunLock second(t.path.string(), "modular_fibonacci_13");
  first.reset();  // the first run exits
  REQUIRE(fs::exists(lock_file));
  // The file is still held by the second run: a third run is refused.
  CHECK_THROWS_AS(RunLock(t.path.string(), "modular_fibonacci_13"), RunError);
}

TEST_CASE("an unwritable output folder is reported as such, not as a lock problem") {
  TempDir t;
  const fs::path ro = t.path / "read-only";
  fs::create_directories(ro);
  REQUIRE(::chmod(ro.c_str(), 0555) == 0);
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // root ignores permission bits: drop to an unprivileged user first.
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(4);
    std::string msg = "no error";
    try {
      RunLock lock(ro.string(), "modular_fibonacci_13");
    } catch (const RunError& e) {
      msg = e.what();
    }
    try {
      create_run_directory(ro.string(), "modular_fibonacci_13");
      msg += "|no error";
    } catch (const RunError& e) {
      msg += std::string("|") + e.what();
    }
    [[maybe_unused]] auto n = ::write(out[1], msg.data(), msg.size());
    ::_exit(0);
  }
  ::close(out[1]);
  std::string msg;
  char buf[512];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof(buf))) > 0;) msg.append(buf, n);
  ::close(out[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const std::string lock_msg = msg.substr(0, msg.find('|'));
  const std::string dir_msg = msg.substr(msg.find('|') + 1);
  for (const std::string& m : {lock_msg, dir_msg}) {
    INFO(m);
    CHECK(m.find("output folder '" + ro.string() + "' is not writable") != std::string::npos);
    CHECK(m.find(std::strerror(EACCES)) != std::string::npos);
    CHECK(m.find("lock") == std::string::npos);
  }
  ::chmod(ro.c_str(), 0755);
}

TEST_CASE("a new run directory is marked incomplete until it is published") {
  TempDir t;
  auto run = create_run_directory(t.path.string(), "modular_x_10");
  CHECK(fs::exists(fs::path(run.path) / kIncompleteMarker));
  publish_latest(t.path.string(), "modular_x_10", run);
  CHECK_FALSE(fs::exists(fs::path(run.path) / kIncompleteMarker));
  auto other = create_run_directory(t.path.string(), "modular_x_10");
  std::ofstream((fs::path(other.path) / "trace.json").string()) << "[]";
  CHECK(remove_unfinished_run(other));
  CHECK_FALSE(fs::exists(other.path));
  CHECK(fs::exists(run.path));
}
