// The chrome sink as a loaded plugin: trace.json shape (metadata, nested B/E, args, instants,
// native counter tracks, exact-ns µs timestamps), validity, atomic output, and write time.
#include <doctest/doctest.h>

#include <chrono>
#include <map>

#include <rapidjson/document.h>

#include <jolt/spans.hpp>
#include <jolt/summary.hpp>

#include "fixture_profile.hpp"
#include "sink_test_support.hpp"
#include "trace_validator.hpp"

using namespace jolt::testing;

TEST_CASE("chrome sink writes a Perfetto-importable trace of the fixture") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("chrome"));
  CHECK(std::string(loaded.descriptor().name) == "chrome");
  CHECK((loaded.descriptor().capabilities & JOLT_CAP_NEEDS_TRACE) != 0);
  const std::string dir = sink_test::fresh_dir("chrome_fixture");
  const jolt::Status st = loaded.sink().write(fixture_profile(), {dir, dir});
  REQUIRE_MESSAGE(st.ok, st.message);
  CHECK_FALSE(sink_test::has_temp_files(dir));
  const std::string text = sink_test::read_file(dir + "/trace.json");
  CHECK(text.find("counters.") == std::string::npos);
  CHECK(text.find("\"ts\":1350.000") != std::string::npos);

  const jolt::validate::Report report = jolt::validate::validate_chrome_trace(text);
  CHECK_MESSAGE(report.ok(), jolt::validate::format_report("trace.json", report));
  CHECK(report.threads == 3);

  rapidjson::Document d;
  d.Parse(text);
  REQUIRE(d.IsArray());
  std::map<std::string, int> phases;
  std::map<std::string, std::string> thread_names;
  int memory_counters = 0;
  bool saw_process_name = false, saw_root_args = false, saw_batch_args = false, saw_round = false;
  for (const auto& e : d.GetArray()) {
    const std::string ph = e["ph"].GetString();
    const std::string name = e["name"].GetString();
    CHECK(e["pid"].GetInt() == 1);
    ++phases[ph];
    if (ph == "M" && name == "process_name") saw_process_name = true;
    if (ph == "M" && name == "thread_name")
      thread_names[std::to_string(e["tid"].GetUint())] = e["args"]["name"].GetString();
    if (ph == "B" && name == "jolt_prover::prove")
      saw_root_args = e["args"]["trace_length"].GetInt64() == 65536 && e["ts"].GetDouble() == 0;
    if (ph == "B" && name == "prove_batch")
      saw_batch_args = e["args"]["num_rounds"].GetInt() == 16 && e["args"]["members"].GetInt() == 2;
    if (ph == "B" && name == "sumcheck_round" && e["args"].HasMember("round")) saw_round = true;
    if (ph == "i") {
      CHECK(std::string(e["s"].GetString()) == "t");
      CHECK(name == "heap_snapshot");
      CHECK(e["ts"].GetDouble() == 1350.0);
    }
    if (ph == "C") {
      CHECK(e["tid"].GetUint() == 3);
      CHECK(e["args"].MemberCount() == 1);
      CHECK(e["args"][name.c_str()].IsNumber());
      if (name == "memory_gib") {
        if (memory_counters == 0) {
          CHECK(e["args"]["memory_gib"].GetDouble() == 1.0);
          CHECK(e["ts"].GetDouble() == 500.0);
        }
        ++memory_counters;
      }
    }
  }
  CHECK(saw_process_name);
  CHECK(saw_root_args);
  CHECK(saw_batch_args);
  CHECK(saw_round);
  CHECK(thread_names["1"] == "main");
  CHECK(thread_names["2"] == "tbb-worker-0");
  CHECK(thread_names["3"] == "metrics-monitor");
  CHECK(phases["B"] == 9);
  CHECK(phases["E"] == 9);
  CHECK(phases["i"] == 1);
  CHECK(phases["C"] == 4);
  CHECK(memory_counters == 3);
}

