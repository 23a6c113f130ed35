// `jolt-run sql`'s work: run directory resolution, trace.json reading, staging trace.db, the
// query and its three renderings.
#include "commands/sql/sql.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include "commands/report/report.hpp"
#include "trace_db.hpp"

namespace fs = boost::filesystem;

namespace jolt::core {

std::string resolve_run_directory(const std::string& arg, const std::string& out_dir) {
  const char* hint =
      "run `jolt-run profile --workload NAME --sink sqlite` (or any run with the chrome sink)";
  if (arg.empty() || arg == "latest") return latest_run_directory(out_dir, hint);
  boost::system::error_code ec;
  if (!fs::is_directory(arg, ec))
    throw SqlError("no run directory '" + arg +
                   "': pass a run directory (e.g. benchmark-runs/latest_modular_fibonacci_13) "
                   "or `latest`");
  return arg;
}

// --- trace.json -> Profile ---------------------------------------------------------------------

namespace {

std::uint64_t ts_ns(const rapidjson::Value& e, const std::string& path) {
  if (!e.HasMember("ts") || !e["ts"].IsNumber() || e["ts"].GetDouble() < 0)
    throw SqlError(path + ": an event has no valid \"ts\"; is it a jolt-run trace.json?");
  return static_cast<std::uint64_t>(std::llround(e["ts"].GetDouble() * 1000.0));
}

std::vector<Arg> args_of(const rapidjson::Value& e) {
  std::vector<Arg> args;
  if (!e.HasMember("args") || !e["args"].IsObject()) return args;
  for (const auto& m : e["args"].GetObject()) {
    std::string key(m.name.GetString(), m.name.GetStringLength());
    if (m.value.IsInt64())
      args.push_back({std::move(key), m.value.GetInt64()});
    else if (m.value.IsNumber())
      args.push_back({std::move(key), m.value.GetDouble()});
    else if (m.value.IsString())
      args.push_back({std::move(key), std::string(m.value.GetString(), m.value.GetStringLength())});
    // null (a non-finite number) and other kinds carry no value: left out, as trace.db does.
  }
  return args;
}

}  // namespace

Profile read_chrome_trace_profile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SqlError("cannot read " + path + ": check that it exists and is readable");
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  if (doc.HasParseError())
    throw SqlError(path + " is not valid JSON (" +
                   rapidjson::GetParseError_En(doc.GetParseError()) + " at byte " +
                   std::to_string(doc.GetErrorOffset()) +
                   "); re-run the profile with --sink sqlite or --sink chrome");
  const rapidjson::Value* events = &doc;
  if (doc.IsObject() && doc.HasMember("traceEvents")) events = &doc["traceEvents"];
  if (!events->IsArray())
    throw SqlError(path + " is not a trace (no event array); pass a run directory with trace.json");

  Profile p;
  std::map<std::uint32_t, std::size_t> thread_of_tid;
  auto thread = [&](std::uint32_t tid) -> ThreadTrack& {
    auto [it, inserted] = thread_of_tid.try_emplace(tid, p.threads.size());
    if (inserted) p.threads.push_back(ThreadTrack{tid, "", {}});
    return p.threads[it->second];
  };
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> counter_of;
  for (const auto& e : events->GetArray()) {
    if (!e.IsObject() || !e.HasMember("ph") || !e["ph"].IsString() || !e.HasMember("name") ||
        !e["name"].IsString())
      throw SqlError(path + ": an event lacks \"ph\" or \"name\"; is it a jolt-run trace.json?");
    const std::string ph = e["ph"].GetString();
    const std::string name(e["name"].GetString(), e["name"].GetStringLength());
    const std::uint32_t tid = e.HasMember("tid") && e["tid"].IsUint() ? e["tid"].GetUint() : 0;
    if (ph == "M") {
      const bool has_name = e.HasMember("args") && e["args"].IsObject() &&
                            e["args"].HasMember("name") && e["args"]["name"].IsString();
      if (!has_name) continue;
      const std::string value = e["args"]["name"].GetString();
      if (name == "thread_name") thread(tid).name = value;
      if (name == "process_name")
        p.run.trace_name = value.rfind("jolt-run ", 0) == 0 ? value.substr(9) : value;
    } else if (ph == "B" || ph == "E" || ph == "i" || ph == "I") {
      const Phase phase = ph == "B" ? Phase::kBegin : ph == "E" ? Phase::kEnd : Phase::kInstant;
      thread(tid).events.push_back(TraceEvent{
          phase, name, ts_ns(e, path), phase == Phase::kEnd ? std::vector<Arg>{} : args_of(e)});
    } else if (ph == "C") {
      if (!e.HasMember("args") || !e["args"].IsObject()) continue;
      for (const auto& m : e["args"].GetObject()) {
        if (!m.value.IsNumber()) continue;
        auto [it, inserted] = counter_of.try_emplace({name, tid}, p.counters.size());
        if (inserted) p.counters.push_back(CounterTrack{name, tid, {}});
        p.counters[it->second].samples.push_back({ts_ns(e, path), m.value.GetDouble()});
      }
    }
  }
  return p;
}

