// `jolt-run sql`'s library: trace.json read back into a Profile, trace.db staged from it and kept
// only on keep(), read-only queries and their errors, and the three renderings.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <tuple>

#include <jolt/spans.hpp>

#include "chrome_trace.hpp"
#include "commands/sql/sql.hpp"
#include "fixture_profile.hpp"
#include "temp_dir.hpp"
#include "trace_db.hpp"

namespace fs = boost::filesystem;
using jolt::core::SqlError;
using jolt::core::testing::TempDir;

namespace {

constexpr const char* kSeedQuery =
    "SELECT name, COUNT(*) AS n, SUM(dur)/1e9 AS total_s FROM slice GROUP BY name ORDER BY "
    "total_s DESC LIMIT 15";

std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// A run directory holding only the fixture's trace.json.
void write_trace_json(const fs::path& dir) {
  const jolt::Status st = jolt::sinks::write_chrome_trace(jolt::testing::fixture_profile(),
                                                          (dir / "trace.json").string());
  REQUIRE_MESSAGE(st.ok, st.message);
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.what();
  }
  FAIL("no SqlError");
  return "";
}

}  // namespace

TEST_CASE("trace.json reads back into the Profile it was written from") {
  TempDir t;
  write_trace_json(t.path);
  const jolt::Profile want = jolt::testing::fixture_profile();
  const jolt::Profile got = jolt::core::read_chrome_trace_profile((t.path / "trace.json").string());
  CHECK(got.run.trace_name == want.run.trace_name);
  REQUIRE(got.threads.size() == want.threads.size());
  for (std::size_t i = 0; i < want.threads.size(); ++i) {
    CHECK(got.threads[i].tid == want.threads[i].tid);
    CHECK(got.threads[i].name == want.threads[i].name);
  }
  const jolt::SpanTree a = jolt::replay_spans(want), b = jolt::replay_spans(got);
  REQUIRE(a.spans.size() == b.spans.size());
  for (std::size_t i = 0; i < a.spans.size(); ++i) {
    CHECK(a.spans[i].name == b.spans[i].name);
    CHECK(a.spans[i].start_ns == b.spans[i].start_ns);
    CHECK(a.spans[i].duration_ns == b.spans[i].duration_ns);
    CHECK(a.spans[i].depth == b.spans[i].depth);
    CHECK(a.spans[i].parent == b.spans[i].parent);
    CHECK(a.spans[i].args.size() == b.spans[i].args.size());
  }
  REQUIRE(got.counters.size() == want.counters.size());
  for (const jolt::CounterTrack& c : want.counters) {
    const auto it = std::find_if(got.counters.begin(), got.counters.end(),
                                 [&](const jolt::CounterTrack& g) { return g.name == c.name; });
    REQUIRE(it != got.counters.end());
    CHECK(it->tid == c.tid);
    REQUIRE(it->samples.size() == c.samples.size());
    for (std::size_t i = 0; i < c.samples.size(); ++i) {
      CHECK(it->samples[i].ts_ns == c.samples[i].ts_ns);
      CHECK(it->samples[i].value == c.samples[i].value);
    }
  }
}

TEST_CASE("a run without trace.db: built from trace.json, kept only after keep()") {
  TempDir t;
  write_trace_json(t.path);
  const std::set<std::string> before = listing(t.path);
  {
    jolt::core::TraceDb db = jolt::core::open_trace_db(t.path.string());
    CHECK(db.note().find("built trace.db from") != std::string::npos);
    // The fixture's 9 spans and its heap_snapshot instant.
    CHECK(jolt::core::run_query(db.path(), "SELECT COUNT(*) FROM slice").rows[0][0] ==
          jolt::core::SqlValue{std::int64_t{10}});
  }  // not kept: the staged file goes
  CHECK(listing(t.path) == before);
  {
    jolt::core::TraceDb db = jolt::core::open_trace_db(t.path.string());
    db.keep();
    CHECK(db.path() == (t.path / "trace.db").string());
  }
  std::set<std::string> after = before;
  after.insert("trace.db");
  CHECK(listing(t.path) == after);
  // The built trace.db answers the seed's query as the sink's (written from the Profile) does.
  TempDir sink;
  REQUIRE(jolt::sinks::write_trace_db(jolt::testing::fixture_profile(),
                                      (sink.path / "trace.db").string())
              .ok);
  const auto built = jolt::core::run_query((t.path / "trace.db").string(), kSeedQuery);
  const auto direct = jolt::core::run_query((sink.path / "trace.db").string(), kSeedQuery);
  CHECK(jolt::core::render_csv(built) == jolt::core::render_csv(direct));
  CHECK(built.rows.size() == 9);
  // Now present, trace.db is used as is.
  CHECK(jolt::core::open_trace_db(t.path.string()).note().empty());
}

