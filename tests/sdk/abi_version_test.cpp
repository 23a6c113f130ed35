// Pins the plugin ABI version and the shape of what the host hands a sink. A failure here means
// a struct a plugin reads changed: bump jolt::kAbiMajor (version.hpp), add an sdk/CHANGELOG.md
// entry, then update the pins below.
#include <doctest/doctest.h>

#include <jolt/plugin.hpp>
#include <jolt/process.hpp>
#include <jolt/profile.hpp>
#include <jolt/sink.hpp>
#include <jolt/version.hpp>

TEST_CASE("plugin ABI is 4.3, summary.json schema 3") {
  CHECK(jolt::kAbiMajor == 4);
  CHECK(jolt::kAbiMinor == 3);
  // 4.3: a sink's write and configure may throw (the host reports it as the sink's failure).
  jolt::Sink* sink = nullptr;
  const jolt::Profile profile;
  const jolt::SinkContext ctx;
  const jolt::SinkOptions options;
  static_assert(!noexcept(sink->write(profile, ctx)));
  static_assert(!noexcept(sink->configure(options)));
  CHECK(jolt::kSummarySchemaVersion == 3);
  // The capability bits a sink declares (4.2 added JOLT_CAP_SHARED_FILES).
  CHECK(JOLT_CAP_HEAP_SNAPSHOTS == 1);
  CHECK(JOLT_CAP_NEEDS_TRACE == 2);
  CHECK(JOLT_CAP_SHARED_FILES == 4);
}

TEST_CASE("the Profile and its rows have the fields ABI 4 promises, in order") {
  // Structured bindings fail to compile when a field is added or removed.
  jolt::Profile p;
  auto& [run, threads, counters, stage_rss, heap, peak_rss, prove_time, proof_size, trace_length,
         padded_length, verified] = p;
  CHECK(threads.empty());
  // ABI 3: RunInfo gained pcs and pcs_parameters (the commitment scheme of the proof).
  // ABI 4: RunInfo gained host (the machine the run happened on).
  auto& [workload, scale_log2, backend, timestamp, git_rev, trace_name, run_dir, out_dir, pcs,
         pcs_parameters, host] = run;
  CHECK_FALSE(pcs);
  CHECK_FALSE(pcs_parameters);
  auto& [cpu_model, logical_cpus, memory_bytes] = host;
  CHECK_FALSE(cpu_model);
  CHECK_FALSE(logical_cpus);
  CHECK_FALSE(memory_bytes);
  jolt::StageRssRow row{"prove_stage0", 1, 2, 3, 4, 5};
  auto& [stage, rss_open, rss_close, row_tid, open_ns, close_ns] = row;
  CHECK(stage == "prove_stage0");
  CHECK(row_tid == 3);
  CHECK(open_ns == 4);
  CHECK(close_ns == 5);
  jolt::HeapSnapshotRecord rec{"Stage1Batch_prepared", {}, 7, 8};
  auto& [label, stacks, rec_tid, ts_ns] = rec;
  CHECK(rec_tid == 7);
  CHECK(ts_ns == 8);
  jolt::TraceEvent ev;
  auto& [ph, name, ts, args] = ev;
  CHECK(ts == 0);
  (void)workload, (void)scale_log2, (void)backend, (void)timestamp, (void)git_rev;
  (void)trace_name, (void)run_dir, (void)out_dir, (void)counters, (void)stage_rss, (void)heap;
  (void)peak_rss, (void)prove_time;
  (void)proof_size, (void)trace_length, (void)padded_length, (void)verified, (void)rss_open;
  (void)rss_close, (void)label, (void)stacks, (void)name, (void)ph, (void)args;
}

namespace {
// Compiles only while Sink has write() and configure() with these signatures (ABI 4).
class PinnedSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext&) noexcept override {
    return {};
  }
  jolt::Status configure(const jolt::SinkOptions& o) noexcept override {
    return o.count("k") ? jolt::Status{} : jolt::Status::error("k missing");
  }
};
class DefaultSink final : public jolt::Sink {
 public:
  jolt::Status write(const jolt::Profile&, const jolt::SinkContext&) noexcept override {
    return {};
  }
};
}  // namespace

TEST_CASE("Sink::configure: the default takes no options, an override reads its own") {
  DefaultSink d;
  CHECK(d.configure({}).ok);
  const jolt::Status st = d.configure({{"depth", "3"}});
  CHECK_FALSE(st.ok);
  CHECK(st.message == "takes no options (got 'depth')");
  PinnedSink p;
  CHECK(p.configure({{"k", "v"}}).ok);
  CHECK_FALSE(p.configure({}).ok);
}

TEST_CASE("read_host_info describes this machine") {
  const jolt::HostInfo h = jolt::read_host_info();
  // Linux always has /proc/meminfo and an online CPU count; the model name line is absent on some
  // architectures, so only its form is checked.
  REQUIRE(h.logical_cpus);
  CHECK(*h.logical_cpus >= 1);
  REQUIRE(h.memory_bytes);
  CHECK(*h.memory_bytes > (std::uint64_t{64} << 20));
  if (h.cpu_model) {
    CHECK_FALSE(h.cpu_model->empty());
    CHECK(h.cpu_model->front() != ' ');
  }
}
