// Every rendered summary.json validates against the checked-in schema (RapidJSON
// SchemaValidator), and the schema really rejects what it must.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <jolt/summary.hpp>

#include "fixture_profile.hpp"
#include "summary_json.hpp"

namespace {

std::string read_all(const char* path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string validate(const std::string& json) {
  static const std::string schema_text = read_all(JOLT_SUMMARY_SCHEMA_PATH);
  rapidjson::Document sd;
  sd.Parse(schema_text);
  REQUIRE_FALSE(sd.HasParseError());
  rapidjson::SchemaDocument schema(sd);
  rapidjson::Document d;
  d.Parse(json);
  if (d.HasParseError()) return "parse error";
  rapidjson::SchemaValidator v(schema);
  if (d.Accept(v)) return "";
  rapidjson::StringBuffer sb;
  v.GetInvalidSchemaPointer().StringifyUriFragment(sb);
  return std::string(v.GetInvalidSchemaKeyword()) + " at " + sb.GetString();
}

}  // namespace

TEST_CASE("rendered summaries validate against the schema") {
  using jolt::testing::fixture_profile;
  const std::string fixture = jolt::sinks::summary_to_json(jolt::summarize(fixture_profile()));
  CHECK(validate(fixture) == "");
  CHECK(validate(jolt::sinks::summary_to_json(jolt::summarize(jolt::Profile{}))) == "");
  jolt::Profile no_git = fixture_profile();
  no_git.run.git_rev.reset();
  no_git.peak_rss_bytes.reset();
  CHECK(validate(jolt::sinks::summary_to_json(jolt::summarize(no_git))) == "");
}

TEST_CASE("summary json keeps schema field order and nulls") {
  const std::string json =
      jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  const char* order[] = {"\"schema_version\"", "\"taxonomy_version\"", "\"run\"",
                         "\"root\"",           "\"peak_rss_gib\"",     "\"spans\"",
                         "\"stages\"",         "\"counters\"",         "\"heap\""};
  std::size_t at = 0;
  for (const char* k : order) {
    const std::size_t pos = json.find(k, at);
    REQUIRE_MESSAGE(pos != std::string::npos, k);
    at = pos;
  }
  rapidjson::Document d;
  d.Parse(json);
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["stages"][1]["rss_open_gib"].IsNull());
  CHECK(d["root"]["dark_time_ns"].GetUint64() == 600'000);
  CHECK(d["heap"]["Stage2Batch_prepared"]["at_ns"].GetUint64() == 1'350'000);
  const std::string empty = jolt::sinks::summary_to_json(jolt::summarize(jolt::Profile{}));
  d.Parse(empty);
  CHECK(d["root"].IsNull());
  CHECK(d["peak_rss_gib"].IsNull());
}

TEST_CASE("schema rejects missing fields, unknown fields, wrong types, negatives") {
  const std::string good =
      jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  auto mutate = [&](auto&& f) {
    rapidjson::Document d;
    d.Parse(good);
    f(d);
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    d.Accept(w);
    return std::string(sb.GetString());
  };
  CHECK(validate(mutate([](auto& d) { d.RemoveMember("spans"); })) != "");
  CHECK(validate(mutate([](auto& d) { d["run"].RemoveMember("git_rev"); })) != "");
  CHECK(validate(mutate([](auto& d) { d["run"].RemoveMember("pcs"); })) != "");
  CHECK(validate(mutate([](auto& d) { d["run"].RemoveMember("pcs_parameters"); })) != "");
  CHECK(validate(mutate([](auto& d) { d["run"]["pcs"].SetInt(3); })) != "");
  CHECK(validate(mutate([](auto& d) { d.AddMember("extra", 1, d.GetAllocator()); })) != "");
  CHECK(validate(mutate([](auto& d) { d["root"]["wall_time_ns"].SetInt(-1); })) != "");
  CHECK(validate(mutate([](auto& d) { d["root"]["wall_time_ns"].SetString("1"); })) != "");
  CHECK(validate(mutate([](auto& d) { d["spans"]["prove_batch"]["count"].SetDouble(1.5); })) != "");
  CHECK(validate(mutate([](auto& d) { d["stages"][0].AddMember("bogus", 1, d.GetAllocator()); })) !=
        "");
  CHECK(validate(mutate([](auto& d) { d.RemoveMember("heap"); })) == "");  // heap defaults to {}
}

TEST_CASE("the run record says which commitment scheme made the proof (schema v2)") {
  const std::string json =
      jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  rapidjson::Document d;
  d.Parse(json);
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["schema_version"].GetUint() == 3);
  CHECK(std::string(d["run"]["pcs"].GetString()) == "ligero");
  CHECK(std::string(d["run"]["pcs_parameters"].GetString()) ==
        "rate=1/4 queries=189 security_bits=100");
  // Placed after git_rev, in the run object.
  CHECK(json.find("\"git_rev\"") < json.find("\"pcs\""));
  CHECK(json.find("\"pcs\"") < json.find("\"pcs_parameters\""));
  CHECK(json.find("\"pcs_parameters\"") < json.find("\"root\""));
  // A Profile no prover made: both fields present and null, and still valid.
  const std::string empty = jolt::sinks::summary_to_json(jolt::summarize(jolt::Profile{}));
  d.Parse(empty);
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["run"]["pcs"].IsNull());
  CHECK(d["run"]["pcs_parameters"].IsNull());
  CHECK(d["run"]["padded_scale_log2"].IsNull());
  CHECK(d["run"]["proof_size_bytes"].IsNull());
  CHECK_FALSE(d["run"]["verified"].GetBool());
  CHECK(d["run"]["host"]["cpu_model"].IsNull());
  CHECK(validate(empty) == "");
}

