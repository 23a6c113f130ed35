"""Shared helpers of the result scripts: the hardware line read from this machine, the
workload display names, and a fatal-error exit that names the file at fault."""

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
