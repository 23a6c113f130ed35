// jolt-run diff: metric extraction from summary.json, the rank test, the rendering.
#include "commands/diff/diff.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <boost/algorithm/string/predicate.hpp>
#include <boost/filesystem.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <jolt/taxonomy.hpp>

#include "jolt/host/summary_file.hpp"

namespace jolt::core {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, v);
  return buf;
}

std::string format_ns(double ns) {
  if (ns >= 1e9) return fmt("%.3f s", ns / 1e9);
  if (ns >= 1e6) return fmt("%.2f ms", ns / 1e6);
  return fmt("%.1f us", ns / 1e3);
}

std::string side_label(const DiffInput& in) {
  if (in.runs.empty()) return "(no runs)";
  const DiffRun& r = in.runs.front();
  return r.workload + " 2^" + std::to_string(r.scale_log2) + " (" + std::to_string(in.runs.size()) +
         (in.runs.size() == 1 ? " run)" : " runs)");
}

std::vector<double> values_of(const DiffInput& in, const std::string& metric) {
  std::vector<double> out;
  for (const DiffRun& r : in.runs)
    for (const auto& [name, v] : r.metrics)
      if (name == metric) out.push_back(v);
  return out;
}

std::string verdict_cell(const MetricDiff& m) {
  std::string s = verdict_text(m.verdict);
  if (m.p_value) s += fmt(" (p=%.3f)", *m.p_value);
  return s;
}

}  // namespace

const char* verdict_text(Verdict v) {
  switch (v) {
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kFaster:
      return "faster";
    case Verdict::kNoChange:
      return "no significant change";
    case Verdict::kNoiseUnknown:
      return "noise unknown";
    case Verdict::kMissing:
      return "only on one side";
  }
  return "";
}

DiffInput load_side(const std::vector<std::string>& paths) {
  DiffInput in;
  for (const std::string& p : paths) {
    const std::string file = boost::filesystem::is_directory(p) ? p + "/summary.json" : p;
    const rapidjson::Document s = host::load_summary(file);
    DiffRun r;
    r.source = file;
    r.workload = host::summary_string(s, "/run/workload", file);
    r.scale_log2 = static_cast<std::uint32_t>(host::summary_number(s, "/run/scale_log2", file));
    if (auto root = s.FindMember("root"); root != s.MemberEnd() && root->value.IsObject())
      r.metrics.emplace_back("prove", host::summary_number(s, "/root/wall_time_ns", file));
    if (auto st = s.FindMember("stages"); st != s.MemberEnd() && st->value.IsArray())
      for (rapidjson::SizeType i = 0; i < st->value.Size(); ++i) {
        const std::string at = "/stages/" + std::to_string(i);
        r.metrics.emplace_back("stage " + host::summary_string(s, (at + "/label").c_str(), file),
                               host::summary_number(s, (at + "/wall_time_ns").c_str(), file));
      }
    if (auto sp = s.FindMember("spans"); sp != s.MemberEnd() && sp->value.IsObject())
      for (auto it = sp->value.MemberBegin(); it != sp->value.MemberEnd(); ++it) {
        auto total = it->value.FindMember("total_ns");
        const std::string label(it->name.GetString(), it->name.GetStringLength());
        // The root and the stage spans are the "prove" and "stage" rows already.
        if (label == taxonomy::kRootSpan || taxonomy::is_stage_span(label)) continue;
        if (total != it->value.MemberEnd() && total->value.IsNumber())
          r.metrics.emplace_back("span " + label, total->value.GetDouble());
      }
    in.runs.push_back(std::move(r));
  }
  return in;
}

double mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t na = a.size();
  // Midranks of the pooled sample.
  std::vector<std::pair<double, int>> pooled;
  for (double x : a) pooled.emplace_back(x, 0);
  for (double x : b) pooled.emplace_back(x, 1);
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_a = 0;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) rank_sum_a += midrank;
    i = j;
  }
  return rank_sum_a - static_cast<double>(na * (na + 1)) / 2.0;
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t na = a.size(), nb = b.size();
  if (na == 0 || nb == 0) return 1.0;
  const double u = mann_whitney_u(a, b);
  const std::size_t umax = na * nb;
  if (na > 50 || nb > 50) {  // normal approximation with continuity correction
    const double mean = static_cast<double>(umax) / 2.0;
    const double sd = std::sqrt(static_cast<double>(na * nb * (na + nb + 1)) / 12.0);
    const double z = (std::abs(u - mean) - 0.5) / sd;
    return std::min(1.0, std::erfc(std::max(0.0, z) / std::sqrt(2.0)));
  }
  // Exact null distribution: count[i][j][u] = count[i-1][j][u-j] + count[i][j-1][u] (the
  // largest of i + j values is an a or a b), two rows of i kept, in doubles.
  std::vector<std::vector<double>> prev(nb + 1, std::vector<double>(umax + 1, 0.0)), cur = prev;
  for (std::size_t j = 0; j <= nb; ++j) prev[j][0] = 1;  // i = 0
  for (std::size_t i = 1; i <= na; ++i) {
    for (std::size_t j = 0; j <= nb; ++j) {
      std::fill(cur[j].begin(), cur[j].end(), 0.0);
      if (j == 0) {
        cur[0][0] = 1;
        continue;
      }
      for (std::size_t v = 0; v <= i * j; ++v)
        cur[j][v] = (v >= j ? prev[j][v - j] : 0.0) + cur[j - 1][v];
    }
    std::swap(prev, cur);
  }
  const std::vector<double>& dist = prev[nb];
  double total = 0;
  for (double x : dist) total += x;
  double lower = 0, upper = 0;
  for (std::size_t v = 0; v <= umax; ++v) {
    if (static_cast<double>(v) <= std::floor(u)) lower += dist[v];
    if (static_cast<double>(v) >= std::ceil(u)) upper += dist[v];
  }
  return std::min(1.0, 2.0 * std::min(lower, upper) / total);
}

DiffReport diff_runs(const DiffInput& a, const DiffInput& b, std::size_t top_labels) {
  DiffReport d;
  d.runs_a = a.runs.size();
  d.runs_b = b.runs.size();
  d.label_a = side_label(a);
  d.label_b = side_label(b);
  std::set<std::pair<std::string, std::uint32_t>> what;
  for (const DiffInput* side : {&a, &b})
    for (const DiffRun& r : side->runs) what.emplace(r.workload, r.scale_log2);
  if (what.size() > 1)
    d.notes.push_back("the runs are of " + std::to_string(what.size()) +
                      " different workload/scale pairs: the comparison is not like for like");

  // Metric order: prove, the stages as they first appear, then the span labels with the largest
  // median total time on either side.
  std::vector<std::string> names{"prove"};
  std::set<std::string> seen{"prove"};
  std::map<std::string, double> span_weight;
  for (const DiffInput* side : {&a, &b})
    for (const DiffRun& r : side->runs)
      for (const auto& [name, v] : r.metrics) {
        (void)v;
        if (name.rfind("stage ", 0) == 0 && seen.insert(name).second) names.push_back(name);
        if (name.rfind("span ", 0) == 0 && !span_weight.count(name)) {
          const std::vector<double> va = values_of(a, name), vb = values_of(b, name);
          span_weight[name] = std::max(va.empty() ? 0 : median(va), vb.empty() ? 0 : median(vb));
        }
      }
  std::vector<std::pair<double, std::string>> spans;
  for (const auto& [name, w] : span_weight) spans.emplace_back(-w, name);
  std::sort(spans.begin(), spans.end());
  for (std::size_t i = 0; i < spans.size() && i < top_labels; ++i) names.push_back(spans[i].second);

  for (const std::string& name : names) {
    const std::vector<double> va = values_of(a, name), vb = values_of(b, name);
    if (va.empty() && vb.empty()) continue;
    d.metrics.push_back(compare_metric(name, va, vb));
  }
  return d;
}

