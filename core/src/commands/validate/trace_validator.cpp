// Chrome trace checks (the rules of Perfetto's JSON importer, ecosystem note §1), kind detection,
// file reading and report formatting.
#include "trace_validator.hpp"

#include "json_parse.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

namespace jolt::validate {
namespace {

using Value = rapidjson::Value;

std::string at(std::size_t i) {
  return "event " + std::to_string(i);
}

// A JSON number, or a string that parses completely as a finite number.
bool numeric(const Value& v, double* out = nullptr) {
  if (v.IsNumber()) {
    if (out) *out = v.GetDouble();
    return std::isfinite(v.GetDouble());
  }
  if (!v.IsString() || v.GetStringLength() == 0) return false;
  char* end = nullptr;
  const double d = std::strtod(v.GetString(), &end);
  if (end != v.GetString() + v.GetStringLength() || !std::isfinite(d)) return false;
  if (out) *out = d;
  return true;
}

struct Open {
  std::string name;
  double ts;
  std::size_t index;
};

struct ThreadState {
  std::vector<Open> stack;
  double last_ts = -INFINITY;
};

std::string thread_key(const Value& pid, const Value& tid) {
  auto part = [](const Value& v) -> std::string {
    if (v.IsUint64()) return std::to_string(v.GetUint64());
    if (v.IsInt64()) return std::to_string(v.GetInt64());
    if (v.IsString()) return std::string("\"") + v.GetString() + "\"";
    return "?";
  };
  return "pid " + part(pid) + " tid " + part(tid);
}

void check_events(const Value& events, Report& r) {
  static const Value kNull;
  std::map<std::string, ThreadState> threads;
  for (rapidjson::SizeType i = 0; i < events.Size(); ++i) {
    const Value& e = events[i];
    ++r.events;
    if (!e.IsObject()) {
      r.errors.push_back(at(i) + ": not a JSON object");
      continue;
    }
    auto field = [&](const char* k) -> const Value& {
      auto it = e.FindMember(k);
      return it == e.MemberEnd() ? kNull : it->value;
    };
    const Value& ph = field("ph");
    if (!ph.IsString() || ph.GetStringLength() == 0) {
      r.errors.push_back(at(i) + ": missing or non-string \"ph\"");
      continue;
    }
    const std::string phase = ph.GetString();
    const Value& name = field("name");
    const Value& pid = field("pid");
    const Value& tid = field("tid");
    const Value& args = field("args");
    const std::string label =
        at(i) + " (ph " + phase +
        (name.IsString() ? ", \"" + std::string(name.GetString()) + "\"" : "") + ")";
    if (!args.IsNull() && !args.IsObject())
      r.errors.push_back(label + ": \"args\" must be an object");
    if (!name.IsNull() && !name.IsString())
      r.errors.push_back(label + ": \"name\" must be a string");

    if (phase == "M") {
      if (!name.IsString()) {
        r.errors.push_back(label + ": metadata event needs a \"name\"");
        continue;
      }
      const std::string n = name.GetString();
      if (n == "thread_name" || n == "process_name") {
        if (!args.IsObject() || !args.HasMember("name") || !args["name"].IsString())
          r.errors.push_back(label + ": " + n + " needs a string args.name");
        if (n == "thread_name" && tid.IsNull())
          r.errors.push_back(label + ": thread_name needs a tid");
      } else if (n == "process_sort_index" || n == "thread_sort_index") {
        if (!args.IsObject() || !args.HasMember("sort_index") || !args["sort_index"].IsNumber())
          r.errors.push_back(label + ": " + n + " needs a numeric args.sort_index");
      } else {
        r.warnings.push_back(label + ": metadata name \"" + n + "\" is ignored by Perfetto");
      }
      continue;
    }

    double ts = 0;
    if (!numeric(field("ts"), &ts)) {
      r.errors.push_back(label + ": missing or non-numeric \"ts\" (µs)");
      continue;
    }
    if (pid.IsNull()) r.errors.push_back(label + ": missing \"pid\"");
    const bool thread_scoped =
        phase == "B" || phase == "E" || phase == "X" ||
        ((phase == "i" || phase == "I") &&
         (!field("s").IsString() || std::string(field("s").GetString()) == "t"));
    if (thread_scoped && tid.IsNull()) r.errors.push_back(label + ": missing \"tid\"");
    if (!name.IsString() && phase != "E") r.errors.push_back(label + ": missing \"name\"");

    if (phase == "B" || phase == "E" || phase == "X" || phase == "i" || phase == "I" ||
        phase == "C") {
      if (!tid.IsNull()) {
        ThreadState& t = threads[thread_key(pid, tid)];
        if (ts < t.last_ts)
          r.errors.push_back(label + ": ts " + std::to_string(ts) + " goes back in time on " +
                             thread_key(pid, tid) + " (previous " + std::to_string(t.last_ts) +
                             ")");
        else
          t.last_ts = ts;
        if (phase == "B") {
          t.stack.push_back({name.IsString() ? name.GetString() : "", ts, i});
          ++r.spans;
        } else if (phase == "E") {
          if (t.stack.empty()) {
            r.errors.push_back(label + ": end without an open span on " + thread_key(pid, tid) +
                               " (Perfetto: misplaced_end_event)");
          } else {
            const Open& top = t.stack.back();
            if (name.IsString() && top.name != name.GetString())
              r.errors.push_back(label + ": closes \"" + std::string(name.GetString()) +
                                 "\" but the innermost open span on " + thread_key(pid, tid) +
                                 " is \"" + top.name + "\" (" + at(top.index) +
                                 "): not strictly nested");
            t.stack.pop_back();
          }
        }
      }
    }
    if (phase == "X") {
      double dur = 0;
      if (!numeric(field("dur"), &dur) || dur < 0)
        r.errors.push_back(label + ": complete event needs a numeric \"dur\" >= 0");
      ++r.spans;
    } else if (phase == "C") {
      ++r.counter_events;
      if (!args.IsObject() || args.MemberCount() == 0) {
        r.errors.push_back(label + ": counter event needs a non-empty \"args\" object");
      } else {
        for (auto m = args.MemberBegin(); m != args.MemberEnd(); ++m)
          if (!numeric(m->value))
            r.errors.push_back(label + ": counter value \"" + std::string(m->name.GetString()) +
                               "\" is not a number");
      }
    } else if (phase == "i" || phase == "I") {
      ++r.instants;
      const Value& s = field("s");
      if (!s.IsNull() && !(s.IsString() && (std::string(s.GetString()) == "t" ||
                                            std::string(s.GetString()) == "p" ||
                                            std::string(s.GetString()) == "g")))
        r.errors.push_back(label + ": instant scope \"s\" must be \"t\", \"p\" or \"g\"");
    } else if (phase != "B" && phase != "E") {
      r.warnings.push_back(label + ": phase not produced by jolt-run (not checked further)");
    }
  }
  for (const auto& [key, t] : threads)
    for (const Open& o : t.stack)
      r.errors.push_back(at(o.index) + " (ph B, \"" + o.name + "\"): never ended on " + key +
                         " (unbalanced B/E)");
  r.threads = threads.size();
}

const char* kind_name(FileKind k) {
  switch (k) {
    case FileKind::kChromeTrace:
      return "chrome trace";
    case FileKind::kSummary:
      return "summary.json";
    default:
      return "unknown";
  }
}

}  // namespace

bool parse_json(std::string_view text, rapidjson::Document& d, Report& r) {
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
  d.Parse<kFlags>(text.data(), text.size());
  if (d.HasParseError()) {
    r.errors.push_back("not valid JSON at offset " + std::to_string(d.GetErrorOffset()) + ": " +
                       rapidjson::GetParseError_En(d.GetParseError()));
    return false;
  }
  // Depth check with an explicit stack of (value, depth).
  std::vector<std::pair<const Value*, std::size_t>> todo{{&d, 1}};
  while (!todo.empty()) {
    const auto [v, depth] = todo.back();
    todo.pop_back();
    if (depth > kMaxNestingDepth) {
      r.errors.push_back("JSON nested deeper than " + std::to_string(kMaxNestingDepth) +
                         " levels; no jolt-run artifact nests like that");
      return false;
    }
    if (v->IsArray())
      for (const auto& e : v->GetArray())
        if (e.IsArray() || e.IsObject()) todo.push_back({&e, depth + 1});
    if (v->IsObject())
      for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m)
        if (m->value.IsArray() || m->value.IsObject()) todo.push_back({&m->value, depth + 1});
  }
  return true;
}

