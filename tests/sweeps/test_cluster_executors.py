#!/usr/bin/python3
"""`jolt-run benchmark --executor slurm|parallel` against a local sweep of the same plan
(fibonacci and btreemap × two small scales):

  slurm:    a real single-node Slurm cluster (slurm_cluster.py: munged, slurmctld and slurmd in a
            temporary folder, stopped at the end) runs the sweep as one job array; the CSV rows
            (timings aside) and the run directories match the local sweep's; --plan prints the
            sbatch line and the task commands and runs nothing; Ctrl-C cancels the array; a task
            cancelled by scancel is listed with Slurm's state; a failing task is listed with its
            job id and log; --resume after removing one latest_ link submits only that pair;
            without sbatch on PATH the command refuses, naming it.
  parallel: GNU parallel with an --sshloginfile naming `:` (this host) runs the same sweep, with
            the same checks of rows and run directories, the failing task and --resume.
  both:     --runs 2 makes one task that proves the pair twice, one after the other (two runs of
            a pair cannot overlap: the pair's run lock), and writes its modular_stats.csv row.

Exits 77 (CTest's skip) when the Slurm daemons cannot start here, printing why. Scales:
JOLT_SWEEP_TEST_SCALES (default "11,12")."""

import argparse
import csv
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import FAILURES, check  # noqa: E402
from slurm_cluster import SlurmCluster  # noqa: E402

SKIP = 77
WORKLOADS = "fibonacci,btreemap"  # both prove at 2^11 and 2^12 (btreemap needs 11 or more)


def run(args, cwd, env=None, timeout=110):
    t0 = time.monotonic()
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    print(f"$ {' '.join(args)}  -> exit {r.returncode} in {time.monotonic() - t0:.1f}s")
    return r


