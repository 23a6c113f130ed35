// trace.db rendering with SQLite's C API: one transaction of prepared inserts into a temp file,
// indexes after the rows, then fsync and rename.
#include "trace_db.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <variant>
#include <vector>

#include <jolt/spans.hpp>

#include "trace_tracks.hpp"

namespace jolt::sinks {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE process(upid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);
CREATE TABLE thread(utid INTEGER PRIMARY KEY, tid INTEGER, name TEXT, upid INTEGER);
CREATE TABLE thread_track(id INTEGER PRIMARY KEY, name TEXT, utid INTEGER);
CREATE TABLE counter_track(id INTEGER PRIMARY KEY, name TEXT);
CREATE VIEW track AS
  SELECT id, name, 'thread_track' AS type FROM thread_track
  UNION ALL SELECT id, name, 'counter_track' AS type FROM counter_track;
CREATE TABLE slice(id INTEGER PRIMARY KEY, ts INTEGER, dur INTEGER, track_id INTEGER,
  category TEXT, name TEXT, depth INTEGER, parent_id INTEGER, arg_set_id INTEGER);
CREATE TABLE counter(id INTEGER PRIMARY KEY, ts INTEGER, track_id INTEGER, value REAL);
CREATE TABLE args(id INTEGER PRIMARY KEY, arg_set_id INTEGER, flat_key TEXT, key TEXT,
  int_value INTEGER, string_value TEXT, real_value REAL, value_type TEXT);
CREATE TABLE metadata(name TEXT PRIMARY KEY, str_value TEXT, int_value INTEGER);
)sql";

constexpr const char* kIndexes = R"sql(
CREATE INDEX slice_name ON slice(name);
CREATE INDEX slice_track_ts ON slice(track_id, ts);
CREATE INDEX counter_track_ts ON counter(track_id, ts);
CREATE INDEX args_arg_set_id ON args(arg_set_id);
)sql";

class DbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StatementFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

class Db {
 public:
  explicit Db(const std::string& path) {
    sqlite3* db = nullptr;
    const int rc =
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    db_.reset(db);
    if (rc != SQLITE_OK) fail("cannot create it");
  }
  sqlite3* get() { return db_.get(); }
  void exec(const char* sql) {
    if (sqlite3_exec(db_.get(), sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  [[noreturn]] void fail(const std::string& what) {
    throw DbError(what + ": " + (db_ ? sqlite3_errmsg(db_.get()) : "out of memory"));
  }
  void close() {
    if (sqlite3_close(db_.release()) != SQLITE_OK) throw DbError("closing it failed");
  }

 private:
  std::unique_ptr<sqlite3, DbCloser> db_;
};

// A prepared INSERT: bind columns 1.., then insert().
class Insert {
 public:
  Insert(Db& db, const char* sql) : db_(db) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db.get(), sql, -1, &s, nullptr) != SQLITE_OK) db.fail(sql);
    stmt_.reset(s);
  }
  Insert& i64(int col, std::int64_t v) {
    sqlite3_bind_int64(stmt_.get(), col, v);
    return *this;
  }
  Insert& real(int col, double v) {
    sqlite3_bind_double(stmt_.get(), col, v);
    return *this;
  }
  Insert& text(int col, std::string_view v) {
    sqlite3_bind_text(stmt_.get(), col, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
  }
  Insert& null(int col) {
    sqlite3_bind_null(stmt_.get(), col);
    return *this;
  }
  void insert() {
    if (sqlite3_step(stmt_.get()) != SQLITE_DONE) db_.fail("inserting a row");
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
  }

 private:
  Db& db_;
  std::unique_ptr<sqlite3_stmt, StatementFinalizer> stmt_;
};

std::int64_t as_i64(std::uint64_t v) {
  return static_cast<std::int64_t>(v);
}

class Rows {
 public:
  explicit Rows(Db& db)
      : process_(db, "INSERT INTO process VALUES(?1, ?2, ?3)"),
        thread_(db, "INSERT INTO thread VALUES(?1, ?2, ?3, 0)"),
        thread_track_(db, "INSERT INTO thread_track VALUES(?1, ?2, ?1)"),
        counter_track_(db, "INSERT INTO counter_track VALUES(?1, ?2)"),
        slice_(db, "INSERT INTO slice VALUES(?1, ?2, ?3, ?4, NULL, ?5, ?6, ?7, ?8)"),
        counter_(db, "INSERT INTO counter VALUES(?1, ?2, ?3, ?4)"),
        args_(db, "INSERT INTO args VALUES(?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7)"),
        metadata_(db, "INSERT INTO metadata VALUES(?1, ?2, ?3)") {}

