#!/usr/bin/env python3
"""Multi-device benchmark on host devices: the cost of splitting one machine
into P devices (P=2 against P=1 on kron:20, target <= 1.3x), and the
communicated/updated ratio of every app on P=2,4,8 (the ChattyGraph paper's figure 11;
targets on grid:1000x1000 P=4: SSSP <= 40 %, PageRank <= 80 %).

  python3 scripts/bench_multi.py [--graph kron:20] [--rounds 5] [--ratio-graph grid:1000x1000]

P=1 and P=2 runs alternate, round after round, so drift in the machine's
speed hits both; the target is judged on the ratio of the medians of every
timed run. The ratio of the best runs is printed beside it: on a shared VM
it shows what the runtime costs with the noise (other tenants taking a
core from one device while the other waits) left out. A third run per
round has work migration off (--migrate=false: no device computes blocks
of a slower peer's), to show what migration buys on this machine. The
90 % interval beside the ratio is a bootstrap over the timed runs (the
runs of each side resampled with replacement): how far the ratio could
move from noise alone."""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = ["bfs", "sssp", "wcc", "pr"]


def run(binary, graph, app, devices, *extra):
    out = subprocess.run([binary, "run", f"--app={app}", f"--graph={graph}", f"--devices={devices}", "--json", "--backend=cpu",
                          *extra], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def ratio_interval(num, den, draws=2000, seed=1):
    """5th and 95th percentiles of median(num*) / median(den*) over bootstrap resamples."""
    rng = random.Random(seed)
    r = sorted(statistics.median(rng.choices(num, k=len(num))) / statistics.median(rng.choices(den, k=len(den)))
               for _ in range(draws))
    return r[int(0.05 * draws)], r[int(0.95 * draws) - 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--ratio-graph", default="grid:1000x1000")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--build", default="build")
    ap.add_argument("--apps", default=",".join(APPS), help="comma-separated subset of " + ",".join(APPS))
    a = ap.parse_args()
    apps = [x for x in a.apps.split(",") if x]
    if not apps or any(x not in APPS for x in apps):
        ap.error(f"--apps: pick from {','.join(APPS)}")
    binary = os.path.join(ROOT, a.build, "chatty")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        cgr = os.path.join(tmp, "g.cgr")
        subprocess.run([binary, "generate", a.graph, cgr], check=True, capture_output=True)
        print(f"P=2 against P=1 on {a.graph} ({os.cpu_count()} threads; {a.rounds} alternating rounds of {a.repeat} runs)")
        print(f"{'app':5} {'P=1 ms':>9} {'P=2 ms':>9} {'P2/P1':>7} {'90% interval':>13} {'best P2/P1':>11} "
              f"{'P=2 no migration':>17}")
        for app in apps:
            t = {1: [], 2: [], "off": []}
            for _ in range(a.rounds):
                for p in t:
                    devices, extra = (2, ["--migrate=false"]) if p == "off" else (p, [])
                    t[p] += run(binary, cgr, app, devices, f"--repeat={a.repeat}", "--tolerance=1e-4",
                                *extra)["compute_s_all"]
            m1, m2, moff = statistics.median(t[1]), statistics.median(t[2]), statistics.median(t["off"])
            ok &= m2 / m1 <= 1.3
            lo, hi = ratio_interval(t[2], t[1])
            print(f"{app:5} {m1 * 1e3:9.1f} {m2 * 1e3:9.1f} {m2 / m1:7.2f} {f'{lo:.2f}-{hi:.2f}':>13} "
                  f"{min(t[2]) / min(t[1]):11.2f} {moff * 1e3:8.1f} ({moff / m1:.2f})")
        # The three host transports (sender copies / receiver copies /
        # receiver merges from the sender's buffer) on P=4, alternating;
        # `--comm=auto` uses host_view, which measured fastest.
        comms = ["host", "host_read", "host_view"]
        print(f"\nhost transports on {a.graph}, P=4 (medians of {a.rounds} alternating rounds, ms)")
        print(f"{'app':5} " + " ".join(f"{c:>10}" for c in comms))
        for app in apps:
            t = {c: [] for c in comms}
            for _ in range(a.rounds):
                for comm in t:
                    t[comm] += run(binary, cgr, app, 4, f"--comm={comm}", f"--repeat={a.repeat}",
                                   "--tolerance=1e-4")["compute_s_all"]
            print(f"{app:5} " + " ".join(f"{statistics.median(t[c]) * 1e3:10.1f}" for c in comms))
        print(f"\ncommunicated / updated on {a.ratio_graph}")
        print(f"{'app':5} " + " ".join(f"{'P=' + str(p):>9}" for p in (2, 4, 8)))
        for app in apps:
            cells = []
            for p in (2, 4, 8):
                m = run(binary, a.ratio_graph, app, p)["multi"]
                cells.append(f"{100 * m['communicated_ratio']:8.1f}%")
                if p == 4 and app == "sssp":
                    ok &= m["communicated_ratio"] <= 0.40
                if p == 4 and app == "pr":
                    ok &= m["communicated_ratio"] <= 0.80
            print(f"{app:5} " + " ".join(cells))
    print("targets met" if ok else "some targets missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
