// summary.json parsing with RapidJSON: schema check and strict numeric lookups.
#include "jolt/host/summary_file.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>

#include <fstream>
#include <sstream>

namespace jolt::host {

rapidjson::Document parse_summary(const std::string& text, const std::string& source) {
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  if (doc.HasParseError())
    throw SummaryError(source + ": not valid JSON (" +
                       rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                       std::to_string(doc.GetErrorOffset()) + ")");
  if (!doc.IsObject()) throw SummaryError(source + ": expected a JSON object at the top level");
  const rapidjson::Value& top = doc;  // const iterators: clang's C++20 operator== check
  auto it = top.FindMember("schema_version");
  if (it == top.MemberEnd() || !it->value.IsInt())
    throw SummaryError(source + ": no integer schema_version; is this a summary.json?");
  const int version = it->value.GetInt();
  if (version < kOldestSummarySchemaVersion || version > kNewestSummarySchemaVersion)
    throw SummaryError(source + ": schema_version " + std::to_string(version) +
                       " is not supported (this build reads versions " +
                       std::to_string(kOldestSummarySchemaVersion) + " to " +
                       std::to_string(kNewestSummarySchemaVersion) + ")");
  return doc;
}

rapidjson::Document load_summary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw SummaryError(path + ": cannot open (did the profile run finish with --format chrome?)");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_summary(text.str(), path);
}

double summary_number(const rapidjson::Value& doc, const char* pointer, const std::string& source) {
  const rapidjson::Value* v = rapidjson::Pointer(pointer).Get(doc);
  if (!v) throw SummaryError(source + ": " + pointer + " is absent");
  if (v->IsNull()) throw SummaryError(source + ": " + pointer + " is null");
  if (!v->IsNumber()) throw SummaryError(source + ": " + pointer + " is not a number");
  if (v->GetDouble() < 0) throw SummaryError(source + ": " + pointer + " is negative");
  return v->GetDouble();
}

std::string summary_string(const rapidjson::Value& doc, const char* pointer,
                           const std::string& source) {
  const rapidjson::Value* v = rapidjson::Pointer(pointer).Get(doc);
  if (!v) throw SummaryError(source + ": " + pointer + " is absent");
  if (v->IsNull()) throw SummaryError(source + ": " + pointer + " is null");
  if (!v->IsString()) throw SummaryError(source + ": " + pointer + " is not a string");
  return std::string(v->GetString(), v->GetStringLength());
}

}  // namespace jolt::host
