#!/usr/bin/python3
"""Runs the result scripts (benchmark_summary.py, plot_benchmarks.py, plot_memory_usage.py) on a
generated sweep CSV and generated summaries; checks the table (last row, or median ± MAD /
[min–max] of repeated rows), that the PNG/HTML files are written (with error bars for repeated
rows), and that missing or malformed input gives a clear message and a non-zero exit."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = None
PY = "/usr/bin/python3"
HEADER = ("benchmark_name,scale,prover_time_s,trace_length,proving_hz,proof_size,"
          "proof_size_compressed,backend\n")


def run(script, *args, cwd=None):
    return subprocess.run([PY, os.path.join(SCRIPTS, script), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def summary(workload, scale, peak_rss, peak_mem=0.5, schema_version=3, cpu="Recorded CPU",
            padded=None):
    run = {"workload": workload, "scale_log2": scale, "backend": "reference",
           "timestamp_unix_secs": 1, "git_rev": None}
    if schema_version >= 2:  # version 2 added the commitment scheme to the run record
        run.update(pcs="basefold", pcs_parameters="basefold rate=1/4 queries=124")
    if schema_version >= 3:  # version 3: what was proved and on which machine
        padded = scale if padded is None else padded
        run.update(trace_length=2**(padded - 1), padded_scale_log2=padded, proof_size_bytes=1000,
                   verified=True, host={"cpu_model": cpu, "logical_cpus": 2,
                                        "memory_bytes": 24 * 2**30})
    return {"schema_version": schema_version, "taxonomy_version": 1, "run": run,
            "root": {"label": "jolt_prover::prove", "wall_time_ns": 10**9, "dark_time_ns": 0,
                     "dark_time_fraction": 0.0, "peak_memory_gib": peak_mem},
            "peak_rss_gib": peak_rss, "spans": {}, "stages": [], "counters": {}, "heap": {}}


class ScriptsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.csv = os.path.join(self.dir, "modular_timings.csv")
        with open(self.csv, "w") as f:
            f.write(HEADER)
            f.write("fibonacci,10,0.05,1024,20480.00,1000,1000,reference\n")
            f.write("fibonacci,11,0.10,2048,20480.00,1100,1100,reference\n")
            f.write("sha2-chain,11,0.20,2048,10240.00,1200,1200,reference\n")
            f.write("fibonacci,11,0.08,2048,25600.00,1100,1100,reference\n")  # later row wins

    def tearDown(self):
        self.tmp.cleanup()

    def test_summary_table_per_scale(self):
        r = run("benchmark_summary.py", "--csv", self.csv)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "Benchmark Summary (kHz)")
        self.assertEqual(lines[1], "=" * 60)
        # The original's four columns, in its order, even those without a row (blank cells).
        self.assertEqual([c.strip() for c in lines[2].split("|")],
                         ["Scale", "Fibonacci", "SHA2-chain", "SHA3-chain", "BTreeMap"])
        row10 = next(l for l in lines if l.strip().startswith("2^10"))
        self.assertEqual(len(row10.split("|")), 5)
        row11 = next(l for l in lines if l.strip().startswith("2^11"))
        self.assertIn("20.5 kHz", row10)
        self.assertIn("25.6 kHz", row11)  # last row for (fibonacci, 11) wins
        self.assertIn("10.2 kHz", row11)

    def test_summary_other_metrics(self):
        r = run("benchmark_summary.py", "--csv", self.csv, "--metric", "prover_time_s")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("0.05s", r.stdout)
        r = run("benchmark_summary.py", "--csv", self.csv, "--metric", "proof_size")
        self.assertIn("1.1 KB", r.stdout)
        for m in ("trace_length", "proof_size_compressed"):
            self.assertEqual(run("benchmark_summary.py", "--csv", self.csv, "--metric", m)
                             .returncode, 0)

    def test_summary_repeated_rows(self):
        # fibonacci 2^11 has two rows (20.48 and 25.6 kHz; 0.10 s and 0.08 s).
        r = run("benchmark_summary.py", "--csv", self.csv, "--repeats", "median")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("median ± MAD", lines[0])
        row10 = next(l for l in lines if l.strip().startswith("2^10"))
        row11 = next(l for l in lines if l.strip().startswith("2^11"))
        self.assertIn("20.48 kHz (n=1)", row10)
        self.assertIn("23.04 ± 2.56 kHz (n=2)", row11)  # not the last row's 25.6
        self.assertIn("10.24 kHz (n=1)", row11)
        r = run("benchmark_summary.py", "--csv", self.csv, "--repeats", "median",
                "--spread", "range")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("23.04 kHz [20.48–25.60] (n=2)", r.stdout)
        self.assertIn("median [min–max]", r.stdout.splitlines()[0])
        # Seconds from trace_length / proving_hz (precise), not the 2-decimal column.
        r = run("benchmark_summary.py", "--csv", self.csv, "--repeats", "median",
                "--metric", "prover_time_s")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("0.0900 ± 0.0100s (n=2)", r.stdout)
        r = run("benchmark_summary.py", "--csv", self.csv, "--repeats", "mean")
        self.assertEqual(r.returncode, 2)
        self.assertIn("invalid choice: 'mean'", r.stderr)

    def test_summary_bad_input(self):
        r = run("benchmark_summary.py", "--csv", os.path.join(self.dir, "missing.csv"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no such file", r.stderr)
        bad = os.path.join(self.dir, "bad.csv")
        with open(bad, "w") as f:
            f.write("name,value\nx,1\n")
        r = run("benchmark_summary.py", "--csv", bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no 'benchmark_name' column", r.stderr)
        with open(bad, "w") as f:
            f.write(HEADER)
        r = run("benchmark_summary.py", "--csv", bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no result rows", r.stderr)

    def test_plots_written(self):
        out = os.path.join(self.dir, "plots")
        r = run("plot_benchmarks.py", "--csv", self.csv, "--output-dir", out, "--html")
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in ("benchmark_plot.png", "proof_size_plot.png", "benchmark_plots.html"):
            path = os.path.join(out, name)
            self.assertTrue(os.path.getsize(path) > 1000, path)
        with open(os.path.join(out, "benchmark_plot.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(out, "benchmark_plots.html")) as f:
            # No summaries next to the CSV: the plotting machine, said as such.
            self.assertIn("Hardware (this machine; the runs recorded none): ", f.read())
        # With the sweep's latest_*/summary.json next to the CSV: the machine the runs recorded.
        d = os.path.join(self.dir, "20260101-000000_modular_fibonacci_10")
        os.makedirs(d)
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump(summary("fibonacci", 10, 0.2), f)
        os.symlink(os.path.basename(d), os.path.join(self.dir, "latest_modular_fibonacci_10"))
        r = run("plot_benchmarks.py", "--csv", self.csv, "--output-dir", out, "--html")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "benchmark_plots.html")) as f:
            self.assertIn("Hardware: Recorded CPU, 2 cores, 24 GiB RAM", f.read())
        out2 = os.path.join(self.dir, "speed-only")
        r = run("plot_benchmarks.py", "--csv", self.csv, "--output-dir", out2,
                "--plot-type", "speed")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(out2), ["benchmark_plot.png"])

    def test_plots_error_bars_for_repeated_rows(self):
        out = os.path.join(self.dir, "bars")
        r = run("plot_benchmarks.py", "--csv", self.csv, "--output-dir", out,
                "--plot-type", "speed")
        self.assertEqual(r.returncode, 0, r.stderr)
        # Only fibonacci 2^11 has two rows.
        self.assertIn("benchmark_plot.png: 1 pair(s) with repeated rows drawn at their median, "
                      "error bars from min to max", r.stdout)
        with open(os.path.join(out, "benchmark_plot.png"), "rb") as f:
            with_bars = f.read()
        last = os.path.join(self.dir, "last")
        r = run("plot_benchmarks.py", "--csv", self.csv, "--output-dir", last,
                "--plot-type", "speed", "--repeats", "last")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("error bars", r.stdout)
        with open(os.path.join(last, "benchmark_plot.png"), "rb") as f:
            self.assertNotEqual(f.read(), with_bars)
        # One row per pair: no error bars, no caption.
        single = os.path.join(self.dir, "single.csv")
        with open(single, "w") as f:
            f.write(HEADER + "fibonacci,10,0.05,1024,20480.00,1000,1000,reference\n")
        r = run("plot_benchmarks.py", "--csv", single, "--output-dir", last,
                "--plot-type", "speed")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("error bars", r.stdout)

    def test_plots_bad_input(self):
        r = run("plot_benchmarks.py", "--csv", os.path.join(self.dir, "none.csv"),
                "--output-dir", self.dir)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no such file", r.stderr)
        bad = os.path.join(self.dir, "bad.csv")
        with open(bad, "w") as f:
            f.write("benchmark_name,scale\nfibonacci,x\n")
        r = run("plot_benchmarks.py", "--csv", bad, "--output-dir", self.dir)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("missing column", r.stderr)

    def test_memory_plot(self):
        runs = os.path.join(self.dir, "runs")
        # Version-1 and -2 summaries (runs from before schema v2 and v3) are read like current ones.
        for w, s, rss, v in (("fibonacci", 10, 0.2, 1), ("fibonacci", 11, 0.3, 2),
                             ("sha2-chain", 11, 0.4, 3)):
            d = os.path.join(runs, f"20260101-000000_modular_{w.replace('-', '_')}_{s}")
            os.makedirs(d)
            with open(os.path.join(d, "summary.json"), "w") as f:
                json.dump(summary(w, s, rss, schema_version=v), f)
            os.symlink(os.path.basename(d),
                       os.path.join(runs, f"latest_modular_{w.replace('-', '_')}_{s}"))
        broken = os.path.join(runs, "latest_modular_btreemap_10")
        os.makedirs(broken)
        with open(os.path.join(broken, "summary.json"), "w") as f:
            f.write("{not json")
        out = os.path.join(self.dir, "mem")
        r = run("plot_memory_usage.py", "--traces-dir", runs, "--output-dir", out,
                "--output-name", "mem.html")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("latest_modular_btreemap_10/summary.json: skipping", r.stderr)
        self.assertNotIn("modular_fibonacci_10/summary.json", r.stderr)  # the version-1 run
        self.assertTrue(os.path.getsize(os.path.join(out, "mem.png")) > 1000)
        with open(os.path.join(out, "mem.html")) as f:
            page = f.read()
        # Only the version-3 run recorded its host; that is the machine named.
        self.assertIn("Hardware: Recorded CPU, 2 cores, 24 GiB RAM", page)
        # A run proved below its requested scale is placed at the padded one, and said so; a
        # second run at the same padded scale is said to replace the first.
        for requested in (13, 12):
            d = os.path.join(runs, f"20260101-000000_modular_btreemap_{requested}")
            os.makedirs(d)
            with open(os.path.join(d, "summary.json"), "w") as f:
                json.dump(summary("btreemap", requested, 0.1, padded=11), f)
            os.symlink(os.path.basename(d),
                       os.path.join(runs, f"latest_modular_btreemap_{requested}"))
        r = run("plot_memory_usage.py", "--traces-dir", runs, "--output-dir", out,
                "--output-name", "mem.html")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("latest_modular_btreemap_12/summary.json: requested 2^12, proved at 2^11; "
                      "plotted there", r.stderr)
        self.assertIn("btreemap was already proved at 2^11 by another run", r.stderr)
        # Runs on two machines are said to be so.
        d = os.path.join(runs, "20260101-000000_modular_sha3_12")
        os.makedirs(d)
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump(summary("sha3", 12, 0.5, cpu="Other CPU"), f)
        os.symlink(os.path.basename(d), os.path.join(runs, "latest_modular_sha3_12"))
        r = run("plot_memory_usage.py", "--traces-dir", runs, "--output-dir", out,
                "--output-name", "mem.html")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "mem.html")) as f:
            self.assertIn("Hardware: 2 machines (Other CPU, 2 cores, 24 GiB RAM; Recorded CPU",
                          f.read())

    def test_memory_plot_bad_input(self):
        r = run("plot_memory_usage.py", "--traces-dir", self.dir, "--output-dir", self.dir)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no latest_*/summary.json", r.stderr)
        r = run("plot_memory_usage.py", "--traces-dir", os.path.join(self.dir, "nope"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no such folder", r.stderr)
        r = run("plot_memory_usage.py", "--traces-dir", self.dir, "--output-name", "x.svg")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("expected a .png or .html", r.stderr)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--scripts-dir", required=True)
    args, rest = p.parse_known_args()
    SCRIPTS = os.path.abspath(args.scripts_dir)
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
