#!/usr/bin/env python3
"""Engine A/B benchmark: the CPU times of this tree's build against another
commit's, built here by the script, for every app at P = 1 and 2 host
devices on kron:20 and grid:1000x1000 (or --graphs).

  python3 scripts/bench_engine.py --base 9bf0374 [--rounds 5] [--repeat 3]

The base is built once into .bench/<sha>/ from a detached worktree (same
compiler, same flags). Runs alternate base and new, round after round, so
drift in the machine's speed hits both; each figure is the median of every
timed run (rounds x repeat) of the app's compute time, and the ratio is
new / base, with a 90 % bootstrap interval over the timed runs beside it
(bench_multi.py's): a ratio whose interval holds 1 is not told apart from
noise. On this kind of VM timings move 20-40 % between runs, so only
ratios from one run of this script mean anything."""
import argparse
import json
import os
import statistics
import subprocess
import sys

from bench_multi import ratio_interval

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = ["bfs", "sssp", "wcc", "pr", "kcore"]
# Apps on the operators (--apps bc,tc): BC sums several sources a run, as
# GAP's bc -i 4 does, so a run is long enough to time.
APP_ARGS = {"bc": ["--sources=4"]}


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True, text=True).stdout.strip()


def build_base(rev):
    sha = git("rev-parse", rev)
    where = os.path.join(ROOT, ".bench", sha[:12])
    binary = os.path.join(where, "build", "chatty")
    if os.path.exists(binary):
        return binary, sha
    src = os.path.join(where, "src")
    if not os.path.exists(src):
        git("worktree", "add", "--detach", src, sha)
    print(f"building {sha[:12]} into {where}/build (once)", file=sys.stderr, flush=True)
    env = dict(os.environ, BUILD_DIR=os.path.join(where, "build"), TARGET="chatty")
    subprocess.run([os.path.join(src, "scripts", "build.sh")], check=True, env=env, cwd=src,
                   stdout=subprocess.DEVNULL)
    return binary, sha


def times(binary, app, graph, devices, repeat):
    """The run's compute times, or None where the app refuses the graph (BC
    on a large grid: its path counts overflow a double)."""
    p = subprocess.run([binary, "run", f"--app={app}", f"--graph={graph}", f"--devices={devices}", "--backend=cpu",
                        "--json", f"--repeat={repeat}", *APP_ARGS.get(app, [])], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])["compute_s_all"]


def knows(binary, app):
    """Whether `binary` has `app` (an older base may not: 9bf0374 has no k-core)."""
    return subprocess.run([binary, "run", f"--app={app}", "--graph=grid:4x4", "--backend=cpu"],
                          capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the commit to compare against")
    ap.add_argument("--build", default="build", help="this tree's build folder")
    ap.add_argument("--graphs", default="kron:20,grid:1000x1000")
    ap.add_argument("--apps", default=",".join(APPS))
    ap.add_argument("--devices", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    base, sha = build_base(a.base)
    new = os.path.join(ROOT, a.build, "chatty")
    print(f"base {sha[:12]}  new {git('rev-parse', '--short=12', 'HEAD')} (+ working tree)  "
          f"rounds {a.rounds} x repeat {a.repeat}; compute time medians")
    print(f"{'graph':<16} {'app':<5} {'P':>2} {'base ms':>9} {'new ms':>9} {'new/base':>9} {'90% interval':>14}")
    worst = 0.0
    apps = a.apps.split(",")
    lacking = {app for app in apps if not knows(base, app)}
    for graph in a.graphs.split(","):
        for app in apps:
            if app in lacking:
                print(f"{graph:<16} {app:<5}  (the base has no such app: skipped)", flush=True)
                continue
            for p in [int(x) for x in a.devices.split(",")]:
                t = {base: [], new: []}
                refused = False
                for _ in range(a.rounds):
                    for b in (base, new):
                        got = times(b, app, graph, p, a.repeat)
                        refused = refused or got is None
                        t[b] += got or []
                if refused:
                    print(f"{graph:<16} {app:<5} {p:>2}  (refused by a binary: skipped)", flush=True)
                    break
                mb, mn = statistics.median(t[base]), statistics.median(t[new])
                worst = max(worst, mn / mb)
                lo, hi = ratio_interval(t[new], t[base])
                print(f"{graph:<16} {app:<5} {p:>2} {mb * 1e3:9.1f} {mn * 1e3:9.1f} {mn / mb:9.3f} "
                      f"{lo:6.3f}-{hi:<6.3f}", flush=True)
    print(f"worst ratio {worst:.3f}")


if __name__ == "__main__":
    main()
