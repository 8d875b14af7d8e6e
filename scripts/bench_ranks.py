#!/usr/bin/env python3
"""What ranks cost over one process on the same cores: R ranks of one host
device each (mpirun -np R, each rank with cores/R threads) against one
process with R host devices, every app on kron:20 and grid:1000x1000 (or
--graphs), in alternating rounds so that drift in the machine's speed hits
both; each round runs every case once, so a slow spell hits them all. Both run the defaults otherwise (the ranks: mpi_ring, per-peer
exchange, migration across ranks).

  python3 scripts/bench_ranks.py [--ranks 2] [--rounds 12] [--repeat 3] [--against OTHER_CHATTY]
        [--mpirun mpirun.mpich] [--rank_flags=--comm=mpi_put] [--launch_default]

Prints, once every round is done, per app and graph the median compute time (ms) of each side over
every timed run, and ranks / one process as the median over rounds (each
round's ratio pairs two runs a moment apart), its 90 % bootstrap interval
and the range. The target (at most 1.10) is "met" when the interval's top
is at or under it, "missed" when its bottom is over it, and "not told
apart" from noise otherwise: on this VM a round's ratio moves by 0.1-0.3,
so showing it takes 10 rounds or more. With --against, the other side
is the same ranks run by another build (a commit before a change), and the
ratio is this build's ranks over that build's. --mpirun picks the
launcher (MPICH's takes no OpenMPI options; its ranks are not bound).
--launch_default launches the ranks as a user would, with neither
OMP_NUM_THREADS nor binding options: each rank then picks its threads.
"""
import argparse
import json
import os
import random
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


def paired_interval(ratios, draws=4000, seed=1):
    """5th and 95th percentiles of the median of rounds' ratios resampled."""
    rng = random.Random(seed)
    m = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(draws))
    return m[int(0.05 * draws)], m[int(0.95 * draws) - 1]


def verdict(low, high, target=1.10):
    return "met" if high <= target else "missed" if low > target else "not told apart"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap, graphs="kron:20,grid:1000x1000", apps="bfs,sssp,pr,wcc")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--against", help="another build's chatty: compare ranks against its ranks")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--rank_flags", default="", help="flags for the ranks' runs only, e.g. --comm=mpi_put")
    ap.add_argument("--launch_default", action="store_true",
                    help="no OMP_NUM_THREADS and no binding options for the ranks (a user's plain mpirun)")
    ap.set_defaults(ranks="2")  # two ranks fill this VM's two cores; --ranks 2,4 still asks for more
    a = ap.parse_args()
    if a.launch_default:
        ENV.pop("OMP_NUM_THREADS", None)  # the environment a plain launch gets (the dict launch() passes on)
    other = "other build" if a.against else "one process"
    with tempfile.TemporaryDirectory() as d:
        cgrs = {}
        for spec in a.graphs.split(","):
            cgrs[spec] = os.path.join(d, spec.replace(":", "_") + ".cgr")  # loaded in place: the rounds time the runs
            subprocess.run([a.chatty, "generate", spec, cgrs[spec]], check=True, capture_output=True)
        cases = [(spec, ranks, app) for spec in cgrs for ranks in (int(r) for r in a.ranks.split(","))
                 for app in a.apps.split(",")]
        alone, spread, ratios = ({c: [] for c in cases} for _ in range(3))
        # Each round visits every case: a slow spell of the machine (minutes
        # long) falls on every case a little, not on one case's block of
        # rounds, which made a case's ratio move between runs by more than
        # its interval.
        for k in range(a.rounds):
            for case in cases:
                spec, ranks, app = case
                j1, jr = one_round(a, cgrs[spec], ranks, app, ranks_first=k % 2 == 1)  # each first in half
                alone[case] += j1["compute_s_all"]
                spread[case] += jr["compute_s_all"]
                ratios[case].append(jr["compute_s"] / j1["compute_s"])
        for case in cases:
            spec, ranks, app = case
            low, high = paired_interval(ratios[case])
            print(f"{app:5} {spec:16} R={ranks}  {other} {1e3 * statistics.median(alone[case]):8.1f} ms  "
                  f"ranks {1e3 * statistics.median(spread[case]):8.1f} ms  ranks/{other.split()[-1]} "
                  f"{statistics.median(ratios[case]):.3f} [90 % {low:.2f}-{high:.2f}] "
                  f"(range {min(ratios[case]):.2f}-{max(ratios[case]):.2f})"
                  f"{'' if a.against else '  ' + verdict(low, high)}", flush=True)


def one_round(a, cgr, ranks, app, ranks_first):
    """Two runs a moment apart, the ranks' and the other side's (one process,
    or the ranks of --against): their reports, the other side's first."""

    def ranks_of(chatty):
        return launch(chatty, ranks, app, cgr, a.repeat, ["--devices=1", *a.rank_flags.split()],
                      launch_options(a, ranks), mpirun=a.mpirun)

    def other_side():
        return ranks_of(a.against) if a.against else one_process(a.chatty, ranks, app, cgr, a.repeat)

    if ranks_first:
        jr = ranks_of(a.chatty)
        return other_side(), jr
    j1 = other_side()
    return j1, ranks_of(a.chatty)


def launch_options(a, ranks):
    """mpirun's options for the ranks: each rank gets cores/ranks threads."""
    env_threads = f"OMP_NUM_THREADS={max(1, os.cpu_count() // ranks)}"
    if a.launch_default:
        return ()
    if a.mpirun == "mpirun":  # OpenMPI's: unbound ranks, the threads passed on
        return ("--bind-to", "none", "-x", env_threads)
    return ("-env", *env_threads.split("="))  # MPICH's Hydra


if __name__ == "__main__":
    main()
