// summary.json checks: the JSON Schema (RapidJSON SchemaValidator, draft-04 keywords) and the
// semantic invariants the schema cannot express.
#include <cmath>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include <jolt/taxonomy.hpp>
#include <jolt/version.hpp>

#include "trace_validator.hpp"

namespace jolt::validate {
namespace {

std::string pointer_text(const rapidjson::Pointer& p) {
  rapidjson::StringBuffer sb;
  p.StringifyUriFragment(sb);
  return sb.GetString();
}

void semantic_checks(const rapidjson::Document& d, Report& r) {
  if (d["schema_version"].GetUint() != kSummarySchemaVersion)
    r.errors.push_back("schema_version is " + std::to_string(d["schema_version"].GetUint()) +
                       ", this jolt-run reads version " + std::to_string(kSummarySchemaVersion));
  if (d["taxonomy_version"].GetUint() != taxonomy::kTaxonomyVersion)
    r.errors.push_back("taxonomy_version is " + std::to_string(d["taxonomy_version"].GetUint()) +
                       ", expected " + std::to_string(taxonomy::kTaxonomyVersion));
  if (d.HasMember("root") && d["root"].IsObject()) {
    const auto& root = d["root"];
    if (root["label"].GetString() != std::string(taxonomy::kRootSpan))
      r.errors.push_back("/root/label is \"" + std::string(root["label"].GetString()) +
                         "\", expected \"" + std::string(taxonomy::kRootSpan) + "\"");
    if (root["dark_time_ns"].GetUint64() > root["wall_time_ns"].GetUint64())
      r.errors.push_back("/root: dark_time_ns exceeds wall_time_ns");
    const double f = root["dark_time_fraction"].GetDouble();
    if (!(f >= 0 && f <= 1)) r.errors.push_back("/root/dark_time_fraction is outside [0, 1]");
  }
  for (auto m = d["spans"].MemberBegin(); m != d["spans"].MemberEnd(); ++m)
    if (m->value["self_ns"].GetUint64() > m->value["total_ns"].GetUint64())
      r.errors.push_back("/spans/" + std::string(m->name.GetString()) +
                         ": self_ns exceeds total_ns");
  for (const auto& st : d["stages"].GetArray())
    if (!taxonomy::is_stage_span(st["label"].GetString()))
      r.errors.push_back("/stages: label \"" + std::string(st["label"].GetString()) +
                         "\" is not a prove_stage* span");
  for (auto m = d["counters"].MemberBegin(); m != d["counters"].MemberEnd(); ++m)
    if (m->value["samples"].GetUint64() == 0)
      r.warnings.push_back("/counters/" + std::string(m->name.GetString()) + " has no samples");
  if (d.HasMember("heap"))
    for (auto m = d["heap"].MemberBegin(); m != d["heap"].MemberEnd(); ++m) {
      std::uint64_t sum = 0;
      for (auto root = m->value["roots"].MemberBegin(); root != m->value["roots"].MemberEnd();
           ++root)
        sum += root->value.GetUint64();
      if (sum != m->value["total_bytes"].GetUint64())
        r.errors.push_back("/heap/" + std::string(m->name.GetString()) +
                           ": total_bytes differs from the sum of roots");
    }
}

}  // namespace

Report validate_summary(std::string_view text, std::string_view schema_text) {
  Report r;
  r.kind = FileKind::kSummary;
  if (schema_text.empty()) schema_text = embedded_summary_schema();
  rapidjson::Document sd;
  sd.Parse(schema_text.data(), schema_text.size());
  if (sd.HasParseError()) {
    r.errors.push_back(std::string("the summary schema is not valid JSON: ") +
                       rapidjson::GetParseError_En(sd.GetParseError()));
    return r;
  }
  const rapidjson::SchemaDocument schema(sd);
  rapidjson::Document d;
  d.Parse(text.data(), text.size());
  if (d.HasParseError()) {
    r.errors.push_back("not valid JSON at offset " + std::to_string(d.GetErrorOffset()) + ": " +
                       rapidjson::GetParseError_En(d.GetParseError()));
    return r;
  }
  rapidjson::SchemaValidator validator(schema);
  if (!d.Accept(validator)) {
    r.errors.push_back("schema violation: keyword \"" +
                       std::string(validator.GetInvalidSchemaKeyword()) + "\" at document " +
                       pointer_text(validator.GetInvalidDocumentPointer()) + " (schema " +
                       pointer_text(validator.GetInvalidSchemaPointer()) + ")");
    return r;  // semantic checks assume the schema shape
  }
  semantic_checks(d, r);
  return r;
}

}  // namespace jolt::validate
