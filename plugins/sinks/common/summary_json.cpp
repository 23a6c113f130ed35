// summary.json rendering with RapidJSON's PrettyWriter, field order as schema v3.
#include "summary_json.hpp"

#include <cmath>
#include <cstdio>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

namespace jolt::sinks {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void key(Writer& w, const std::string& k) {
  w.Key(k.data(), rapidjson::SizeType(k.size()));
}
void str(Writer& w, const std::string& s) {
  w.String(s.data(), rapidjson::SizeType(s.size()));
}
void opt_double(Writer& w, const std::optional<double>& v) {
  v ? w.Double(*v) : w.Null();
}

}  // namespace

std::string summary_to_json(const ProfileSummary& s) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("schema_version");
  w.Uint(s.schema_version);
  w.Key("taxonomy_version");
  w.Uint(s.taxonomy_version);
  w.Key("run");
  w.StartObject();
  w.Key("workload");
  str(w, s.run.workload);
  w.Key("scale_log2");
  w.Uint(s.run.scale_log2);
  w.Key("backend");
  str(w, s.run.backend);
  w.Key("timestamp_unix_secs");
  w.Uint64(s.run.timestamp_unix_secs);
  w.Key("git_rev");
  s.run.git_rev ? str(w, *s.run.git_rev) : void(w.Null());
  w.Key("pcs");
  s.run.pcs ? str(w, *s.run.pcs) : void(w.Null());
  w.Key("pcs_parameters");
  s.run.pcs_parameters ? str(w, *s.run.pcs_parameters) : void(w.Null());
  w.Key("trace_length");
  w.Uint64(s.run.trace_length);
  w.Key("padded_scale_log2");
  s.run.padded_scale_log2 ? void(w.Uint(*s.run.padded_scale_log2)) : void(w.Null());
  w.Key("proof_size_bytes");
  s.run.proof_size_bytes ? void(w.Uint64(*s.run.proof_size_bytes)) : void(w.Null());
  w.Key("verified");
  w.Bool(s.run.verified);
  w.Key("host");
  w.StartObject();
  w.Key("cpu_model");
  s.run.host.cpu_model ? str(w, *s.run.host.cpu_model) : void(w.Null());
  w.Key("logical_cpus");
  s.run.host.logical_cpus ? void(w.Uint(*s.run.host.logical_cpus)) : void(w.Null());
  w.Key("memory_bytes");
  s.run.host.memory_bytes ? void(w.Uint64(*s.run.host.memory_bytes)) : void(w.Null());
  w.EndObject();
  w.EndObject();
  w.Key("root");
  if (s.root) {
    w.StartObject();
    w.Key("label");
    str(w, s.root->label);
    w.Key("wall_time_ns");
    w.Uint64(s.root->wall_time_ns);
    w.Key("dark_time_ns");
    w.Uint64(s.root->dark_time_ns);
    w.Key("dark_time_fraction");
    w.Double(s.root->dark_time_fraction);
    w.Key("peak_memory_gib");
    opt_double(w, s.root->peak_memory_gib);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("peak_rss_gib");
  opt_double(w, s.peak_rss_gib);
  w.Key("spans");
  w.StartObject();
  for (const auto& [label, a] : s.spans) {
    key(w, label);
    w.StartObject();
    w.Key("count");
    w.Uint64(a.count);
    w.Key("total_ns");
    w.Uint64(a.total_ns);
    w.Key("self_ns");
    w.Uint64(a.self_ns);
    w.EndObject();
  }
  w.EndObject();
  w.Key("stages");
  w.StartArray();
  for (const StageSummary& st : s.stages) {
    w.StartObject();
    w.Key("label");
    str(w, st.label);
    w.Key("wall_time_ns");
    w.Uint64(st.wall_time_ns);
    w.Key("rss_open_gib");
    opt_double(w, st.rss_open_gib);
    w.Key("rss_close_gib");
    opt_double(w, st.rss_close_gib);
    w.Key("rss_delta_gib");
    opt_double(w, st.rss_delta_gib);
    w.Key("peak_memory_gib");
    opt_double(w, st.peak_memory_gib);
    w.EndObject();
  }
  w.EndArray();
  w.Key("counters");
  w.StartObject();
  for (const auto& [name, c] : s.counters) {
    // JSON has no NaN/Inf (the writer would emit a key with no value): summarize() already skips
    // non-finite samples; a summary built some other way drops such a counter here.
    if (!std::isfinite(c.max) || !std::isfinite(c.mean)) continue;
    key(w, name);
    w.StartObject();
    w.Key("samples");
    w.Uint64(c.samples);
    w.Key("max");
    w.Double(c.max);
    w.Key("mean");
    w.Double(c.mean);
    w.EndObject();
  }
  w.EndObject();
  w.Key("heap");
  w.StartObject();
  for (const auto& [label, h] : s.heap) {
    key(w, label);
    w.StartObject();
    w.Key("total_bytes");
    w.Uint64(h.total_bytes);
    w.Key("roots");
    w.StartObject();
    for (const auto& [root, bytes] : h.roots) {
      key(w, root);
      w.Uint64(bytes);
    }
    w.EndObject();
    w.Key("at_ns");
    h.at_ns ? void(w.Uint64(*h.at_ns)) : void(w.Null());
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  std::string out(buf.GetString(), buf.GetSize());
  out += '\n';
  return out;
}

std::optional<std::string> git_short_rev() {
  std::FILE* p = ::popen("git rev-parse --short HEAD 2>/dev/null", "r");
  if (!p) return std::nullopt;
  std::string out;
  char chunk[128];
  while (std::size_t n = std::fread(chunk, 1, sizeof chunk, p)) out.append(chunk, n);
  const int rc = ::pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' '))
    out.pop_back();
  if (rc != 0 || out.empty()) return std::nullopt;
  return out;
}

}  // namespace jolt::sinks
