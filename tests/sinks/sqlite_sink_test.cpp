// The sqlite sink as a loaded plugin: trace.db's tables hold the fixture's replayed spans (depth,
// parent), instants, threads, counter samples and args under trace_processor's names; the seed's
// query gives summary.json's per-label counts and totals, also in the `sqlite3` shell; the write
// is atomic.
#include <doctest/doctest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>
#include <variant>

#include <jolt/spans.hpp>
#include <jolt/summary.hpp>

#include "fixture_profile.hpp"
#include "sink_test_support.hpp"

using namespace jolt::testing;

namespace {

constexpr const char* kSeedQuery =
    "SELECT name, COUNT(*) AS n, SUM(dur)/1e9 AS total_s FROM slice GROUP BY name ORDER BY "
    "total_s DESC LIMIT 15";

using Cell = std::variant<std::monostate, std::int64_t, double, std::string>;
using Row = std::vector<Cell>;

std::vector<Row> query(const std::string& db_path, const std::string& sql) {
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open_v2(db_path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
  sqlite3_stmt* stmt = nullptr;
  INFO(sql);
  REQUIRE_MESSAGE(sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK,
                  sqlite3_errmsg(db.get()));
  std::vector<Row> rows;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    Row& r = rows.emplace_back();
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_INTEGER:
          r.emplace_back(std::int64_t{sqlite3_column_int64(stmt, c)});
          break;
        case SQLITE_FLOAT:
          r.emplace_back(sqlite3_column_double(stmt, c));
          break;
        case SQLITE_TEXT:
          r.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c))));
          break;
        default:
          r.emplace_back(std::monostate{});
      }
    }
  }
  sqlite3_finalize(stmt);
  return rows;
}

std::int64_t i64(const Cell& c) {
  return std::get<std::int64_t>(c);
}
const std::string& str(const Cell& c) {
  return std::get<std::string>(c);
}

std::string write_fixture_db(const std::string& name, const jolt::Profile& p) {
  sink_test::LoadedSink loaded(sink_test::plugin_path("sqlite"));
  CHECK(std::string(loaded.descriptor().name) == "sqlite");
  const std::string dir = sink_test::fresh_dir(name);
  const jolt::Status st = loaded.sink().write(p, {dir, dir});
  REQUIRE_MESSAGE(st.ok, st.message);
  CHECK_FALSE(sink_test::has_temp_files(dir));
  return dir + "/trace.db";
}

}  // namespace

TEST_CASE("sqlite sink: the seed's query gives the summary's per-label counts and totals") {
  const jolt::Profile p = fixture_profile();
  const std::string db = write_fixture_db("sqlite_seed", p);
  const jolt::ProfileSummary s = jolt::summarize(p);
  const std::vector<Row> rows = query(db, kSeedQuery);
  std::size_t spans = 0;
  for (const Row& r : rows) {
    INFO(str(r[0]));
    const auto it = s.spans.find(str(r[0]));
    if (it == s.spans.end()) {  // an instant: in slice with dur 0, not a span label
      CHECK(str(r[0]) == "heap_snapshot");
      CHECK(std::get<double>(r[2]) == 0.0);
      continue;
    }
    ++spans;
    CHECK(i64(r[1]) == static_cast<std::int64_t>(it->second.count));
    CHECK(std::get<double>(r[2]) == doctest::Approx(it->second.total_ns / 1e9).epsilon(1e-12));
  }
  CHECK(spans == s.spans.size());
  // Exact ns totals, too.
  for (const Row& r : query(db, "SELECT name, SUM(dur) FROM slice GROUP BY name"))
    if (s.spans.count(str(r[0])))
      CHECK(i64(r[1]) == static_cast<std::int64_t>(s.spans.at(str(r[0])).total_ns));
}