void check_chrome_trace(const rapidjson::Document& d, Report& r) {
  r.kind = FileKind::kChromeTrace;
  if (d.IsArray()) {
    check_events(d, r);
  } else if (d.IsObject() && d.HasMember("traceEvents") && d["traceEvents"].IsArray()) {
    check_events(d["traceEvents"], r);
  } else {
    r.errors.push_back("not a chrome event array: expected [ ... ] or {\"traceEvents\": [ ... ]}");
  }
}

Report validate_chrome_trace(std::string_view text) {
  Report r;
  r.kind = FileKind::kChromeTrace;
  rapidjson::Document d;
  if (parse_json(text, d, r)) check_chrome_trace(d, r);
  return r;
}

Report validate_text(std::string_view text, std::string_view schema_text) {
  Report r;
  rapidjson::Document d;
  if (!parse_json(text, d, r)) return r;
  if (d.IsArray() || (d.IsObject() && d.HasMember("traceEvents"))) {
    check_chrome_trace(d, r);
    return r;
  }
  if (d.IsObject() && d.HasMember("schema_version")) {
    check_summary(d, schema_text, r);
    return r;
  }
  r.errors.push_back(
      "unrecognised file: neither a chrome trace (array / traceEvents) nor a summary.json "
      "(object with schema_version)");
  return r;
}

