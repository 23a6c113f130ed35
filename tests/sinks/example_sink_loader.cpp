// Loads an out-of-tree sink (argv[1]) built against the installed SDK, runs it on the reference
// fixture into argv[2], and checks the Markdown report it writes. Exit 0 on success.
#include <cstdio>
#include <exception>
#include <string>

#include "fixture_profile.hpp"
#include "sink_test_support.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: example_sink_loader LIB.so RUN_DIR\n");
    return 2;
  }
  try {
    sink_test::LoadedSink loaded(argv[1]);
    if (std::string(loaded.descriptor().name) != "markdown-top-spans") {
      std::fprintf(stderr, "unexpected plugin name %s\n", loaded.descriptor().name);
      return 1;
    }
    const jolt::Status st =
        loaded.sink().write(jolt::testing::fixture_profile(), {argv[2], argv[2]});
    if (!st.ok) {
      std::fprintf(stderr, "write failed: %s\n", st.message.c_str());
      return 1;
    }
    const std::string md = sink_test::read_file(std::string(argv[2]) + "/top_spans.md");
    // Fixture self times: commit_witness 500 µs is the largest; root's self (dark) 600 µs.
    const std::size_t root = md.find("| 1 | `jolt_prover::prove` | 1 | 0.600 | 2.500 |");
    const std::size_t commit = md.find("| 2 | `commit_witness` | 1 | 0.500 | 0.500 |");
    if (root == std::string::npos || commit == std::string::npos) {
      std::fprintf(stderr, "unexpected report:\n%s\n", md.c_str());
      return 1;
    }
    std::printf("%s", md.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "example_sink_loader: %s\n", e.what());
    return 1;
  }
}
