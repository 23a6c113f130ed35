#!/usr/bin/python3
"""plot_memory_usage.py: peak memory per run from every latest_*/summary.json of a sweep
(peak_rss_gib, else root.peak_memory_gib), one line per workload against scale. Reads
summary.json schema_version 1 and 2 alike (2 only added run.pcs and run.pcs_parameters).

  /usr/bin/python3 scripts/plot_memory_usage.py --traces-dir benchmark-runs
"""

import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jolt_plot_common import (die, hardware_line, label_for, ordered_workloads,  # noqa: E402
                              use_agg, write_html)


def load_points(traces_dir):
    if not os.path.isdir(traces_dir):
        die(f"{traces_dir}: no such folder (pass --traces-dir)")
    paths = sorted(glob.glob(os.path.join(traces_dir, "latest_*", "summary.json")))
    if not paths:
        die(f"{traces_dir}: no latest_*/summary.json (run profile/benchmark with --format chrome)")
    points, summaries = {}, []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                s = json.load(f)
            workload = s["run"]["workload"]
            # The padded scale actually proved (schema 3); older summaries have only the
            # requested one.
            padded = s["run"].get("padded_scale_log2")
            requested = int(s["run"]["scale_log2"])
            scale = int(padded) if isinstance(padded, int) else requested
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"warning: {path}: skipping unreadable summary ({e})", file=sys.stderr)
            continue
        peak = s.get("peak_rss_gib")
        if peak is None:
            peak = (s.get("root") or {}).get("peak_memory_gib")
        if not isinstance(peak, (int, float)):
            print(f"warning: {path}: no peak_rss_gib or root.peak_memory_gib; skipped",
                  file=sys.stderr)
            continue
        if scale != requested:
            print(f"note: {path}: requested 2^{requested}, proved at 2^{scale}; plotted there",
                  file=sys.stderr)
        runs = points.setdefault(workload, {})
        if scale in runs:
            print(f"note: {path}: {workload} was already proved at 2^{scale} by another run; "
                  "the later one (by name) is plotted", file=sys.stderr)
        runs[scale] = float(peak)
        summaries.append(s)
    if not points:
        die(f"{traces_dir}: no summary carried a peak memory value")
    return {w: sorted(r.items()) for w, r in points.items()}, summaries


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--traces-dir", default="benchmark-runs")
    p.add_argument("--output-dir", default="benchmark-runs")
    p.add_argument("--output-name", default="memory_usage_plot.png",
                   help="file name; .png, or .html for a page embedding the PNG")
    args = p.parse_args()
    base, ext = os.path.splitext(args.output_name)
    if ext not in (".png", ".html") or not base:
        die(f"--output-name {args.output_name}: expected a .png or .html file name")

    points, summaries = load_points(args.traces_dir)
    hardware = hardware_line(summaries)
    plt = use_agg()
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    os.makedirs(args.output_dir, exist_ok=True)
    fig, ax = plt.subplots(figsize=(12, 8))
    for n in ordered_workloads(set(points)):
        pts = sorted(points[n])
        ax.plot([s for s, _ in pts], [g for _, g in pts], marker="o", label=label_for(n))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _p: f"2^{int(x)}"))
    ax.set_xlabel("Scale (log2 of padded trace length)")
    ax.set_ylabel("Peak Memory Usage (GiB)")
    ax.set_title(f"Jolt zkVM Peak Memory Usage\n{hardware}", fontsize=11)
    ax.grid(True, alpha=0.3)
    ax.legend()
    png = os.path.join(args.output_dir, base + ".png")
    fig.savefig(png, dpi=100, bbox_inches="tight")
    plt.close(fig)
    print(f"wrote {png}")
    if ext == ".html":
        page = os.path.join(args.output_dir, args.output_name)
        write_html(page, "Jolt zkVM Peak Memory Usage", [png], hardware)
        print(f"wrote {page}")


if __name__ == "__main__":
    main()
