// End-to-end: a real `jolt-run profile` with the perfetto and sqlite sinks, then `jolt-run sql` on
// its run directory: the seed's trace_processor query gives summary.json's per-label counts and
// totals, slices agree with the span tree replayed from trace.json, counters with trace.json's,
// trace.pftrace decodes with protoc; a run without trace.db gets one built; bad input fails
// clearly and writes nothing.
#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <sys/wait.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include <jolt/spans.hpp>

#include "commands/sql/sql.hpp"

namespace fs = boost::filesystem;

namespace {

constexpr const char* kSeedQuery =
    "SELECT name, COUNT(*) AS n, SUM(dur)/1e9 AS total_s FROM slice GROUP BY name ORDER BY "
    "total_s DESC LIMIT 15";

struct Result {
  int code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

Result run(const std::string& args, const fs::path& cwd) {
  const fs::path err_file = cwd / ".stderr";
  const std::string cmd =
      "cd '" + cwd.string() + "' && '" JOLT_RUN_EXE "' " + args + " 2>'" + err_file.string() + "'";
  Result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file.string());
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  fs::remove(err_file);
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p.string(), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `s` as one shell word.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Workspace {
  fs::path dir = fs::temp_directory_path() / fs::unique_path("jolt-sql-e2e-%%%%%%");
  Workspace() { fs::create_directories(dir); }
  ~Workspace() { fs::remove_all(dir); }
  fs::path run_dir() const {
    return dir / "benchmark-runs" /
           fs::read_symlink(dir / "benchmark-runs/latest_modular_fibonacci_10");
  }
};

const Workspace& profiled() {
  static Workspace w;
  static bool done = false;
  if (!done) {
    done = true;
    const Result r =
        run("profile --workload fibonacci --scale 10 --quiet --sink chrome --sink perfetto "
            "--sink sqlite --sink summary",
            w.dir);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
  }
  return w;
}

std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

}  // namespace

TEST_CASE("profile --sink perfetto --sink sqlite writes trace.pftrace and trace.db") {
  const fs::path run_dir = profiled().run_dir();
  CHECK(fs::exists(run_dir / "trace.pftrace"));
  CHECK(fs::exists(run_dir / "trace.db"));
  CHECK(fs::file_size(run_dir / "trace.pftrace") * 3 < fs::file_size(run_dir / "trace.json"));
  // protoc decodes the file against the checked-in schema; one SLICE_BEGIN per span.
  const std::string cmd = "'" JOLT_PROTOC "' --decode=perfetto.protos.Trace -I '" JOLT_SOURCE_DIR
                          "/schema' perfetto_trace_subset.proto < '" +
                          (run_dir / "trace.pftrace").string() + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::size_t begins = 0;
  char line[4096];
  while (std::fgets(line, sizeof line, p))
    if (std::string(line).find("type: TYPE_SLICE_BEGIN") != std::string::npos) ++begins;
  CHECK(WEXITSTATUS(::pclose(p)) == 0);
  const jolt::Profile from_json =
      jolt::core::read_chrome_trace_profile((run_dir / "trace.json").string());
  CHECK(begins == jolt::replay_spans(from_json).spans.size());
  CHECK(begins > 100);
}

TEST_CASE("jolt-run sql: the seed's query gives summary.json's per-label counts and totals") {
  const Workspace& w = profiled();
  const fs::path run_dir = w.run_dir();
  const rapidjson::Document summary = parse_json(slurp(run_dir / "summary.json"));
  const auto& spans = summary["spans"];

  // The seed's query as is: 15 rows, a table with its three columns.
  const Result table = run("sql latest " + quoted(kSeedQuery), w.dir);
  INFO(table.err);
  REQUIRE(table.code == 0);
  CHECK(table.out.rfind("name", 0) == 0);
  CHECK(table.out.find("total_s") != std::string::npos);
  CHECK(table.out.find("(15 rows)") != std::string::npos);
  CHECK(table.err.empty());  // the run's own trace.db: no build note

  // Every label, as JSON: spans match the summary; the rest are instants (dur 0).
  const std::string all =
      "SELECT name, COUNT(*) AS n, SUM(dur) AS total_ns, SUM(dur)/1e9 AS total_s FROM slice "
      "GROUP BY name ORDER BY total_s DESC";
  const Result json = run("sql " + quoted(run_dir.string()) + " --json " + quoted(all), w.dir);
  REQUIRE(json.code == 0);
  const rapidjson::Document rows = parse_json(json.out);
  std::size_t labels = 0;
  for (const auto& row : rows.GetArray()) {
    const std::string name = row["name"].GetString();
    INFO(name);
    if (!spans.HasMember(name.c_str())) {
      CHECK(row["total_ns"].GetInt64() == 0);
      continue;
    }
    ++labels;
    CHECK(row["n"].GetUint64() == spans[name.c_str()]["count"].GetUint64());
    CHECK(row["total_ns"].GetUint64() == spans[name.c_str()]["total_ns"].GetUint64());
  }
  CHECK(labels == spans.MemberCount());
  // The top 15 of the seed's query are the summary's 15 largest totals.
  const Result top = run("sql latest --json " + quoted(kSeedQuery), w.dir);
  const rapidjson::Document top_rows = parse_json(top.out);
  REQUIRE(top_rows.Size() == 15);
  CHECK(std::string(top_rows[0]["name"].GetString()) == "jolt_prover::prove");
}

TEST_CASE("jolt-run sql: slices and counters agree with trace.json's replayed spans and samples") {
  const Workspace& w = profiled();
  const fs::path run_dir = w.run_dir();
  const jolt::Profile p = jolt::core::read_chrome_trace_profile((run_dir / "trace.json").string());
  const jolt::SpanTree tree = jolt::replay_spans(p);
  using Span = std::tuple<std::string, std::string, std::uint64_t, std::uint64_t, std::uint32_t,
                          std::string, std::uint64_t>;  // thread, name, ts, dur, depth, parent,
                                                        // parent ts
  std::vector<Span> want, got;
  for (const jolt::ReplayedSpan& s : tree.spans) {
    const bool root = s.parent == jolt::kNoParent;
    want.emplace_back(p.threads[s.thread].name, std::string(s.name), s.start_ns, s.duration_ns,
                      s.depth, root ? "" : std::string(tree.spans[s.parent].name),
                      root ? 0 : tree.spans[s.parent].start_ns);
  }
  // Instants: dur 0, under the spans open on their thread at that point.
  for (std::size_t i = 0; i < p.threads.size(); ++i) {
    std::vector<std::size_t> open;
    std::size_t next = tree.thread_first[i];
    for (std::size_t ei = 0; ei < p.threads[i].events.size(); ++ei) {
      const jolt::TraceEvent& e = p.threads[i].events[ei];
      if (e.phase == jolt::Phase::kBegin) open.push_back(next++);
      if (e.phase == jolt::Phase::kEnd)
        while (!open.empty() && tree.spans[open.back()].end_event == ei) open.pop_back();
      if (e.phase != jolt::Phase::kInstant) continue;
      const jolt::ReplayedSpan* parent = open.empty() ? nullptr : &tree.spans[open.back()];
      want.emplace_back(p.threads[i].name, e.name, e.ts_ns, 0,
                        static_cast<std::uint32_t>(open.size()),
                        parent ? std::string(parent->name) : "", parent ? parent->start_ns : 0);
    }
  }
  const Result r =
      run("sql latest --csv " + quoted("SELECT t.name, s.name, s.ts, s.dur, s.depth, "
                                       "COALESCE(p.name, ''), COALESCE(p.ts, 0) FROM slice s "
                                       "JOIN thread_track t ON s.track_id = t.id "
                                       "LEFT JOIN slice p ON p.id = s.parent_id"),
          w.dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    REQUIRE(f.size() == 7);
    got.emplace_back(f[0], f[1], std::stoull(f[2]), std::stoull(f[3]),
                     static_cast<std::uint32_t>(std::stoul(f[4])), f[5], std::stoull(f[6]));
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  CHECK(got.size() == want.size());
  CHECK(got == want);

  std::vector<std::tuple<std::string, std::uint64_t, double>> want_c, got_c;
  for (const jolt::CounterTrack& c : p.counters)
    for (const jolt::CounterSample& s : c.samples) want_c.emplace_back(c.name, s.ts_ns, s.value);
  const Result c =
      run("sql latest --json " + quoted("SELECT t.name AS name, c.ts AS ts, c.value AS value FROM "
                                        "counter c JOIN counter_track t ON c.track_id = t.id"),
          w.dir);
  REQUIRE(c.code == 0);
  const rapidjson::Document counter_rows = parse_json(c.out);
  for (const auto& row : counter_rows.GetArray())
    got_c.emplace_back(row["name"].GetString(), row["ts"].GetUint64(), row["value"].GetDouble());
  std::sort(want_c.begin(), want_c.end());
  std::sort(got_c.begin(), got_c.end());
  CHECK(got_c.size() == want_c.size());
  for (std::size_t i = 0; i < std::min(got_c.size(), want_c.size()); ++i) {
    CHECK(std::get<0>(got_c[i]) == std::get<0>(want_c[i]));
    CHECK(std::get<1>(got_c[i]) == std::get<1>(want_c[i]));
    CHECK(std::get<2>(got_c[i]) == doctest::Approx(std::get<2>(want_c[i])).epsilon(1e-12));
  }
}

TEST_CASE("jolt-run sql: a run without trace.db gets one built from trace.json") {
  const Workspace& w = profiled();
  const fs::path copy = w.dir / "chrome-only-run";
  fs::create_directories(copy);
  fs::copy_file(w.run_dir() / "trace.json", copy / "trace.json");
  const Result failing = run("sql " + quoted(copy.string()) + " 'SELECT nope FROM slice'", w.dir);
  CHECK(failing.code == 1);
  CHECK(failing.err.find("no such column: nope") != std::string::npos);
  CHECK(listing(copy) == std::set<std::string>{"trace.json"});  // nothing kept on error

  const Result built = run("sql " + quoted(copy.string()) + " --csv " + quoted(kSeedQuery), w.dir);
  INFO(built.err);
  REQUIRE(built.code == 0);
  CHECK(built.err.find("built trace.db from") != std::string::npos);
  CHECK(listing(copy) == std::set<std::string>{"trace.db", "trace.json"});
  const Result from_sink = run("sql latest --csv " + quoted(kSeedQuery), w.dir);
  CHECK(built.out == from_sink.out);
}

TEST_CASE("jolt-run sql: bad input is a clear error, a non-zero exit, nothing written") {
  const Workspace& w = profiled();
  const fs::path run_dir = w.run_dir();
  const std::set<std::string> before = listing(run_dir);

  Result r = run("sql " + quoted((w.dir / "no-such-run").string()) + " 'SELECT 1'", w.dir);
  CHECK(r.code == 1);
  CHECK(r.err.find("no run directory") != std::string::npos);

  r = run("sql latest 'SELECT * FROM no_such_table'", w.dir);
  CHECK(r.code == 1);
  CHECK(r.err.find("no such table: no_such_table") != std::string::npos);
  r = run("sql latest 'DELETE FROM slice'", w.dir);
  CHECK(r.code == 1);
  CHECK(r.err.find("read-only") != std::string::npos);
  CHECK(listing(run_dir) == before);

  r = run("sql", w.dir);
  CHECK(r.code == 2);
  r = run("sql latest 'SELECT 1' --csv --json", w.dir);
  CHECK(r.code == 2);

  const fs::path corrupt = w.dir / "corrupt-run";
  fs::create_directories(corrupt);
  std::ofstream((corrupt / "trace.db").string()) << "not a database\n";
  r = run("sql " + quoted(corrupt.string()) + " 'SELECT 1'", w.dir);
  CHECK(r.code == 1);
  CHECK(r.err.find("not a readable trace database") != std::string::npos);
  CHECK(listing(corrupt) == std::set<std::string>{"trace.db"});

  const fs::path empty = w.dir / "empty-run";
  fs::create_directories(empty);
  r = run("sql " + quoted(empty.string()) + " 'SELECT 1'", w.dir);
  CHECK(r.code == 1);
  CHECK(r.err.find("no trace.db or trace.json") != std::string::npos);
  CHECK(listing(empty).empty());
}
