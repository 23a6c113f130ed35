#!/usr/bin/python3
"""The callgrind objective lane: measure-objectives runs eq_evals_bench under valgrind and
reports a positive instruction count that is the same on a second run (the lane's point is a
deterministic number); an unknown bench is a clear error."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def measure(bin_dir, cwd, *keys):
    cmd = [os.path.join(bin_dir, "measure-objectives"), "--json", "--out-dir", "runs"]
    for k in keys:
        cmd += ["--objective", k]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=50)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin-dir", required=True)
    bin_dir = os.path.abspath(p.parse_args().bin_dir)
    for exe in ("measure-objectives", "eq_evals_bench"):
        if not os.access(os.path.join(bin_dir, exe), os.X_OK):
            sys.exit(f"FAIL: {bin_dir}/{exe} is not built (ninja measure-objectives eq_evals_bench)")
    if shutil.which("valgrind") is None:
        sys.exit("FAIL: valgrind is not installed (scripts/install-deps.sh)")
    with tempfile.TemporaryDirectory() as tmp:
        counts = []
        for _ in range(2):
            r = measure(bin_dir, tmp, "callgrind:eq_evals_bench:instructions")
            if r.returncode != 0:
                sys.exit(f"FAIL: measure-objectives exited {r.returncode}\n{r.stderr}")
            entry = json.loads(r.stdout)["objectives"][0]
            assert entry["objective"] == "callgrind:eq_evals_bench:instructions", entry
            assert entry["units"] == "Ir", entry
            counts.append(entry["value"])
        assert counts[0] > 1e6, f"implausibly small instruction count {counts[0]}"
        assert counts[0] == counts[1], f"instruction count not deterministic: {counts}"
        assert os.path.isfile(os.path.join(tmp, "runs", "callgrind",
                                           "eq_evals_bench.callgrind.out"))
        r = measure(bin_dir, tmp, "callgrind:no_such_bench:instructions")
        assert r.returncode == 1, r.returncode
        assert "no micro-benchmark executable" in r.stdout + r.stderr, r.stdout + r.stderr
        assert json.loads(r.stdout)["objectives"][0]["value"] is None
    print(f"ok: eq_evals_bench = {counts[0]:.0f} Ir, twice")


if __name__ == "__main__":
    main()
