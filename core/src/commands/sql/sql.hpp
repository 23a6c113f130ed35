// `jolt-run sql`: a read-only SQL query on a run's trace.db (the sqlite sink's tables, named as
// trace_processor names them: plugins/sinks/sqlite/trace_db.hpp), built from the run's
// trace.json when the run had no sqlite sink.
//
// clang-format off
//   const std::string dir = resolve_run_directory("latest", "benchmark-runs");
//   TraceDb db = open_trace_db(dir);                 // trace.db, or staged from trace.json
//   const QueryResult r = run_query(db.path(), "SELECT name, COUNT(*) FROM slice GROUP BY name");
//   db.keep();                                       // a staged build becomes {dir}/trace.db
//   std::cout << render_table(r);                    // or render_csv(r), render_json(r)
// clang-format on
//
// Nothing is written into the run directory unless the query succeeds: a trace.db built from
// trace.json is staged in `{dir}/.trace.db.staged.<pid>` (written atomically by the sqlite
// sink's writer) and renamed to trace.db only by keep(); otherwise the destructor removes it.
// When the run directory is not writable the build goes to a temporary folder and is not kept.
// Errors throw SqlError naming the file and what to do. Not thread-safe per object.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <jolt/profile.hpp>

namespace jolt::core {

class SqlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run directory from `sql`'s RUN_DIR argument: "latest" (or "") is the most recent `latest_*`
// link under out_dir (report's rule); anything else must be a directory.
std::string resolve_run_directory(const std::string& arg, const std::string& out_dir);

// The Profile a chrome sink's trace.json describes, as far as the file carries it: threads (tid,
// thread_name, B/E/i events with their args, timestamps µs → exact ns), counter tracks ("C"
// events, one per counter name and tid, in order of first appearance; a thread that only sampled
// counters becomes a thread without events) and run.trace_name (from process_name). Throws
// SqlError naming the file when it cannot be read or is not a trace.json.
Profile read_chrome_trace_profile(const std::string& path);

// The trace.db a query on run_dir reads.
class TraceDb {
 public:
  TraceDb() = default;
  TraceDb(TraceDb&& other) noexcept;
  TraceDb& operator=(TraceDb&&) = delete;
  TraceDb(const TraceDb&) = delete;
  ~TraceDb();
  const std::string& path() const { return path_; }
  // Where it came from: "" for the run's own trace.db, else a sentence for stderr.
  const std::string& note() const { return note_; }
  // Moves a staged build to {run_dir}/trace.db (atomic rename). A no-op otherwise.
  void keep();

 private:
  friend TraceDb open_trace_db(const std::string& run_dir);
  std::string path_;
  std::string keep_as_;   // set for a staged build kept on keep()
  std::string temp_dir_;  // set for a build in a temporary folder (removed with it)
  std::string note_;
};

// {run_dir}/trace.db when present; otherwise built from {run_dir}/trace.json (staged, see above).
// Throws SqlError when the run has neither or trace.json cannot be read.
TraceDb open_trace_db(const std::string& run_dir);

using SqlValue = std::variant<std::monostate, std::int64_t, double, std::string>;  // NULL first

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<SqlValue>> rows;
};

// Runs one read-only statement (a trailing ';' and whitespace are fine) on the database at
// db_path, opened read-only. Throws SqlError naming the file: not a database, a statement that
// fails or would write, more than one statement. Blobs come back as "X'hex'" strings.
QueryResult run_query(const std::string& db_path, const std::string& sql);

// Aligned columns under a header and a rule; number columns (and their headers) right-aligned, NULL
// as "NULL", reals as SQLite's shell prints them ("%.15g", with ".0" on whole numbers); then "(N
// rows)".
std::string render_table(const QueryResult& r);
// RFC 4180: a header line, then one line per row; NULL as an empty field.
std::string render_csv(const QueryResult& r);
// A JSON array of one object per row (column name -> value; NULL and non-finite reals as null).
std::string render_json(const QueryResult& r);

}  // namespace jolt::core
