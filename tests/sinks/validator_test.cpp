// The validator behind `jolt-run validate`: good artifacts pass, deliberately broken ones fail
// with a message naming the rule.
#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <jolt/summary.hpp>

#include "fixture_profile.hpp"
#include "sink_test_support.hpp"
#include "summary_json.hpp"
#include "trace_validator.hpp"

using jolt::validate::validate_text;

namespace {
bool mentions(const jolt::validate::Report& r, const std::string& what) {
  for (const auto& e : r.errors)
    if (e.find(what) != std::string::npos) return true;
  return false;
}
const char* kMeta = R"({"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"main"}})";
std::string trace(const std::string& events) {
  return std::string("[") + kMeta + "," + events + "]";
}
}  // namespace

TEST_CASE("validator accepts a well-formed trace in either container") {
  const std::string ev =
      R"({"name":"a","ph":"B","pid":1,"tid":1,"ts":1.000},{"name":"b","ph":"B","pid":1,"tid":1,"ts":2},)"
      R"({"name":"b","ph":"E","pid":1,"tid":1,"ts":3},{"name":"a","ph":"E","pid":1,"tid":1,"ts":4},)"
      R"({"name":"m","ph":"C","pid":1,"tid":3,"ts":1,"args":{"m":"1.5"}},)"
      R"({"name":"x","ph":"i","s":"t","pid":1,"tid":1,"ts":5,"args":{}})";
  auto r = validate_text(trace(ev));
  CHECK(r.kind == jolt::validate::FileKind::kChromeTrace);
  CHECK_MESSAGE(r.ok(), jolt::validate::format_report("t", r));
  r = validate_text(std::string(R"({"traceEvents":)") + trace(ev) + "}");
  CHECK(r.ok());
}

TEST_CASE("validator rejects broken traces") {
  auto unbalanced = validate_text(trace(R"({"name":"a","ph":"B","pid":1,"tid":1,"ts":1})"));
  CHECK_FALSE(unbalanced.ok());
  CHECK(mentions(unbalanced, "never ended"));
  auto stray_end = validate_text(trace(R"({"name":"a","ph":"E","pid":1,"tid":1,"ts":1})"));
  CHECK(mentions(stray_end, "end without an open span"));
  auto bad_nesting = validate_text(trace(
      R"({"name":"a","ph":"B","pid":1,"tid":1,"ts":1},{"name":"b","ph":"B","pid":1,"tid":1,"ts":2},)"
      R"({"name":"a","ph":"E","pid":1,"tid":1,"ts":3},{"name":"b","ph":"E","pid":1,"tid":1,"ts":4})"));
  CHECK(mentions(bad_nesting, "not strictly nested"));
  auto string_counter =
      validate_text(trace(R"({"name":"m","ph":"C","pid":1,"tid":3,"ts":1,"args":{"m":"lots"}})"));
  CHECK(mentions(string_counter, "is not a number"));
  auto no_args = validate_text(trace(R"({"name":"m","ph":"C","pid":1,"tid":3,"ts":1})"));
  CHECK(mentions(no_args, "non-empty \"args\""));
  auto backwards = validate_text(trace(
      R"({"name":"x","ph":"i","pid":1,"tid":1,"ts":5},{"name":"y","ph":"i","pid":1,"tid":1,"ts":4})"));
  CHECK(mentions(backwards, "goes back in time"));
  auto no_ts = validate_text(trace(R"({"name":"x","ph":"i","pid":1,"tid":1})"));
  CHECK(mentions(no_ts, "\"ts\""));
  auto no_pid = validate_text(trace(R"({"name":"x","ph":"i","tid":1,"ts":1})"));
  CHECK(mentions(no_pid, "\"pid\""));
  auto bad_meta =
      validate_text(trace(R"({"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{}})"));
  CHECK(mentions(bad_meta, "args.name"));
  CHECK_FALSE(validate_text("[1,2").ok());
  CHECK(validate_text(R"({"foo":1})").kind == jolt::validate::FileKind::kUnknown);
  CHECK_FALSE(validate_text(R"({"foo":1})").ok());
}

