#!/ usr / bin / env python3
"""CPU benchmark: ChattyGraph against NetworKit on the same graph, measured
in one run, plus the GAP reference kernels' figures for this machine kind
(from the foundation issue: 2 cores, kron:20) as a fixed yardstick.

  python3 scripts/bench_cpu.py [--graph kron:20] [--repeat 5] [--memory]

Prints one table: our median compute time per app, the ratio to GAP's
reference time (target <= 1.5), NetworKit's median time and NetworKit/ours
(target >= 5; k-core, which GAP lacks, against NetworKit's parallel
CoreDecomposition for information). PageRank runs to convergence at GAP's default tolerance
(1e-4, L1) for the comparison and at our default (1e-6) for information.
--memory also reports peak RSS of a kron:22 run against its .cgr size."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAP_MS = {"bfs": 14.0, "sssp": 150.0, "wcc": 35.0, "pr": 220.0}  # 2-core kind, kron:20 (GAP has no k-core)
APPS = ["bfs", "sssp", "wcc", "pr", "kcore"]


def chatty_bin(build):
    return os.path.join(ROOT, build, "chatty")


def run_ours(binary, cgr, app, repeat, *extra):
    out = subprocess.run([binary, "run", f"--app={app}", f"--graph={cgr}", f"--repeat={repeat}", "--json", "--backend=cpu", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def read_cgr(path):
    """The CSR of a .cgr file (layout in datasets/cgr_format.h)."""
    hdr = np.fromfile(path, dtype=np.uint64, count=8)
    n, m = int(hdr[2]), int(hdr[3])
    offsets = np.memmap(path, dtype=np.uint64, mode="r", offset=64, shape=(n + 1,))
    targets = np.memmap(path, dtype=np.uint32, mode="r", offset=64 + 8 * (n + 1), shape=(m,))
    return n, offsets, targets


def networkit_times(cgr, source, repeat, threads):
    import networkit as nk
    nk.setNumberOfThreads(threads)
    n, offsets, targets = read_cgr(cgr)
    src = np.repeat(np.arange(n, dtype=np.uint32), np.diff(offsets.astype(np.int64)))
    keep = src < targets  # each undirected edge once
    u, v = src[keep].astype(np.uint64), np.asarray(targets)[keep].astype(np.uint64)
    g = nk.graph.GraphFromCoo((u, v), n=n, directed=False)
    w = ((u * 7919 + v * 104729) % 255 + 1).astype(np.float64)
    gw = nk.graph.GraphFromCoo((w, (u, v)), n=n, weighted=True, directed=False)

    def timed(make):
        ts = []
        for _ in range(repeat):
            algo = make()
            t = time.perf_counter()
            algo.run()
            ts.append(time.perf_counter() - t)
        return statistics.median(ts)

    def pr():  # same stopping rule as ours and GAP's: L1 change < 1e-4
        algo = nk.centrality.PageRank(g, damp=0.85, tol=1e-4)
        algo.norm = nk.centrality.Norm.L1_NORM
        return algo

    return {
        "bfs": timed(lambda: nk.distance.BFS(g, source, storePaths=False)),
        "sssp": timed(lambda: nk.distance.Dijkstra(gw, source, storePaths=False)),
        "wcc": timed(lambda: nk.components.ConnectedComponents(g)),
        "pr": timed(pr),
        "kcore": timed(lambda: nk.centrality.CoreDecomposition(g)),
    }


def peak_memory(binary, tmp):
    cgr = os.path.join(tmp, "k22.cgr")
    subprocess.run([binary, "generate", "kron:22", cgr], check=True, capture_output=True)
    size = os.path.getsize(cgr)
    rows = []
    for app in ["bfs", "pr", "wcc", "sssp"]:
        p = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "run", f"--app={app}", f"--graph={cgr}", "--backend=cpu"],
                           check=True, capture_output=True, text=True)
        rows.append((app, int(p.stderr.strip().splitlines()[-1]) * 1024))
    p = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "generate", "kron:22", os.path.join(tmp, "k22b.cgr")],
                       check=True, capture_output=True, text=True)
    rows.append(("generate kron:22", int(p.stderr.strip().splitlines()[-1]) * 1024))
    print(f"\npeak memory, kron:22 (.cgr file {size / 2**20:.0f} MiB, limit 3x = {3 * size / 2**20:.0f} MiB)")
    for what, rss in rows:
        print(f"  {what:18} {rss / 2**20:8.0f} MiB  = {rss / size:.2f}x the .cgr")
    return all(rss < 3 * size for _, rss in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--build", default="build")
    ap.add_argument("--no-networkit", action="store_true")
    ap.add_argument("--memory", action="store_true", help="also measure peak memory on kron:22")
    a = ap.parse_args()
    binary = chatty_bin(a.build)
    threads = os.cpu_count()
    with tempfile.TemporaryDirectory() as tmp:
        cgr = os.path.join(tmp, "g.cgr")
        subprocess.run([binary, "generate", a.graph, cgr], check=True, capture_output=True)
        ours = {app: run_ours(binary, cgr, app, a.repeat, *(["--tolerance=1e-4"] if app == "pr" else []))
                for app in APPS}
        pr_default = run_ours(binary, cgr, "pr", a.repeat)
        nk = {} if a.no_networkit else networkit_times(cgr, ours["bfs"]["source"], a.repeat, threads)
        print(f"graph {a.graph}: {ours['bfs']['vertices']:,} vertices, {ours['bfs']['edges']:,} stored edges; "
              f"{threads} threads; median of {a.repeat}")
        print(f"{'app':5} {'ours ms':>9} {'GAP ms':>8} {'ours/GAP':>9} {'NetworKit ms':>13} {'NK/ours':>8}")
        ok = True
        for app in APPS:
            ms = ours[app]["compute_s"] * 1e3
            gap = GAP_MS.get(app, float("nan")) if a.graph == "kron:20" else float("nan")
            line = f"{app:5} {ms:9.1f} {gap:8.0f} {ms / gap:9.2f}"
            if nk:
                line += f" {nk[app] * 1e3:13.1f} {nk[app] * 1e3 / ms:8.1f}"
                ok &= app not in GAP_MS or nk[app] * 1e3 / ms >= 5
            ok &= not (ms / gap > 1.5)
            print(line)
        print(f"pr at tolerance 1e-6 (our default): {pr_default['compute_s'] * 1e3:.1f} ms, "
              f"{pr_default['iterations']} iterations (1e-4: {ours['pr']['iterations']})")
        if a.memory:
            ok &= peak_memory(binary, tmp)
        print("targets met" if ok else "some targets missed")


if __name__ == "__main__":
    sys.exit(main())