MetricDiff compare_metric(const std::string& name, const std::vector<double>& va,
                          const std::vector<double>& vb) {
  MetricDiff m;
  m.metric = name;
  if (!va.empty()) m.median_a_ns = median(va);
  if (!vb.empty()) m.median_b_ns = median(vb);
  if (va.empty() || vb.empty()) {
    m.verdict = Verdict::kMissing;
    return m;
  }
  if (*m.median_a_ns > 0) m.change = (*m.median_b_ns - *m.median_a_ns) / *m.median_a_ns;
  if (va.size() >= kMinRepeats && vb.size() >= kMinRepeats) {
    m.p_value = mann_whitney_p(va, vb);
    // The direction of the test itself: A's U below its null mean means B ranks higher
    // (slower), whatever the medians say.
    const double u = mann_whitney_u(va, vb);
    const double mean = static_cast<double>(va.size() * vb.size()) / 2.0;
    m.verdict = *m.p_value >= kAlpha ? Verdict::kNoChange
                : u < mean           ? Verdict::kSlower
                                     : Verdict::kFaster;
  } else {
    m.verdict = Verdict::kNoiseUnknown;
  }
  return m;
}

bool regressed(const MetricDiff& m, double pct) {
  return m.change && *m.change * 100.0 > pct && m.verdict != Verdict::kNoChange &&
         m.verdict != Verdict::kFaster;
}

bool regressed(const DiffReport& d, double pct) {
  for (const MetricDiff& m : d.metrics)
    if (m.metric == "prove") return regressed(m, pct);
  return false;
}

std::string render_diff_text(const DiffReport& d) {
  std::string out = "A: " + d.label_a + "\nB: " + d.label_b + "\n";
  for (const std::string& n : d.notes) out += "note: " + n + "\n";
  char head[96];
  std::snprintf(head, sizeof(head), "%-36s%12s%12s%9s  verdict\n", "metric", "A", "B", "change");
  out += head;
  for (const MetricDiff& m : d.metrics) {
    std::string name = m.metric.size() > 35 ? m.metric.substr(0, 34) + "~" : m.metric;
    char line[96];
    std::snprintf(line, sizeof(line), "%-36s%12s%12s%9s", name.c_str(),
                  m.median_a_ns ? format_ns(*m.median_a_ns).c_str() : "-",
                  m.median_b_ns ? format_ns(*m.median_b_ns).c_str() : "-",
                  m.change ? fmt("%+.1f%%", *m.change * 100.0).c_str() : "-");
    out += line;
    out += "  " + verdict_cell(m) + "\n";
  }
  out += "medians; change = (B - A) / A. A verdict needs " + std::to_string(kMinRepeats) +
         " runs per side (two-sided\nMann-Whitney rank test, p < " + fmt("%.2f", kAlpha) +
         "); with fewer the noise is unknown (" + std::to_string(d.runs_a) + " vs " +
         std::to_string(d.runs_b) + " runs here).\n";
  return out;
}

std::string render_diff_markdown(const DiffReport& d) {
  std::string out = "**A**: " + d.label_a + "  \n**B**: " + d.label_b + "\n\n";
  for (const std::string& n : d.notes) out += "> note: " + n + "\n\n";
  out += "| metric | A (median) | B (median) | change | verdict |\n|---|---:|---:|---:|---|\n";
  for (const MetricDiff& m : d.metrics)
    out += "| `" + m.metric + "` | " + (m.median_a_ns ? format_ns(*m.median_a_ns) : "-") + " | " +
           (m.median_b_ns ? format_ns(*m.median_b_ns) : "-") + " | " +
           (m.change ? fmt("%+.1f%%", *m.change * 100.0) : "-") + " | " + verdict_cell(m) + " |\n";
  out += "\nMedians; change = (B − A) / A; a verdict needs " + std::to_string(kMinRepeats) +
         " runs per side (two-sided Mann–Whitney rank test, p < " + fmt("%.2f", kAlpha) + ").\n";
  return out;
}

bool is_csv_path(const std::string& path) {
  return path.size() > 4 && boost::algorithm::iends_with(path, ".csv");
}

