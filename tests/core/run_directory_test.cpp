// Run directory naming, the per-trace lock, latest_ links and atomic writes.
#include <doctest/doctest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

#include <boost/filesystem.hpp>
#include <fstream>
#include <memory>
#include <set>
#include <thread>
#include <vector>

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

namespace {
std::string read_all(const fs::path& p) {
  std::ifstream in(p.string(), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_all(const fs::path& p, const std::string& s) {
  std::ofstream(p.string(), std::ios::binary) << s;
}
}  // namespace

TEST_CASE("the legacy timestamp is local YYYYmmdd-HHMM") {
  const std::string saved = std::getenv("TZ") ? std::getenv("TZ") : "";
  const bool had_tz = std::getenv("TZ") != nullptr;
  ::setenv("TZ", "UTC", 1);
  ::tzset();
  CHECK(local_minute_timestamp(1785542400 + 59) == "20260801-0000");
  ::setenv("TZ", "JST-9", 1);  // nine hours east of UTC, no daylight saving
  ::tzset();
  CHECK(local_minute_timestamp(1785542400 + 60) == "20260801-0901");
  if (had_tz)
    ::setenv("TZ", saved.c_str(), 1);
  else
    ::unsetenv("TZ");
  ::tzset();
}

TEST_CASE("publish_new_file never replaces a file: the first free name, _2, _3, ...") {
  TempDir t;
  const std::string dir = t.path.string();
  write_all(t.path / "fib_20260801-0000.json", "earlier run");
  write_all(t.path / "fib_20260801-0000_2.json", "earlier run 2");
  write_all(t.path / ".staged", "this run");
  const PublishedFile f = publish_new_file(dir + "/.staged", dir, "fib_20260801-0000", ".json");
  CHECK(f.stem == "fib_20260801-0000_3");
  CHECK(f.path == dir + "/fib_20260801-0000_3.json");
  CHECK(read_all(f.path) == "this run");
  CHECK(read_all(t.path / "fib_20260801-0000.json") == "earlier run");
  CHECK(read_all(t.path / "fib_20260801-0000_2.json") == "earlier run 2");
  CHECK_FALSE(fs::exists(t.path / ".staged"));  // no staging file left behind

  // A free base name is used as it is; also_taken skips a stem (e.g. its folder exists).
  write_all(t.path / ".staged", "other");
  CHECK(publish_new_file(dir + "/.staged", dir, "sha3_x", ".json").stem == "sha3_x");
  write_all(t.path / ".staged", "third");
  const PublishedFile g = publish_new_file(dir + "/.staged", dir, "sha3_y", ".json",
                                           [](const std::string& s) { return s == "sha3_y"; });
  CHECK(g.stem == "sha3_y_2");
  CHECK_FALSE(fs::exists(t.path / "sha3_y.json"));
}

TEST_CASE("publish_new_file: concurrent publishers of one name all get their own file") {
  TempDir t;
  const std::string dir = t.path.string();
  constexpr int kWriters = 8;
  std::vector<PublishedFile> out(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    const std::string staged = dir + "/.staged" + std::to_string(i);
    write_all(staged, "writer " + std::to_string(i));
    threads.emplace_back(
        [&, i, staged] { out[i] = publish_new_file(staged, dir, "fib_20260801-0000", ".json"); });
  }
  for (auto& th : threads) th.join();
  std::set<std::string> paths;
  for (int i = 0; i < kWriters; ++i) {
    paths.insert(out[i].path);
    CHECK(read_all(out[i].path) == "writer " + std::to_string(i));  // its own content
  }
  CHECK(paths.size() == kWriters);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(t.path)) {
    ++files;
    CHECK(e.path().extension() == ".json");  // no staging file left
  }
  CHECK(files == kWriters);
}

TEST_CASE("publish_new_file names the folder it cannot write and removes the staged file") {
  TempDir t;
  const std::string staged = (t.path / ".staged").string();
  write_all(staged, "x");
  try {
    publish_new_file(staged, (t.path / "missing").string(), "fib", ".json");
    FAIL("publishing into a missing folder should throw");
  } catch (const RunError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("missing/fib.json") != std::string::npos);
    CHECK(msg.find("No such file or directory") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(staged));
}