// --- trace.db ----------------------------------------------------------------------------------

TraceDb::TraceDb(TraceDb&& other) noexcept
    : path_(std::move(other.path_)),
      keep_as_(std::move(other.keep_as_)),
      temp_dir_(std::move(other.temp_dir_)),
      note_(std::move(other.note_)) {
  other.path_.clear();
  other.keep_as_.clear();
  other.temp_dir_.clear();
}

TraceDb::~TraceDb() {
  boost::system::error_code ec;
  if (!keep_as_.empty()) fs::remove(path_, ec);
  if (!temp_dir_.empty()) fs::remove_all(temp_dir_, ec);
}

void TraceDb::keep() {
  if (keep_as_.empty()) return;
  if (std::rename(path_.c_str(), keep_as_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    throw SqlError("cannot keep " + path_ + " as " + keep_as_ + ": " + why);
  }
  path_ = keep_as_;
  keep_as_.clear();
}

TraceDb open_trace_db(const std::string& run_dir) {
  TraceDb db;
  const fs::path dir(run_dir);
  boost::system::error_code ec;
  const fs::path existing = dir / "trace.db";
  if (fs::exists(existing, ec)) {
    db.path_ = existing.string();
    return db;
  }
  const fs::path trace_json = dir / "trace.json";
  if (!fs::is_regular_file(trace_json, ec))
    throw SqlError("no trace.db or trace.json in " + run_dir +
                   ": profile with `--sink sqlite` (trace.db) or `--sink chrome` (trace.json)");
  const Profile profile = read_chrome_trace_profile(trace_json.string());
  const std::string staged = (dir / (".trace.db.staged." + std::to_string(::getpid()))).string();
  const Status st = sinks::write_trace_db(profile, staged);
  if (st.ok) {
    db.path_ = staged;
    db.keep_as_ = existing.string();
    db.note_ = "built trace.db from " + trace_json.string();
    return db;
  }
  // The run directory cannot take it (read-only, full): build in a temporary folder instead.
  const fs::path temp = fs::temp_directory_path(ec) / fs::unique_path("jolt-sql-%%%%%%%%", ec);
  if (ec || !fs::create_directories(temp, ec))
    throw SqlError("cannot build trace.db: " + st.message);
  db.temp_dir_ = temp.string();
  db.path_ = (temp / "trace.db").string();
  const Status temp_st = sinks::write_trace_db(profile, db.path_);
  if (!temp_st.ok) throw SqlError("cannot build trace.db: " + temp_st.message);
  db.note_ = "built trace.db from " + trace_json.string() + " in a temporary folder, not kept (" +
             st.message + ")";
  return db;
}

// --- query -------------------------------------------------------------------------------------

namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StatementFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

std::string hex_blob(const void* data, int n) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "X'";
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (int i = 0; i < n; ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out + "'";
}

bool only_space_or_semicolons(const char* s) {
  for (; *s; ++s)
    if (!std::isspace(static_cast<unsigned char>(*s)) && *s != ';') return false;
  return true;
}

}  // namespace

