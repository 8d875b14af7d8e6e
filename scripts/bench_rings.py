#!/usr/bin/env python3
"""Ranks over MPI: records by one put per peer and superstep (--comm=mpi_put,
a slot of |V| records per pair and parity) against records streamed in
batches through fixed rings (--comm=mpi_ring), for several batch sizes,
R ranks of one host device each. Rounds alternate the variants, so drift
in the machine's speed hits all of them; the figure is the median compute
time over every timed run of every round, and the ratio is against
mpi_put. Window MB: what each rank's window reserves for records
(mpi_put: 2 parities x D peers x (|V| + |V|/32 + 2) x 8 bytes; mpi_ring:
D peers x --ring_bytes).

  python3 scripts/bench_rings.py [--graphs kron:20] [--apps pr,bfs] [--ranks 2,4]
        [--batches 2048,16384,65536,1048576] [--smalls ""] [--lanes ""] [--rounds 2] [--repeat 3]

--batches variants send everything through the ring (--small_bytes=0);
--smalls variants use 64 KB batches and send a pair's records under that
many bytes a superstep as one two-sided message (the RDMA thesis's switch).
--lanes variants use 64 KB batches through that many rings per pair, each
fed by one thread of the sender's team (--ring_lanes).

Ranks are oversubscribed on a small box: the times measure software
overhead (each batch costs two flushes), not a network.
"""
import argparse
import statistics

from mpi_bench import add_common_args, launch

RING = 2 << 20


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap, graphs="kron:20", apps="pr,bfs")
    ap.add_argument("--batches", default="2048,16384,65536,1048576")
    ap.add_argument("--smalls", default="")
    ap.add_argument("--lanes", default="")
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    variants = {"put": ["--comm=mpi_put"]}
    for b in a.batches.split(","):
        if b:
            variants[f"ring {int(b) // 1024}K"] = ["--comm=mpi_ring", f"--batch_bytes={b}", f"--ring_bytes={RING}",
                                                   "--small_bytes=0"]
    for sm in filter(None, a.smalls.split(",")):
        variants[f"small<{int(sm) // 1024}K"] = ["--comm=mpi_ring", "--batch_bytes=65536", f"--ring_bytes={RING}",
                                                 f"--small_bytes={sm}"]
    for lanes in filter(None, a.lanes.split(",")):
        variants[f"lanes {lanes}"] = ["--comm=mpi_ring", "--batch_bytes=65536", f"--ring_bytes={RING}",
                                      "--small_bytes=0", f"--ring_lanes={lanes}"]
    print(f"{'graph':10} {'app':5} {'R':>2} " + " ".join(f"{v + ' ms':>12}" for v in variants) +
          " " + " ".join(f"{v + '/put':>12}" for v in list(variants)[1:]) + f" {'win MB put':>10} {'win MB ring':>11}")
    for graph in a.graphs.split(","):
        for app in a.apps.split(","):
            for ranks in [int(r) for r in a.ranks.split(",")]:
                times = {v: [] for v in variants}
                n = 0
                for _ in range(a.rounds):
                    for v, extra in variants.items():
                        j = launch(a.chatty, ranks, app, graph, a.repeat, extra)
                        times[v] += j["compute_s_all"]
                        n = j["vertices"]
                ms = {v: statistics.median(t) * 1e3 for v, t in times.items()}
                put_win = 2 * ranks * (n + n // 32 + 2) * 8 / 1e6
                ring_win = ranks * RING / 1e6
                print(f"{graph:10} {app:5} {ranks:>2} " + " ".join(f"{ms[v]:12.1f}" for v in variants) + " " +
                      " ".join(f"{ms[v] / ms['put']:12.3f}" for v in list(variants)[1:]) +
                      f" {put_win:10.1f} {ring_win:11.1f}", flush=True)


if __name__ == "__main__":
    main()
