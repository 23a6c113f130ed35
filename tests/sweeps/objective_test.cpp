// Objective keys of measure-objectives: every accepted form parses, malformed keys fail with a
// message saying why, and values are extracted from a summary.json strictly (absent or null is
// an error, schema_version 1 and 2 are read, 3 is refused). Also the callgrind output parser.
#include <doctest/doctest.h>

#include <string>

#include <jolt/version.hpp>

#include "commands/objectives/objective.hpp"
#include "jolt/host/summary_file.hpp"

using namespace jolt::objectives;

namespace {

const char* const kSummary = R"({
  "schema_version": 1, "taxonomy_version": 1,
  "run": {"workload": "fibonacci", "scale_log2": 13, "backend": "reference",
          "timestamp_unix_secs": 1785542400, "git_rev": null},
  "root": {"label": "jolt_prover::prove", "wall_time_ns": 2000000000, "dark_time_ns": 20000000,
           "dark_time_fraction": 0.01, "peak_memory_gib": null},
  "peak_rss_gib": 1.5,
  "spans": {"EqPolynomial::evals": {"count": 3, "total_ns": 700000000, "self_ns": 400000000},
            "Stage1Batch::prove": {"count": 1, "total_ns": 4000000000, "self_ns": 100000000},
            "broken": {"count": 1, "total_ns": null, "self_ns": 5}},
  "stages": [], "counters": {},
  "heap": {"Stage2Batch_prepared": {"total_bytes": 8596875264,
           "roots": {"NaiveSumcheckProver<Fr, RamReadWriteChecking<Fr>>": 8594128896,
                     "jolt::prover::Session": 2746368}, "at_ns": 5}}
})";

TelemetryObjective telemetry(const std::string& key) {
  return std::get<TelemetryObjective>(parse_objective(key).target);
}

