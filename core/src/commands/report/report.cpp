// Building and rendering the run report (report.hpp).
#include "commands/report/report.hpp"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "jolt/host/summary_file.hpp"

namespace fs = boost::filesystem;

namespace jolt::core {
namespace {

constexpr int kWidth = 80;

// ---- reading ------------------------------------------------------------------------------

const rapidjson::Value& member(const rapidjson::Value& obj, const char* key,
                               const std::string& where, const std::string& source) {
  if (!obj.IsObject()) throw host::SummaryError(source + ": " + where + " is not an object");
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd())
    throw host::SummaryError(source + ": " + where + "/" + key + " is absent");
  return it->value;
}

std::uint64_t get_u64(const rapidjson::Value& obj, const char* key, const std::string& where,
                      const std::string& source) {
  const rapidjson::Value& v = member(obj, key, where, source);
  if (!v.IsUint64())
    throw host::SummaryError(source + ": " + where + "/" + key + " is not an unsigned integer");
  return v.GetUint64();
}

double get_double(const rapidjson::Value& obj, const char* key, const std::string& where,
                  const std::string& source) {
  const rapidjson::Value& v = member(obj, key, where, source);
  if (!v.IsNumber())
    throw host::SummaryError(source + ": " + where + "/" + key + " is not a number");
  return v.GetDouble();
}

std::optional<double> get_opt_double(const rapidjson::Value& obj, const char* key,
                                     const std::string& where, const std::string& source) {
  if (!obj.IsObject()) throw host::SummaryError(source + ": " + where + " is not an object");
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || it->value.IsNull()) return std::nullopt;
  if (!it->value.IsNumber())
    throw host::SummaryError(source + ": " + where + "/" + key + " is neither a number nor null");
  return it->value.GetDouble();
}

std::string get_string(const rapidjson::Value& obj, const char* key, const std::string& where,
                       const std::string& source) {
  const rapidjson::Value& v = member(obj, key, where, source);
  if (!v.IsString())
    throw host::SummaryError(source + ": " + where + "/" + key + " is not a string");
  return std::string(v.GetString(), v.GetStringLength());
}

bool by_self(const ReportSpan& a, const ReportSpan& b) {
  return a.self_ns != b.self_ns ? a.self_ns > b.self_ns : a.label < b.label;
}
bool by_total(const ReportSpan& a, const ReportSpan& b) {
  return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.label < b.label;
}

void finish(RunReport& r, std::vector<ReportSpan> spans) {
  r.span_labels = spans.size();
  const std::size_t n = std::min(r.top_n, spans.size());
  std::vector<ReportSpan> s = spans;
  std::partial_sort(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n), s.end(), by_self);
  r.top_self.assign(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n));
  std::partial_sort(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(n), spans.end(),
                    by_total);
  r.top_total.assign(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(n));
  for (auto& st : r.stages)
    if (r.root && r.root->wall_time_ns > 0)
      st.share_of_root =
          static_cast<double>(st.wall_time_ns) / static_cast<double>(r.root->wall_time_ns);
}

// ---- text helpers -------------------------------------------------------------------------

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Cuts `s` to `width` columns with "~" in the middle (both ends of a label tell the most).
std::string fit(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  const std::size_t keep = width - 1;
  const std::size_t head = keep / 2;
  return s.substr(0, head) + "~" + s.substr(s.size() - (keep - head));
}

std::string pad_right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}
std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string percent(std::optional<double> f) {
  return f ? fmt("%.1f%%", 100.0 * *f) : std::string("-");
}
std::string opt_gib(std::optional<double> g, bool sign) {
  return g ? format_gib(*g, sign) : std::string("-");
}

std::string value_text(const decltype(ReportRunField::value)& v) {
  struct {
    std::string operator()(std::monostate) const { return "null"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::uint64_t u) const { return std::to_string(u); }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return fmt("%g", d); }
    std::string operator()(const std::string& s) const { return s; }
  } visitor;
  return std::visit(visitor, v);
}

const ReportRunField* find_run(const RunReport& r, const char* key) {
  for (const auto& f : r.run)
    if (f.key == key) return &f;
  return nullptr;
}

