// The perfetto sink as a loaded plugin: the protobuf writer's encodings, and trace.pftrace decoded
// by `protoc --decode` against schema/perfetto_trace_subset.proto, read back under Perfetto's
// rules (sequences, interning, defaults, incremental clock) and compared event by event with the
// Profile it came from.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <tuple>
#include <variant>

#include <jolt/spans.hpp>

#include "fixture_profile.hpp"
#include "protobuf_writer.hpp"
#include "sink_test_support.hpp"

using namespace jolt::testing;

namespace {

// --- protoc's text format, as a tree ---------------------------------------------------------

struct TextField;
struct TextNode {
  std::string value;              // a scalar field's text (unescaped)
  std::vector<TextField> fields;  // a message's fields in order

  const TextNode* find(const std::string& name) const;
  std::vector<const TextNode*> all(const std::string& name) const;
  std::uint64_t u64(const std::string& name) const {
    const TextNode* n = find(name);
    REQUIRE_MESSAGE(n, "missing field " << name);
    return std::stoull(n->value);
  }
};
struct TextField {
  std::string name;
  TextNode node;
};

const TextNode* TextNode::find(const std::string& name) const {
  for (const TextField& f : fields)
    if (f.name == name) return &f.node;
  return nullptr;
}
std::vector<const TextNode*> TextNode::all(const std::string& name) const {
  std::vector<const TextNode*> out;
  for (const TextField& f : fields)
    if (f.name == name) out.push_back(&f.node);
  return out;
}

std::string unescape(const std::string& quoted) {
  REQUIRE(quoted.size() >= 2);
  std::string out;
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    char c = quoted[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    c = quoted[++i];
    if (c >= '0' && c <= '7') {  // octal \NNN
      int v = 0;
      for (int k = 0; k < 3 && i < quoted.size() - 1 && quoted[i] >= '0' && quoted[i] <= '7'; ++k)
        v = v * 8 + (quoted[i++] - '0');
      --i;
      out += static_cast<char>(v);
    } else {
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
    }
  }
  return out;
}

TextNode parse_text_format(const std::string& text) {
  TextNode root;
  std::vector<TextNode*> stack{&root};
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t b = line.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line == "}") {
      REQUIRE(stack.size() > 1);
      stack.pop_back();
    } else if (line.size() > 2 && line.compare(line.size() - 2, 2, " {") == 0) {
      stack.back()->fields.push_back(TextField{line.substr(0, line.size() - 2), TextNode{}});
      stack.push_back(&stack.back()->fields.back().node);
    } else {
      const std::size_t colon = line.find(": ");
      REQUIRE_MESSAGE(colon != std::string::npos, line);
      std::string value = line.substr(colon + 2);
      if (!value.empty() && value[0] == '"') value = unescape(value);
      stack.back()->fields.push_back(TextField{line.substr(0, colon), TextNode{value, {}}});
    }
  }
  REQUIRE(stack.size() == 1);
  return root;
}