double value(const std::string& key, const char* json = kSummary) {
  auto doc = jolt::host::parse_summary(json, "summary.json");
  return extract(telemetry(key), doc, "summary.json");
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("every telemetry metric form parses, labels verbatim") {
  auto t = telemetry("telemetry:fibonacci:prover_time_s");
  CHECK(t.workload == "fibonacci");
  CHECK(t.metric == TelemetryMetric::kProverTime);
  CHECK(parse_objective("telemetry:fibonacci:prover_time_s").units == "s");
  CHECK(telemetry("telemetry:sha2-chain:peak_rss_gib").metric == TelemetryMetric::kPeakRss);
  CHECK(parse_objective("telemetry:btreemap:peak_memory_gib").units == "GiB");
  CHECK(telemetry("telemetry:sha3-chain:peak_memory_gib").metric == TelemetryMetric::kPeakMemory);

  t = telemetry("telemetry:fibonacci:total:EqPolynomial::evals");
  CHECK(t.metric == TelemetryMetric::kSpanTotal);
  CHECK(t.label == "EqPolynomial::evals");
  t = telemetry("telemetry:fibonacci:self:Stage1Batch::prove");
  CHECK(t.metric == TelemetryMetric::kSpanSelf);
  CHECK(t.label == "Stage1Batch::prove");

  t = telemetry("telemetry:fibonacci:heap:Stage2Batch_prepared");
  CHECK(t.metric == TelemetryMetric::kHeapTotal);
  CHECK(t.label == "Stage2Batch_prepared");
  CHECK(t.needs_heap());
  CHECK(parse_objective("telemetry:fibonacci:heap:Stage2Batch_prepared").units == "bytes");
  t = telemetry(
      "telemetry:fibonacci:heap:Stage2Batch_prepared:NaiveSumcheckProver<Fr, "
      "RamReadWriteChecking<Fr>>");
  CHECK(t.metric == TelemetryMetric::kHeapRoot);
  CHECK(t.label == "Stage2Batch_prepared");
  CHECK(t.root == "NaiveSumcheckProver<Fr, RamReadWriteChecking<Fr>>");
  t = telemetry("telemetry:fibonacci:heap:S:jolt::prover::Session");
  CHECK(t.root == "jolt::prover::Session");
  CHECK_FALSE(telemetry("telemetry:fibonacci:total:x").needs_heap());
}

TEST_CASE("callgrind keys parse") {
  auto o = parse_objective("callgrind:eq_evals_bench:instructions");
  CHECK(std::get<CallgrindObjective>(o.target).bench == "eq_evals_bench");
  CHECK(o.units == "Ir");
}

TEST_CASE("malformed keys and unknown workloads or metrics give clear errors") {
  auto err = [](const char* k) { return error_of([&] { parse_objective(k); }); };
  CHECK(contains(err("fibonacci:prover_time_s"), "unknown objective key"));
  CHECK(contains(err("telemetry:fibonacci"), "malformed telemetry key"));
  CHECK(contains(err("telemetry:fibonacci:"), "malformed telemetry key"));
  CHECK(contains(err("telemetry:fib:prover_time_s"), "unknown workload 'fib'"));
  CHECK(contains(err("telemetry:Fibonacci:prover_time_s"), "unknown workload"));
  CHECK(contains(err("telemetry:fibonacci:wall_time"), "unknown telemetry metric 'wall_time'"));
  CHECK(contains(err("telemetry:fibonacci:total:"), "empty label"));
  CHECK(contains(err("telemetry:fibonacci:self:"), "empty label"));
  CHECK(contains(err("telemetry:fibonacci:heap:"), "empty label"));
  CHECK(contains(err("telemetry:fibonacci:heap::root"), "empty heap snapshot label"));
  CHECK(contains(err("telemetry:fibonacci:heap:S:"), "empty heap root"));
  CHECK(contains(err("callgrind:eq_evals_bench"), "malformed callgrind key"));
  CHECK(contains(err("callgrind:eq_evals_bench:cycles"), "unknown callgrind metric 'cycles'"));
  CHECK(contains(err("callgrind:../bin/sh:instructions"), "bench name"));
  CHECK(contains(err("callgrind::instructions"), "bench name"));
}

TEST_CASE("values come from the summary") {
  CHECK(value("telemetry:fibonacci:prover_time_s") == doctest::Approx(2.0));
  CHECK(value("telemetry:fibonacci:peak_rss_gib") == doctest::Approx(1.5));
  CHECK(value("telemetry:fibonacci:total:EqPolynomial::evals") == doctest::Approx(0.7));
  CHECK(value("telemetry:fibonacci:self:EqPolynomial::evals") == doctest::Approx(0.4));
  CHECK(value("telemetry:fibonacci:total:Stage1Batch::prove") == doctest::Approx(4.0));
  CHECK(value("telemetry:fibonacci:heap:Stage2Batch_prepared") == 8596875264.0);
  CHECK(value("telemetry:fibonacci:heap:Stage2Batch_prepared:NaiveSumcheckProver<Fr, "
              "RamReadWriteChecking<Fr>>") == 8594128896.0);
}

TEST_CASE("absent labels and null values are errors, never 0") {
  auto err = [](const char* k) { return error_of([&] { value(k); }); };
  CHECK(contains(err("telemetry:fibonacci:total:NoSuchSpan"), "no entry \"NoSuchSpan\""));
  CHECK(contains(err("telemetry:fibonacci:peak_memory_gib"), "root.peak_memory_gib is null"));
  CHECK(contains(err("telemetry:fibonacci:total:broken"), "is null"));
  CHECK(contains(err("telemetry:fibonacci:heap:Stage9Batch_prepared"), "no entry"));
  CHECK(contains(err("telemetry:fibonacci:heap:Stage2Batch_prepared:Other"), "no entry \"Other\""));

  const std::string no_heap = std::string(kSummary).replace(std::string(kSummary).find("\"heap\""),
                                                            std::string::npos, "\"heap\": {}}");
  CHECK(contains(
      error_of([&] { value("telemetry:fibonacci:heap:Stage2Batch_prepared", no_heap.c_str()); }),
      "heap is empty"));
  const char* null_root = R"({"schema_version": 1, "root": null, "spans": {}})";
  CHECK(contains(error_of([&] { value("telemetry:fibonacci:prover_time_s", null_root); }),
                 "root is null"));
  const char* no_rss = R"({"schema_version": 1, "root": null, "spans": {}})";
  CHECK(contains(error_of([&] { value("telemetry:fibonacci:peak_rss_gib", no_rss); }),
                 "no entry \"peak_rss_gib\""));
}

TEST_CASE("summary.json schema: versions 1 to 3 are read; 4, 0 and non-summaries are refused") {
  // The reader knows the version the SDK writes; a bump must revisit summary_file.hpp.
  CHECK(jolt::host::kNewestSummarySchemaVersion == static_cast<int>(jolt::kSummarySchemaVersion));
  // Version 2 only added run.pcs / run.pcs_parameters: runs written before it stay readable.
  CHECK(value("telemetry:fibonacci:prover_time_s") == doctest::Approx(2.0));  // kSummary: v1
  std::string v2 = kSummary;
  v2.replace(v2.find("\"git_rev\": null"), 15,
             "\"git_rev\": null, \"pcs\": \"basefold\", \"pcs_parameters\": \"rate=1/4\"");
  v2.replace(v2.find("\"schema_version\": 1"), 19, "\"schema_version\": 2");
  CHECK(value("telemetry:fibonacci:prover_time_s", v2.c_str()) == doctest::Approx(2.0));
  // Version 3 only added run.trace_length, padded_scale_log2, proof_size_bytes, verified, host.
  std::string v3 = v2;
  v3.replace(v3.find("\"pcs_parameters\": \"rate=1/4\""), 28,
             "\"pcs_parameters\": \"rate=1/4\", \"trace_length\": 1000, \"padded_scale_log2\": 10, "
             "\"proof_size_bytes\": 5, \"verified\": true, \"host\": {\"cpu_model\": null, "
             "\"logical_cpus\": 2, \"memory_bytes\": null}");
  v3.replace(v3.find("\"schema_version\": 2"), 19, "\"schema_version\": 3");
  CHECK(value("telemetry:fibonacci:prover_time_s", v3.c_str()) == doctest::Approx(2.0));
  for (const char* bad : {"\"schema_version\": 4", "\"schema_version\": 0"}) {
    std::string v = kSummary;
    v.replace(v.find("\"schema_version\": 1"), 19, bad);
    CHECK(contains(error_of([&] { jolt::host::parse_summary(v, "s.json"); }),
                   std::string("schema_version ") + bad[18] +
                       " is not supported (this build reads versions 1 to 3)"));
  }
  CHECK(contains(error_of([&] { jolt::host::parse_summary("{\"spans\": {}}", "s.json"); }),
                 "no integer schema_version"));
  CHECK(contains(error_of([&] { jolt::host::parse_summary("{not json", "s.json"); }),
                 "not valid JSON"));
  CHECK(contains(error_of([] { jolt::host::load_summary("/nonexistent/summary.json"); }),
                 "cannot open"));
}

TEST_CASE("callgrind output: Ir from the summary line, totals as fallback") {
  const char* out =
      "# callgrind format\nversion: 1\ncmd: ./eq_evals_bench\nevents: Ir\n"
      "fn=(1) main\n16 5\nsummary: 38463626\ntotals: 38463626\n";
  CHECK(callgrind_total_instructions(out, "cg.out") == 38463626ull);
  CHECK(callgrind_total_instructions("events: Dr Ir\ntotals: 7 1234\n", "cg.out") == 1234ull);
  CHECK(contains(error_of([] { callgrind_total_instructions("events: Ir\nfn=main\n", "cg.out"); }),
                 "no `summary:` or `totals:` line"));
  CHECK(contains(error_of([] { callgrind_total_instructions("events: Dr\nsummary: 5\n", "x"); }),
                 "no Ir event"));
  CHECK(contains(error_of([] { callgrind_total_instructions("summary: 12x\n", "x"); }),
                 "malformed Ir count"));
}