TEST_CASE("the run record says what was proved and on which machine (schema v3)") {
  const std::string json =
      jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile()));
  rapidjson::Document d;
  d.Parse(json);
  REQUIRE_FALSE(d.HasParseError());
  const rapidjson::Value& run = d["run"];
  CHECK(run["trace_length"].GetUint64() == 40000);
  CHECK(run["padded_scale_log2"].GetUint() == 16);
  CHECK(run["proof_size_bytes"].GetUint64() == 12345);
  CHECK(run["verified"].GetBool());
  CHECK(std::string(run["host"]["cpu_model"].GetString()) == "Test CPU @ 3.00GHz");
  CHECK(run["host"]["logical_cpus"].GetUint() == 2);
  CHECK(run["host"]["memory_bytes"].GetUint64() == (std::uint64_t{24} << 30));
  // In the run object after pcs_parameters, in this order.
  CHECK(json.find("\"pcs_parameters\"") < json.find("\"trace_length\""));
  CHECK(json.find("\"trace_length\"") < json.find("\"padded_scale_log2\""));
  CHECK(json.find("\"proof_size_bytes\"") < json.find("\"verified\""));
  CHECK(json.find("\"verified\"") < json.find("\"host\""));
  CHECK(json.find("\"host\"") < json.find("\"root\""));
  CHECK(validate(json) == "");
  // The schema holds host to its three members.
  rapidjson::Document extra;
  extra.Parse(json);
  extra["run"]["host"].AddMember("gpu", "none", extra.GetAllocator());
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  extra.Accept(w);
  CHECK(validate(buf.GetString()) != "");
}

TEST_CASE("schema properties and rendered fields are the same sets (drift lock)") {
  rapidjson::Document sd;
  sd.Parse(read_all(JOLT_SUMMARY_SCHEMA_PATH));
  REQUIRE(sd.IsObject());
  rapidjson::Document d;
  d.Parse(jolt::sinks::summary_to_json(jolt::summarize(jolt::testing::fixture_profile())));
  auto keys = [](const rapidjson::Value& obj) {
    std::vector<std::string> out;
    for (auto m = obj.MemberBegin(); m != obj.MemberEnd(); ++m)
      out.emplace_back(m->name.GetString());
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto& defs = sd["definitions"];
  CHECK(keys(sd["properties"]) == keys(d));
  CHECK(keys(defs["RunMetadata"]["properties"]) == keys(d["run"]));
  CHECK(keys(defs["HostInfo"]["properties"]) == keys(d["run"]["host"]));
  CHECK(keys(defs["RootSummary"]["properties"]) == keys(d["root"]));
  CHECK(keys(defs["SpanAggregate"]["properties"]) == keys(d["spans"]["prove_batch"]));
  CHECK(keys(defs["StageSummary"]["properties"]) == keys(d["stages"][0]));
  CHECK(keys(defs["CounterSummary"]["properties"]) == keys(d["counters"]["memory_gib"]));
  CHECK(keys(defs["HeapSnapshot"]["properties"]) == keys(d["heap"]["Stage2Batch_prepared"]));
}

TEST_CASE("NaN and Inf counter samples are skipped and summary.json stays valid JSON") {
  jolt::Profile p = jolt::testing::fixture_profile();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  p.counters.push_back(
      jolt::CounterTrack{"load_percent", 7, {{1, nan}, {2, 50.0}, {3, inf}, {4, 30.0}}});
  p.counters.push_back(jolt::CounterTrack{"only_bad", 8, {{1, nan}, {2, -inf}}});
  p.counters.push_back(jolt::CounterTrack{"huge", 9, {{1, 1e308}, {2, 1e308}}});
  const jolt::ProfileSummary s = jolt::summarize(p);
  REQUIRE(s.counters.count("load_percent") == 1);
  CHECK(s.counters.at("load_percent").samples == 2);
  CHECK(s.counters.at("load_percent").max == 50.0);
  CHECK(s.counters.at("load_percent").mean == 40.0);
  CHECK(s.counters.count("only_bad") == 0);
  CHECK(s.counters.at("huge").mean == 1e308);  // no overflow to inf
  const std::string json = jolt::sinks::summary_to_json(s);
  CHECK(validate(json) == "");
  // A summary built by hand with a non-finite value still renders valid JSON.
  jolt::ProfileSummary by_hand = s;
  by_hand.counters["hand"] = jolt::CounterSummary{3, nan, inf};
  const std::string hand = jolt::sinks::summary_to_json(by_hand);
  CHECK(validate(hand) == "");
  CHECK(hand.find("\"hand\"") == std::string::npos);
}
