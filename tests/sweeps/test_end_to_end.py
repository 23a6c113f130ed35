#!/usr/bin/python3
"""End-to-end runs of the sweep tools through the real pipeline (tracer + prover + sinks):

  1. `jolt-run benchmark` over fibonacci and a workload that does not exist × two small scales:
     the real pairs complete, the failing pairs are listed, the exit code is non-zero, and the
     csv sink's modular_timings.csv has one header and one row per completed pair;
  2. `--resume` skips the finished pairs and adds no rows;
  3. `jolt-run overhead` at a small scale prints the overhead ratio and the dark-time fraction;
  4. `measure-objectives` runs a fresh profile and returns the values in its summary.json, and
     an absent span label is an error;
  5. `benchmark --runs 2 --warmup 1`: a row and a run directory per measured run, nothing kept
     of the warmup, the stats file's row; `profile --runs 4`: four runs and the stats line;
     the speed plot with error bars and the median table on the real CSV; `diff` on two CSVs
     (the same one: no change; 30 % slower: flagged, --fail-on-regression exits 1); bad flags;
  6. benchmark_summary.py renders the real CSV.

Needs `jolt-run profile`; when it is not linked in (the prover/tracer are not built yet) this
test FAILS with that reason — it never passes without running. Scales: JOLT_SWEEP_TEST_SCALES
(default "10,11")."""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import FAILURES, check  # noqa: E402

BIN = SCRIPTS = None


def run(args, cwd, timeout=120):
    t0 = time.monotonic()
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    print(f"$ {' '.join(args)}  -> exit {r.returncode} in {time.monotonic() - t0:.1f}s")
    return r


STATS_HEADER = ("benchmark_name,scale,n,warmup,prover_time_s_median,prover_time_s_min,"
                "prover_time_s_max,prover_time_s_mad,proving_hz_median,proving_hz_min,"
                "proving_hz_max,proving_hz_mad,run_dirs")


