#!/usr/bin/env python3
"""Task migration across ranks: each app (PageRank's gather, BFS's and SSSP's
push steps) with --migrate=false against the default (migration on),
one-sided rings and SendAll both ways, R ranks of
one host device each, in alternating rounds so that drift in the
machine's speed hits both. With --busy-core the ranks are bound one per
core and another process spins on the last core, so the rank there runs
at about half speed: the case migration is for.

  python3 scripts/bench_migration.py [--graphs kron:20,grid:1000x1000] [--apps pr,bfs,sssp] [--ranks 2]
        [--rounds 5] [--repeat 3] [--busy-core]

Figures: the median compute time (ms) of every timed run, the ratio on /
off, the fraction of rounds in which on was faster, worklist blocks
claimed across ranks per run, and the slowest device's share of compute
time over the fastest's (imbalance) both ways.
"""
import argparse
import contextlib
import statistics

from mpi_bench import BIND, BusyCore, add_common_args, launch


def imbalance(report):
    c = [t["compute_s"] for t in report["multi"]["device_seconds"]]
    return max(c) / max(min(c), 1e-9)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap, graphs="kron:20,grid:1000x1000", apps="pr,bfs,sssp")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--busy-core", action="store_true")
    ap.set_defaults(ranks="2")
    a = ap.parse_args()
    print(f"{'graph':16} {'app':5} {'R':>2} {'off ms':>9} {'on ms':>9} {'on/off':>7} {'on won':>6} {'blocks':>7} "
          f"{'imbal off':>9} {'imbal on':>9}")
    for graph, app in ((g, x) for g in a.graphs.split(",") for x in a.apps.split(",")):
        for ranks in [int(r) for r in a.ranks.split(",")]:
            times = {False: [], True: []}
            medians = {False: [], True: []}
            blocks, imb = [], {False: [], True: []}
            for _ in range(a.rounds):
                for on in (False, True):
                    with BusyCore() if a.busy_core else contextlib.nullcontext():
                        j = launch(a.chatty, ranks, app, graph, a.repeat,
                                   ["--comm=mpi_ring", "--messages=sendall", f"--migrate={str(on).lower()}"],
                                   BIND if a.busy_core else ())
                    times[on] += j["compute_s_all"]
                    medians[on].append(statistics.median(j["compute_s_all"]))
                    imb[on].append(imbalance(j))
                    if on:
                        blocks.append(sum(j["multi"]["rank_migrated_blocks"]) / a.repeat)
            off, on = (statistics.median(times[x]) * 1e3 for x in (False, True))
            won = sum(b < a_ for a_, b in zip(medians[False], medians[True])) / a.rounds
            print(f"{graph:16} {app:5} {ranks:>2} {off:9.1f} {on:9.1f} {on / off:7.3f} {won:6.2f} "
                  f"{statistics.median(blocks):7.0f} {statistics.median(imb[False]):9.2f} "
                  f"{statistics.median(imb[True]):9.2f}", flush=True)


if __name__ == "__main__":
    main()