Report validate_file(const std::string& path, std::string_view schema_text, std::size_t max_bytes) {
  Report r;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    r.errors.push_back("cannot read " + path +
                       "; check the path (e.g. benchmark-runs/latest_*/trace.json)");
    return r;
  }
  // Read once, in chunks, up to the bound: the size of a pipe or device (/dev/zero) is not known
  // in advance, and the whole text plus its parsed document must fit in memory.
  std::string text;
  try {
    char buf[1 << 16];
    while (in) {
      in.read(buf, sizeof(buf));
      const auto n = static_cast<std::size_t>(in.gcount());
      if (text.size() + n > max_bytes) {
        r.errors.push_back(path + " is larger than " + std::to_string(max_bytes) +
                           " bytes, the most validate reads (--max-bytes); is it really a "
                           "trace.json or summary.json?");
        return r;
      }
      text.append(buf, n);
    }
    if (in.bad()) {
      r.errors.push_back("reading " + path + " failed");
      return r;
    }
    return validate_text(text, schema_text);
  } catch (const std::bad_alloc&) {
    r.errors.push_back("out of memory validating " + path + " (" + std::to_string(text.size()) +
                       " bytes read); validate a smaller file or raise the memory limit");
    return r;
  }
}

std::string format_report(const std::string& path, const Report& r) {
  std::ostringstream out;
  out << path << ": " << kind_name(r.kind) << ": " << (r.ok() ? "OK" : "INVALID") << '\n';
  if (r.kind == FileKind::kChromeTrace)
    out << "  " << r.events << " events, " << r.spans << " spans, " << r.instants << " instants, "
        << r.counter_events << " counter samples, " << r.threads << " threads\n";
  auto list = [&](const char* what, const std::vector<std::string>& items) {
    const std::size_t shown = std::min<std::size_t>(items.size(), 50);
    for (std::size_t i = 0; i < shown; ++i) out << "  " << what << ": " << items[i] << '\n';
    if (items.size() > shown)
      out << "  ... and " << items.size() - shown << " more " << what << "s\n";
  };
  list("error", r.errors);
  list("warning", r.warnings);
  return out.str();
}

}  // namespace jolt::validate
