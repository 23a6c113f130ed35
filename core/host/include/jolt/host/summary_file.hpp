// Reading a run's summary.json (schema_version 1 to 3) for the sweep-style commands.
//
//   rapidjson::Document s = jolt::host::load_summary(run_dir + "/summary.json");
//   double fraction = jolt::host::summary_number(s, "/root/dark_time_fraction", path);
//
// Every accessor throws SummaryError naming the file and the JSON pointer; a missing field or a
// null value is an error, never 0.
#pragma once
#include <rapidjson/document.h>

#include <stdexcept>
#include <string>

namespace jolt::host {

// The versions this reader accepts. Version 2 only added run.pcs and run.pcs_parameters, version
// 3 only added run.trace_length, padded_scale_log2, proof_size_bytes, verified and host; nothing
// here requires them, so runs written before them stay readable by `benchmark`, `overhead` and
// `measure-objectives` (`report` shows them when present). kNewest equals
// jolt::kSummarySchemaVersion (sdk version.hpp; tests/sweeps/objective_test.cpp pins it): when the
// SDK's version moves, decide whether the change touches a field read here before raising kNewest.
inline constexpr int kOldestSummarySchemaVersion = 1;
inline constexpr int kNewestSummarySchemaVersion = 3;

class SummaryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses `text` (named `source` in messages) and requires a schema_version in
// [kOldestSummarySchemaVersion, kNewestSummarySchemaVersion].
rapidjson::Document parse_summary(const std::string& text, const std::string& source);
rapidjson::Document load_summary(const std::string& path);

// The number at JSON pointer `pointer` ("/root/wall_time_ns"): every number read so is a time,
// a size, a count or a fraction, so a negative one is an error too.
double summary_number(const rapidjson::Value& doc, const char* pointer, const std::string& source);
// The string at a JSON pointer ("/run/workload"); same errors as summary_number.
std::string summary_string(const rapidjson::Value& doc, const char* pointer,
                           const std::string& source);

}  // namespace jolt::host
