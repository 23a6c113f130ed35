// Test helper: a gzip-compressed pprof file decoded by `protoc --decode` against
// tests/cpu_profile/profile.proto, and the few facts the tests check, read from protoc's text
// output (so the encoding is checked by protoc, not by a decoder of ours).
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace jolt::cpu_profile::testing {

struct DecodedProfile {
  int exit_code = -1;              // of `gzip -dc FILE | protoc --decode ...` (pipefail)
  std::string text;                // protoc's text format output (and its errors)
  std::uint64_t sample_count = 0;  // sum of each Sample's first value (samples/count)
  std::uint64_t samples = 0;       // Sample messages
  std::uint64_t duration_nanos = 0;
  std::uint64_t period = 0;
  std::vector<std::string> strings;  // string_table, unescaped only for plain ASCII
};

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline DecodedProfile decode_profile(const std::string& path) {
  DecodedProfile d;
  const std::string proto_dir = JOLT_PROFILE_PROTO_DIR;
  const std::string cmd =
      "bash -c " +
      shell_quote("set -o pipefail; gzip -dc " + shell_quote(path) + " | " +
                  shell_quote(JOLT_PROTOC) + " --decode=perftools.profiles.Profile --proto_path=" +
                  shell_quote(proto_dir) + " " + shell_quote(proto_dir + "/profile.proto")) +
      " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return d;
  char buf[65536];
  while (std::size_t n = std::fread(buf, 1, sizeof(buf), p)) d.text.append(buf, n);
  const int status = ::pclose(p);
  d.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  // Top-level fields start at column 0; a Sample's values are indented by two spaces.
  std::size_t pos = 0;
  bool in_sample = false, first_value = false;
  while (pos < d.text.size()) {
    std::size_t end = d.text.find('\n', pos);
    if (end == std::string::npos) end = d.text.size();
    const std::string line = d.text.substr(pos, end - pos);
    pos = end + 1;
    if (line == "sample {") {
      in_sample = true;
      first_value = true;
      ++d.samples;
    } else if (line == "}") {
      in_sample = false;
    } else if (in_sample && first_value && line.rfind("  value: ", 0) == 0) {
      d.sample_count += std::strtoull(line.c_str() + 9, nullptr, 10);
      first_value = false;
    } else if (line.rfind("duration_nanos: ", 0) == 0) {
      d.duration_nanos = std::strtoull(line.c_str() + 16, nullptr, 10);
    } else if (line.rfind("period: ", 0) == 0) {
      d.period = std::strtoull(line.c_str() + 8, nullptr, 10);
    } else if (line.rfind("string_table: \"", 0) == 0 && line.size() >= 16) {
      d.strings.push_back(line.substr(15, line.size() - 16));
    }
  }
  return d;
}

}  // namespace jolt::cpu_profile::testing