TEST_CASE("validator checks summaries against the embedded schema and semantics") {
  CHECK(jolt::validate::embedded_summary_schema().find("ProfileSummary") != std::string_view::npos);
  const std::string good =
      jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  auto ok = validate_text(good);
  CHECK(ok.kind == jolt::validate::FileKind::kSummary);
  CHECK_MESSAGE(ok.ok(), jolt::validate::format_report("summary.json", ok));

  // A required top-level field renamed away: the schema rejects it (additionalProperties too).
  std::string no_counters = good;
  no_counters.replace(no_counters.find("\"counters\""), std::string("\"counters\"").size(),
                      "\"kounters\"");
  auto bad = validate_text(no_counters);
  CHECK_FALSE(bad.ok());
  CHECK(mentions(bad, "schema violation"));
  // The violation names the field and what is wrong with it, down through anyOf.
  INFO(jolt::validate::format_report("summary.json", bad));
  CHECK(mentions(bad, "the top level has a field the schema does not allow: 'kounters'"));
  std::string missing = good;
  const std::size_t tv = missing.find("\"taxonomy_version\"");
  missing.replace(tv, missing.find(',', tv) + 1 - tv, "");
  CHECK(mentions(validate_text(missing),
                 "the top level lacks the required field(s) 'taxonomy_version'"));
  std::string wall_string = good;
  const std::size_t wall = wall_string.find("\"wall_time_ns\": ") + 16;
  wall_string.replace(wall, wall_string.find_first_of(",}", wall) - wall, "\"5\"");
  CHECK(mentions(validate_text(wall_string),
                 "#/root/wall_time_ns is a string, the schema expects integer"));
  std::string wall_negative = good;
  wall_negative.replace(wall, wall_negative.find_first_of(",}", wall) - wall, "-5");
  CHECK(mentions(validate_text(wall_negative),
                 "#/root/wall_time_ns is -5, outside the schema's minimum 0"));

  std::string no_label_field = good;
  no_label_field.replace(no_label_field.find("\"wall_time_ns\""), 14, "\"wall_time_xx\"");
  CHECK_FALSE(validate_text(no_label_field).ok());

  std::string v4 = good;
  v4.replace(v4.find("\"schema_version\": 3"), 19, "\"schema_version\": 4");
  auto r4 = validate_text(v4);
  CHECK_FALSE(r4.ok());
  CHECK(mentions(r4, "schema_version is 4"));
}

TEST_CASE("the run record of what was proved must agree with itself (schema v3 semantics)") {
  auto with = [](auto change) {
    rapidjson::Document d;
    d.Parse(jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile())));
    change(d["run"], d.GetAllocator());
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    d.Accept(w);
    return validate_text(sb.GetString());
  };
  CHECK(with([](rapidjson::Value&, auto&) {}).ok());
  // Proved at a larger scale than the one asked for.
  auto big = with([](rapidjson::Value& run, auto&) { run["padded_scale_log2"].SetUint(17); });
  CHECK(mentions(big, "/run/padded_scale_log2 exceeds the requested scale_log2"));
  // More trace rows than the padded length holds, or a padded length the rule would not pick.
  auto rows = with([](rapidjson::Value& run, auto&) { run["trace_length"].SetUint64(65536); });
  CHECK(mentions(rows, "/run/padded_scale_log2 is not the padding rule's for trace_length 65536"));
  auto small = with([](rapidjson::Value& run, auto&) { run["trace_length"].SetUint64(0); });
  CHECK(mentions(small, "is not the padding rule's for trace_length 0"));
  auto too_small = with([](rapidjson::Value& run, auto&) {
    run["trace_length"].SetUint64(100);
    run["padded_scale_log2"].SetUint(7);
  });
  CHECK(mentions(too_small, "is not the padding rule's for trace_length 100"));
  // No prover (null padded scale) but a proof size.
  auto ghost = with([](rapidjson::Value& run, auto&) { run["padded_scale_log2"].SetNull(); });
  CHECK(mentions(ghost, "no prover ran"));
  // No prover and nothing claimed: fine.
  auto none = with([](rapidjson::Value& run, auto&) {
    run["padded_scale_log2"].SetNull();
    run["proof_size_bytes"].SetNull();
    run["verified"].SetBool(false);
  });
  CHECK_MESSAGE(none.ok(), jolt::validate::format_report("summary.json", none));
}

