#!/usr/bin/python3
"""plot_benchmarks.py: prover speed (kHz) against scale per workload, and proof size against
trace length, from the sweep CSV; PNG files (plus an HTML page with --html).

  /usr/bin/python3 scripts/plot_benchmarks.py --csv benchmark-runs/modular_timings.csv
"""

import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jolt_plot_common import (die, hardware_line, label_for, latest_summaries,  # noqa: E402
                              ordered_workloads, use_agg, write_html)

def pow2_label(x, _pos):
    """Tick label 2^n (with the size in words for the round ones: 2^20 = 1 million)."""
    if x <= 0:
        return ""
    n = math.log2(x)
    if abs(n - round(n)) > 1e-9:
        return ""
    n = int(round(n))
    words = {20: " (1 million)", 30: " (1 billion)"}
    return f"2^{n}{words.get(n, '')}"


REQUIRED = ("benchmark_name", "scale", "prover_time_s", "proof_size")


def read_rows(path):
    if not os.path.isfile(path):
        die(f"{path}: no such file (run `jolt-run benchmark` first, or pass --csv)")
    rows = {}
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in REQUIRED if reader.fieldnames is None or c not in reader.fieldnames]
        if missing:
            die(f"{path}: missing column(s) {', '.join(missing)} (header: {reader.fieldnames})")
        for line_no, r in enumerate(reader, start=2):
            try:
                name, scale = r["benchmark_name"], int(r["scale"])
                secs = float(r["prover_time_s"])
                hz = float(r.get("proving_hz") or 0)
                length = float(r.get("trace_length") or 0) or float(2 ** scale)
                size = float(r["proof_size"])
                size_c = float(r.get("proof_size_compressed") or size)
            except (TypeError, ValueError):
                print(f"warning: {path}:{line_no}: skipping malformed row", file=sys.stderr)
                continue
            # proving_hz keeps precision the 2-decimal prover_time_s loses on fast runs.
            khz = hz / 1000 if hz > 0 else (length / secs / 1000 if secs > 0 else None)
            rows[(name, scale)] = (khz, length, size, size_c)  # last row wins
    if not rows:
        die(f"{path}: no result rows")
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", default="benchmark-runs/modular_timings.csv")
    p.add_argument("--output-dir", default="benchmark-runs")
    p.add_argument("--plot-type", choices=["all", "speed", "size"], default="all")
    p.add_argument("--html", action="store_true", help="also write benchmark_plots.html")
    args = p.parse_args()

    rows = read_rows(args.csv)
    plt = use_agg()
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    os.makedirs(args.output_dir, exist_ok=True)
    names = ordered_workloads({n for n, _ in rows})
    # The runs' own host records: the latest_*/summary.json next to the CSV (benchmark writes both).
    hw = hardware_line(latest_summaries(os.path.dirname(os.path.abspath(args.csv))))
    written = []

    if args.plot_type in ("all", "speed"):
        fig, ax = plt.subplots(figsize=(12, 8))
        for n in names:
            pts = sorted((s, v[0]) for (m, s), v in rows.items() if m == n and v[0] is not None)
            if pts:
                ax.plot([s for s, _ in pts], [k for _, k in pts], marker="o", label=label_for(n))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _p: f"2^{int(x)}"))
        ax.set_xlabel("Scale (log2 of padded trace length)")
        ax.set_ylabel("Prover speed (cycles proved per millisecond, aka kHz)")
        ax.set_title(f"Jolt zkVM Benchmark\n{hw}", fontsize=11)
        ax.grid(True, alpha=0.3)
        ax.legend()
        out = os.path.join(args.output_dir, "benchmark_plot.png")
        fig.savefig(out, dpi=100, bbox_inches="tight")
        plt.close(fig)
        written.append(out)

    if args.plot_type in ("all", "size"):
        fig, ax = plt.subplots(figsize=(12, 8))
        for i, n in enumerate(names):
            pts = sorted((v[1], v[2], v[3]) for (m, _), v in rows.items() if m == n)
            color = f"C{i}"
            ax.plot([t for t, _, _ in pts], [b / 1024 for _, b, _ in pts], marker="o",
                    color=color, label=f"{label_for(n)} (uncompressed)")
            ax.plot([t for t, _, _ in pts], [c / 1024 for _, _, c in pts], marker="o",
                    linestyle="--", color=color, markerfacecolor="none",
                    label=f"{label_for(n)} (compressed)")
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(pow2_label))
        ax.set_xlabel("Trace length (cycles, padded to a power of two)")
        ax.set_ylabel("Proof size (KB)")
        ax.set_title(f"Jolt zkVM Proof Size\n{hw}", fontsize=11)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        out = os.path.join(args.output_dir, "proof_size_plot.png")
        fig.savefig(out, dpi=100, bbox_inches="tight")
        plt.close(fig)
        written.append(out)

    if args.html:
        page = os.path.join(args.output_dir, "benchmark_plots.html")
        write_html(page, "Jolt zkVM Benchmark", written, hw)
        written.append(page)
    for w in written:
        print(f"wrote {w}")


if __name__ == "__main__":
    main()
