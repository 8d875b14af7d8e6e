#!/usr/bin/env python3
"""What ranks cost over one process on the same cores: R ranks of one host
device each (mpirun -np R, each rank with cores/R threads) against one
process with R host devices, every app on kron:20 and grid:1000x1000 (or
--graphs), in alternating rounds so that drift in the machine's speed hits
both. Both run the defaults otherwise (the ranks: mpi_ring, per-peer
exchange, migration across ranks).

  python3 scripts/bench_ranks.py [--ranks 2] [--rounds 5] [--repeat 3] [--against OTHER_CHATTY]
        [--mpirun mpirun.mpich] [--rank_flags=--comm=mpi_put]

Prints per app and graph the median compute time (ms) of each side over
every timed run, and ranks / one process as the median and range over
rounds (the issue's target: at most 1.10). With --against, the other side
is the same ranks run by another build (a commit before a change), and the
ratio is this build's ranks over that build's. --mpirun picks the
launcher (MPICH's takes no OpenMPI options; its ranks are not bound).
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
    ap.add_argument("--against", help="another build's chatty: compare ranks against its ranks")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--rank_flags", default="", help="flags for the ranks' runs only, e.g. --comm=mpi_put")
    ap.set_defaults(ranks="2")  # two ranks fill this VM's two cores; --ranks 2,4 still asks for more
    a = ap.parse_args()
    threads = os.cpu_count()
    other = "other build" if a.against else "one process"
    with tempfile.TemporaryDirectory() as d:
        for spec in a.graphs.split(","):
            cgr = os.path.join(d, spec.replace(":", "_") + ".cgr")  # loaded in place: the rounds time the runs
            subprocess.run([a.chatty, "generate", spec, cgr], check=True, capture_output=True)
            for ranks in (int(r) for r in a.ranks.split(",")):
                env_threads = f"OMP_NUM_THREADS={max(1, threads // ranks)}"
                if a.mpirun == "mpirun":  # OpenMPI's: unbound ranks, the threads passed on
                    how = ("--bind-to", "none", "-x", env_threads)
                else:  # MPICH's Hydra
                    how = ("-env", *env_threads.split("="))

                def ranks_of(chatty):
                    return launch(chatty, ranks, app, cgr, a.repeat, ["--devices=1", *a.rank_flags.split()], how,
                                  mpirun=a.mpirun)

                for app in a.apps.split(","):
                    alone, spread, ratios = [], [], []
                    for _ in range(a.rounds):
                        j1 = ranks_of(a.against) if a.against else one_process(a.chatty, ranks, app, cgr, a.repeat)
                        jr = ranks_of(a.chatty)
                        alone += j1["compute_s_all"]
                        spread += jr["compute_s_all"]
                        ratios.append(jr["compute_s"] / j1["compute_s"])
                    print(f"{app:5} {spec:16} R={ranks}  {other} {1e3 * statistics.median(alone):8.1f} ms  "
                          f"ranks {1e3 * statistics.median(spread):8.1f} ms  ranks/{other.split()[-1]} "
                          f"{statistics.median(ratios):.3f} ({min(ratios):.2f}-{max(ratios):.2f})", flush=True)


if __name__ == "__main__":
    main()
