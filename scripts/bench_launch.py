#!/usr/bin/env python3
"""What a small job under mpirun costs from launch to exit, beside what the
launcher costs alone: `mpirun -np R chatty run` of a small graph (its
compute a few milliseconds) against `mpirun -np R true` (no MPI at all)
and the same run as one process, in interleaved rounds. The rank tests
launch some 700 such jobs, and a user's scripts as many.

  python3 scripts/bench_launch.py [--chatty build/chatty] [--against OTHER_CHATTY] [--ranks 2]
        [--rounds 20] [--graph kron:12] [--mpirun_args="--bind-to none"]

Prints each case's median wall time (ms) over the rounds and its range,
and what the job adds to the launcher's own (job - launcher); with
--against, the other build's job too, and this build's over the other's
as the median of the rounds' ratios."""
import argparse
import statistics
import subprocess
import sys
import time

from mpi_bench import ENV


def wall(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=600)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return (time.perf_counter() - t0) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--against", help="another chatty build (a commit before a change)")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--graph", default="kron:12")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--mpirun_args", default="", help="options of the launcher's, e.g. --bind-to none")
    a = ap.parse_args()
    run = ["run", "--backend=cpu", "--app=bfs", f"--graph={a.graph}", "--quiet"]
    mpirun = [a.mpirun, *a.mpirun_args.split(), "-np", str(a.ranks)]
    cases = {"launcher alone (mpirun true)": mpirun + ["true"], "job (mpirun chatty run)": mpirun + [a.chatty, *run],
             "one process (chatty run)": [a.chatty, *run]}
    if a.against:
        cases["other build's job"] = mpirun + [a.against, *run]
    times = {k: [] for k in cases}
    for _ in range(a.rounds):
        for name, cmd in cases.items():
            times[name].append(wall(cmd))
    for name, t in times.items():
        print(f"{name:30} {statistics.median(t):7.1f} ms  ({min(t):.1f}-{max(t):.1f})")
    job, alone = times["job (mpirun chatty run)"], times["launcher alone (mpirun true)"]
    print(f"{'job - launcher':30} {statistics.median(j - l for j, l in zip(job, alone)):7.1f} ms (median of rounds)")
    if a.against:
        ratios = [j / o for j, o in zip(job, times["other build's job"])]
        print(f"{'job / other build':30} {statistics.median(ratios):7.2f}  ({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