TEST_CASE("sqlite sink: slices carry the replayed tree's depth and parent, instants their place") {
  const jolt::Profile p = fixture_profile();
  const std::string db = write_fixture_db("sqlite_tree", p);
  const jolt::SpanTree tree = jolt::replay_spans(p);
  using Key = std::tuple<std::string, std::string, std::int64_t, std::int64_t, std::int64_t,
                         std::string>;  // thread, name, ts, dur, depth, parent name ("" at root)
  std::vector<Key> want;
  for (const jolt::ReplayedSpan& s : tree.spans)
    want.emplace_back(p.threads[s.thread].name, std::string(s.name), s.start_ns, s.duration_ns,
                      s.depth,
                      s.parent == jolt::kNoParent ? "" : std::string(tree.spans[s.parent].name));
  want.emplace_back("main", "heap_snapshot", 1'350'000, 0, 3, "Stage1Batch::prove");
  std::vector<Key> got;
  for (const Row& r : query(db,
                            "SELECT t.name, s.name, s.ts, s.dur, s.depth, COALESCE(p.name, '') "
                            "FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                            "JOIN thread t ON tt.utid = t.utid "
                            "LEFT JOIN slice p ON s.parent_id = p.id")) {
    got.emplace_back(str(r[0]), str(r[1]), i64(r[2]), i64(r[3]), i64(r[4]), str(r[5]));
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  CHECK(got == want);
  // A parent is on the same track and one level up.
  CHECK(query(db,
              "SELECT COUNT(*) FROM slice s JOIN slice p ON s.parent_id = p.id "
              "WHERE p.track_id != s.track_id OR p.depth != s.depth - 1")[0][0] ==
        Cell{std::int64_t{0}});
  CHECK(query(db, "SELECT COUNT(*) FROM slice WHERE category IS NOT NULL")[0][0] ==
        Cell{std::int64_t{0}});
}

TEST_CASE("sqlite sink: threads, counter samples and args under trace_processor's names") {
  jolt::Profile p = fixture_profile();
  p.counters.push_back(jolt::CounterTrack{"orphan", 42, {{100, 1.5}, {200, std::nan("")}}});
  const std::string db = write_fixture_db("sqlite_tables", p);
  const std::vector<Row> threads = query(db, "SELECT utid, tid, name FROM thread ORDER BY utid");
  REQUIRE(threads.size() == 4);
  CHECK(str(threads[0][2]) == "main");
  CHECK(str(threads[1][2]) == "tbb-worker-0");
  CHECK(str(threads[2][2]) == "metrics-monitor");
  CHECK(i64(threads[3][1]) == 42);
  CHECK(str(threads[3][2]) == "counters-42");
  CHECK(query(db, "SELECT name FROM process")[0][0] ==
        Cell{std::string("jolt-run modular_fibonacci_16")});

  std::vector<std::tuple<std::string, std::int64_t, double>> want, got;
  for (const jolt::CounterTrack& c : p.counters)
    for (const jolt::CounterSample& s : c.samples)
      if (std::isfinite(s.value)) want.emplace_back(c.name, s.ts_ns, s.value);
  for (const Row& r : query(db,
                            "SELECT t.name, c.ts, c.value FROM counter c "
                            "JOIN counter_track t ON c.track_id = t.id"))
    got.emplace_back(str(r[0]), i64(r[1]), std::get<double>(r[2]));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  CHECK(got == want);
  // Track ids are one space: thread tracks, then counter tracks (the `track` view holds both).
  CHECK(query(db, "SELECT COUNT(*) FROM track")[0][0] == Cell{std::int64_t{4 + 3}});
  CHECK(
      query(db, "SELECT COUNT(*) FROM counter_track c JOIN thread_track t ON c.id = t.id")[0][0] ==
      Cell{std::int64_t{0}});

  const std::vector<Row> args = query(
      db,
      "SELECT a.key, a.flat_key, a.int_value, a.value_type FROM slice s "
      "JOIN args a ON a.arg_set_id = s.arg_set_id WHERE s.name = 'prove_batch' ORDER BY a.key");
  REQUIRE(args.size() == 2);
  CHECK(str(args[0][0]) == "args.members");
  CHECK(str(args[0][1]) == "args.members");
  CHECK(i64(args[0][2]) == 2);
  CHECK(str(args[0][3]) == "int");
  CHECK(i64(args[1][2]) == 16);
  CHECK(query(db,
              "SELECT a.string_value FROM slice s JOIN args a USING(arg_set_id) "
              "WHERE s.name = 'heap_snapshot'")[0][0] ==
        Cell{std::string("\"Stage2Batch_prepared\"")});
  CHECK(
      query(
          db,
          "SELECT COUNT(*) FROM slice WHERE arg_set_id IS NULL AND name = 'prove_stage0'")[0][0] ==
      Cell{std::int64_t{1}});
  // The indexes the issue asks for (name and track).
  const std::vector<Row> indexes =
      query(db,
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name");
  std::vector<std::string> names;
  for (const Row& r : indexes) names.push_back(str(r[0]));
  CHECK(names == std::vector<std::string>{"args_arg_set_id", "counter_track_ts", "slice_name",
                                          "slice_track_ts"});
}

TEST_CASE("sqlite sink: the seed's query runs unchanged in the sqlite3 shell") {
  const std::string db = write_fixture_db("sqlite_shell", fixture_profile());
  const std::string cmd = "'" JOLT_SQLITE3 "' '" + db + "' '" + kSeedQuery + "' 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = ::pclose(pipe);
  INFO(out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(out.rfind("jolt_prover::prove|1|0.0025\n", 0) == 0);  // the longest label first
  CHECK(std::count(out.begin(), out.end(), '\n') == 9);       // 9 labels (8 spans + instant)
}

TEST_CASE("sqlite sink: replaces an earlier trace.db atomically; a bad folder is an error") {
  const jolt::Profile p = fixture_profile();
  const std::string db = write_fixture_db("sqlite_replace", p);
  sink_test::LoadedSink loaded(sink_test::plugin_path("sqlite"));
  const std::string dir = db.substr(0, db.size() - std::string("/trace.db").size());
  jolt::Profile smaller = p;
  smaller.threads.resize(1);  // the monitor's counters now come from a thread of their own
  REQUIRE(loaded.sink().write(smaller, {dir, dir}).ok);
  const std::vector<Row> threads = query(db, "SELECT name FROM thread ORDER BY utid");
  REQUIRE(threads.size() == 2);
  CHECK(str(threads[0][0]) == "main");
  CHECK(str(threads[1][0]) == "counters-3");
  CHECK_FALSE(sink_test::has_temp_files(dir));

  const std::string missing = dir + "/no/such/folder";
  const jolt::Status st = loaded.sink().write(p, {missing, missing});
  CHECK_FALSE(st.ok);
  CHECK(st.message.find(missing + "/trace.db") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/no"));
}
