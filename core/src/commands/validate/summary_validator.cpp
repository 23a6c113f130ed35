// summary.json checks: the JSON Schema (RapidJSON SchemaValidator, draft-04 keywords) and the
// semantic invariants the schema cannot express.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <jolt/taxonomy.hpp>
#include <jolt/trace_length.hpp>
#include <jolt/version.hpp>

#include "trace_validator.hpp"

#include "json_parse.hpp"

namespace jolt::validate {
namespace {

std::string pointer_text(const rapidjson::Pointer& p) {
  rapidjson::StringBuffer sb;
  p.StringifyUriFragment(sb);
  return sb.GetString();
}

// Member `k` of `obj` when obj is an object that has it, else nullptr. The checks below run after
// the schema, but `--schema` may be any schema (even {}), so they never assume a shape.
const rapidjson::Value* member(const rapidjson::Value& obj, const char* k) {
  if (!obj.IsObject()) return nullptr;
  const auto m = obj.FindMember(k);
  return m == obj.MemberEnd() ? nullptr : &m->value;
}

const char* json_type_name(const rapidjson::Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return "a boolean";
  if (v.IsObject()) return "an object";
  if (v.IsArray()) return "an array";
  if (v.IsString()) return "a string";
  if (v.IsUint64() || v.IsInt64())
    return v.IsUint64() ? "an unsigned integer" : "a negative integer";
  return "a non-integer number";
}

std::string number_text(const rapidjson::Value& n) {
  if (n.IsUint64()) return std::to_string(n.GetUint64());
  if (n.IsInt64()) return std::to_string(n.GetInt64());
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  n.Accept(w);
  return sb.GetString();
}

// What a schema violation means at the field, for the keywords a summary fails most: the
// required fields missing, the fields not allowed, the type or bound expected; through anyOf /
// oneOf, the alternative the value got furthest in. `where` is the value's place in the summary
// (a URI fragment, "#" for the top level). Empty when there is no such detail (the caller still
// names the keyword and both pointers).
std::string violation_detail(const rapidjson::Value& schema_root, const rapidjson::Value& s,
                             const std::string& keyword, const rapidjson::Value& v,
                             const std::string& where, int depth);

// Validates v against the schema document and describes the first violation (empty if none).
// `where` is v's place in the summary.
std::string describe_violation(const rapidjson::Document& schema, const rapidjson::Value& v,
                               const std::string& where, int depth) {
  const rapidjson::SchemaDocument sd(schema);
  rapidjson::SchemaValidator validator(sd);
  if (v.Accept(validator)) return "";
  const std::string at = where + pointer_text(validator.GetInvalidDocumentPointer()).substr(1);
  const rapidjson::Value* s = validator.GetInvalidSchemaPointer().Get(schema);
  const rapidjson::Value* vv = validator.GetInvalidDocumentPointer().Get(v);
  if (!s || !vv || !s->IsObject()) return "";
  return violation_detail(schema, *s, validator.GetInvalidSchemaKeyword(), *vv, at, depth);
}

std::string violation_detail(const rapidjson::Value& schema_root, const rapidjson::Value& s,
                             const std::string& keyword, const rapidjson::Value& v,
                             const std::string& where, int depth) {
  const std::string place = where == "#" ? "the top level" : where;
  std::string names;
  const auto add = [&](const std::string& n) { names += (names.empty() ? "'" : ", '") + n + "'"; };
  if (keyword == "required" && v.IsObject()) {
    if (const rapidjson::Value* req = member(s, "required"); req && req->IsArray())
      for (const auto& n : req->GetArray())
        if (n.IsString() && !v.HasMember(n)) add(n.GetString());
    return names.empty() ? "" : place + " lacks the required field(s) " + names;
  }
  if (keyword == "additionalProperties") {
    // The pointer names the field that is not allowed; its object is the parent.
    const std::size_t slash = where.rfind('/');
    if (slash == std::string::npos) return "";
    const std::string parent = where.substr(0, slash);
    return (parent == "#" ? "the top level" : parent) +
           " has a field the schema does not allow: '" + where.substr(slash + 1) + "'";
  }
  if (keyword == "type") {
    const rapidjson::Value* t = member(s, "type");
    std::string expected;
    if (t && t->IsString()) expected = t->GetString();
    if (t && t->IsArray())
      for (const auto& x : t->GetArray())
        if (x.IsString()) expected += (expected.empty() ? "" : " or ") + std::string(x.GetString());
    return expected.empty()
               ? ""
               : place + " is " + json_type_name(v) + ", the schema expects " + expected;
  }
  if ((keyword == "minimum" || keyword == "maximum") && v.IsNumber())
    if (const rapidjson::Value* b = member(s, keyword.c_str()); b && b->IsNumber())
      return place + " is " + number_text(v) + ", outside the schema's " + keyword + " " +
             number_text(*b);
  if ((keyword == "anyOf" || keyword == "oneOf") && depth < 4) {
    const rapidjson::Value* alts = member(s, keyword.c_str());
    if (!alts || !alts->IsArray()) return "";
    // Each alternative on its own, with the schema's definitions beside it for its $refs.
    std::string best;
    std::size_t best_depth = 0;
    for (const auto& alt : alts->GetArray()) {
      if (!alt.IsObject()) continue;
      rapidjson::Document one;
      one.CopyFrom(alt, one.GetAllocator());
      if (const rapidjson::Value* defs = member(schema_root, "definitions");
          defs && !one.HasMember("definitions"))
        one.AddMember("definitions", rapidjson::Value(*defs, one.GetAllocator()),
                      one.GetAllocator());
      const std::string d = describe_violation(one, v, where, depth + 1);
      const std::size_t d_depth = static_cast<std::size_t>(std::count(d.begin(), d.end(), '/'));
      if (!d.empty() && (best.empty() || d_depth > best_depth)) {
        best = d;
        best_depth = d_depth;
      }
    }
    return best;
  }
  return "";
}

void check_version(const rapidjson::Document& d, const char* key, std::uint64_t expected,
                   Report& r) {
  const rapidjson::Value* v = member(d, key);
  if (!v) return;  // required-ness is the schema's business
  if (!v->IsUint64()) {
    r.errors.push_back(std::string("/") + key + " is not a non-negative integer");
    return;
  }
  // Compared as 64-bit: 2^32 + 1 must not pass as 1.
  if (v->GetUint64() != expected)
    r.errors.push_back(
        std::string(key) + " is " + std::to_string(v->GetUint64()) +
        (std::string(key) == "schema_version" ? ", this jolt-run reads version " : ", expected ") +
        std::to_string(expected));
}

std::uint64_t uint_or(const rapidjson::Value* v, std::uint64_t fallback) {
  return v && v->IsUint64() ? v->GetUint64() : fallback;
}

void semantic_checks(const rapidjson::Document& d, Report& r) {
  check_version(d, "schema_version", kSummarySchemaVersion, r);
  check_version(d, "taxonomy_version", taxonomy::kTaxonomyVersion, r);
  if (const rapidjson::Value* run = member(d, "run"); run && run->IsObject()) {
    // What was proved agrees with itself: the padded scale is the padding rule's for the trace
    // length (jolt/trace_length.hpp) and at most the requested one; no prover, no proof.
    const rapidjson::Value* padded = member(*run, "padded_scale_log2");
    const std::uint64_t rows = uint_or(member(*run, "trace_length"), 0);
    if (padded && padded->IsUint64()) {
      const std::uint64_t p = padded->GetUint64();
      if (p > uint_or(member(*run, "scale_log2"), ~0ull))
        r.errors.push_back("/run/padded_scale_log2 exceeds the requested scale_log2");
      if (rows >= (std::uint64_t{1} << 40) || p != jolt::log_padded_trace_length(rows))
        r.errors.push_back("/run/padded_scale_log2 is not the padding rule's for trace_length " +
                           std::to_string(rows) + " (max(256, the next power of two above it))");
    } else if (padded && padded->IsNull()) {
      const rapidjson::Value* size = member(*run, "proof_size_bytes");
      const rapidjson::Value* verified = member(*run, "verified");
      if ((size && !size->IsNull()) || (verified && verified->IsTrue()))
        r.errors.push_back("/run: a proof size or verified without a padded scale (no prover ran)");
    }
  }
  if (const rapidjson::Value* root = member(d, "root"); root && root->IsObject()) {
    const rapidjson::Value* label = member(*root, "label");
    if (label && label->IsString() && label->GetString() != std::string(taxonomy::kRootSpan))
      r.errors.push_back("/root/label is \"" + std::string(label->GetString()) + "\", expected \"" +
                         std::string(taxonomy::kRootSpan) + "\"");
    if (uint_or(member(*root, "dark_time_ns"), 0) > uint_or(member(*root, "wall_time_ns"), ~0ull))
      r.errors.push_back("/root: dark_time_ns exceeds wall_time_ns");
    const rapidjson::Value* f = member(*root, "dark_time_fraction");
    if (f && (!f->IsNumber() || !(f->GetDouble() >= 0 && f->GetDouble() <= 1)))
      r.errors.push_back("/root/dark_time_fraction is outside [0, 1]");
  }
  if (const rapidjson::Value* spans = member(d, "spans"); spans && spans->IsObject())
    for (auto m = spans->MemberBegin(); m != spans->MemberEnd(); ++m)
      if (uint_or(member(m->value, "self_ns"), 0) > uint_or(member(m->value, "total_ns"), ~0ull))
        r.errors.push_back("/spans/" + std::string(m->name.GetString()) +
                           ": self_ns exceeds total_ns");
  if (const rapidjson::Value* stages = member(d, "stages"); stages && stages->IsArray())
    for (const auto& st : stages->GetArray()) {
      const rapidjson::Value* label = member(st, "label");
      if (label && label->IsString() && !taxonomy::is_stage_span(label->GetString()))
        r.errors.push_back("/stages: label \"" + std::string(label->GetString()) +
                           "\" is not a prove_stage* span");
    }
  if (const rapidjson::Value* counters = member(d, "counters"); counters && counters->IsObject())
    for (auto m = counters->MemberBegin(); m != counters->MemberEnd(); ++m)
      if (uint_or(member(m->value, "samples"), 1) == 0)
        r.warnings.push_back("/counters/" + std::string(m->name.GetString()) + " has no samples");
  if (const rapidjson::Value* heap = member(d, "heap"); heap && heap->IsObject())
    for (auto m = heap->MemberBegin(); m != heap->MemberEnd(); ++m) {
      const rapidjson::Value* roots = member(m->value, "roots");
      const rapidjson::Value* total = member(m->value, "total_bytes");
      if (!roots || !roots->IsObject() || !total || !total->IsUint64()) continue;
      std::uint64_t sum = 0;
      for (auto root = roots->MemberBegin(); root != roots->MemberEnd(); ++root)
        sum += uint_or(&root->value, 0);
      if (sum != total->GetUint64())
        r.errors.push_back("/heap/" + std::string(m->name.GetString()) +
                           ": total_bytes differs from the sum of roots");
    }
}

// RapidJSON resolves a "$ref" that leads (through other pure "$ref"s) back to itself by
// recursing forever, and fetches nothing but local "#..." pointers. Refuse both up front.
// Walks the schema with an explicit stack (its depth is already bounded by parse_json).
std::string schema_ref_problem(const rapidjson::Document& sd) {
  std::vector<const rapidjson::Value*> todo{&sd};
  while (!todo.empty()) {
    const rapidjson::Value* v = todo.back();
    todo.pop_back();
    if (v->IsArray())
      for (const auto& e : v->GetArray()) todo.push_back(&e);
    if (!v->IsObject()) continue;
    for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m) todo.push_back(&m->value);
    const rapidjson::Value* ref = member(*v, "$ref");
    if (!ref) continue;
    std::vector<const rapidjson::Value*> chain{v};
    while (ref) {
      if (!ref->IsString()) return "a \"$ref\" that is not a string";
      const std::string target = ref->GetString();
      if (target.empty() || target[0] != '#')
        return "\"$ref\": \"" + target + "\" (only local \"#...\" references are supported)";
      const rapidjson::Pointer pointer(target.c_str() + 1, target.size() - 1);
      if (!pointer.IsValid()) return "\"$ref\": \"" + target + "\" (not a valid JSON pointer)";
      const rapidjson::Value* next = pointer.Get(sd);
      if (!next) return "\"$ref\": \"" + target + "\" (points at nothing)";
      if (std::find(chain.begin(), chain.end(), next) != chain.end())
        return "\"$ref\": \"" + target + "\" (a cycle of references that never reaches a schema)";
      chain.push_back(next);
      ref = member(*next, "$ref");
    }
  }
  return "";
}

}  // namespace

