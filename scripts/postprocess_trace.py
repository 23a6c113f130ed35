#!/usr/bin/python3
"""postprocess_trace.py: turns the metric samples of a legacy-lane chrome trace into counter tracks.

`jolt-run legacy profile --monitor` records the system monitor's samples the legacy way: one
instant event ("ph":"i") per sample whose args carry every metric as "counters.<metric>"
(core/include/jolt/core/system_monitor.hpp, MetricEncoding::kInstantArgs). Perfetto shows those
as instants; this script replaces each such instant, in place, by one counter event per metric,

  {"name": "<metric>", "ph": "C", "ts": ..., "pid": ..., "tid": ..., "args": {"<metric>": value}}

with the instant's ts, pid and tid (so every thread's events stay in time order), which Perfetto
draws as one counter track per metric. The instant's other args, if any, are dropped with it.
A value must be a number or a string holding a finite number (it is written as a number).
As the original's script, an event whose name contains "monitor.rs" (its monitor's log events)
is taken too, and removed even when it carries no counters. Each file gets the original's line
"<file>: <n> counters".

  python3 scripts/postprocess_trace.py benchmark-runs/perfetto_traces/*.json

Idempotent: a trace with no counters.* instants left is not rewritten at all. A file is replaced
atomically (temporary file in its folder, then rename), so it is either the old trace or the new
one. A file that cannot be read, is not JSON, is not a chrome trace (an array of events, or an
object with "traceEvents") or has a non-numeric counters.* value is named with the reason on
stderr and left untouched; the other files are still processed and the exit status is 1.
Python 3 standard library only.
"""

import json
import math
import os
import sys
import tempfile

PREFIX = "counters."


class TraceError(Exception):
    pass


def events_of(doc):
    """The event list of a chrome trace document (a bare array or {"traceEvents": [...]})."""
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
        return doc["traceEvents"]
    raise TraceError("not a chrome trace: expected a JSON array of events or an object with a "
                     "\"traceEvents\" array")


def metric_value(value, where):
    if isinstance(value, bool):
        raise TraceError(f"{where} is a boolean, not a number")
    if isinstance(value, (int, float)):
        number = value
    elif isinstance(value, str):
        try:
            number = float(value.strip().strip('"'))
        except ValueError:
            raise TraceError(f"{where} is {value!r}, not a number") from None
    else:
        raise TraceError(f"{where} is {json.dumps(value)}, not a number")
    if isinstance(number, float) and not math.isfinite(number):
        raise TraceError(f"{where} is {value!r}, not a finite number")
    return number


def is_metric_instant(event):
    if not isinstance(event, dict):
        return False
    if isinstance(event.get("name"), str) and "monitor.rs" in event["name"]:
        return True  # the original monitor's events, with or without counters
    return (event.get("ph") in ("i", "I")
            and isinstance(event.get("args"), dict)
            and any(isinstance(k, str) and k.startswith(PREFIX) for k in event["args"]))


def convert(events):
    """Returns (new event list, instants converted, counter events written)."""
    out, instants, counters = [], 0, 0
    for index, event in enumerate(events):
        if not is_metric_instant(event):
            out.append(event)
            continue
        instants += 1
        args = event.get("args") if isinstance(event.get("args"), dict) else {}
        for key, value in args.items():
            if not key.startswith(PREFIX):
                continue
            metric = key[len(PREFIX):]
            if not metric:
                raise TraceError(f"event {index}: arg \"{key}\" names no metric")
            number = metric_value(value, f"event {index} arg \"{key}\"")
            out.append({"name": metric, "ph": "C", "ts": event.get("ts"),
                        "pid": event.get("pid"), "tid": event.get("tid"),
                        "args": {metric: number}})
            counters += 1
    return out, instants, counters


def write_atomically(path, doc):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"), ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def process(path):
    """Rewrites one trace; returns the line to print. Raises TraceError or OSError."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except json.JSONDecodeError as e:
        raise TraceError(f"not valid JSON ({e})") from None
    except UnicodeDecodeError as e:
        raise TraceError(f"not UTF-8 text ({e})") from None
    events = events_of(doc)
    converted, instants, counters = convert(events)
    if instants == 0:
        return (f"{path}: 0 counters (no counters.* instants: already counter tracks, or no "
                "--monitor); unchanged")
    if isinstance(doc, list):
        doc = converted
    else:
        doc["traceEvents"] = converted
    write_atomically(path, doc)
    return f"{path}: {counters} counters"


def main(argv):
    if not argv:
        print("usage: postprocess_trace.py TRACE.json... (--help for more)", file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    status = 0
    for path in argv:
        try:
            print(process(path))
        except (TraceError, OSError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            print(f"postprocess_trace.py: error: {path}: {reason}; file left unchanged",
                  file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