  void write(const Profile& p) {
    process_.i64(1, 0).i64(2, 1).text(3, process_track_name(p)).insert();
    metadata_.text(1, "trace_name").text(2, p.run.trace_name).null(3).insert();
    metadata_.text(1, "workload").text(2, p.run.workload).null(3).insert();
    metadata_.text(1, "scale_log2").null(2).i64(3, p.run.scale_log2).insert();

    std::int64_t utid = 0;
    for (const ThreadTrack& t : p.threads) add_thread(utid++, t.tid, thread_track_name(t));
    for (std::uint32_t tid : counter_only_tids(p))
      add_thread(utid++, tid, counter_thread_name(tid));

    std::int64_t counter_id = 0;
    for (std::size_t j = 0; j < p.counters.size(); ++j) {
      const std::int64_t track_id = utid + static_cast<std::int64_t>(j);
      counter_track_.i64(1, track_id).text(2, p.counters[j].name).insert();
      for (const CounterSample& s : p.counters[j].samples)
        if (std::isfinite(s.value))
          counter_.i64(1, counter_id++)
              .i64(2, as_i64(s.ts_ns))
              .i64(3, track_id)
              .real(4, s.value)
              .insert();
    }

    const SpanTree tree = replay_spans(p);
    slice_of_span_.assign(tree.spans.size(), -1);
    for (std::size_t i = 0; i < p.threads.size(); ++i) write_thread(p.threads[i], tree, i);
  }

 private:
  void add_thread(std::int64_t utid, std::uint32_t tid, const std::string& name) {
    thread_.i64(1, utid).i64(2, tid).text(3, name).insert();
    thread_track_.i64(1, utid).text(2, name).insert();
  }

  // The arg set of `args` (NULL when none is kept), its rows inserted.
  void bind_args(const std::vector<Arg>& args) {
    bool any = false;
    for (const Arg& a : args) {
      const double* d = std::get_if<double>(&a.value);
      if (d && !std::isfinite(*d)) continue;
      if (!any) ++arg_set_id_;
      any = true;
      key_ = "args." + a.key;
      args_.i64(1, arg_id_++).i64(2, arg_set_id_).text(3, key_);
      if (const auto* n = std::get_if<std::int64_t>(&a.value))
        args_.i64(4, *n).null(5).null(6).text(7, "int");
      else if (d)
        args_.null(4).null(5).real(6, *d).text(7, "real");
      else
        args_.null(4).text(5, std::get<std::string>(a.value)).null(6).text(7, "string");
      args_.insert();
    }
    any ? void(slice_.i64(8, arg_set_id_)) : void(slice_.null(8));
  }

  // Slices of one thread in recorded order: a span at its begin event, an instant at its own.
  void write_thread(const ThreadTrack& t, const SpanTree& tree, std::size_t thread) {
    std::size_t next_span = tree.thread_first[thread];
    open_.clear();
    for (std::size_t ei = 0; ei < t.events.size(); ++ei) {
      const TraceEvent& e = t.events[ei];
      if (e.phase == Phase::kEnd) {
        while (!open_.empty() && tree.spans[open_.back()].end_event == ei) open_.pop_back();
        continue;
      }
      const std::int64_t id = slice_id_++;
      slice_.i64(1, id).i64(4, static_cast<std::int64_t>(thread)).text(5, e.name);
      if (e.phase == Phase::kBegin) {
        const std::size_t s = next_span++;
        const ReplayedSpan& span = tree.spans[s];
        slice_of_span_[s] = id;
        slice_.i64(2, as_i64(span.start_ns)).i64(3, as_i64(span.duration_ns)).i64(6, span.depth);
        span.parent == kNoParent ? void(slice_.null(7))
                                 : void(slice_.i64(7, slice_of_span_[span.parent]));
        open_.push_back(s);
      } else {
        slice_.i64(2, as_i64(e.ts_ns)).i64(3, 0).i64(6, static_cast<std::int64_t>(open_.size()));
        open_.empty() ? void(slice_.null(7)) : void(slice_.i64(7, slice_of_span_[open_.back()]));
      }
      bind_args(e.args);
      slice_.insert();
    }
  }

  Insert process_, thread_, thread_track_, counter_track_, slice_, counter_, args_, metadata_;
  std::vector<std::int64_t> slice_of_span_;
  std::vector<std::size_t> open_;
  std::int64_t slice_id_ = 0, arg_id_ = 0, arg_set_id_ = -1;
  std::string key_;
};

std::string os_error(int e) {
  return std::strerror(e);
}

}  // namespace

Status write_trace_db(const Profile& profile, const std::string& path) noexcept {
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  try {
    std::remove(temp.c_str());  // a leftover of an earlier process with this pid
    {
      Db db(temp);
      db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;");
      db.exec(kSchema);
      Rows(db).write(profile);
      db.exec(kIndexes);
      db.exec("COMMIT;");
      db.close();
    }
    const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
      const int e = errno;
      if (fd >= 0) ::close(fd);
      throw DbError("cannot sync it: " + os_error(e));
    }
    ::close(fd);
    if (std::rename(temp.c_str(), path.c_str()) != 0)
      throw DbError("cannot rename it to " + path + ": " + os_error(errno));
    return {};
  } catch (const std::exception& e) {
    std::remove(temp.c_str());
    return Status::error("writing trace database " + path + " failed (building " + temp +
                         "): " + e.what() +
                         "; check that the run directory exists, is writable and has space");
  } catch (...) {
    std::remove(temp.c_str());
    return Status::error("writing trace database " + path + " failed (unknown error)");
  }
}

}  // namespace jolt::sinks
