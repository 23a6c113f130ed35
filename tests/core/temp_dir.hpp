// A scratch folder for one test, removed with everything in it when the test ends.
#pragma once
#include <boost/filesystem.hpp>

namespace jolt::core::testing {

struct TempDir {
  boost::filesystem::path path = boost::filesystem::temp_directory_path() /
                                 boost::filesystem::unique_path("jolt-core-test-%%%%%%");
  TempDir() { boost::filesystem::create_directories(path); }
  ~TempDir() { boost::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace jolt::core::testing