TEST_CASE("a summary.json of schema version 1 (before run.pcs) is named as older, not as broken") {
  // What a jolt-run before schema v2 wrote: the run object without pcs / pcs_parameters.
  rapidjson::Document d;
  d.Parse(jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile())));
  REQUIRE_FALSE(d.HasParseError());
  d["schema_version"].SetUint(1);
  d["run"].RemoveMember("pcs");
  d["run"].RemoveMember("pcs_parameters");
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  d.Accept(w);
  auto r = validate_text(sb.GetString());
  CHECK(r.kind == jolt::validate::FileKind::kSummary);
  CHECK_FALSE(r.ok());
  REQUIRE(r.errors.size() == 1);
  CHECK(mentions(r, "schema_version is 1: written by an older jolt-run"));
  CHECK(mentions(r, "validates version 3"));
  CHECK_FALSE(mentions(r, "schema violation"));
}

TEST_CASE("the embedded schema is the checked-in schema file") {
  CHECK(jolt::validate::embedded_summary_schema() ==
        sink_test::read_file(JOLT_SUMMARY_SCHEMA_PATH));
}

TEST_CASE("validate never crashes on hostile input: each case is an error naming the problem") {
  // Invalid UTF-8 in a key (RapidJSON's pointer text used to read past it).
  const std::string bad_utf8 = "{\"schema_version\": 1, \"spans\": {\"\xff\xfe\": {}}}";
  auto u = validate_text(bad_utf8);
  CHECK_FALSE(u.ok());
  CHECK(mentions(u, "Invalid encoding"));
  // 150k nested arrays (used to overflow the stack in the recursive parser).
  const std::string deep = std::string(150000, '[') + std::string(150000, ']');
  auto dr = validate_text(deep);
  CHECK_FALSE(dr.ok());
  CHECK(mentions(dr, "nested deeper than 256 levels"));
  // Unterminated deep nesting is a parse error, not a crash.
  CHECK(mentions(validate_text(std::string(150000, '{')), "not valid JSON"));
  // schema_version 2^32 + 3 is not 3.
  const std::string good =
      jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  std::string wrap = good;
  wrap.replace(wrap.find("\"schema_version\": 3"), 19, "\"schema_version\": 4294967299");
  auto w = validate_text(wrap);
  CHECK_FALSE(w.ok());
  CHECK(mentions(w, "schema_version is 4294967299"));
}

TEST_CASE("--schema: a permissive schema checks what is there; a self-referencing one is refused") {
  // {} accepts any shape: the semantic checks must not assume one.
  for (const char* doc : {R"({"schema_version": 3})", R"({"schema_version": 3, "root": 3,
        "spans": [], "stages": {}, "counters": {"c": 5}, "heap": {"h": {"roots": 1}}})",
                          R"({"schema_version": 3, "root": {"label": 7}, "spans": {"s": 1},
        "stages": [1, {"label": []}], "heap": {"h": {"roots": {"a": "x"}, "total_bytes": 0}}})"}) {
    INFO(doc);
    auto r = jolt::validate::validate_summary(doc, "{}");
    CHECK(r.kind == jolt::validate::FileKind::kSummary);
  }
  auto v4 = jolt::validate::validate_summary(R"({"schema_version": 4})", "{}");
  CHECK(mentions(v4, "schema_version is 4"));
  for (const char* schema :
       {R"({"$ref": "#"})", R"({"definitions": {"a": {"$ref": "#/definitions/b"},
        "b": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"})"}) {
    INFO(schema);
    auto r = jolt::validate::validate_summary(R"({"schema_version": 3})", schema);
    CHECK_FALSE(r.ok());
    CHECK(mentions(r, "cycle of references"));
  }
  auto remote = jolt::validate::validate_summary(R"({"schema_version": 3})",
                                                 R"({"$ref": "http://example.invalid/s.json"})");
  CHECK(mentions(remote, "only local"));
  CHECK(mentions(jolt::validate::validate_summary("{}", "[]"), "not a JSON Schema"));
}

TEST_CASE("an endless or huge input is refused at the size bound, read once") {
  const auto r = jolt::validate::validate_file("/dev/zero", {}, 1 << 20);
  CHECK_FALSE(r.ok());
  CHECK(mentions(r, "/dev/zero is larger than 1048576 bytes"));
}
