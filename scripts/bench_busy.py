#!/usr/bin/env python3
"""A run on a busy machine: one process spinning on a core while ChattyGraph
runs, against the quiet machine's one-thread time, rounds interleaved
(this VM's timings move 20-40 % between runs).

Without --threads the engine leaves out the cores other work holds at the
start (`app ... (1 busy core left out)`); with --threads=<all cores> it
starts a thread on each and waits at every barrier for the one whose core
the spinner holds. Target (issue 59): busy, default threads / quiet, one
thread <= 1.1.

  python3 scripts/bench_busy.py [--chatty build/chatty] [--graph grid:300x300] [--apps sssp bfs] [--rounds 5]"""
import argparse
import json
import os
import subprocess

from bench_centrality import spread


def run(chatty, app, graph, threads):
    cmd = [chatty, "run", f"--app={app}", f"--graph={graph}", "--repeat=7", "--json", "--quiet", "--backend=cpu"]
    if threads is not None:
        cmd.append(f"--threads={threads}")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["compute_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graph", default="grid:300x300")
    ap.add_argument("--apps", nargs="+", default=["sssp", "bfs"])
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    cores = os.cpu_count()
    print(f"{a.graph}, {cores} cores; times in ms, median [range] over {a.rounds} rounds")
    for app in a.apps:
        quiet, auto, full = [], [], []
        for _ in range(a.rounds):
            quiet.append(run(a.chatty, app, a.graph, 1))
            spinner = subprocess.Popen(["sh", "-c", "while :; do :; done"])
            try:
                auto.append(run(a.chatty, app, a.graph, None))
                full.append(run(a.chatty, app, a.graph, cores))
            finally:
                spinner.kill()
                spinner.wait()
        ra = [x / q for x, q in zip(auto, quiet)]
        rf = [x / q for x, q in zip(full, quiet)]
        print(f"{app}: quiet, 1 thread {spread([x * 1e3 for x in quiet])}; busy, default threads "
              f"{spread([x * 1e3 for x in auto])} ({spread(ra)} of quiet); busy, {cores} threads "
              f"{spread([x * 1e3 for x in full])} ({spread(rf)} of quiet)")


if __name__ == "__main__":
    main()