void check_summary(const rapidjson::Document& d, std::string_view schema_text, Report& r) {
  r.kind = FileKind::kSummary;
  if (schema_text.empty()) schema_text = embedded_summary_schema();
  rapidjson::Document sd;
  Report schema_report;
  if (!parse_json(schema_text, sd, schema_report)) {
    r.errors.push_back("the summary schema is not usable JSON: " + schema_report.errors.front());
    return;
  }
  if (!sd.IsObject()) {
    r.errors.push_back("the summary schema is not a JSON Schema (expected an object)");
    return;
  }
  if (const std::string why = schema_ref_problem(sd); !why.empty()) {
    r.errors.push_back("the summary schema has " + why);
    return;
  }
  // A summary.json from an older jolt-run is not held to the current schema (version 2 added
  // required run fields): say which version it is instead of reporting a missing field. The
  // readers (`jolt-run benchmark`/`overhead`/`measure-objectives`, scripts/*.py) still read it.
  if (const rapidjson::Value* v = member(d, "schema_version");
      v && v->IsUint64() && v->GetUint64() < kSummarySchemaVersion) {
    r.errors.push_back("schema_version is " + std::to_string(v->GetUint64()) +
                       ": written by an older jolt-run; this jolt-run validates version " +
                       std::to_string(kSummarySchemaVersion) +
                       " (the benchmark commands and scripts still read it; re-run the profile "
                       "to get a current summary.json)");
    return;
  }
  const rapidjson::SchemaDocument schema(sd);
  rapidjson::SchemaValidator validator(schema);
  if (!d.Accept(validator)) {
    // The same first violation, described at its field (one more validation, on failure only).
    const std::string detail = describe_violation(sd, d, "#", 0);
    r.errors.push_back("schema violation: " + (detail.empty() ? "" : detail + " (") + "keyword \"" +
                       std::string(validator.GetInvalidSchemaKeyword()) + "\" at document " +
                       pointer_text(validator.GetInvalidDocumentPointer()) + ", schema " +
                       pointer_text(validator.GetInvalidSchemaPointer()) +
                       (detail.empty() ? "" : ")"));
    return;
  }
  semantic_checks(d, r);
}

Report validate_summary(std::string_view text, std::string_view schema_text) {
  Report r;
  r.kind = FileKind::kSummary;
  rapidjson::Document d;
  if (parse_json(text, d, r)) check_summary(d, schema_text, r);
  return r;
}

}  // namespace jolt::validate