def prove_seconds(row):
    """A timing row's precise prove time (trace_length / proving_hz), as jolt-run computes it;
    `row` is a list in the modular_timings.csv column order or a dict."""
    if isinstance(row, dict):
        row = [row["benchmark_name"], row["scale"], row["prover_time_s"], row["trace_length"],
               row["proving_hz"]]
    fine = float(row[3]) / float(row[4])
    assert abs(fine - float(row[2])) <= 0.0051 + 1e-6 * fine, row
    return fine


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def main():
    global BIN, SCRIPTS
    p = argparse.ArgumentParser()
    p.add_argument("--bin-dir", required=True)
    p.add_argument("--scripts-dir", required=True)
    a = p.parse_args()
    BIN, SCRIPTS = os.path.abspath(a.bin_dir), os.path.abspath(a.scripts_dir)
    jolt_run = os.path.join(BIN, "jolt-run")
    mo = os.path.join(BIN, "measure-objectives")
    lo, hi = (int(s) for s in os.environ.get("JOLT_SWEEP_TEST_SCALES", "10,11").split(","))

    for exe in (jolt_run, mo):
        if not os.access(exe, os.X_OK):
            sys.exit(f"FAIL: {exe} is not built")
    probe = subprocess.run([jolt_run, "profile", "--help"], capture_output=True, text=True)
    if probe.returncode != 0:
        sys.exit("FAIL: `jolt-run profile --help` exited "
                 f"{probe.returncode}: the profile command is not linked into jolt-run yet (it "
                 "needs the tracer, prover and sink plugins); the end-to-end sweep, overhead and "
                 f"objective tests cannot run.\n{probe.stdout}{probe.stderr}")

    with tempfile.TemporaryDirectory() as tmp:
        out = "runs"
        print("== benchmark sweep with a failing workload")
        sweep = [jolt_run, "benchmark", "--min-scale", str(lo), "--max-scale", str(hi),
                 "--benchmarks", "fibonacci,no-such-workload", "--out-dir", out]
        r = run(sweep, tmp)
        log = r.stdout + r.stderr
        check(r.returncode != 0, "a sweep with failed pairs exits non-zero", log)
        check("✓ Completed: 2" in r.stdout, "both fibonacci pairs complete", log)
        check("❌ Failed: 2" in r.stdout, "both no-such-workload pairs are counted failed", log)
        failed_lines = [l for l in r.stdout.splitlines()
                        if l.startswith("     ") and "no-such-workload" in l]
        check(len(failed_lines) == 2, "the summary lists each failed command", log)
        # The closing hint names the scripts by a path that exists (the build's source tree
        # here; <prefix>/share/jolt-run/scripts when installed).
        hints = [l.split()[1] for l in r.stdout.splitlines()
                 if l.startswith("  /usr/bin/python3 ")]
        check(len(hints) == 3 and all(os.path.isfile(h) for h in hints),
              "the hint names the result scripts by existing paths", str(hints))
        check(f"=== Running benchmarks at scale 2^{lo} ===" in r.stdout and
              f"=== Running benchmarks at scale 2^{hi} ===" in r.stdout, "a banner per scale", log)
        check("[1/4] fibonacci" in r.stdout and "[4/4] no-such-workload" in r.stdout and
              "estimated time left" in r.stdout, "a progress line per run", log)
        order = [l.split()[1] + "@" + l.split()[3] for l in r.stdout.splitlines()
                 if l.startswith("[") and "/4]" in l]
        check(order == [f"fibonacci@2^{lo}", f"no-such-workload@2^{lo}",
                        f"fibonacci@2^{hi}", f"no-such-workload@2^{hi}"],
              "scale outer, workload inner", str(order))
        csv_path = os.path.join(tmp, out, "modular_timings.csv")
        rows = csv_rows(csv_path) if os.path.isfile(csv_path) else []
        check(len(rows) == 3 and rows[0][0] == "benchmark_name",
              "modular_timings.csv: one header and one row per completed pair", str(rows))
        check(sorted((row[0], row[1]) for row in rows[1:]) ==
              [("fibonacci", str(lo)), ("fibonacci", str(hi))], "the rows are fibonacci's",
              str(rows))
        for s in (lo, hi):
            check(os.path.exists(os.path.join(tmp, out, f"latest_modular_fibonacci_{s}",
                                              "summary.json")), f"latest link for 2^{s}")

        print("== --resume")
        r = run(sweep + ["--resume"], tmp)
        log = r.stdout + r.stderr
        check(r.stdout.count("⏭ Skipping fibonacci") == 2, "finished pairs are skipped", log)
        check("⏭ Skipped: 2" in r.stdout and "❌ Failed: 2" in r.stdout, "resume summary", log)
        check(len(csv_rows(csv_path)) == 3, "resume adds no rows", str(csv_rows(csv_path)))
        # A dangling latest_ link counts as absent: that pair runs again.
        link = os.path.join(tmp, out, f"latest_modular_fibonacci_{lo}")
        os.remove(link)
        os.symlink("20000101-000000_gone", link)
        r = run([jolt_run, "benchmark", "--min-scale", str(lo), "--max-scale", str(lo),
                 "--benchmarks", "fibonacci", "--out-dir", out, "--resume"], tmp)
        check(r.returncode == 0 and "✓ Completed: 1" in r.stdout,
              "a dangling latest link is re-run", r.stdout + r.stderr)

        print("== overhead")
        r = run([jolt_run, "overhead", "--workload", "fibonacci", "--scale", str(lo),
                 "--runs", "1", "--out-dir", out], tmp)
        log = r.stdout + r.stderr
        check(r.returncode in (0, 1), "overhead measures (0 = budgets met, 1 = broken)", log)
        check("overhead ratio:" in r.stdout and "dark_time_fraction:" in r.stdout,
              "overhead prints both figures", log)
        print("\n".join(l for l in r.stdout.splitlines() if l.startswith("  ")))

        print("== measure-objectives")
        keys = ["telemetry:fibonacci:prover_time_s", "telemetry:fibonacci:peak_rss_gib",
                "telemetry:fibonacci:total:jolt_prover::prove"]
        cmd = [mo, "--scale", str(lo), "--json", "--out-dir", out]
        for k in keys:
            cmd += ["--objective", k]
        r = run(cmd, tmp)
        check(r.returncode == 0, "measure-objectives succeeds", r.stdout + r.stderr)
        try:
            got = {e["objective"]: e["value"] for e in json.loads(r.stdout)["objectives"]}
            with open(os.path.join(tmp, out, f"latest_modular_fibonacci_{lo}",
                                   "summary.json")) as f:
                s = json.load(f)
            check(abs(got[keys[0]] - s["root"]["wall_time_ns"] / 1e9) < 1e-9,
                  "prover_time_s = root.wall_time_ns / 1e9", f"{got} vs {s['root']}")
            check(abs(got[keys[1]] - s["peak_rss_gib"]) < 1e-9, "peak_rss_gib from the summary")
            check(abs(got[keys[2]] - s["spans"]["jolt_prover::prove"]["total_ns"] / 1e9) < 1e-9,
                  "total:<label> from the summary")
        except (ValueError, KeyError, TypeError) as e:
            check(False, "measure-objectives JSON matches the summary", f"{e}\n{r.stdout}")
        r = run([mo, "--scale", str(lo), "--out-dir", out,
                 "--objective", "telemetry:fibonacci:total:NoSuchSpan"], tmp)
        check(r.returncode == 1 and "no entry \"NoSuchSpan\"" in r.stderr,
              "an absent label is an error", r.stdout + r.stderr)

        print("== benchmark --runs 2 --warmup 1")
        reps = os.path.join(tmp, "reps")
        r = run([jolt_run, "benchmark", "--min-scale", str(lo), "--max-scale", str(lo),
                 "--benchmarks", "fibonacci", "--runs", "2", "--warmup", "1", "--format", "none",
                 "--out-dir", "reps"], tmp)
        log = r.stdout + r.stderr
        check(r.returncode == 0 and "✓ Completed: 2" in r.stdout and
              "♨ Warmup runs (discarded): 1" in r.stdout, "two measured runs after a warmup", log)
        check(f"[1/3] fibonacci at 2^{lo} (warmup 1/1, discarded)" in r.stdout and
              f"[3/3] fibonacci at 2^{lo} (run 2/2)" in r.stdout, "progress per run", log)
        rows = csv_rows(os.path.join(reps, "modular_timings.csv"))
        check(len(rows) == 3, "one CSV row per measured run, none for the warmup", str(rows))
        dirs = sorted(d for d in os.listdir(reps) if d.endswith(f"_modular_fibonacci_{lo}") and
                      not d.startswith("latest_"))
        check(len(dirs) == 2, "each measured run its own directory, the warmup's removed",
              str(os.listdir(reps)))
        check(not any(d.startswith(".warmup") for d in os.listdir(reps)),
              "no warmup scratch folder left", str(os.listdir(reps)))
        check(os.readlink(os.path.join(reps, f"latest_modular_fibonacci_{lo}")) == dirs[-1],
              "latest_ names the last run")
        stats = csv_rows(os.path.join(reps, "modular_stats.csv"))
        check(",".join(stats[0]) == STATS_HEADER and len(stats) == 2, "the stats file's header "
              "and one row for the pair", str(stats))
        st = dict(zip(stats[0], stats[1]))
        secs = sorted(prove_seconds(row) for row in rows[1:])
        check(st["benchmark_name"] == "fibonacci" and st["scale"] == str(lo) and
              st["n"] == "2" and st["warmup"] == "1", "the stats row counts the runs", str(st))
        check(abs(float(st["prover_time_s_median"]) - sum(secs) / 2) < 2e-6 and
              abs(float(st["prover_time_s_min"]) - secs[0]) < 2e-6 and
              abs(float(st["prover_time_s_max"]) - secs[1]) < 2e-6 and
              abs(float(st["prover_time_s_mad"]) - (secs[1] - secs[0]) / 2) < 2e-6,
              "median, min, max, MAD of the rows' prove times", f"{st} vs {secs}")
        check(st["run_dirs"].split(";") == dirs, "the stats row names the run directories",
              f"{st['run_dirs']} vs {dirs}")
        check(f"≡ fibonacci at 2^{lo}: 2 runs (1 warmup discarded), prove time median" in r.stdout,
              "the sweep prints the pair's statistics", log)

        print("== profile --runs 4")
        r = run([jolt_run, "profile", "--workload", "fibonacci", "--scale", str(lo), "--format",
                 "none", "--runs", "4", "-q", "--out-dir", "prof"], tmp)
        log = r.stdout + r.stderr
        check(r.returncode == 0 and f"Repeated runs: fibonacci at 2^{lo}: 4 runs, prove time "
              "median" in r.stdout, "profile --runs prints the stats line", log)
        prof_csv = os.path.join(tmp, "prof", "modular_timings.csv")
        prof_rows = csv_rows(prof_csv)
        run_lines = [l.split()[1] for l in r.stdout.splitlines() if l.startswith("Run:")]
        check(len(prof_rows) == 5 and len(run_lines) == 4 and len(set(run_lines)) == 4 and
              all(os.path.isfile(os.path.join(d, "timings.csv")) for d in run_lines),
              "four rows, four distinct run directories", f"{prof_rows}\n{run_lines}")
        check(os.path.realpath(os.path.join(tmp, "prof", f"latest_modular_fibonacci_{lo}")) ==
              os.path.realpath(run_lines[-1]), "latest_ names the last run")
        pst = csv_rows(os.path.join(tmp, "prof", "modular_stats.csv"))
        check(len(pst) == 2 and pst[1][2] == "4" and pst[1][3] == "0",
              "profile --runs writes the stats row", str(pst))

        print("== plots and the table of repeated runs")
        r = run(["/usr/bin/python3", os.path.join(SCRIPTS, "plot_benchmarks.py"), "--csv",
                 prof_csv, "--output-dir", "prof-plots", "--plot-type", "speed"], tmp)
        png = os.path.join(tmp, "prof-plots", "benchmark_plot.png")
        check(r.returncode == 0 and "1 pair(s) with repeated rows drawn at their median, error "
              "bars from min to max" in r.stdout and os.path.getsize(png) > 1000,
              "the speed plot draws the repeated runs with error bars", r.stdout + r.stderr)
        r = run(["/usr/bin/python3", os.path.join(SCRIPTS, "benchmark_summary.py"), "--csv",
                 prof_csv, "--repeats", "median"], tmp)
        check(r.returncode == 0 and "kHz (n=4)" in r.stdout, "the table shows median ± MAD (n)",
              r.stdout + r.stderr)

        print("== diff on two CSVs")
        r = run([jolt_run, "diff", prof_csv, prof_csv, "--fail-on-regression", "5"], tmp)
        check(r.returncode == 0 and "no significant change" in r.stdout and "4/4" in r.stdout,
              "the same CSV twice: no significant change", r.stdout + r.stderr)
        # B: the same rows made 30 % slower than A's slowest run (a real run on a shared machine
        # can be an outlier itself; 30 % over each row's own time could overlap with A's, and
        # the rank test would rightly call that noise).
        slow_csv = os.path.join(tmp, "slow.csv")
        slowest = max(prove_seconds(row) for row in prof_rows[1:])
        with open(slow_csv, "w") as f:
            f.write(",".join(prof_rows[0]) + "\n")
            for i, row in enumerate(prof_rows[1:]):
                secs = slowest * 1.3 * (1 + 0.001 * i)
                row = list(row)
                row[2], row[4] = f"{secs:.2f}", f"{float(row[3]) / secs:.2f}"
                f.write(",".join(row) + "\n")
        r = run([jolt_run, "diff", prof_csv, slow_csv, "--fail-on-regression", "10",
                 "--markdown"], tmp)
        check(r.returncode == 1 and f"| fibonacci 2^{lo} | 4/4 |" in r.stdout and
              "| SLOWER (p=0.029) |" in r.stdout and "regressed by more than 10%" in r.stderr,
              "30 % slower prove times are flagged and fail the check", r.stdout + r.stderr)
        r = run([jolt_run, "diff", slow_csv, prof_csv, "--fail-on-regression", "0"], tmp)
        check(r.returncode == 0 and "faster (p=0.029)" in r.stdout,
              "the other way round: faster, no regression", r.stdout + r.stderr)

        print("== bad input")
        for args, needle in (
                (["benchmark", "--runs", "0", "--benchmarks", "fibonacci"], "--runs 0"),
                (["benchmark", "--warmup=-1", "--benchmarks", "fibonacci"], "--warmup -1"),
                (["profile", "--workload", "fibonacci", "--runs", "0"], "--runs 0"),
                (["profile", "--workload", "fibonacci", "--warmup", "1"],
                 "--warmup goes with --runs"),
                (["diff", prof_csv, run_lines[0]], "mix CSV files with runs")):
            r = run([jolt_run, *args, "--out-dir", "bad"] if args[0] != "diff" else
                    [jolt_run, *args], tmp)
            check(r.returncode == 2 and needle in r.stderr, f"refused: {' '.join(args)}",
                  r.stdout + r.stderr)
        r = run([jolt_run, "diff", os.path.join(run_lines[0], "timings.csv"), prof_csv], tmp)
        check(r.returncode == 1 and "not a header" in r.stderr, "a CSV without the header",
              r.stdout + r.stderr)
        check(not os.path.exists(os.path.join(tmp, "bad")), "refused runs write nothing")

        print("== benchmark_summary.py on the real CSV")
        r = run(["/usr/bin/python3", os.path.join(SCRIPTS, "benchmark_summary.py"),
                 "--csv", csv_path], tmp)
        check(r.returncode == 0 and f"2^{lo}" in r.stdout, "the table renders",
              r.stdout + r.stderr)

    if FAILURES:
        sys.exit(f"FAIL: {len(FAILURES)} check(s) failed: {FAILURES}")
    print("all end-to-end checks passed")


if __name__ == "__main__":
    main()