std::vector<TimingRow> load_csv_side(const std::vector<std::string>& paths) {
  std::vector<TimingRow> rows;
  for (const std::string& p : paths) {
    std::vector<TimingRow> more = read_timings_csv(p);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  if (rows.empty()) {
    std::string names;
    for (const std::string& p : paths) names += (names.empty() ? "" : ", ") + p;
    throw TimingsError(names + ": no result rows (the header only); run `jolt-run benchmark` or " +
                       "`jolt-run profile` with this out dir first");
  }
  return rows;
}

CsvDiffReport diff_csv(const std::vector<TimingRow>& a, const std::string& name_a,
                       const std::vector<TimingRow>& b, const std::string& name_b) {
  CsvDiffReport d;
  auto label = [](const std::string& name, std::size_t n) {
    return name + " (" + std::to_string(n) + (n == 1 ? " row)" : " rows)");
  };
  d.label_a = label(name_a, a.size());
  d.label_b = label(name_b, b.size());
  std::map<std::pair<std::string, std::uint32_t>,
           std::pair<std::vector<double>, std::vector<double>>>
      samples;
  for (const TimingRow& r : a)
    samples[{r.benchmark_name, r.scale}].first.push_back(r.prove_seconds() * 1e9);
  for (const TimingRow& r : b)
    samples[{r.benchmark_name, r.scale}].second.push_back(r.prove_seconds() * 1e9);
  for (const auto& [key, ab] : samples) {
    PairDiff p;
    p.workload = key.first;
    p.scale = key.second;
    p.runs_a = ab.first.size();
    p.runs_b = ab.second.size();
    p.prove = compare_metric("prove", ab.first, ab.second);
    d.pairs.push_back(std::move(p));
  }
  return d;
}

std::vector<const PairDiff*> regressed_pairs(const CsvDiffReport& d, double pct) {
  std::vector<const PairDiff*> out;
  for (const PairDiff& p : d.pairs)
    if (regressed(p.prove, pct)) out.push_back(&p);
  return out;
}

std::string render_csv_diff_text(const CsvDiffReport& d) {
  std::string out = "A: " + d.label_a + "\nB: " + d.label_b + "\n";
  char head[128];
  std::snprintf(head, sizeof(head), "%-28s%10s%12s%12s%9s  verdict\n", "pair (prove time)",
                "runs A/B", "A", "B", "change");
  out += head;
  for (const PairDiff& p : d.pairs) {
    std::string name = p.workload + " 2^" + std::to_string(p.scale);
    if (name.size() > 27) name = name.substr(0, 26) + "~";
    const MetricDiff& m = p.prove;
    char line[128];
    std::snprintf(line, sizeof(line), "%-28s%10s%12s%12s%9s", name.c_str(),
                  (std::to_string(p.runs_a) + "/" + std::to_string(p.runs_b)).c_str(),
                  m.median_a_ns ? format_ns(*m.median_a_ns).c_str() : "-",
                  m.median_b_ns ? format_ns(*m.median_b_ns).c_str() : "-",
                  m.change ? fmt("%+.1f%%", *m.change * 100.0).c_str() : "-");
    out += line;
    out += "  " + verdict_cell(m) + "\n";
  }
  out += "medians of each pair's rows; change = (B - A) / A. A verdict needs " +
         std::to_string(kMinRepeats) +
         " rows of the pair per side\n(two-sided Mann-Whitney rank test, p < " +
         fmt("%.2f", kAlpha) + "); with fewer the noise is unknown.\n";
  return out;
}

std::string render_csv_diff_markdown(const CsvDiffReport& d) {
  std::string out = "**A**: " + d.label_a + "  \n**B**: " + d.label_b + "\n\n";
  out +=
      "| pair | runs A/B | A prove (median) | B prove (median) | change | verdict |\n"
      "|---|---:|---:|---:|---:|---|\n";
  for (const PairDiff& p : d.pairs) {
    const MetricDiff& m = p.prove;
    out += "| " + p.workload + " 2^" + std::to_string(p.scale) + " | " + std::to_string(p.runs_a) +
           "/" + std::to_string(p.runs_b) + " | " +
           (m.median_a_ns ? format_ns(*m.median_a_ns) : "-") + " | " +
           (m.median_b_ns ? format_ns(*m.median_b_ns) : "-") + " | " +
           (m.change ? fmt("%+.1f%%", *m.change * 100.0) : "-") + " | " + verdict_cell(m) + " |\n";
  }
  out += "\nMedians of each pair's rows; change = (B − A) / A; a verdict needs " +
         std::to_string(kMinRepeats) +
         " rows of the pair per side (two-sided Mann–Whitney rank test, p < " +
         fmt("%.2f", kAlpha) + ").\n";
  return out;
}

}  // namespace jolt::core