struct Command {
  int code = -1;
  std::string output;
};
Command run(const std::string& cmd) {
  Command r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.output.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// --- the trace as Perfetto reads it ------------------------------------------------------------

using ArgText = std::map<std::string, std::string>;  // key -> value as text
struct Slice {
  std::string thread, name;
  std::uint64_t ts = 0, dur = 0;
  std::uint32_t depth = 0;
  ArgText args;
  bool operator<(const Slice& o) const {
    return std::tie(thread, ts, depth, name, dur, args) <
           std::tie(o.thread, o.ts, o.depth, o.name, o.dur, o.args);
  }
  bool operator==(const Slice& o) const { return !(*this < o) && !(o < *this); }
};
struct Sample {
  std::string counter;
  std::uint64_t ts = 0;
  double value = 0;
  bool operator<(const Sample& o) const {
    return std::tie(counter, ts, value) < std::tie(o.counter, o.ts, o.value);
  }
  bool operator==(const Sample& o) const { return !(*this < o) && !(o < *this); }
};
struct DecodedTrace {
  std::string process_name;
  std::map<std::uint32_t, std::string> thread_names;  // tid -> name
  std::vector<Slice> slices, instants;                // instants: dur 0
  std::vector<Sample> samples;
};

std::string double_text(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Reads the decoded packets under the format's rules; every rule broken fails the test.
DecodedTrace read_trace(const TextNode& trace) {
  struct Track {
    enum Kind { kProcess, kThread, kCounter } kind;
    std::string name;
    std::vector<Slice> open;
  };
  struct SequenceState {
    bool cleared = false;
    std::uint64_t default_track = 0;
    std::uint64_t default_clock = 6;
    std::optional<std::uint64_t> incremental_ts;
    std::map<std::uint64_t, std::string> names, keys;
  };
  DecodedTrace out;
  std::map<std::uint64_t, Track> tracks;
  std::map<std::uint64_t, SequenceState> sequences;
  for (const TextNode* p : trace.all("packet")) {
    SequenceState& seq = sequences[p->u64("trusted_packet_sequence_id")];
    const TextNode* flags = p->find("sequence_flags");
    if (flags && std::stoull(flags->value) & 1) {
      seq = SequenceState{};
      seq.cleared = true;
    }
    if (flags && std::stoull(flags->value) & 2) CHECK(seq.cleared);
    if (const TextNode* d = p->find("trace_packet_defaults")) {
      CHECK(seq.cleared);
      if (d->find("timestamp_clock_id")) seq.default_clock = d->u64("timestamp_clock_id");
      if (const TextNode* e = d->find("track_event_defaults"))
        seq.default_track = e->u64("track_uuid");
    }
    if (const TextNode* interned = p->find("interned_data")) {
      CHECK(flags);
      for (const TextNode* n : interned->all("event_names"))
        CHECK(seq.names.emplace(n->u64("iid"), n->find("name")->value).second);
      for (const TextNode* n : interned->all("debug_annotation_names"))
        CHECK(seq.keys.emplace(n->u64("iid"), n->find("name")->value).second);
    }
    const std::uint64_t clock =
        p->find("timestamp_clock_id") ? p->u64("timestamp_clock_id") : seq.default_clock;
    std::uint64_t ts = p->find("timestamp") ? p->u64("timestamp") : 0;
    if (const TextNode* snapshot = p->find("clock_snapshot")) {
      for (const TextNode* c : snapshot->all("clocks"))
        if (c->u64("clock_id") == 64) {
          CHECK(c->find("is_incremental")->value == "true");
          seq.incremental_ts = c->u64("timestamp");
        }
      continue;
    }
    if (clock == 64) {
      REQUIRE_MESSAGE(seq.incremental_ts, "incremental timestamp before its clock snapshot");
      ts = *seq.incremental_ts += ts;
    } else {
      CHECK(clock == 6);
    }
    if (const TextNode* d = p->find("track_descriptor")) {
      Track t{Track::kCounter, d->find("name") ? d->find("name")->value : "", {}};
      if (const TextNode* proc = d->find("process")) {
        t.kind = Track::kProcess;
        out.process_name = proc->find("process_name")->value;
      } else if (const TextNode* th = d->find("thread")) {
        t.kind = Track::kThread;
        t.name = th->find("thread_name")->value;
        CHECK(th->u64("pid") == 1);
        CHECK(out.thread_names.emplace(th->u64("tid"), t.name).second);
      } else {
        CHECK(d->find("counter"));
      }
      CHECK(tracks.emplace(d->u64("uuid"), t).second);
      continue;
    }
    const TextNode* e = p->find("track_event");
    REQUIRE(e);
    CHECK(flags);
    CHECK((std::stoull(flags->value) & 2) != 0);
    const std::uint64_t uuid = e->find("track_uuid") ? e->u64("track_uuid") : seq.default_track;
    REQUIRE_MESSAGE(tracks.count(uuid), "event on an undescribed track " << uuid);
    Track& track = tracks[uuid];
    const std::string type = e->find("type")->value;
    auto named = [&] {
      Slice s{track.name,
              seq.names.at(e->u64("name_iid")),
              ts,
              0,
              static_cast<std::uint32_t>(track.open.size()),
              {}};
      for (const TextNode* a : e->all("debug_annotations")) {
        const std::string key = seq.keys.at(a->u64("name_iid"));
        if (const TextNode* v = a->find("int_value")) s.args[key] = v->value;
        if (const TextNode* v = a->find("double_value"))
          s.args[key] = double_text(std::stod(v->value));
        if (const TextNode* v = a->find("string_value")) s.args[key] = v->value;
      }
      return s;
    };
    if (type == "TYPE_SLICE_BEGIN") {
      CHECK(track.kind == Track::kThread);
      track.open.push_back(named());
    } else if (type == "TYPE_SLICE_END") {
      REQUIRE_MESSAGE(!track.open.empty(), "end without begin on " << track.name);
      Slice s = track.open.back();
      track.open.pop_back();
      s.dur = ts - s.ts;
      out.slices.push_back(s);
    } else if (type == "TYPE_INSTANT") {
      out.instants.push_back(named());
    } else {
      CHECK(type == "TYPE_COUNTER");
      CHECK(track.kind == Track::kCounter);
      const TextNode* integral = e->find("counter_value");
      const TextNode* real = e->find("double_counter_value");
      REQUIRE((integral != nullptr) != (real != nullptr));
      out.samples.push_back({track.name, ts, std::stod((integral ? integral : real)->value)});
    }
  }
  for (const auto& entry : tracks)
    CHECK_MESSAGE(entry.second.open.empty(), entry.second.name << " left open");
  return out;
}

ArgText arg_text(std::span<const jolt::Arg> args) {
  ArgText out;
  for (const jolt::Arg& a : args) {
    if (const auto* i = std::get_if<std::int64_t>(&a.value))
      out[a.key] = std::to_string(*i);
    else if (const auto* d = std::get_if<double>(&a.value)) {
      if (std::isfinite(*d)) out[a.key] = double_text(*d);
    } else
      out[a.key] = std::get<std::string>(a.value);
  }
  return out;
}

// What the trace must hold: the replayed spans, the instants, the finite counter samples.
DecodedTrace expected_trace(const jolt::Profile& p) {
  DecodedTrace out;
  out.process_name = "jolt-run " + p.run.trace_name;
  const jolt::SpanTree tree = jolt::replay_spans(p);
  for (const jolt::ReplayedSpan& s : tree.spans)
    out.slices.push_back({p.threads[s.thread].name, std::string(s.name), s.start_ns, s.duration_ns,
                          s.depth, arg_text(s.args)});
  for (std::size_t i = 0; i < p.threads.size(); ++i) {
    const jolt::ThreadTrack& t = p.threads[i];
    out.thread_names[t.tid] = t.name;
    std::uint32_t depth = 0;
    std::size_t next = tree.thread_first[i];
    std::vector<std::size_t> open;
    for (std::size_t ei = 0; ei < t.events.size(); ++ei) {
      const jolt::TraceEvent& e = t.events[ei];
      if (e.phase == jolt::Phase::kBegin) open.push_back(next++);
      if (e.phase == jolt::Phase::kEnd)
        while (!open.empty() && tree.spans[open.back()].end_event == ei) open.pop_back();
      depth = static_cast<std::uint32_t>(open.size());
      if (e.phase == jolt::Phase::kInstant)
        out.instants.push_back({t.name, e.name, e.ts_ns, 0, depth, arg_text(e.args)});
    }
  }
  for (const jolt::CounterTrack& c : p.counters)
    for (const jolt::CounterSample& s : c.samples)
      if (std::isfinite(s.value)) out.samples.push_back({c.name, s.ts_ns, s.value});
  return out;
}

DecodedTrace decode_file(const std::string& path) {
  const Command decoded =
      run("'" JOLT_PROTOC "' --decode=perfetto.protos.Trace -I '" JOLT_SCHEMA_DIR
          "' perfetto_trace_subset.proto < '" +
          path + "' 2>&1");
  INFO(decoded.output.substr(0, 2000));
  REQUIRE(decoded.code == 0);
  return read_trace(parse_text_format(decoded.output));
}

void check_round_trip(const jolt::Profile& p, const std::string& path) {
  DecodedTrace got = decode_file(path);
  DecodedTrace want = expected_trace(p);
  CHECK(got.process_name == want.process_name);
  CHECK(got.thread_names == want.thread_names);
  for (auto* v : {&got.slices, &got.instants, &want.slices, &want.instants})
    std::sort(v->begin(), v->end());
  std::sort(got.samples.begin(), got.samples.end());
  std::sort(want.samples.begin(), want.samples.end());
  CHECK(got.slices.size() == want.slices.size());
  CHECK(got.slices == want.slices);
  CHECK(got.instants == want.instants);
  CHECK(got.samples == want.samples);
}

}  // namespace

TEST_CASE("protobuf writer encodes varints, negative ints, doubles and long nested messages") {
  jolt::sinks::ProtoWriter w;
  w.uint(1, 300);
  CHECK(w.bytes() == std::string("\x08\xAC\x02", 3));
  w.clear();
  w.int64(4, -1);  // ten bytes of two's complement
  CHECK(w.bytes() == std::string("\x20\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 11));
  w.clear();
  w.double_value(5, 1.0);
  CHECK(w.bytes() == std::string("\x29\x00\x00\x00\x00\x00\x00\xF0\x3F", 9));
  w.clear();
  const auto outer = w.begin_nested(11);
  const auto inner = w.begin_nested(4);
  w.string(6, std::string(200, 'x'));
  w.end_nested(inner);
  w.end_nested(outer);
  // outer: tag, length 206 (2 bytes); inner: tag, length 203 (2 bytes); string: tag, len 2 bytes.
  CHECK(w.size() == 1 + 2 + 1 + 2 + 1 + 2 + 200);
  CHECK(w.bytes().substr(0, 6) == std::string("\x5A\xCE\x01\x22\xCB\x01", 6));
  CHECK(w.bytes().substr(6, 3) == std::string("\x32\xC8\x01", 3));
}

TEST_CASE("perfetto sink writes a trace.pftrace that decodes and round-trips the fixture") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("perfetto"));
  CHECK(std::string(loaded.descriptor().name) == "perfetto");
  CHECK((loaded.descriptor().capabilities & JOLT_CAP_NEEDS_TRACE) != 0);
  const std::string dir = sink_test::fresh_dir("perfetto_fixture");
  const jolt::Profile p = fixture_profile();
  const jolt::Status st = loaded.sink().write(p, {dir, dir});
  REQUIRE_MESSAGE(st.ok, st.message);
  CHECK_FALSE(sink_test::has_temp_files(dir));
  check_round_trip(p, dir + "/trace.pftrace");
}

TEST_CASE("perfetto sink keeps the chrome trace's normalisation: unbalanced spans, odd values") {
  jolt::Profile p = fixture_profile();
  // An end with no open span (dropped), a span never closed (closed at the Profile's end), a
  // recursion closed by an outer end, args of every kind, a non-finite arg and sample, a counter
  // sampled on a thread that records nothing, a thread without a name.
  p.threads.push_back(jolt::ThreadTrack{
      7,
      "odd-\"thread\" é",
      {e("never_opened", 10), b("outer", 20, {{"ratio", 0.25}, {"nan", std::nan("")}}),
       b("inner", 30, {{"label", std::string("a\nb")}}), b("inner", 35), e("outer", 40),
       b("left_open", 50)}});
  p.threads.push_back(jolt::ThreadTrack{8, "", {b("unnamed", 5), e("unnamed", 6)}});
  p.counters.push_back(jolt::CounterTrack{
      "orphan", 42, {{100, 1.5}, {200, std::numeric_limits<double>::infinity()}, {300, -2}}});
  const std::string dir = sink_test::fresh_dir("perfetto_odd");
  sink_test::LoadedSink loaded(sink_test::plugin_path("perfetto"));
  const jolt::Status st = loaded.sink().write(p, {dir, dir});
  REQUIRE_MESSAGE(st.ok, st.message);
  DecodedTrace got = decode_file(dir + "/trace.pftrace");
  CHECK(got.thread_names.at(42) == "counters-42");
  CHECK(got.thread_names.at(8) == "thread-8");
  // The round trip against the Profile, with the Profile's names as the trace gives them.
  p.threads.back().name = "thread-8";
  jolt::Profile with_orphan_thread = p;
  with_orphan_thread.threads.push_back(jolt::ThreadTrack{42, "counters-42", {}});
  check_round_trip(with_orphan_thread, dir + "/trace.pftrace");
}

TEST_CASE("perfetto sink reports an unwritable run directory and leaves nothing behind") {
  sink_test::LoadedSink loaded(sink_test::plugin_path("perfetto"));
  const std::string dir = sink_test::fresh_dir("perfetto_missing") + "/no/such/folder";
  const jolt::Status st = loaded.sink().write(fixture_profile(), {dir, dir});
  CHECK_FALSE(st.ok);
  CHECK(st.message.find(dir + "/trace.pftrace") != std::string::npos);
}

TEST_CASE("trace.pftrace is several times smaller than trace.json for a run-shaped Profile") {
  // A run's shape: nested spans with the prover's labels, seconds into the run, half of them with
  // integer args, and the monitor's five counters every 100 ms, two of them integral. This shape
  // gives about 1/4.7; a real sha2-chain 2^16 run measured 1/5.09 (docs/benchmarks.md). An
  // encoding without interning or incremental timestamps falls well below 1/4.5.
  jolt::Profile p = fixture_profile();
  const char* labels[] = {"prove_batch", "sumcheck_round", "basefold::hash_leaves",
                          "SpartanOuter::prove_round", "EqPolynomial::evals"};
  jolt::ThreadTrack worker{9, "tbb-worker-1", {}};
  std::uint64_t ts = 2'000'000'000;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    const std::string outer = labels[i % 5], inner = labels[(i + 2) % 5];
    std::vector<jolt::Arg> args;
    if (i % 2 == 0) args = {{"round", std::int64_t(i % 20)}, {"num_vars", std::int64_t{16}}};
    worker.events.push_back({jolt::Phase::kBegin, outer, ts, args});
    worker.events.push_back({jolt::Phase::kBegin, inner, ts + 1'500, {}});
    worker.events.push_back({jolt::Phase::kEnd, inner, ts + 180'000, {}});
    worker.events.push_back({jolt::Phase::kEnd, outer, ts + 250'000, {}});
    ts += 400'000;
  }
  p.threads.push_back(worker);
  jolt::ThreadTrack monitor{10, "metrics-monitor-2", {}};
  p.threads.push_back(monitor);
  for (const char* name :
       {"memory_gib", "cpu_percent", "cores_active_avg", "cores_active", "thread_count"}) {
    jolt::CounterTrack c{name, 10, {}};
    for (std::uint64_t t = 2'000'000'000; t < ts; t += 100'000'000)
      c.samples.push_back(
          {t, std::string(name) == "cores_active" || std::string(name) == "thread_count"
                  ? 3.0
                  : 0.123456789 * static_cast<double>(t % 7'000'000'000) / 1e9});
    p.counters.push_back(c);
  }
  const std::string dir = sink_test::fresh_dir("perfetto_size");
  sink_test::LoadedSink perfetto(sink_test::plugin_path("perfetto"));
  sink_test::LoadedSink chrome(sink_test::plugin_path("chrome"));
  REQUIRE(perfetto.sink().write(p, {dir, dir}).ok);
  REQUIRE(chrome.sink().write(p, {dir, dir}).ok);
  const auto pftrace = std::filesystem::file_size(dir + "/trace.pftrace");
  const auto json = std::filesystem::file_size(dir + "/trace.json");
  INFO("trace.pftrace " << pftrace << " B, trace.json " << json << " B");
  CHECK(pftrace * 9 <= json * 2);  // at most 1/4.5
  check_round_trip(p, dir + "/trace.pftrace");
}
