// Objective keys: parsing, summary.json extraction, callgrind output parsing.
#include "commands/objectives/objective.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace jolt::objectives {
namespace {

const char* const kTelemetryMetrics =
    "prover_time_s, peak_rss_gib, peak_memory_gib, total:<label>, self:<label>, "
    "heap:<snapshot>, heap:<snapshot>:<root>";

std::string known_workloads() {
  std::string s;
  for (const auto& w : telemetry_workloads())
    s += (s.empty() ? "" : ", ") + std::string(w.workload);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

const rapidjson::Value& member(const rapidjson::Value& obj, const std::string& name,
                               const std::string& where, const std::string& source) {
  if (!obj.IsObject()) throw ObjectiveError(source + ": " + where + " is not an object");
  auto it = obj.FindMember(rapidjson::StringRef(name.data(), name.size()));
  if (it == obj.MemberEnd())
    throw ObjectiveError(source + ": " + where + " has no entry \"" + name + "\"");
  return it->value;
}

double number(const rapidjson::Value& v, const std::string& where, const std::string& source) {
  if (v.IsNull())
    throw ObjectiveError(source + ": " + where + " is null (not measured in this run)");
  if (!v.IsNumber()) throw ObjectiveError(source + ": " + where + " is not a number");
  return v.GetDouble();
}

}  // namespace

const std::vector<WorkloadScale>& telemetry_workloads() {
  // The original's WORKLOAD_SCALES, plus this project's single-hash workloads (no agreed
  // default scale for those: a key naming them needs --scale).
  static const std::vector<WorkloadScale> k{{"fibonacci", 16},  {"sha2-chain", 22},
                                            {"sha3-chain", 22}, {"btreemap", 20},
                                            {"sha2", 0},        {"sha3", 0}};
  return k;
}

std::optional<std::uint32_t> default_scale(const std::string& workload) {
  for (const auto& w : telemetry_workloads())
    if (workload == w.workload && w.default_scale) return w.default_scale;
  return std::nullopt;
}

Objective parse_objective(std::string_view key) {
  const std::string k(key);
  Objective o;
  o.key = k;
  if (starts_with(key, "telemetry:")) {
    std::string_view rest = key.substr(10);
    const auto colon = rest.find(':');
    if (colon == std::string_view::npos || colon + 1 == rest.size())
      throw ObjectiveError(
          "malformed telemetry key '" + k +
          "': expected telemetry:<workload>:<metric> (metrics: " + kTelemetryMetrics + ")");
    TelemetryObjective t;
    t.workload = std::string(rest.substr(0, colon));
    const std::string_view metric = rest.substr(colon + 1);
    const auto& ws = telemetry_workloads();
    if (std::none_of(ws.begin(), ws.end(),
                     [&](const WorkloadScale& w) { return t.workload == w.workload; }))
      throw ObjectiveError("unknown workload '" + t.workload + "' in objective '" + k +
                           "' (known: " + known_workloads() + ")");
    auto labelled = [&](std::string_view prefix, TelemetryMetric m) {
      t.metric = m;
      t.label = std::string(metric.substr(prefix.size()));
      if (t.label.empty())
        throw ObjectiveError("objective '" + k + "': empty label after '" + std::string(prefix) +
                             "'");
    };
    if (metric == "prover_time_s") {
      t.metric = TelemetryMetric::kProverTime;
      o.units = "s";
    } else if (metric == "peak_rss_gib") {
      t.metric = TelemetryMetric::kPeakRss;
      o.units = "GiB";
    } else if (metric == "peak_memory_gib") {
      t.metric = TelemetryMetric::kPeakMemory;
      o.units = "GiB";
    } else if (starts_with(metric, "total:")) {
      labelled("total:", TelemetryMetric::kSpanTotal);
      o.units = "s";
    } else if (starts_with(metric, "self:")) {
      labelled("self:", TelemetryMetric::kSpanSelf);
      o.units = "s";
    } else if (starts_with(metric, "heap:")) {
      const std::string_view h = metric.substr(5);
      const auto c = h.find(':');
      o.units = "bytes";
      if (c == std::string_view::npos) {
        labelled("heap:", TelemetryMetric::kHeapTotal);
      } else {
        t.metric = TelemetryMetric::kHeapRoot;
        t.label = std::string(h.substr(0, c));
        t.root = std::string(h.substr(c + 1));
        if (t.label.empty())
          throw ObjectiveError("objective '" + k + "': empty heap snapshot label after 'heap:'");
        if (t.root.empty())
          throw ObjectiveError("objective '" + k + "': empty heap root after 'heap:" + t.label +
                               ":'");
      }
    } else {
      throw ObjectiveError("unknown telemetry metric '" + std::string(metric) + "' in objective '" +
                           k + "' (accepted: " + kTelemetryMetrics + ")");
    }
    o.target = std::move(t);
    return o;
  }
  if (starts_with(key, "callgrind:")) {
    std::string_view rest = key.substr(10);
    const auto colon = rest.find(':');
    if (colon == std::string_view::npos)
      throw ObjectiveError("malformed callgrind key '" + k +
                           "': expected callgrind:<bench>:instructions");
    CallgrindObjective c;
    c.bench = std::string(rest.substr(0, colon));
    if (c.bench.empty() || !std::all_of(c.bench.begin(), c.bench.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
        }))
      throw ObjectiveError("callgrind key '" + k +
                           "': the bench name must be a non-empty executable name "
                           "([A-Za-z0-9_-]), e.g. callgrind:eq_evals_bench:instructions");
    if (rest.substr(colon + 1) != "instructions")
      throw ObjectiveError("unknown callgrind metric '" + std::string(rest.substr(colon + 1)) +
                           "' in objective '" + k + "' (accepted: instructions)");
    o.target = std::move(c);
    o.units = "Ir";
    return o;
  }
  throw ObjectiveError("unknown objective key '" + k +
                       "': expected telemetry:<workload>:<metric> or "
                       "callgrind:<bench>:instructions");
}

