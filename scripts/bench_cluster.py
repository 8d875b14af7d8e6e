#!/usr/bin/env python3
"""Ranks over MPI, R ranks of one host device each, every app on kron:20
and grid:1000x1000 (or --graphs). Five variants, in alternating rounds so
that drift in the machine's speed hits all of them; all but +migration run
with --migrate=false (with one device per rank, migration is only across
ranks):

  2-sided        --comm=mpi_alltoallv --messages=per_edge: one MPI_Alltoallv
                 per superstep, a record per crossing edge (as MPI graph codes
                 without a combiner send)
  1-sided        --comm=mpi_ring --messages=per_edge: the same records streamed
                 by MPI_Put through rings in the receivers' windows (the default)
  1-sided+SA     --comm=mpi_ring --messages=sendall: each value once to each
                 rank that reads it, expanded there through its in-edges
  +migration     1-sided+SA with task migration across ranks (the default)
  2-sided+SA     --comm=mpi_alltoallv --messages=sendall

Per-edge messages apply to apps whose gather sums (PageRank), and
migration across ranks to Jacobi gathers (PageRank); the others always
send each value once per reader, so they run 2-sided and 1-sided only.

  python3 scripts/bench_cluster.py [--ranks 2,4] [--rounds 3] [--repeat 3] [--busy-core]

--busy-core binds the ranks one per core and keeps the machine's last core
busy with another process (another tenant), so one rank runs slower: the
case task migration is for.

Figures: the median compute time (ms) over every timed run of every
round, application MB and record count (messages) of one run, and ratios
against 2-sided. Ranks are oversubscribed on a small box: the times
measure software overhead, not a network; ratios from one run of this
script are what to compare.
"""
import argparse
import contextlib
import statistics

from mpi_bench import BIND, BusyCore, add_common_args, launch

VARIANTS = {
    "2-sided": ("mpi_alltoallv", "per_edge"),
    "1-sided": ("mpi_ring", "per_edge"),
    "1-sided+SA": ("mpi_ring", "sendall"),
    "+migration": ("mpi_ring", "sendall", True),
    "2-sided+SA": ("mpi_alltoallv", "sendall"),
}
SUMS = {"pr"}  # apps whose messages may go per edge


def run_variant(chatty, ranks, app, graph, repeat, busy, comm, messages, migrate=False):
    extra = [f"--comm={comm}", f"--migrate={str(migrate).lower()}"]
    if app in SUMS:
        extra.append(f"--messages={messages}")
    with BusyCore() if busy else contextlib.nullcontext():
        return launch(chatty, ranks, app, graph, repeat, extra, BIND if busy else ())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap, graphs="kron:20,grid:1000x1000", apps="bfs,sssp,wcc,pr,kcore")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--busy-core", action="store_true",
                    help="bind ranks one per core and keep the last core busy with another process")
    a = ap.parse_args()
    names = list(VARIANTS)
    print(f"{'graph':16} {'app':6} {'R':>2} " + " ".join(f"{n + ' ms':>14}" for n in names) +
          f" {'1s/2s':>6} {'1sSA/2s':>7} {'mig/2s':>6} {'mig/1sSA':>8} {'blocks':>6} {'MB 2s':>8} {'MB SA':>8} {'msgs 2s':>10} {'msgs SA':>10} {'steps':>5}")
    for graph in a.graphs.split(","):
        for app in a.apps.split(","):
            variants = names if app in SUMS else ["2-sided", "1-sided"]
            for ranks in [int(r) for r in a.ranks.split(",")]:
                times = {v: [] for v in variants}
                last = {}
                for _ in range(a.rounds):
                    for v in variants:
                        j = run_variant(a.chatty, ranks, app, graph, a.repeat, a.busy_core, *VARIANTS[v])
                        times[v] += j["compute_s_all"]
                        last[v] = j
                ms = {v: statistics.median(times[v]) * 1e3 for v in variants}
                sa = "1-sided+SA" if app in SUMS else "1-sided"
                m2, msa = last["2-sided"]["multi"], last[sa]["multi"]
                cells = " ".join(f"{ms[v]:14.1f}" if v in ms else f"{'-':>14}" for v in names)
                mig = (f"{ms['+migration'] / ms['2-sided']:6.3f} {ms['+migration'] / ms[sa]:8.3f} "
                       f"{int(sum(last['+migration']['multi']['rank_migrated_blocks'])):6d}" if app in SUMS else
                       f"{'-':>6} {'-':>8} {'-':>6}")
                print(f"{graph:16} {app:6} {ranks:>2} {cells} {ms['1-sided'] / ms['2-sided']:6.3f} "
                      f"{ms[sa] / ms['2-sided']:7.3f} {mig} {m2['bytes_application'] / 1e6:8.1f} "
                      f"{msa['bytes_application'] / 1e6:8.1f} {m2['communicated']:>10} {msa['communicated']:>10} "
                      f"{last[sa]['iterations']:>5}", flush=True)


if __name__ == "__main__":
    main()
