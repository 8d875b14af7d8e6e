#!/usr/bin/env python3
"""Ranks over MPI: the one-sided data path (--comm=mpi_put) against the
two-sided baseline (--comm=mpi_alltoallv, one MPI_Alltoallv per
superstep), for R ranks of one host device each, every app, on kron:20
and grid:1000x1000 (or --graphs).

  python3 scripts/bench_cluster.py [--ranks 2,4] [--rounds 3] [--repeat 3]

Each launch runs the app --repeat times on the loaded graph; the figure is
the median compute time over every timed run of every round, and the
ratio is one-sided / two-sided. Rounds alternate the two transports, so
drift in the machine's speed hits both. Ranks are oversubscribed on a
small box: absolute times say little, ratios from one run of this script
are what to compare. MB: application records of one run (the same for
both: the engine sends the same records, only the transport differs).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
COMMS = ["mpi_alltoallv", "mpi_put"]


def launch(chatty, ranks, app, graph, comm, repeat):
    cmd = ["mpirun", "-np", str(ranks), chatty, "run", "--backend=cpu", f"--app={app}", f"--graph={graph}",
           f"--comm={comm}", f"--repeat={repeat}", "--json", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=1800)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout.splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graphs", default="kron:20,grid:1000x1000")
    ap.add_argument("--apps", default="bfs,sssp,wcc,pr,kcore")
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"{'graph':16} {'app':6} {'R':>2} {'2-sided ms':>11} {'1-sided ms':>11} {'ratio':>6} {'MB':>8} {'steps':>6}")
    for graph in a.graphs.split(","):
        for app in a.apps.split(","):
            for ranks in [int(r) for r in a.ranks.split(",")]:
                times = {c: [] for c in COMMS}
                last = {}
                for _ in range(a.rounds):
                    for comm in COMMS:
                        j = launch(a.chatty, ranks, app, graph, comm, a.repeat)
                        times[comm] += j["compute_s_all"]
                        last[comm] = j
                two, one = (statistics.median(times[c]) * 1e3 for c in COMMS)
                mb = last["mpi_put"]["multi"]["bytes_application"] / 1e6
                print(f"{graph:16} {app:6} {ranks:>2} {two:11.1f} {one:11.1f} {one / two:6.3f} {mb:8.1f} "
                      f"{last['mpi_put']['iterations']:>6}", flush=True)


if __name__ == "__main__":
    main()