QueryResult run_query(const std::string& db_path, const std::string& sql) {
  sqlite3* raw = nullptr;
  const int open_rc = sqlite3_open_v2(db_path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  std::unique_ptr<sqlite3, DbCloser> db(raw);
  const std::string rebuild =
      "; delete it to rebuild it from the run's trace.json, or profile again with --sink sqlite";
  if (open_rc != SQLITE_OK)
    throw SqlError("cannot open " + db_path + ": " + (db ? sqlite3_errmsg(db.get()) : "no memory") +
                   rebuild);
  // A file that is not a database (or a corrupt one) fails here, before the user's query.
  if (sqlite3_exec(db.get(), "SELECT COUNT(*) FROM sqlite_master", nullptr, nullptr, nullptr) !=
      SQLITE_OK)
    throw SqlError(db_path + " is not a readable trace database (" + sqlite3_errmsg(db.get()) +
                   ")" + rebuild);

  sqlite3_stmt* raw_stmt = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db.get(), sql.c_str(), static_cast<int>(sql.size() + 1), &raw_stmt,
                         &tail) != SQLITE_OK)
    throw SqlError(std::string("query failed: ") + sqlite3_errmsg(db.get()));
  std::unique_ptr<sqlite3_stmt, StatementFinalizer> stmt(raw_stmt);
  if (!stmt) throw SqlError("empty query: pass one SQL statement, e.g. \"SELECT * FROM thread\"");
  if (tail && !only_space_or_semicolons(tail))
    throw SqlError("more than one statement in the query; pass one per call (remaining: \"" +
                   std::string(tail) + "\")");
  if (!sqlite3_stmt_readonly(stmt.get()))
    throw SqlError(
        "the query would change the database; jolt-run sql runs read-only queries (SELECT, "
        "WITH, read-only PRAGMA)");

  QueryResult r;
  const int n = sqlite3_column_count(stmt.get());
  for (int c = 0; c < n; ++c) {
    const char* name = sqlite3_column_name(stmt.get(), c);
    r.columns.emplace_back(name ? name : "");
  }
  int rc;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    std::vector<SqlValue>& row = r.rows.emplace_back();
    row.reserve(n);
    for (int c = 0; c < n; ++c) {
      switch (sqlite3_column_type(stmt.get(), c)) {
        case SQLITE_INTEGER:
          row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(stmt.get(), c)));
          break;
        case SQLITE_FLOAT:
          row.emplace_back(sqlite3_column_double(stmt.get(), c));
          break;
        case SQLITE_TEXT:
          row.emplace_back(
              std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), c)),
                          static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), c))));
          break;
        case SQLITE_BLOB: {
          const void* data = sqlite3_column_blob(stmt.get(), c);
          row.emplace_back(hex_blob(data, sqlite3_column_bytes(stmt.get(), c)));
          break;
        }
        default:
          row.emplace_back(std::monostate{});
      }
    }
  }
  if (rc != SQLITE_DONE) throw SqlError(std::string("query failed: ") + sqlite3_errmsg(db.get()));
  return r;
}

// --- rendering ---------------------------------------------------------------------------------

namespace {

std::string real_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  std::string s = buf;
  if (std::isfinite(v) && s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string cell_text(const SqlValue& v) {
  if (std::holds_alternative<std::monostate>(v)) return "NULL";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return real_text(*d);
  return std::get<std::string>(v);
}

bool is_number(const SqlValue& v) {
  return std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
}

}  // namespace

std::string render_table(const QueryResult& r) {
  const std::size_t n = r.columns.size();
  std::vector<std::size_t> width(n);
  std::vector<bool> numeric(n, true);
  for (std::size_t c = 0; c < n; ++c) width[c] = r.columns[c].size();
  std::vector<std::vector<std::string>> cells;
  cells.reserve(r.rows.size());
  for (const auto& row : r.rows) {
    auto& out = cells.emplace_back();
    for (std::size_t c = 0; c < n; ++c) {
      out.push_back(cell_text(row[c]));
      width[c] = std::max(width[c], out.back().size());
      if (!is_number(row[c]) && !std::holds_alternative<std::monostate>(row[c])) numeric[c] = false;
    }
  }
  std::string text;
  auto line = [&](const std::vector<std::string>& values) {
    std::string l;
    for (std::size_t c = 0; c < n; ++c) {
      const std::string pad(width[c] - values[c].size(), ' ');
      if (c) l += "  ";
      l += numeric[c] ? pad + values[c] : values[c] + pad;
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    text += l + "\n";
  };
  line(r.columns);
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < n; ++c) rule.emplace_back(width[c], '-');
  line(rule);
  for (const auto& row : cells) line(row);
  text += "(" + std::to_string(r.rows.size()) + (r.rows.size() == 1 ? " row)\n" : " rows)\n");
  return text;
}

std::string render_csv(const QueryResult& r) {
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  std::string text;
  for (std::size_t c = 0; c < r.columns.size(); ++c) text += (c ? "," : "") + field(r.columns[c]);
  text += "\r\n";
  for (const auto& row : r.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) text += ",";
      if (!std::holds_alternative<std::monostate>(row[c])) text += field(cell_text(row[c]));
    }
    text += "\r\n";
  }
  return text;
}

std::string render_json(const QueryResult& r) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartArray();
  for (const auto& row : r.rows) {
    w.StartObject();
    for (std::size_t c = 0; c < row.size(); ++c) {
      w.Key(r.columns[c].c_str(), static_cast<rapidjson::SizeType>(r.columns[c].size()));
      if (const auto* i = std::get_if<std::int64_t>(&row[c]))
        w.Int64(*i);
      else if (const auto* d = std::get_if<double>(&row[c]))
        std::isfinite(*d) ? void(w.Double(*d)) : void(w.Null());
      else if (const auto* s = std::get_if<std::string>(&row[c]))
        w.String(s->c_str(), static_cast<rapidjson::SizeType>(s->size()));
      else
        w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

}  // namespace jolt::core
