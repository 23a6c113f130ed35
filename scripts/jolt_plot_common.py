"""Shared helpers of the result scripts: the hardware line read from this machine, the
workload display names, a fatal-error exit that names the file at fault, and the statistics of
repeated rows (the precise prove time of a row; median, min, max, MAD)."""

import base64
import glob
import json
import os
import sys

WORKLOAD_LABELS = [
    ("fibonacci", "Fibonacci"),
    ("sha2-chain", "SHA2-chain"),
    ("sha3-chain", "SHA3-chain"),
    ("btreemap", "BTreeMap"),
    ("sha2", "SHA2"),
    ("sha3", "SHA3"),
]


def die(message):
    """Prints `message` to stderr and exits with status 1."""
    print(f"{os.path.basename(sys.argv[0])}: error: {message}", file=sys.stderr)
    sys.exit(1)


def prove_seconds(row):
    """The prove time of a modular_timings.csv row (a csv.DictReader dict) at full precision:
    trace_length / proving_hz (both from one measurement) when it agrees with the 2-decimal
    prover_time_s, else prover_time_s. Raises ValueError on a malformed row. The same rule as
    jolt-run's TimingRow::prove_seconds."""
    coarse = float(row["prover_time_s"])
    try:
        hz = float(row.get("proving_hz") or 0)
        length = float(row.get("trace_length") or 0)
    except ValueError:
        return coarse
    if hz > 0 and length > 0:
        fine = length / hz
        if abs(fine - coarse) <= 0.0051 + 1e-6 * fine:
            return fine
    return coarse


def spread(values):
    """(n, median, min, max, mad) of a non-empty list; mad is the raw median absolute deviation
    from the median (not scaled by 1.4826), as in jolt-run's modular_stats.csv."""
    def median(v):
        v = sorted(v)
        n = len(v)
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    med = median(values)
    return len(values), med, min(values), max(values), median([abs(x - med) for x in values])


def label_for(name):
    for key, label in WORKLOAD_LABELS:
        if key == name:
            return label
    return name


def ordered_workloads(names):
    """Known workloads first in the canonical order, then any others alphabetically."""
    known = [k for k, _ in WORKLOAD_LABELS if k in names]
    return known + sorted(n for n in names if n not in known)


def describe_host(model, cores, mem_bytes):
    """'<cpu model>, <n> cores, <m> GiB RAM', 'unknown ...' for what is missing."""
    parts = [model or "unknown CPU"]
    parts.append(f"{cores} cores" if cores else "unknown core count")
    parts.append(f"{mem_bytes / 2**30:.0f} GiB RAM" if mem_bytes else "unknown RAM")
    return ", ".join(parts)


def recorded_hosts(summaries):
    """The distinct run.host records (summary.json schema 3) of parsed summaries, as strings."""
    hosts = set()
    for s in summaries:
        host = (s.get("run") or {}).get("host") if isinstance(s, dict) else None
        if isinstance(host, dict):
            hosts.add(describe_host(host.get("cpu_model"), host.get("logical_cpus"),
                                    host.get("memory_bytes")))
    return hosts


def hardware_line(summaries=None):
    """The machine the runs happened on, from their summary.json run.host (schema 3): one
    'Hardware: ...' line, or 'Hardware: N machines' when they differ. Without recorded hosts
    (older summaries, or none given), this machine, said as such."""
    hosts = recorded_hosts(summaries or [])
    if len(hosts) == 1:
        return "Hardware: " + next(iter(hosts))
    if len(hosts) > 1:
        return f"Hardware: {len(hosts)} machines ({'; '.join(sorted(hosts))})"
    return "Hardware (this machine; the runs recorded none): " + this_machine()


def latest_summaries(traces_dir):
    """Parsed latest_*/summary.json under traces_dir (unreadable ones skipped)."""
    out = []
    for path in sorted(glob.glob(os.path.join(traces_dir, "latest_*", "summary.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                out.append(json.load(f))
        except (OSError, ValueError):
            continue
    return out


def this_machine():
    """The plotting machine from /proc/cpuinfo and /proc/meminfo."""
    model = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = os.cpu_count()
    mem_gib = None
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_gib = int(line.split()[1]) / (1024 * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    return describe_host(model, cores, mem_gib * 2**30 if mem_gib is not None else None)


def use_agg():
    """Imports matplotlib with the non-interactive Agg backend, or exits with a hint."""
    try:
        import matplotlib
    except ImportError:
        die("matplotlib is not importable by " + sys.executable +
            "; run the scripts with Debian's /usr/bin/python3 (package python3-matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def write_html(path, title, pngs, hardware):
    """A self-contained page embedding the given PNG files under the hardware line."""
    body = []
    for png in pngs:
        with open(png, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        body.append(f'<figure><img alt="{os.path.basename(png)}" '
                    f'src="data:image/png;base64,{data}"/></figure>')
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title>"
                f"</head><body><h1>{title}</h1><p>{hardware}</p>{''.join(body)}"
                "</body></html>\n")