def rows_without_timings(out_dir):
    """modular_timings.csv's rows minus the columns that are measurements (prover_time_s,
    proving_hz), sorted: what must match between executors; None when there is no file."""
    if not os.path.isfile(os.path.join(out_dir, "modular_timings.csv")):
        return None
    with open(os.path.join(out_dir, "modular_timings.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    keep = [k for k in (rows[0].keys() if rows else []) if k not in ("prover_time_s", "proving_hz")]
    return sorted(tuple(r[k] for k in keep) for r in rows)


def latest_runs(out_dir):
    """{latest_ link name: sorted file names of the run directory it points to}."""
    out = {}
    for name in sorted(os.listdir(out_dir) if os.path.isdir(out_dir) else []):
        if name.startswith("latest_"):
            target = os.path.join(out_dir, name)
            out[name] = sorted(os.listdir(target)) if os.path.isdir(target) else None
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin-dir", required=True)
    p.add_argument("--executor", choices=("slurm", "parallel"), required=True)
    a = p.parse_args()
    jolt_run = os.path.join(os.path.abspath(a.bin_dir), "jolt-run")
    lo, hi = (s.strip() for s in os.environ.get("JOLT_SWEEP_TEST_SCALES", "11,12").split(","))
    sweep = ["--benchmarks", WORKLOADS, "--min-scale", lo, "--max-scale", hi, "--format", "none"]
    tmp = tempfile.mkdtemp(prefix=f"jolt-{a.executor}-")
    cluster = None
    env = None
    try:
        if a.executor == "slurm":
            cluster = SlurmCluster(os.path.join(tmp, "cluster"))
            t0 = time.monotonic()
            why = cluster.start()
            if why:
                print(f"SKIP: cannot start a Slurm cluster here: {why}")
                return SKIP
            print(f"Slurm cluster up in {time.monotonic() - t0:.1f}s (node {cluster.node})")
            env = cluster.env()
            extra = ["--executor", "slurm", "--poll-seconds", "0.5"]
        else:
            if not shutil.which("parallel"):
                print("FAIL: GNU parallel is not installed (scripts/install-deps.sh installs it)")
                return 1
            hosts = os.path.join(tmp, "hosts")
            with open(hosts, "w") as f:
                f.write(":\n")
            extra = ["--executor", "parallel", "--sshloginfile", hosts]

        print("== the local sweep (reference)")
        r = run([jolt_run, "benchmark", *sweep, "--out-dir", "local"], tmp)
        check(r.returncode == 0, "local sweep exits 0", r.stdout[-2000:] + r.stderr[-2000:])
        local = os.path.join(tmp, "local")

        if a.executor == "slurm":
            print("== --plan runs nothing")
            r = run([jolt_run, "benchmark", *sweep, *extra, "--out-dir", "planned", "--plan"], tmp,
                    env)
            print(r.stdout)
            check(r.returncode == 0, "--plan exits 0", r.stderr)
            check("--array=0-3" in r.stdout and "sbatch" in r.stdout,
                  "--plan prints the sbatch line with a 4-task array", r.stdout)
            check(re.search(r"--mem=\d+M", r.stdout) is not None,
                  "--plan's sbatch line asks for the pre-flight memory estimate", r.stdout)
            check(r.stdout.count(" profile --workload ") == 4, "--plan lists 4 task commands",
                  r.stdout)
            check(not os.path.exists(os.path.join(tmp, "planned")), "--plan creates no out dir")
            r = run([jolt_run, "benchmark", *sweep, *extra, "--out-dir", "planned",
                     "--slurm-args", "--mem=2G --time=5", "--plan"], tmp, env)
            check("--mem=2G" in r.stdout and not re.search(r"--mem=\d+M", r.stdout),
                  "--slurm-args --mem replaces the estimate", r.stdout)

            no_tools = dict(env, PATH=os.path.join(tmp, "empty-path"))
            r = run([jolt_run, "benchmark", *sweep, *extra, "--out-dir", "nosbatch"], tmp,
                    no_tools)
            check(r.returncode == 2 and "sbatch" in r.stderr and "PATH" in r.stderr,
                  "without sbatch on PATH: exit 2 naming sbatch", r.stderr)

        print(f"== the same sweep through --executor {a.executor}")
        t0 = time.monotonic()
        r = run([jolt_run, "benchmark", *sweep, *extra, "--out-dir", "cluster"], tmp, env)
        wall = time.monotonic() - t0
        print(r.stdout[-3000:], r.stderr[-2000:])
        print(f"MEASURED: {a.executor} sweep of 4 runs took {wall:.1f}s wall")
        check(r.returncode == 0, f"{a.executor} sweep exits 0")
        check("Completed: 4" in r.stdout, "4 runs completed", r.stdout[-1500:])
        if a.executor == "slurm":
            check(re.search(r"Submitted job array \d+: 4 task", r.stdout) is not None,
                  "one job array of 4 tasks")
            check(re.search(r"\[\d/4\] job \d+: \d+ running, \d+ pending", r.stdout) is not None,
                  "progress lines from squeue")
        out = os.path.join(tmp, "cluster")
        check(rows_without_timings(out) == rows_without_timings(local),
              "modular_timings.csv rows match the local sweep's (timings aside)",
              f"{rows_without_timings(out)}\n!=\n{rows_without_timings(local)}")
        check(latest_runs(out) == latest_runs(local) and len(latest_runs(out)) == 4,
              "the same latest_ links, each to a run directory with the same files",
              f"{latest_runs(out)}\n!=\n{latest_runs(local)}")

        if a.executor == "slurm":
            print("== Ctrl-C cancels the job array")
            big = [str(int(hi) + 3), str(int(hi) + 4)]  # long enough to be running when stopped
            p = subprocess.Popen([jolt_run, "benchmark", "--benchmarks", WORKLOADS, "--min-scale",
                                  big[0], "--max-scale", big[1], "--format", "none", *extra,
                                  "--out-dir", "interrupted"], cwd=tmp, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(3)
            p.send_signal(signal.SIGINT)
            so, se = p.communicate(timeout=60)
            print(so[-1500:], se[-500:])
            m = re.search(r"Submitted job array (\d+)", so)
            check(p.returncode == 130, "an interrupted slurm sweep exits 130", se)
            check("Interrupted: 4 run(s) not finished" in so or
                  re.search(r"Completed: \d", so) is not None and "Interrupted:" in so,
                  "the unfinished runs are reported as interrupted, not failed", so)
            check(m is not None and f"cancelled job {m.group(1)}" in se, "the array is cancelled", se)
            if m:
                q = subprocess.run(["squeue", "-h", "-r", "-j", m.group(1), "-t", "PENDING,RUNNING"],
                                   env=env, capture_output=True, text=True)
                check(q.stdout.strip() == "", "no task of it is left pending or running", q.stdout)

        if a.executor == "slurm":
            print("== a task Slurm cancels is listed with Slurm's state")
            p = subprocess.Popen([jolt_run, "benchmark", "--benchmarks", "fibonacci", "--min-scale",
                                  big[1], "--max-scale", big[1], "--format", "none", *extra,
                                  "--out-dir", "cancelled"], cwd=tmp, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            task, deadline = None, time.monotonic() + 30
            while task is None and time.monotonic() < deadline:
                q = subprocess.run(["squeue", "-h", "-r", "-t", "RUNNING", "-o", "%i"], env=env,
                                   capture_output=True, text=True)
                task = q.stdout.split()[0] if q.stdout.split() else None
                time.sleep(0.2)
            check(task is not None, "the task started")
            if task:
                subprocess.run(["scancel", task], env=env)
            so, se = p.communicate(timeout=60)
            print(so[-1200:])
            check(p.returncode == 1 and "Failed: 1" in so, "the cancelled task fails the sweep", so)
            # scancel's SIGTERM ends jolt-run and the task shell in either order: without a
            # recorded status, or with jolt-run's 143; both read as ended by Slurm.
            check(task is not None and re.search(
                rf"fibonacci at 2\^{big[1]}: job {task}, "
                r"(no exit status recorded|exit status 143 on \S+): the task did not run to its "
                r"end \(Slurm state CANCELLED", so) is not None,
                "it is listed with its job id and Slurm's state", so)

        print("== --runs 2: one task makes both runs of the pair, and its statistics")
        r = run([jolt_run, "benchmark", "--benchmarks", "fibonacci", "--min-scale", lo,
                 "--max-scale", lo, "--format", "none", "--runs", "2", *extra, "--out-dir",
                 "repeated runs"], tmp, env)  # a space in the path: quoting matters
        print(r.stdout[-1500:])
        check(r.returncode == 0 and "Completed: 2" in r.stdout, "--runs 2 completes both runs",
              r.stdout[-1500:] + r.stderr[-1000:])
        rep = os.path.join(tmp, "repeated runs")
        runs_made = [d for d in os.listdir(rep)
                     if d.endswith(f"_modular_fibonacci_{lo}") and not d.startswith("latest_")]
        check(len(runs_made) == 2, "two run directories", str(runs_made))
        stats = os.path.join(rep, "modular_stats.csv")
        rows = list(csv.DictReader(open(stats))) if os.path.isfile(stats) else []
        check(len(rows) == 1 and rows[0]["n"] == "2" and
              sorted(rows[0]["run_dirs"].split(";")) == sorted(runs_made),
              "modular_stats.csv: one row, n = 2, naming both run directories", str(rows))

        print("== a failing task is listed")
        r = run([jolt_run, "benchmark", "--benchmarks", "fibonacci,no-such-workload", "--min-scale",
                 lo, "--max-scale", lo, "--format", "none", *extra, "--out-dir", "failing"], tmp, env)
        print(r.stdout[-2500:])
        check(r.returncode == 1, "a sweep with a failing task exits 1")
        check("Completed: 1" in r.stdout and "Failed: 1" in r.stdout,
              "one completed, one failed", r.stdout[-1500:])
        pattern = (r"no-such-workload at 2\^" + lo + r": job (\d+_1), exit status \d+"
                   if a.executor == "slurm" else
                   r"no-such-workload at 2\^" + lo + r": task 1, exit status \d+")
        m = re.search(pattern + r".*\n\s+log: (\S+)", r.stdout)
        check(m is not None, "the failed task is listed with its job id and log", r.stdout)
        if m:
            log = m.group(m.lastindex)
            check(os.path.isfile(log) and "no-such-workload" in open(log).read(),
                  "its log exists and names the workload", log)
            if a.executor == "slurm":
                check(log.endswith(f"task-{m.group(1)}.log"), "the log is named by the job id", log)

        print("== --resume resubmits only the missing pair")
        missing = f"latest_modular_btreemap_{hi}"
        os.unlink(os.path.join(out, missing))
        n_rows = len(rows_without_timings(out))
        r = run([jolt_run, "benchmark", *sweep, *extra, "--out-dir", "cluster", "--resume"],
                tmp, env)
        print(r.stdout[-2000:])
        check(r.returncode == 0, "--resume exits 0", r.stderr)
        if a.executor == "slurm":
            check(re.search(r"Submitted job array \d+: 1 task", r.stdout) is not None,
                  "--resume submits a one-task array")
        else:
            check("Running 1 task(s) through GNU parallel" in r.stdout,
                  "--resume hands GNU parallel one task")
        check(r.stdout.count("Skipping") == 3 and "Completed: 1" in r.stdout,
              "three pairs skipped, one run", r.stdout)
        check(os.path.isdir(os.path.join(out, missing)), f"{missing} is back")
        check(len(rows_without_timings(out)) == n_rows + 1, "one row added")
        r = run([jolt_run, "benchmark", *sweep, *extra, "--out-dir", "cluster", "--resume"],
                tmp, env)
        check(r.returncode == 0 and "Nothing to run" in r.stdout and
              "Submitted" not in r.stdout and "Running" not in r.stdout,
              "a complete sweep resumed submits nothing",
              r.stdout)
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed: {FAILURES}")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
