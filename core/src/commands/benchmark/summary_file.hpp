// Reading a run's summary.json (schema §3.3, schema_version 1) for the sweep-style commands.
//
//   rapidjson::Document s = jolt::core::load_summary(run_dir + "/summary.json");
//   double fraction = jolt::core::summary_number(s, "/root/dark_time_fraction", path);
//
// Every accessor throws SummaryError naming the file and the JSON pointer; a missing field or a
// null value is an error, never 0.
#pragma once
#include <rapidjson/document.h>

#include <stdexcept>
#include <string>

namespace jolt::core {

inline constexpr int kSummarySchemaVersion = 1;

class SummaryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses `text` (named `source` in messages) and requires schema_version == 1.
rapidjson::Document parse_summary(const std::string& text, const std::string& source);
rapidjson::Document load_summary(const std::string& path);

// The number at JSON pointer `pointer` ("/root/wall_time_ns").
double summary_number(const rapidjson::Value& doc, const char* pointer, const std::string& source);

}  // namespace jolt::core
