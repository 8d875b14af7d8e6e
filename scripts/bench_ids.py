#!/usr/bin/env python3
"""Loading an edge list by the ids that occur against positions (issue:
a SNAP .txt of kron:20 with scattered 64-bit ids loads in at most 1.3x the
time of the same file with dense ids).

  python3 scripts/bench_ids.py [--graph kron:20] [--rounds 5] [--build build]

Three inputs, written once into BUILD/bench-data: the graph as SNAP text
with dense ids 0..n-1, read as positions (--ids=positions, the path that
needs no compaction) and as the ids that occur (the default, ranked through
a bitmap), and the same edges with every id v written as v * 1000003 +
10^12 (scattered, ranked by a parallel sort). Rounds alternate the inputs;
each figure is the median load time (`chatty info --json`), and the ratios
are against the dense file in the same run."""
import argparse
import os
import statistics
import subprocess

from bench_load import load_seconds

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = ap.parse_args()
    binary = os.path.join(a.build, "chatty")
    data = os.path.join(a.build, "bench-data")
    os.makedirs(data, exist_ok=True)
    name = a.graph.replace(":", "_")
    dense, scattered = os.path.join(data, name + "_dense.txt"), os.path.join(data, name + "_scattered.txt")
    if not os.path.exists(dense):
        subprocess.run([binary, "convert", a.graph, dense], check=True, capture_output=True)
    if not os.path.exists(scattered):
        with open(dense) as src, open(scattered + ".tmp", "w") as dst:
            for line in src:
                if line.startswith("#"):
                    dst.write(line)
                    continue
                u, v = line.split()
                dst.write(f"{int(u) * 1000003 + 10**12} {int(v) * 1000003 + 10**12}\n")
        os.rename(scattered + ".tmp", scattered)
    inputs = {"dense, positions": (dense, "--ids=positions"), "dense, occurring": (dense, "--ids=occurring"),
              "scattered 64-bit, occurring": (scattered, "--ids=occurring")}
    times = {k: [] for k in inputs}
    info = {}
    for _ in range(a.rounds):
        for k, (path, flag) in inputs.items():
            j = load_seconds(binary, path, extra=[flag])
            times[k].append(j["load_s"])
            info[k] = (j["vertices"], j["edges"], j["ids"])
    base = statistics.median(times["dense, positions"])
    print(f"{a.graph} as SNAP text, median of {a.rounds} alternating rounds")
    print(f"{'input':30} {'vertices':>9} {'edges':>10} {'ids':>10} {'load s':>8} {'ratio':>6}")
    for k in inputs:
        t = statistics.median(times[k])
        print(f"{k:30} {info[k][0]:9} {info[k][1]:10} {info[k][2]:>10} {t:8.3f} {t / base:6.2f}")
    sc, dn = statistics.median(times["scattered 64-bit, occurring"]), statistics.median(times["dense, occurring"])
    print(f"scattered 64-bit ids / dense ids (both occurring): {sc / dn:.2f} (target <= 1.3)")


if __name__ == "__main__":
    main()
