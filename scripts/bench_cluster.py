#!/usr/bin/env python3
"""Ranks over MPI, R ranks of one host device each, every app on kron:20
and grid:1000x1000 (or --graphs). Four variants, in alternating rounds so
that drift in the machine's speed hits all of them:

  2-sided        --comm=mpi_alltoallv --messages=per_edge: one MPI_Alltoallv
                 per superstep, a record per crossing edge (as MPI graph codes
                 without a combiner send)
  1-sided        --comm=mpi_ring --messages=per_edge: the same records streamed
                 by MPI_Put through rings in the receivers' windows (the default)
  1-sided+SA     --comm=mpi_ring --messages=sendall: each value once to each
                 rank that reads it, expanded there through its in-edges
  2-sided+SA     --comm=mpi_alltoallv --messages=sendall

Per-edge messages apply to apps whose gather sums (PageRank); the others
always send each value once per reader, so their four variants differ only
in the transport. Task migration across ranks is not built (migration
stays inside a rank), so it has no column.

  python3 scripts/bench_cluster.py [--ranks 2,4] [--rounds 3] [--repeat 3]

Figures: the median compute time (ms) over every timed run of every
round, application MB and record count (messages) of one run, and ratios
against 2-sided. Ranks are oversubscribed on a small box: the times
measure software overhead, not a network; ratios from one run of this
script are what to compare.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
VARIANTS = {
    "2-sided": ("mpi_alltoallv", "per_edge"),
    "1-sided": ("mpi_ring", "per_edge"),
    "1-sided+SA": ("mpi_ring", "sendall"),
    "2-sided+SA": ("mpi_alltoallv", "sendall"),
}
SUMS = {"pr"}  # apps whose messages may go per edge


def launch(chatty, ranks, app, graph, comm, messages, repeat):
    cmd = ["mpirun", "-np", str(ranks), chatty, "run", "--backend=cpu", f"--app={app}", f"--graph={graph}",
           f"--comm={comm}", f"--repeat={repeat}", "--json", "--quiet"]
    if app in SUMS:
        cmd.append(f"--messages={messages}")
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
    names = list(VARIANTS)
    print(f"{'graph':16} {'app':6} {'R':>2} " + " ".join(f"{n + ' ms':>14}" for n in names) +
          f" {'1s/2s':>6} {'1sSA/2s':>7} {'MB 2s':>8} {'MB SA':>8} {'msgs 2s':>10} {'msgs SA':>10} {'steps':>5}")
    for graph in a.graphs.split(","):
        for app in a.apps.split(","):
            variants = names if app in SUMS else ["2-sided", "1-sided"]
            for ranks in [int(r) for r in a.ranks.split(",")]:
                times = {v: [] for v in variants}
                last = {}
                for _ in range(a.rounds):
                    for v in variants:
                        j = launch(a.chatty, ranks, app, graph, *VARIANTS[v], a.repeat)
                        times[v] += j["compute_s_all"]
                        last[v] = j
                ms = {v: statistics.median(times[v]) * 1e3 for v in variants}
                sa = "1-sided+SA" if app in SUMS else "1-sided"
                m2, msa = last["2-sided"]["multi"], last[sa]["multi"]
                cells = " ".join(f"{ms[v]:14.1f}" if v in ms else f"{'-':>14}" for v in names)
                print(f"{graph:16} {app:6} {ranks:>2} {cells} {ms['1-sided'] / ms['2-sided']:6.3f} "
                      f"{ms[sa] / ms['2-sided']:7.3f} {m2['bytes_application'] / 1e6:8.1f} "
                      f"{msa['bytes_application'] / 1e6:8.1f} {m2['communicated']:>10} {msa['communicated']:>10} "
                      f"{last[sa]['iterations']:>5}", flush=True)


if __name__ == "__main__":
    main()
