// A Profile recorded by the real span recorder (main thread + a worker + counters + a stage span)
// through the summary library and the chrome sink: aggregates match, the trace validates.
#include <doctest/doctest.h>

#include <thread>

#include <jolt/instrument.hpp>
#include <jolt/recorder.hpp>
#include <jolt/summary.hpp>

#include "sink_test_support.hpp"
#include "summary_json.hpp"
#include "trace_validator.hpp"

TEST_CASE("recorded spans render to a valid trace and a consistent summary") {
  jolt::RecordingSession::start({});
  jolt::set_current_thread_name("main");
  {
    JOLT_SPAN("jolt_prover::prove", jolt::arg("trace_length", std::int64_t{1024}));
    jolt::counter("memory_gib", 0.5);
    {
      JOLT_STAGE_SPAN("prove_stage0");
      std::thread worker([] {
        jolt::set_current_thread_name("worker-0");
        JOLT_SPAN("EqPolynomial::evals");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      });
      worker.join();
      JOLT_SPAN("commit_witness");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    jolt::counter("memory_gib", 0.75);
  }
  jolt::Profile p = jolt::RecordingSession::stop();

  const jolt::ProfileSummary s = jolt::summarize(p);
  REQUIRE(s.root);
  CHECK(s.root->wall_time_ns > 0);
  CHECK(s.root->dark_time_ns <= s.root->wall_time_ns);
  CHECK(s.spans.at("EqPolynomial::evals").self_ns == s.spans.at("EqPolynomial::evals").total_ns);
  CHECK(s.spans.at("prove_stage0").self_ns ==
        s.spans.at("prove_stage0").total_ns - s.spans.at("commit_witness").total_ns);
  REQUIRE(s.stages.size() == 1);
  CHECK(s.stages[0].rss_open_gib.has_value());
  CHECK(s.counters.at("memory_gib").samples == 2);
  CHECK(s.root->peak_memory_gib == std::optional<double>(0.75));
  const auto summary_report = jolt::validate::validate_text(jolt::sinks::summary_to_json(s));
  CHECK_MESSAGE(summary_report.ok(), jolt::validate::format_report("summary", summary_report));

  const std::string dir = sink_test::fresh_dir("chrome_recorded");
  sink_test::LoadedSink chrome(sink_test::plugin_path("chrome"));
  REQUIRE(chrome.sink().write(p, {dir, dir}).ok);
  const auto report = jolt::validate::validate_file(dir + "/trace.json");
  CHECK_MESSAGE(report.ok(), jolt::validate::format_report("trace.json", report));
  CHECK(report.spans == 4);
  CHECK(report.counter_events == 2);
  CHECK(report.instants == 1);  // stage_rss at the stage close
}
