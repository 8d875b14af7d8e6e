#!/usr/bin/env python3
"""Broadcast against per-peer exchange on host devices: for every app that
exchanges values (BFS, SSSP, PageRank, k-core; WCC's union-find protocol
always broadcasts) on grid:1000x1000 and kron:20 at P = 4 and 8, the
compute time and the bytes delivered to peers - push offers and updates of
owned vertices apart - of --exchange=broadcast and --exchange=peer.

  python3 scripts/bench_exchange.py [--graphs grid:1000x1000,kron:20] [--devices 4,8] [--rounds 3]

The two exchanges alternate round after round on the same binary, so drift
in the machine's speed hits both; times are medians over every timed run
and the ratio is peer / broadcast. Bytes do not depend on timing. P = 8 on
this 2-core VM oversubscribes the cores (8 devices of one thread each
share two cores), so its times measure the protocol's overhead more than
a machine with a core per device would."""
import argparse
import json
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = ["bfs", "sssp", "pr", "kcore"]


def run(binary, graph, app, devices, exchange, repeat):
    out = subprocess.run([binary, "run", f"--app={app}", f"--graph={graph}", f"--devices={devices}", "--backend=cpu",
                          f"--exchange={exchange}", "--json", f"--repeat={repeat}"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--graphs", default="grid:1000x1000,kron:20")
    ap.add_argument("--apps", default=",".join(APPS))
    ap.add_argument("--devices", default="4,8")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    binary = os.path.join(ROOT, a.build, "chatty")
    print(f"{'graph':16} {'app':6} {'P':>2} {'bcast ms':>9} {'peer ms':>8} {'ratio':>6} "
          f"{'bcast MB':>9} {'peer MB':>8} {'offers MB':>9} {'updates MB':>10} {'bytes':>6}", flush=True)
    for graph in a.graphs.split(","):
        for app in a.apps.split(","):
            for p in [int(x) for x in a.devices.split(",")]:
                t = {"broadcast": [], "peer": []}
                last = {}
                for _ in range(a.rounds):
                    for x in ("broadcast", "peer"):
                        j = run(binary, graph, app, p, x, a.repeat)
                        t[x] += j["compute_s_all"]
                        last[x] = j["multi"]
                tb, tp = statistics.median(t["broadcast"]), statistics.median(t["peer"])
                bb, bp = last["broadcast"]["bytes_application"], last["peer"]["bytes_application"]
                print(f"{graph:16} {app:6} {p:>2} {1e3 * tb:9.1f} {1e3 * tp:8.1f} {tp / tb:6.3f} "
                      f"{bb / 1e6:9.1f} {bp / 1e6:8.1f} {last['peer']['bytes_offers'] / 1e6:9.1f} "
                      f"{last['peer']['bytes_updates'] / 1e6:10.1f} {bp / bb if bb else 0:6.3f}", flush=True)


if __name__ == "__main__":
    main()
