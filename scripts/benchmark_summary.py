#!/usr/bin/python3
"""benchmark_summary.py: per-scale table of one metric from the sweep CSV
(benchmark-runs/modular_timings.csv, written by the csv sink of each profile run).

  /usr/bin/python3 scripts/benchmark_summary.py --metric prover_time_s
  /usr/bin/python3 scripts/benchmark_summary.py --repeats median            # median ± MAD (n)
  /usr/bin/python3 scripts/benchmark_summary.py --repeats median --spread range   # [min–max]
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jolt_plot_common import (die, label_for, ordered_workloads, prove_seconds,  # noqa: E402
                              spread)

DEFAULT_COLUMNS = ("fibonacci", "sha2-chain", "sha3-chain", "btreemap")

METRICS = {
    # metric: (label, scale factor, number format (last row), number format (median), unit)
    "proving_hz": ("kHz", 1 / 1000, "{:.1f}", "{:.2f}", " kHz"),
    "prover_time_s": ("seconds", 1, "{:.2f}", "{:.4f}", "s"),
    "trace_length": ("trace length", 1, "{:.0f}", "{:.0f}", ""),
    "proof_size": ("proof size", 1 / 1024, "{:.1f}", "{:.1f}", " KB"),
    "proof_size_compressed": ("compressed proof size", 1 / 1024, "{:.1f}", "{:.1f}", " KB"),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", default="benchmark-runs/modular_timings.csv",
                   help="sweep CSV (default: %(default)s)")
    p.add_argument("--metric", default="proving_hz", choices=sorted(METRICS),
                   help="column to tabulate (default: %(default)s)")
    p.add_argument("--repeats", default="last", choices=["last", "median"],
                   help="a pair with several rows (repeated runs): the last row (the original's "
                        "table), or the median of its rows with their spread and count "
                        "(default: %(default)s)")
    p.add_argument("--spread", default="mad", choices=["mad", "range"],
                   help="with --repeats median: ± the median absolute deviation, or [min–max] "
                        "(default: %(default)s)")
    args = p.parse_args()
    label, factor, fmt_last, fmt_median, unit = METRICS[args.metric]

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
                # Repeated rows: the precise prove time (the 2-decimal column is 0.00 for fast
                # runs, which would make every spread 0).
                if args.metric == "prover_time_s" and args.repeats == "median":
                    value = prove_seconds(row)
                else:
                    value = float(row[args.metric])
            except (TypeError, ValueError):
                print(f"warning: {args.csv}:{line_no}: skipping malformed row", file=sys.stderr)
                continue
            data.setdefault(scale, {}).setdefault(row["benchmark_name"], []).append(value)
    if not data:
        die(f"{args.csv}: no result rows")

    def cell(values):
        if args.repeats == "last":
            return fmt_last.format(values[-1] * factor) + unit  # last row wins
        n, med, lo, hi, mad = spread([v * factor for v in values])
        num = fmt_median.format
        if n == 1:
            return f"{num(med)}{unit} (n=1)"
        if args.spread == "range":
            return f"{num(med)}{unit} [{num(lo)}–{num(hi)}] (n={n})"
        return f"{num(med)} ± {num(mad)}{unit} (n={n})"

    # The original's four columns always (blank where the CSV has no row), then any other workload.
    names = ordered_workloads({n for per in data.values() for n in per} | set(DEFAULT_COLUMNS))
    cells = {(s, n): cell(data[s][n]) for s in data for n in names if n in data[s]}
    width = max([12] + [len(c) for c in cells.values()] + [len(label_for(n)) for n in names])
    title = label
    if args.repeats == "median":
        title += ("; median ± MAD" if args.spread == "mad" else "; median [min–max]") + \
            " of each pair's rows, n rows"
    print(f"Benchmark Summary ({title})")
    print("=" * 60)  # the original's rule, whatever the table's width
    print(" Scale | " + " | ".join(f"{label_for(n):>{width}}" for n in names))
    for scale in sorted(data):
        row = [f"{cells[(scale, n)]:>{width}}" if (scale, n) in cells else " " * width
               for n in names]
        print(f"{'2^' + str(scale):>6} | " + " | ".join(row))


if __name__ == "__main__":
    main()
