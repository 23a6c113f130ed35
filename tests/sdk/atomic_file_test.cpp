// jolt::write_file_atomically / AtomicOutputFile: whole-file replacement, no temp file left,
// failures named by path.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <jolt/atomic_file.hpp>

namespace fs = std::filesystem;

namespace {
std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(JOLT_SDK_TEST_OUT) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}
std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("atomic writes replace the file whole and leave no temp file") {
  const std::string dir = fresh_dir("replace");
  const std::string path = dir + "/f.txt";
  REQUIRE(jolt::write_file_atomically(path, "first, longer content"));
  REQUIRE(jolt::write_file_atomically(path, std::string_view("two\0bytes", 9)));
  CHECK(read(path) == std::string("two\0bytes", 9));
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  CHECK(files == 1);
}

TEST_CASE("a missing folder is an error naming the target, not an exception") {
  const std::string path = fresh_dir("missing") + "/no/such/dir/f";
  const jolt::Status st = jolt::write_file_atomically(path, "x");
  CHECK_FALSE(st.ok);
  CHECK(st.message.find(path) != std::string::npos);
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("an uncommitted stream leaves the old file and removes its temp file") {
  const std::string dir = fresh_dir("uncommitted");
  const std::string path = dir + "/trace.json";
  REQUIRE(jolt::write_file_atomically(path, "old"));
  {
    jolt::AtomicOutputFile out(path);
    REQUIRE(out.open());
    std::fputs("half-written", out.stream());
  }  // destroyed without commit
  CHECK(read(path) == "old");
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  CHECK(files == 1);
  jolt::AtomicOutputFile out(path);
  REQUIRE(out.open());
  std::fputs("new", out.stream());
  REQUIRE(out.commit());
  CHECK(read(path) == "new");
}
