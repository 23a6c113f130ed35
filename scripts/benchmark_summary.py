#!/usr/bin/python3
"""benchmark_summary.py: per-scale table of one metric from the sweep CSV
(benchmark-runs/modular_timings.csv, written by the csv sink of each profile run).

  /usr/bin/python3 scripts/benchmark_summary.py --metric prover_time_s
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jolt_plot_common import die, label_for, ordered_workloads  # noqa: E402

METRICS = {
    # metric: (label, scale factor, format)
    "proving_hz": ("kHz", 1 / 1000, "{:.1f} kHz"),
    "prover_time_s": ("seconds", 1, "{:.2f}s"),
    "trace_length": ("trace length", 1, "{:.0f}"),
    "proof_size": ("proof size", 1 / 1024, "{:.1f} KB"),
    "proof_size_compressed": ("compressed proof size", 1 / 1024, "{:.1f} KB"),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", default="benchmark-runs/modular_timings.csv",
                   help="sweep CSV (default: %(default)s)")
    p.add_argument("--metric", default="proving_hz", choices=sorted(METRICS),
                   help="column to tabulate (default: %(default)s)")
    args = p.parse_args()
    label, factor, fmt = METRICS[args.metric]

    if not os.path.isfile(args.csv):
        die(f"{args.csv}: no such file (run `jolt-run benchmark` first, or pass --csv)")
    data = {}
    with open(args.csv, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        for col in ("benchmark_name", "scale", args.metric):
            if reader.fieldnames is None or col not in reader.fieldnames:
                die(f"{args.csv}: no '{col}' column (header: {reader.fieldnames}); "
                    "expected the modular_timings.csv header")
        for line_no, row in enumerate(reader, start=2):
            try:
                scale = int(row["scale"])
                value = float(row[args.metric])
            except (TypeError, ValueError):
                print(f"warning: {args.csv}:{line_no}: skipping malformed row", file=sys.stderr)
                continue
            data.setdefault(scale, {})[row["benchmark_name"]] = value  # last row wins
    if not data:
        die(f"{args.csv}: no result rows")

    names = ordered_workloads({n for per in data.values() for n in per})
    print(f"Benchmark Summary ({label})")
    print("=" * 60)
    print(" Scale | " + " | ".join(f"{label_for(n):>12}" for n in names))
    for scale in sorted(data):
        cells = []
        for n in names:
            v = data[scale].get(n)
            cells.append(f"{fmt.format(v * factor):>12}" if v is not None else " " * 12)
        print(f"{'2^' + str(scale):>6} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
