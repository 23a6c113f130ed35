// What the core tests share: a scratch folder for one test, removed with everything in it when
// the test ends, and reading a file whole.
#pragma once
#include <boost/filesystem.hpp>
#include <fstream>
#include <sstream>
#include <string>

namespace jolt::core::testing {

struct TempDir {
  boost::filesystem::path path = boost::filesystem::temp_directory_path() /
                                 boost::filesystem::unique_path("jolt-core-test-%%%%%%");
  TempDir() { boost::filesystem::create_directories(path); }
  ~TempDir() { boost::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

inline std::string slurp(const boost::filesystem::path& p) {
  std::ifstream in(p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace jolt::core::testing