TEST_CASE("chrome sink keeps ns precision and normalises broken nesting") {
  jolt::Profile p;
  p.threads.push_back(jolt::ThreadTrack{
      7,
      "main",
      {jolt::TraceEvent{jolt::Phase::kEnd, "stray", 1, {}},
       jolt::TraceEvent{jolt::Phase::kBegin, "outer", 1'234'567, {}},
       jolt::TraceEvent{jolt::Phase::kBegin, "inner", 1'234'568, {}},
       jolt::TraceEvent{jolt::Phase::kEnd, "outer", 2'000'001, {}},
       jolt::TraceEvent{jolt::Phase::kBegin, "open_at_end", 3'000'000, {}},
       jolt::TraceEvent{jolt::Phase::kInstant,
                        "stage_rss",
                        3'500'999,
                        {{"stage", std::string("prove_stage0")}, {"rss_open_gib", 1.5}}}}});
  const std::string dir = sink_test::fresh_dir("chrome_normalise");
  sink_test::LoadedSink loaded(sink_test::plugin_path("chrome"));
  REQUIRE(loaded.sink().write(p, {dir, dir}).ok);
  const std::string text = sink_test::read_file(dir + "/trace.json");
  CHECK(text.find("\"ts\":1234.567") != std::string::npos);
  CHECK(text.find("\"ts\":1234.568") != std::string::npos);
  CHECK(text.find("stray") == std::string::npos);
  CHECK(text.find("\"ts\":3500.999") != std::string::npos);
  const auto report = jolt::validate::validate_chrome_trace(text);
  CHECK_MESSAGE(report.ok(), jolt::validate::format_report("trace.json", report));
  CHECK(report.spans == 3);
}

TEST_CASE("trace.json and summary.json agree with the SDK replay on an unbalanced recording") {
  // One policy everywhere: the B/E pairs of trace.json, the counts of summary.json and the span
  // tree are the same spans, including the ones closed for want of their own end.
  jolt::Profile p;
  p.threads.push_back(jolt::ThreadTrack{
      1,
      "main",
      {b("outer", 10), b("inner", 20), e("outer", 100), e("inner", 110), b("never_closed", 200)}});
  p.threads.push_back(jolt::ThreadTrack{2, "worker", {e("stray", 5), b("job", 30), e("job", 40)}});
  p.counters = {jolt::CounterTrack{"memory_gib", 1, {{300'000, 1.0}}}};
  const jolt::SpanTree tree = jolt::replay_spans(p);
  REQUIRE(tree.spans.size() == 4);
  CHECK(tree.dropped_or_closed() == 4);  // 2 unmatched ends, 1 closed by outer, 1 at the end

  const std::string dir = sink_test::fresh_dir("chrome_agree");
  sink_test::LoadedSink loaded(sink_test::plugin_path("chrome"));
  REQUIRE(loaded.sink().write(p, {dir, dir}).ok);
  const auto report =
      jolt::validate::validate_chrome_trace(sink_test::read_file(dir + "/trace.json"));
  CHECK_MESSAGE(report.ok(), jolt::validate::format_report("trace.json", report));
  CHECK(report.spans == tree.spans.size());

  const jolt::ProfileSummary s = jolt::summarize(p);
  std::uint64_t counted = 0;
  for (const auto& [label, agg] : s.spans) counted += agg.count;
  CHECK(counted == tree.spans.size());
  CHECK(s.spans.at("never_closed").total_ns == 100'000);  // closed at the counter's 300 µs
}

TEST_CASE("chrome sink reports an unwritable run directory by file name") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("chrome"));
  const jolt::Status st =
      loaded.sink().write(fixture_profile(), {"/nonexistent/run", "/nonexistent"});
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("/nonexistent/run/trace.json") != std::string::npos);
}

TEST_CASE("chrome sink write time for a few hundred thousand events") {
  jolt::Profile p;
  for (std::uint32_t t = 0; t < 4; ++t) {
    jolt::ThreadTrack track{t + 1, "worker-" + std::to_string(t), {}};
    std::uint64_t ts = 0;
    for (int i = 0; i < 40'000; ++i) {
      track.events.push_back(
          {jolt::Phase::kBegin, "sumcheck_round", ts += 10, {{"round", std::int64_t{i}}}});
      track.events.push_back({jolt::Phase::kBegin, "EqPolynomial::evals", ts += 7, {}});
      track.events.push_back({jolt::Phase::kEnd, "EqPolynomial::evals", ts += 100, {}});
      track.events.push_back({jolt::Phase::kEnd, "sumcheck_round", ts += 3, {}});
    }
    p.threads.push_back(std::move(track));
  }
  jolt::CounterTrack mem{"memory_gib", 1, {}};
  for (int i = 0; i < 20'000; ++i)
    mem.samples.push_back({std::uint64_t(i) * 50'000, 1.0 + i * 1e-4});
  p.counters.push_back(std::move(mem));
  const std::string dir = sink_test::fresh_dir("chrome_bulk");
  sink_test::LoadedSink loaded(sink_test::plugin_path("chrome"));
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(loaded.sink().write(p, {dir, dir}).ok);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("chrome sink: 660000 events written in "
          << ms << " ms (" << std::filesystem::file_size(dir + "/trace.json") / 1e6 << " MB)");
  const auto report = jolt::validate::validate_file(dir + "/trace.json");
  CHECK(report.ok());
  CHECK(report.events == 4 * 160'000 + 20'000 + 5);
}
