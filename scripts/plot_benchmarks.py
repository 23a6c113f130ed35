#!/usr/bin/python3
"""plot_benchmarks.py: prover speed (kHz) against scale per workload, and proof size against
trace length, from the sweep CSV; PNG files (plus an HTML page with --html). A pair with several
rows (repeated runs, `jolt-run benchmark --runs N`) is drawn at the median of its rows with an
error bar from their min to their max (the plot's caption says so); --repeats last plots the
last row of each pair instead, without error bars (the original's plot).

  /usr/bin/python3 scripts/plot_benchmarks.py --csv benchmark-runs/modular_timings.csv
"""

import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jolt_plot_common import (die, hardware_line, label_for, latest_summaries,  # noqa: E402
                              ordered_workloads, spread, use_agg, write_html)

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
            rows.setdefault((name, scale), []).append((khz, length, size, size_c))
    if not rows:
        die(f"{path}: no result rows")
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", default="benchmark-runs/modular_timings.csv")
    p.add_argument("--output-dir", default="benchmark-runs")
    p.add_argument("--plot-type", choices=["all", "speed", "size"], default="all")
    p.add_argument("--html", action="store_true", help="also write benchmark_plots.html")
    p.add_argument("--repeats", choices=["median", "last"], default="median",
                   help="a pair with several rows: the median with a min–max error bar, or the "
                        "last row (default: %(default)s)")
    args = p.parse_args()

    all_rows = read_rows(args.csv)
    # Proof sizes do not vary between repeats: the last row of each pair.
    rows = {k: v[-1] for k, v in all_rows.items()}
    plt = use_agg()
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    os.makedirs(args.output_dir, exist_ok=True)
    names = ordered_workloads({n for n, _ in rows})
    # The runs' own host records: the latest_*/summary.json next to the CSV (benchmark writes both).
    hw = hardware_line(latest_summaries(os.path.dirname(os.path.abspath(args.csv))))
    written = []

    if args.plot_type in ("all", "speed"):
        fig, ax = plt.subplots(figsize=(12, 8))
        bars = 0  # pairs drawn with an error bar
        for n in names:
            pts = []  # (scale, kHz, below, above, rows)
            for (m, s), vs in all_rows.items():
                khz = [v[0] for v in vs if v[0] is not None]
                if m != n or not khz:
                    continue
                if args.repeats == "last":
                    pts.append((s, khz[-1], 0.0, 0.0, 1))
                    continue
                count, med, lo, hi, _mad = spread(khz)
                pts.append((s, med, med - lo, hi - med, count))
            pts.sort()
            if not pts:
                continue
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            # errorbar for every workload (without bars when it has no repeats) keeps the legend
            # in the workloads' order.
            if any(p[4] > 1 for p in pts):
                bars += sum(p[4] > 1 for p in pts)
                ax.errorbar(xs, ys, yerr=[[p[2] for p in pts], [p[3] for p in pts]], marker="o",
                            capsize=4, label=f"{label_for(n)} (median; bars: min–max)")
            else:
                ax.errorbar(xs, ys, marker="o", label=label_for(n))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _p: f"2^{int(x)}"))
        ax.set_xlabel("Scale (log2 of padded trace length)")
        ax.set_ylabel("Prover speed (cycles proved per millisecond, aka kHz)")
        caption = ("\nPoints: median of each pair's repeated runs; error bars: min–max"
                   if bars else "")
        ax.set_title(f"Jolt zkVM Benchmark\n{hw}{caption}", fontsize=11)
        ax.grid(True, alpha=0.3)
        ax.legend()
        out = os.path.join(args.output_dir, "benchmark_plot.png")
        fig.savefig(out, dpi=100, bbox_inches="tight")
        plt.close(fig)
        written.append(out)
        if bars:
            print(f"{out}: {bars} pair(s) with repeated rows drawn at their median, error bars "
                  "from min to max")

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
