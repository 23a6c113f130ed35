// The summary sink as a loaded plugin: summary.json is schema-valid (embedded schema), keeps the
// host's git_rev, and carries the fixture's numbers.
#include <doctest/doctest.h>

#include <rapidjson/document.h>

#include "fixture_profile.hpp"
#include "sink_test_support.hpp"
#include "trace_validator.hpp"

TEST_CASE("summary sink writes a valid summary.json") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("summary"));
  CHECK(std::string(loaded.descriptor().name) == "summary");
  const std::string dir = sink_test::fresh_dir("summary_fixture");
  const jolt::Status st = loaded.sink().write(jolt::testing::fixture_profile(), {dir, dir});
  REQUIRE_MESSAGE(st.ok, st.message);
  CHECK_FALSE(sink_test::has_temp_files(dir));
  const std::string text = sink_test::read_file(dir + "/summary.json");
  const auto report = jolt::validate::validate_text(text);
  CHECK(report.kind == jolt::validate::FileKind::kSummary);
  CHECK_MESSAGE(report.ok(), jolt::validate::format_report("summary.json", report));
  rapidjson::Document d;
  d.Parse(text);
  CHECK(std::string(d["run"]["git_rev"].GetString()) == "abc1234");
  CHECK(d["root"]["wall_time_ns"].GetUint64() == 2'500'000);
  CHECK(d["root"]["dark_time_fraction"].GetDouble() == doctest::Approx(0.24));
  CHECK(d["spans"]["EqPolynomial::evals"]["self_ns"].GetUint64() == 100'000);
}

TEST_CASE("summary sink fills git_rev from git when the host did not") {
  jolt::Profile p = jolt::testing::fixture_profile();
  p.run.git_rev.reset();
  const std::string dir = sink_test::fresh_dir("summary_gitrev");
  sink_test::LoadedSink loaded(sink_test::plugin_path("summary"));
  REQUIRE(loaded.sink().write(p, {dir, dir}).ok);
  rapidjson::Document d;
  d.Parse(sink_test::read_file(dir + "/summary.json"));
  CHECK((d["run"]["git_rev"].IsNull() || d["run"]["git_rev"].GetStringLength() > 0));
}