double extract(const TelemetryObjective& t, const rapidjson::Value& s, const std::string& source) {
  if (!s.IsObject()) throw ObjectiveError(source + ": not a JSON object");
  auto root_field = [&](const char* field) {
    const rapidjson::Value& root = member(s, "root", "the summary", source);
    if (root.IsNull()) throw ObjectiveError(source + ": root is null (no jolt_prover::prove span)");
    return number(member(root, field, "root", source), std::string("root.") + field, source);
  };
  switch (t.metric) {
    case TelemetryMetric::kProverTime:
      return root_field("wall_time_ns") / 1e9;
    case TelemetryMetric::kPeakMemory:
      return root_field("peak_memory_gib");
    case TelemetryMetric::kPeakRss:
      return number(member(s, "peak_rss_gib", "the summary", source), "peak_rss_gib", source);
    case TelemetryMetric::kSpanTotal:
    case TelemetryMetric::kSpanSelf: {
      const char* field = t.metric == TelemetryMetric::kSpanTotal ? "total_ns" : "self_ns";
      const auto& span =
          member(member(s, "spans", "the summary", source), t.label, "spans", source);
      return number(member(span, field, "spans[\"" + t.label + "\"]", source),
                    "spans[\"" + t.label + "\"]." + field, source) /
             1e9;
    }
    case TelemetryMetric::kHeapTotal:
    case TelemetryMetric::kHeapRoot: {
      const auto& heap = member(s, "heap", "the summary", source);
      if (heap.IsObject() && heap.MemberCount() == 0)
        throw ObjectiveError(source +
                             ": heap is empty — the run took no heap snapshots (profile --heap)");
      const std::string where = "heap[\"" + t.label + "\"]";
      const auto& snap = member(heap, t.label, "heap", source);
      if (t.metric == TelemetryMetric::kHeapTotal)
        return number(member(snap, "total_bytes", where, source), where + ".total_bytes", source);
      const auto& roots = member(snap, "roots", where, source);
      return number(member(roots, t.root, where + ".roots", source),
                    where + ".roots[\"" + t.root + "\"]", source);
    }
  }
  throw ObjectiveError(source + ": unhandled metric");
}

std::uint64_t callgrind_total_instructions(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> events;
  std::optional<std::string> summary, totals;
  while (std::getline(in, line)) {
    if (starts_with(line, "events:")) {
      std::istringstream ev(line.substr(7));
      events.clear();
      for (std::string e; ev >> e;) events.push_back(e);
    } else if (starts_with(line, "summary:")) {
      summary = line.substr(8);
    } else if (starts_with(line, "totals:")) {
      totals = line.substr(7);
    }
  }
  const std::optional<std::string>& counts = summary ? summary : totals;
  if (!counts)
    throw ObjectiveError(source +
                         ": no `summary:` or `totals:` line; not a callgrind output file?");
  std::size_t index = 0;
  if (!events.empty()) {
    auto it = std::find(events.begin(), events.end(), "Ir");
    if (it == events.end()) throw ObjectiveError(source + ": the events line has no Ir event");
    index = static_cast<std::size_t>(it - events.begin());
  }
  std::istringstream nums(*counts);
  std::string tok;
  for (std::size_t i = 0; i <= index; ++i)
    if (!(nums >> tok)) throw ObjectiveError(source + ": the summary line has no Ir count");
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(tok, &used);
    if (used != tok.size()) throw std::invalid_argument(tok);
    return v;
  } catch (const std::exception&) {
    throw ObjectiveError(source + ": malformed Ir count '" + tok + "'");
  }
}

}  // namespace jolt::objectives
