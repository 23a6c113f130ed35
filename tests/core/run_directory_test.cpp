// Run directory naming, the per-trace lock, latest_ links and atomic writes.
#include <doctest/doctest.h>
#include <unistd.h>

#include <boost/filesystem.hpp>
#include <fstream>

#include "jolt/core/run_directory.hpp"

namespace fs = boost::filesystem;
using namespace jolt::core;

namespace {
struct TempDir {
  fs::path path = fs::temp_directory_path() / fs::unique_path("jolt-rundir-%%%%%%");
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

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
      CHECK(std::string(e.what()).find(
                "another profile run for modular_fibonacci_13 appears active") !=
            std::string::npos);
      CHECK(std::string(e.what()).find("delete the stale lock file") != std::string::npos);
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