std::string utc_time(std::uint64_t secs) {
  const std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// Lines of "key value  key value ..." wrapped at kWidth.
void wrap_fields(std::string& out, const std::string& indent,
                 const std::vector<std::string>& items) {
  std::string line = indent;
  for (const auto& whole : items) {
    const std::string item = fit(whole, kWidth - indent.size());
    if (line.size() > indent.size() && line.size() + 2 + item.size() > kWidth) {
      out += line + "\n";
      line = indent;
    }
    if (line.size() > indent.size()) line += "  ";
    line += item;
  }
  if (line.size() > indent.size()) out += line + "\n";
}

void span_table(std::string& out, const char* title, const std::vector<ReportSpan>& spans,
                const RunReport& r, bool by_self_time) {
  // label 38 | count 7 | self 11 | total 11 | share 8  = 2 + 38 + 1 + 7 + 11 + 11 + 8 = 78
  out += title;
  out += "\n";
  out += "  " + pad_right("span", 38) + " " + pad_left("count", 7) + pad_left("self", 11) +
         pad_left("total", 11) + pad_left(by_self_time ? "self %" : "total %", 8) + "\n";
  for (const auto& s : spans) {
    const std::uint64_t v = by_self_time ? s.self_ns : s.total_ns;
    std::optional<double> share;
    if (r.root && r.root->wall_time_ns > 0)
      share = static_cast<double>(v) / static_cast<double>(r.root->wall_time_ns);
    out += "  " + pad_right(fit(s.label, 38), 38) + " " + pad_left(std::to_string(s.count), 7) +
           pad_left(format_duration_ns(s.self_ns), 11) +
           pad_left(format_duration_ns(s.total_ns), 11) + pad_left(percent(share), 8) + "\n";
  }
}

// ---- JSON ---------------------------------------------------------------------------------

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void jstr(Writer& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
void jkey(Writer& w, const char* k) {
  w.Key(k);
}
void jopt(Writer& w, std::optional<double> v) {
  if (v && std::isfinite(*v))
    w.Double(*v);
  else
    w.Null();
}
void jspans(Writer& w, const std::vector<ReportSpan>& spans) {
  w.StartArray();
  for (const auto& s : spans) {
    w.StartObject();
    jkey(w, "label");
    jstr(w, s.label);
    jkey(w, "count");
    w.Uint64(s.count);
    jkey(w, "self_ns");
    w.Uint64(s.self_ns);
    jkey(w, "total_ns");
    w.Uint64(s.total_ns);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

// ---- public -------------------------------------------------------------------------------

std::string format_duration_ns(std::uint64_t ns) {
  const double v = static_cast<double>(ns);
  if (ns >= 1'000'000'000ull) return fmt("%.3f s", v / 1e9);
  if (ns >= 1'000'000ull) return fmt("%.2f ms", v / 1e6);
  if (ns >= 1'000ull) return fmt("%.1f us", v / 1e3);
  return std::to_string(ns) + " ns";
}

std::string format_gib(double gib, bool sign) {
  const char* f;
  double v = gib;
  if (std::fabs(gib) >= 1.0) {
    f = sign ? "%+.2f GiB" : "%.2f GiB";
  } else {
    f = sign ? "%+.1f MiB" : "%.1f MiB";
    v = gib * 1024.0;
  }
  return fmt(f, v);
}

RunReport report_from_summary_json(const rapidjson::Value& s, const std::string& source,
                                   std::size_t top_n) {
  RunReport r;
  r.source = source;
  r.top_n = top_n;
  r.schema_version = static_cast<std::uint32_t>(get_u64(s, "schema_version", "", source));

  const rapidjson::Value& run = member(s, "run", "", source);
  if (!run.IsObject()) throw host::SummaryError(source + ": /run is not an object");
  // One line per scalar field; an object's members (run.host) become "host.cpu_model" etc.
  auto add_fields = [&r](const rapidjson::Value& obj, const std::string& prefix,
                         auto& self) -> void {
    for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
      ReportRunField f;
      f.key = prefix + std::string(it->name.GetString(), it->name.GetStringLength());
      const rapidjson::Value& v = it->value;
      if (v.IsNull())
        f.value = std::monostate{};
      else if (v.IsBool())
        f.value = v.GetBool();
      else if (v.IsUint64())
        f.value = v.GetUint64();
      else if (v.IsInt64())
        f.value = v.GetInt64();
      else if (v.IsNumber())
        f.value = v.GetDouble();
      else if (v.IsString())
        f.value = std::string(v.GetString(), v.GetStringLength());
      else if (v.IsObject() && prefix.empty()) {
        self(v, f.key + ".", self);
        continue;
      } else
        continue;  // arrays and deeper nesting are for the JSON itself
      r.run.push_back(std::move(f));
    }
  };
  add_fields(run, "", add_fields);

  {
    auto it = s.FindMember("root");
    if (it != s.MemberEnd() && !it->value.IsNull()) {
      const rapidjson::Value& root = it->value;
      ReportRoot rr;
      rr.label = get_string(root, "label", "/root", source);
      rr.wall_time_ns = get_u64(root, "wall_time_ns", "/root", source);
      rr.dark_time_ns = get_u64(root, "dark_time_ns", "/root", source);
      rr.dark_time_fraction = get_double(root, "dark_time_fraction", "/root", source);
      rr.peak_memory_gib = get_opt_double(root, "peak_memory_gib", "/root", source);
      r.root = rr;
    }
  }
  r.peak_rss_gib = get_opt_double(s, "peak_rss_gib", "", source);

  const rapidjson::Value& stages = member(s, "stages", "", source);
  if (!stages.IsArray()) throw host::SummaryError(source + ": /stages is not an array");
  for (rapidjson::SizeType i = 0; i < stages.Size(); ++i) {
    const std::string where = "/stages/" + std::to_string(i);
    ReportStage st;
    st.label = get_string(stages[i], "label", where, source);
    st.wall_time_ns = get_u64(stages[i], "wall_time_ns", where, source);
    st.rss_delta_gib = get_opt_double(stages[i], "rss_delta_gib", where, source);
    st.peak_memory_gib = get_opt_double(stages[i], "peak_memory_gib", where, source);
    r.stages.push_back(std::move(st));
  }

  std::vector<ReportSpan> spans;
  const rapidjson::Value& sp = member(s, "spans", "", source);
  if (!sp.IsObject()) throw host::SummaryError(source + ": /spans is not an object");
  for (auto it = sp.MemberBegin(); it != sp.MemberEnd(); ++it) {
    ReportSpan x;
    x.label.assign(it->name.GetString(), it->name.GetStringLength());
    const std::string where = "/spans/" + x.label;
    x.count = get_u64(it->value, "count", where, source);
    x.total_ns = get_u64(it->value, "total_ns", where, source);
    x.self_ns = get_u64(it->value, "self_ns", where, source);
    spans.push_back(std::move(x));
  }

  const rapidjson::Value& counters = member(s, "counters", "", source);
  if (!counters.IsObject()) throw host::SummaryError(source + ": /counters is not an object");
  for (auto it = counters.MemberBegin(); it != counters.MemberEnd(); ++it) {
    ReportCounter c;
    c.name.assign(it->name.GetString(), it->name.GetStringLength());
    const std::string where = "/counters/" + c.name;
    c.samples = get_u64(it->value, "samples", where, source);
    c.max = get_double(it->value, "max", where, source);
    c.mean = get_double(it->value, "mean", where, source);
    r.counters.push_back(std::move(c));
  }
  std::sort(r.counters.begin(), r.counters.end(),
            [](const ReportCounter& a, const ReportCounter& b) { return a.name < b.name; });
  finish(r, std::move(spans));
  return r;
}

RunReport report_from_summary(const jolt::ProfileSummary& s, std::size_t top_n) {
  RunReport r;
  r.top_n = top_n;
  r.schema_version = s.schema_version;
  r.run.push_back({"workload", s.run.workload});
  r.run.push_back({"scale_log2", std::uint64_t{s.run.scale_log2}});
  r.run.push_back({"backend", s.run.backend});
  r.run.push_back({"timestamp_unix_secs", s.run.timestamp_unix_secs});
  if (s.run.git_rev)
    r.run.push_back({"git_rev", *s.run.git_rev});
  else
    r.run.push_back({"git_rev", std::monostate{}});
  if (s.root)
    r.root = ReportRoot{s.root->label, s.root->wall_time_ns, s.root->dark_time_ns,
                        s.root->dark_time_fraction, s.root->peak_memory_gib};
  r.peak_rss_gib = s.peak_rss_gib;
  for (const auto& st : s.stages)
    r.stages.push_back(
        ReportStage{st.label, st.wall_time_ns, std::nullopt, st.rss_delta_gib, st.peak_memory_gib});
  std::vector<ReportSpan> spans;
  for (const auto& [label, a] : s.spans)
    spans.push_back(ReportSpan{label, a.count, a.self_ns, a.total_ns});
  for (const auto& [name, c] : s.counters)
    if (std::isfinite(c.max) && std::isfinite(c.mean))
      r.counters.push_back(ReportCounter{name, c.samples, c.max, c.mean});
  finish(r, std::move(spans));
  return r;
}

std::string render_stage_table(const RunReport& r) {
  if (r.stages.empty()) return "";
  // label 30 | wall 12 | share 9 | RSS delta 13 | peak 12  = 2 + 30 + 12 + 9 + 13 + 12 = 78
  std::string out = "  " + pad_right("stage", 30) + pad_left("wall", 12) +
                    pad_left(r.root ? "of root" : "", 9) + pad_left("RSS delta", 13) +
                    pad_left("peak", 12) + "\n";
  for (const auto& st : r.stages)
    out += "  " + pad_right(fit(st.label, 30), 30) +
           pad_left(format_duration_ns(st.wall_time_ns), 12) +
           pad_left(r.root ? percent(st.share_of_root) : "", 9) +
           pad_left(opt_gib(st.rss_delta_gib, true), 13) +
           pad_left(opt_gib(st.peak_memory_gib, false), 12) + "\n";
  return out;
}

std::string render_report_text(const RunReport& r) {
  std::string out;
  // Header: what ran, then every other run field as the summary has it.
  std::string head = "run:";
  if (const auto* w = find_run(r, "workload")) head += " " + value_text(w->value);
  if (const auto* sc = find_run(r, "scale_log2")) head += " 2^" + value_text(sc->value);
  if (const auto* b = find_run(r, "backend")) head += " (" + value_text(b->value) + ")";
  out += head + "\n";
  std::vector<std::string> items;
  for (const auto& f : r.run) {
    if (f.key == "workload" || f.key == "scale_log2" || f.key == "backend") continue;
    std::string v = value_text(f.value);
    if (f.key == "timestamp_unix_secs") {
      if (const auto* u = std::get_if<std::uint64_t>(&f.value)) v = utc_time(*u);
      items.push_back("started " + v);
      continue;
    }
    items.push_back(f.key + " " + v);
  }
  wrap_fields(out, "  ", items);
  if (!r.source.empty()) out += "  " + r.source + "\n";

  out += "\n";
  if (r.root) {
    out += "root " + fit(r.root->label, 40) + ": " + format_duration_ns(r.root->wall_time_ns);
    if (r.root->peak_memory_gib) out += ", peak memory " + format_gib(*r.root->peak_memory_gib);
    out += "\n";
    out += "dark time (root self time): " + format_duration_ns(r.root->dark_time_ns) + " (" +
           fmt("%.1f%%", 100.0 * r.root->dark_time_fraction) + " of root)\n";
  } else {
    out += "root: none recorded (no jolt_prover::prove span in this run)\n";
  }
  if (r.peak_rss_gib) out += "peak RSS: " + format_gib(*r.peak_rss_gib) + "\n";

  out += "\nstages:\n";
  const std::string table = render_stage_table(r);
  out += table.empty() ? "  (none recorded)\n" : table;

  out += "\n";
  span_table(out,
             ("top " + std::to_string(r.top_self.size()) + " of " + std::to_string(r.span_labels) +
              " span labels by self time:")
                 .c_str(),
             r.top_self, r, true);
  out += "\n";
  span_table(out,
             ("top " + std::to_string(r.top_total.size()) +
              " by total time (summed over "
              "instances and threads):")
                 .c_str(),
             r.top_total, r, false);

  if (!r.counters.empty()) {
    // name 38 | samples 10 | max 14 | mean 14 = 2 + 38 + 10 + 14 + 14 = 78
    out += "\ncounters:\n  " + pad_right("counter", 38) + pad_left("samples", 10) +
           pad_left("peak", 14) + pad_left("mean", 14) + "\n";
    for (const auto& c : r.counters)
      out += "  " + pad_right(fit(c.name, 38), 38) + pad_left(std::to_string(c.samples), 10) +
             pad_left(fmt("%.4g", c.max), 14) + pad_left(fmt("%.4g", c.mean), 14) + "\n";
  }
  return out;
}

std::string render_report_json(const RunReport& r) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.SetIndent(' ', 2);
  w.StartObject();
  jkey(w, "source");
  jstr(w, r.source);
  jkey(w, "schema_version");
  w.Uint(r.schema_version);
  jkey(w, "run");
  w.StartObject();
  for (const auto& f : r.run) {
    w.Key(f.key.data(), static_cast<rapidjson::SizeType>(f.key.size()));
    struct {
      Writer& w;
      void operator()(std::monostate) const { w.Null(); }
      void operator()(bool b) const { w.Bool(b); }
      void operator()(std::uint64_t u) const { w.Uint64(u); }
      void operator()(std::int64_t i) const { w.Int64(i); }
      void operator()(double d) const { std::isfinite(d) ? void(w.Double(d)) : void(w.Null()); }
      void operator()(const std::string& s) const { jstr(w, s); }
    } visitor{w};
    std::visit(visitor, f.value);
  }
  w.EndObject();
  jkey(w, "root");
  if (r.root) {
    w.StartObject();
    jkey(w, "label");
    jstr(w, r.root->label);
    jkey(w, "wall_time_ns");
    w.Uint64(r.root->wall_time_ns);
    jkey(w, "dark_time_ns");
    w.Uint64(r.root->dark_time_ns);
    jkey(w, "dark_time_fraction");
    jopt(w, r.root->dark_time_fraction);
    jkey(w, "peak_memory_gib");
    jopt(w, r.root->peak_memory_gib);
    w.EndObject();
  } else {
    w.Null();
  }
  jkey(w, "peak_rss_gib");
  jopt(w, r.peak_rss_gib);
  jkey(w, "stages");
  w.StartArray();
  for (const auto& st : r.stages) {
    w.StartObject();
    jkey(w, "label");
    jstr(w, st.label);
    jkey(w, "wall_time_ns");
    w.Uint64(st.wall_time_ns);
    jkey(w, "share_of_root");
    jopt(w, st.share_of_root);
    jkey(w, "rss_delta_gib");
    jopt(w, st.rss_delta_gib);
    jkey(w, "peak_memory_gib");
    jopt(w, st.peak_memory_gib);
    w.EndObject();
  }
  w.EndArray();
  jkey(w, "top_n");
  w.Uint64(r.top_n);
  jkey(w, "span_labels");
  w.Uint64(r.span_labels);
  jkey(w, "top_self");
  jspans(w, r.top_self);
  jkey(w, "top_total");
  jspans(w, r.top_total);
  jkey(w, "counters");
  w.StartArray();
  for (const auto& c : r.counters) {
    w.StartObject();
    jkey(w, "name");
    jstr(w, c.name);
    jkey(w, "samples");
    w.Uint64(c.samples);
    jkey(w, "max");
    jopt(w, c.max);
    jkey(w, "mean");
    jopt(w, c.mean);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  std::string out(buf.GetString(), buf.GetSize());
  out += '\n';
  return out;
}

std::string latest_run_directory(const std::string& out_dir, const std::string& hint) {
  boost::system::error_code ec;
  if (!fs::is_directory(out_dir, ec))
    throw host::SummaryError("no output folder '" + out_dir + "': " + hint +
                             ", or pass --out-dir DIR or a run directory");
  // The most recent finished run: run directories are named {YYYYmmdd-HHMMSS}_{trace}, so the
  // link targets' names order by start time; the link's own time breaks ties.
  std::string best_key;
  std::time_t best_time = 0;
  fs::path best;
  for (fs::directory_iterator it(out_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("latest_", 0) != 0 || !fs::is_symlink(it->symlink_status())) continue;
    const std::string target = fs::read_symlink(it->path(), ec).filename().string();
    if (ec) continue;
    struct stat st {};
    const std::time_t t = ::lstat(it->path().c_str(), &st) == 0 ? st.st_mtime : 0;
    const std::string key = target.substr(0, 15);
    if (best.empty() || key > best_key || (key == best_key && t > best_time)) {
      best = it->path();
      best_key = key;
      best_time = t;
    }
  }
  if (best.empty())
    throw host::SummaryError("no finished run in '" + out_dir + "' (no latest_* link): " + hint +
                             ", or pass --out-dir DIR or a run directory");
  if (!fs::is_directory(best, ec))
    throw host::SummaryError(best.string() + " points at '" + fs::read_symlink(best, ec).string() +
                             "', which is not a directory; re-run the profile or pass a run "
                             "directory");
  return best.string();
}

std::string resolve_summary_path(const std::string& arg, const std::string& out_dir) {
  const char* hint =
      "run `jolt-run profile --workload NAME` (its default --format chrome includes the summary "
      "sink, or add `--sink summary`)";
  fs::path dir;
  if (arg.empty() || arg == "latest") {
    dir = latest_run_directory(out_dir, hint);
  } else {
    boost::system::error_code ec;
    const fs::path p(arg);
    if (fs::is_regular_file(p, ec)) return p.string();
    if (!fs::is_directory(p, ec))
      throw host::SummaryError(
          "no run directory '" + arg +
          "': pass a run directory (e.g. benchmark-runs/latest_modular_fibonacci_"
          "16), its summary.json, or `latest`");
    dir = p;
  }
  const fs::path summary = dir / "summary.json";
  boost::system::error_code ec;
  if (!fs::is_regular_file(summary, ec))
    throw host::SummaryError("no summary.json in " + dir.string() + ": " + hint);
  return summary.string();
}

}  // namespace jolt::core