TEST_CASE("bad input: clear errors, nothing written into the run directory") {
  TempDir t;
  const std::string dir = t.path.string();
  CHECK(error_of([&] {
          jolt::core::open_trace_db(dir);
        }).find("no trace.db or trace.json in " + dir) != std::string::npos);
  CHECK(listing(t.path).empty());
  CHECK(error_of([&] {
          jolt::core::resolve_run_directory(dir + "/nope", "benchmark-runs");
        }).find("no run directory") != std::string::npos);

  std::ofstream(t.path / "trace.json") << "[{\"name\": \"x\", \"ph\": \"B\"";  // cut short
  CHECK(error_of([&] { jolt::core::open_trace_db(dir); }).find("is not valid JSON") !=
        std::string::npos);
  CHECK(listing(t.path) == std::set<std::string>{"trace.json"});

  std::ofstream(t.path / "trace.db") << "this is not a database, just text\n";
  const std::string corrupt = error_of([&] {
    jolt::core::TraceDb db = jolt::core::open_trace_db(dir);
    jolt::core::run_query(db.path(), "SELECT 1");
  });
  CHECK(corrupt.find("not a readable trace database") != std::string::npos);
  CHECK(corrupt.find("delete it to rebuild") != std::string::npos);

  // A failing query on a run without trace.db leaves no trace.db behind.
  fs::remove(t.path / "trace.db");
  fs::remove(t.path / "trace.json");
  write_trace_json(t.path);
  const std::set<std::string> before = listing(t.path);
  CHECK(error_of([&] {
          jolt::core::TraceDb db = jolt::core::open_trace_db(dir);
          jolt::core::run_query(db.path(), "SELECT nope FROM slice");
          db.keep();
        }).find("query failed: no such column: nope") != std::string::npos);
  CHECK(listing(t.path) == before);

  // Writes, several statements and an empty query are refused, and the database is unchanged.
  REQUIRE(jolt::sinks::write_trace_db(jolt::testing::fixture_profile(), dir + "/trace.db").ok);
  const std::string db = dir + "/trace.db";
  CHECK(error_of([&] { jolt::core::run_query(db, "DELETE FROM slice"); }).find("read-only") !=
        std::string::npos);
  CHECK(error_of([&] {
          jolt::core::run_query(db, "VACUUM INTO '" + dir + "/copy.db'");
        }).find("read-only") != std::string::npos);
  CHECK(error_of([&] {
          jolt::core::run_query(db, "SELECT 1; DELETE FROM slice");
        }).find("more than one statement") != std::string::npos);
  CHECK(error_of([&] { jolt::core::run_query(db, "  "); }).find("empty query") !=
        std::string::npos);
  CHECK(jolt::core::run_query(db, "SELECT COUNT(*) FROM slice;  ").rows[0][0] ==
        jolt::core::SqlValue{std::int64_t{10}});
  CHECK_FALSE(fs::exists(t.path / "copy.db"));
}

TEST_CASE("query results render as an aligned table, CSV and JSON") {
  jolt::core::QueryResult r;
  r.columns = {"name", "n", "total_s"};
  r.rows = {{std::string("jolt_prover::prove"), std::int64_t{1}, 2.5},
            {std::string("a,\"b\""), std::int64_t{12}, std::monostate{}},
            {std::string("x"), std::int64_t{3}, 1.0}};
  CHECK(jolt::core::render_table(r) ==
        "name                 n  total_s\n"
        "------------------  --  -------\n"
        "jolt_prover::prove   1      2.5\n"
        "a,\"b\"               12     NULL\n"
        "x                    3      1.0\n"
        "(3 rows)\n");
  CHECK(jolt::core::render_csv(r) ==
        "name,n,total_s\r\njolt_prover::prove,1,2.5\r\n\"a,\"\"b\"\"\",12,\r\nx,3,1.0\r\n");
  CHECK(jolt::core::render_json(r) ==
        "[{\"name\":\"jolt_prover::prove\",\"n\":1,\"total_s\":2.5},"
        "{\"name\":\"a,\\\"b\\\"\",\"n\":12,\"total_s\":null},"
        "{\"name\":\"x\",\"n\":3,\"total_s\":1.0}]\n");
}
