#!/usr/bin/env python3
"""What ranks cost over one process on the same cores: R ranks of one host
device each (mpirun -np R, each rank with cores/R threads) against one
process with R host devices, every app on kron:20 and grid:1000x1000 (or
--graphs), in alternating rounds so that drift in the machine's speed hits
both. Both run the defaults otherwise (the ranks: mpi_ring, per-peer
exchange, migration across ranks).

  python3 scripts/bench_ranks.py [--ranks 2] [--rounds 5] [--repeat 3]

Prints per app and graph the median compute time (ms) of each side over
every timed run, and ranks / one process as the median and range over
rounds (the issue's target: at most 1.10).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from mpi_bench import ENV, add_common_args, launch


def one_process(chatty, devices, app, graph, repeat):
    cmd = [chatty, "run", "--backend=cpu", f"--app={app}", f"--graph={graph}", f"--devices={devices}",
           f"--repeat={repeat}", "--json", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=1800)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout.splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap, graphs="kron:20,grid:1000x1000", apps="bfs,sssp,pr,wcc")
    ap.add_argument("--rounds", type=int, default=5)
    ap.set_defaults(ranks="2")  # two ranks fill this VM's two cores; --ranks 2,4 still asks for more
    a = ap.parse_args()
    threads = os.cpu_count()
    with tempfile.TemporaryDirectory() as d:
        for spec in a.graphs.split(","):
            cgr = os.path.join(d, spec.replace(":", "_") + ".cgr")  # loaded in place: the rounds time the runs
            subprocess.run([a.chatty, "generate", spec, cgr], check=True, capture_output=True)
            for ranks in (int(r) for r in a.ranks.split(",")):
                env_threads = str(max(1, threads // ranks))
                for app in a.apps.split(","):
                    alone, spread, ratios = [], [], []
                    for _ in range(a.rounds):
                        j1 = one_process(a.chatty, ranks, app, cgr, a.repeat)
                        jr = launch(a.chatty, ranks, app, cgr, a.repeat, ["--devices=1"],
                                    ("--bind-to", "none", "-x", f"OMP_NUM_THREADS={env_threads}"))  # OpenMPI's mpirun
                        alone += j1["compute_s_all"]
                        spread += jr["compute_s_all"]
                        ratios.append(jr["compute_s"] / j1["compute_s"])
                    print(f"{app:5} {spec:16} R={ranks}  one process {1e3 * statistics.median(alone):8.1f} ms  "
                          f"ranks {1e3 * statistics.median(spread):8.1f} ms  ranks/one {statistics.median(ratios):.3f} "
                          f"({min(ratios):.2f}-{max(ratios):.2f})", flush=True)


if __name__ == "__main__":
    main()
