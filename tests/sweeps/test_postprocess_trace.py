#!/usr/bin/python3
"""Runs scripts/postprocess_trace.py on legacy-lane traces shaped as `jolt-run legacy profile
--monitor` writes them (metric samples as "metrics_sample" instants with counters.* args): the
result has the counter tracks and `jolt-run validate` accepts it, a second run changes nothing,
the {"traceEvents": [...]} container is kept, and a file that is not a usable trace gets a clear
error and is left byte for byte as it was (the other files are still converted)."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None
JOLT_RUN = None
PY = "/usr/bin/python3"
METRICS = ["memory_gib", "cpu_percent", "cores_active_avg", "cores_active", "thread_count"]


def legacy_trace(samples=3):
    """Spans on the main thread, metric instants on the monitor's thread, in time order."""
    events = [
        {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "jolt-run x"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "metrics-monitor"}},
        {"name": "jolt_prover::prove", "ph": "B", "pid": 1, "tid": 1, "ts": 10.0},
    ]
    for k in range(samples):
        args = {"counters." + m: float(k + i) for i, m in enumerate(METRICS)}
        if k == 1:
            args["counters.memory_gib"] = "0.5"  # tracing-chrome stringified values
        events.append({"name": "metrics_sample", "ph": "i", "s": "t", "pid": 1, "tid": 2,
                       "ts": 20.0 + 100 * k, "args": args})
    events.append({"name": "heap_snapshot", "ph": "i", "s": "t", "pid": 1, "tid": 1, "ts": 50.5,
                   "args": {"snapshot": "Stage3_prepared"}})
    events.append({"name": "jolt_prover::prove", "ph": "E", "pid": 1, "tid": 1, "ts": 900.0})
    return events


def script(*paths):
    return subprocess.run([PY, SCRIPT, *paths], capture_output=True, text=True, timeout=60)


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class PostprocessTraceTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, content):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def validate(self, path):
        r = subprocess.run([JOLT_RUN, "validate", path], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout

    def test_instants_become_counter_tracks_that_validate_accepts(self):
        path = self.write("fibonacci_20260101-000000.json", legacy_trace(samples=3))
        r = script(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, f"{path}: 15 counters\n")  # the original's line
        events = load_json(path)
        counters = [e for e in events if e["ph"] == "C"]
        self.assertEqual(len(counters), 15)
        self.assertEqual({e["name"] for e in counters}, set(METRICS))
        for e in counters:
            self.assertEqual(list(e["args"]), [e["name"]])
            self.assertIsInstance(e["args"][e["name"]], (int, float))
            self.assertEqual((e["pid"], e["tid"]), (1, 2))
        self.assertEqual([e["ts"] for e in counters if e["name"] == "memory_gib"],
                         [20.0, 120.0, 220.0])
        self.assertEqual([e["args"]["memory_gib"] for e in counters if e["name"] == "memory_gib"],
                         [0.0, 0.5, 2.0])
        self.assertFalse(any(k.startswith("counters.") for e in events
                             for k in e.get("args", {})))
        # Everything that was not a metric instant is kept as it was, in its place.
        self.assertEqual([e for e in events if e["ph"] != "C"],
                         [e for e in legacy_trace(3) if e.get("name") != "metrics_sample"])
        self.assertIn("15 counter samples", self.validate(path))

    def test_the_original_monitors_events_are_taken_with_or_without_counters(self):
        events = [{"name": "event crates/jolt-profiling/src/monitor.rs:70", "ph": "i", "ts": 5.0,
                   "pid": 1, "tid": 3, "s": "t",
                   "args": {"counters.memory_gib": 1.5, "counters.cpu_percent": "12.5"}},
                  {"name": "event crates/jolt-profiling/src/monitor.rs:90", "ph": "i", "ts": 9.0,
                   "pid": 1, "tid": 3, "s": "t", "args": {"message": "MetricsMonitor stopping"}},
                  {"name": "prove", "ph": "X", "ts": 1.0, "dur": 10.0, "pid": 1, "tid": 1}]
        path = self.write("rust.json", events)
        r = script(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, f"{path}: 2 counters\n")
        self.assertEqual(load_json(path), [
            {"name": "memory_gib", "ph": "C", "ts": 5.0, "pid": 1, "tid": 3,
             "args": {"memory_gib": 1.5}},
            {"name": "cpu_percent", "ph": "C", "ts": 5.0, "pid": 1, "tid": 3,
             "args": {"cpu_percent": 12.5}},
            events[2]])

    def test_second_run_changes_nothing(self):
        path = self.write("t.json", legacy_trace(samples=2))
        self.assertEqual(script(path).returncode, 0)
        converted = read_bytes(path)
        mtime = os.stat(path).st_mtime_ns
        r = script(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("unchanged", r.stdout)
        self.assertEqual(read_bytes(path), converted)
        self.assertEqual(os.stat(path).st_mtime_ns, mtime)
        self.assertEqual(os.listdir(self.dir), ["t.json"])  # no temporary file left

    def test_trace_events_container_is_kept(self):
        path = self.write("t.json", {"traceEvents": legacy_trace(samples=1),
                                     "displayTimeUnit": "ns"})
        self.assertEqual(script(path).returncode, 0)
        doc = load_json(path)
        self.assertEqual(doc["displayTimeUnit"], "ns")
        self.assertEqual(sum(1 for e in doc["traceEvents"] if e["ph"] == "C"), 5)
        self.validate(path)

    def test_bad_inputs_are_named_and_left_untouched(self):
        bad_value = legacy_trace(samples=2)
        bad_value[5]["args"]["counters.cpu_percent"] = "busy"
        cases = {
            "truncated.json": (json.dumps(legacy_trace(2))[:-40], "not valid JSON"),
            "object.json": ({"events": []}, "not a chrome trace"),
            "value.json": (bad_value, "arg \"counters.cpu_percent\" is 'busy', not a number"),
        }
        paths = {name: self.write(name, content) for name, (content, _) in cases.items()}
        before = {name: read_bytes(p) for name, p in paths.items()}
        good = self.write("good.json", legacy_trace(samples=1))
        missing = os.path.join(self.dir, "missing.json")
        r = script(*paths.values(), missing, good)
        self.assertEqual(r.returncode, 1)
        for name, (_, reason) in cases.items():
            self.assertIn(f"{paths[name]}: ", r.stderr)
            self.assertIn(reason, r.stderr)
            self.assertEqual(read_bytes(paths[name]), before[name], name)
        self.assertIn(f"{missing}: No such file or directory; file left unchanged", r.stderr)
        # The good file among them is still converted.
        self.assertIn("good.json: 5 counters\n", r.stdout)
        self.validate(good)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted([*cases, "good.json"]))

    def test_no_arguments_is_a_usage_error(self):
        r = script()
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage: postprocess_trace.py", r.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--scripts-dir", required=True)
    parser.add_argument("--bin-dir", required=True)
    args, rest = parser.parse_known_args()
    SCRIPT = os.path.join(args.scripts_dir, "postprocess_trace.py")
    JOLT_RUN = os.path.join(args.bin_dir, "jolt-run")
    unittest.main(argv=[sys.argv[0], *rest])
