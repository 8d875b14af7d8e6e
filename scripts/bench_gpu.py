#!/usr/bin/env python3
"""GPU benchmark (the CUDA backend issue's figures), every figure measured in
this run against a reference measured in the same run:

  * PageRank (pull, 20 iterations) on kron:24: effective bandwidth - the
    bytes the gather must move per iteration (in-edge offsets and targets,
    one contribution read per edge, out-degrees, ranks and contributions
    written) / time per iteration - against the device-to-device copy
    bandwidth from chatty_copy_bench (read + write; target >= 50 %).
  * BFS, SSSP, WCC on kron:24 and grid:4000x4000: GTEPS on the GPU and the
    speed-up over the CPU backend on this machine's cores.
  * P=4 virtual devices on one GPU against P=1, every app (target <= 1.5x).

  python3 scripts/bench_gpu.py [--build build] [--scale 24] [--grid 4000x4000] [--repeat 5] [--json out.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(binary, graph, app, backend, devices=1, *extra):
    cmd = [binary, "run", f"--app={app}", f"--graph={graph}", f"--backend={backend}", f"--devices={devices}",
           "--json", *extra]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--scale", type=int, default=24)
    ap.add_argument("--grid", default="4000x4000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    binary = os.path.join(ROOT, a.build, "chatty")
    copy = subprocess.run([os.path.join(ROOT, a.build, "chatty_copy_bench")], capture_output=True, text=True)
    if copy.returncode != 0:
        print("bench_gpu: " + (copy.stderr.strip() or "chatty_copy_bench failed"), file=sys.stderr)
        return 2
    ref = json.loads(copy.stdout)
    results = {"gpu": ref["gpu"], "d2d_copy_gbps": ref["d2d_gbps"], "apps": [], "virtual": []}
    ok = True
    rep = f"--repeat={a.repeat}"
    with tempfile.TemporaryDirectory() as tmp:
        graphs = {}
        for spec in (f"kron:{a.scale}", f"grid:{a.grid}"):
            path = os.path.join(tmp, spec.replace(":", "_") + ".cgr")
            subprocess.run([binary, "generate", spec, path], check=True, capture_output=True)
            graphs[spec] = path
        kron = graphs[f"kron:{a.scale}"]

        # PageRank bandwidth: exactly 20 iterations (tolerance below any reachable L1).
        pr = run(binary, kron, "pr", "cuda", 1, rep, "--max_iters=20", "--tolerance=1e-300")
        n, m, it = pr["vertices"], pr["edges"], pr["iterations"]
        per_iter = 2 * 8 * (n + 1) + 4 * m + 4 * m + 4 * n * 3
        gbps = per_iter * it / pr["compute_s"] / 1e9
        frac = gbps / ref["d2d_gbps"]
        ok &= frac >= 0.5
        print(f"{ref['gpu']}: device-to-device copy {ref['d2d_gbps']:.0f} GB/s (read + write)")
        print(f"PageRank kron:{a.scale}, {it} iterations: {pr['compute_s'] * 1e3:.1f} ms, "
              f"effective {gbps:.0f} GB/s = {100 * frac:.0f} % of copy (target >= 50 %)")
        results["pagerank"] = {"iterations": it, "compute_s": pr["compute_s"], "effective_gbps": gbps,
                               "fraction_of_copy": frac}

        print(f"\n{'graph':18} {'app':5} {'GPU ms':>9} {'GTEPS':>7} {'CPU ms':>9} {'speed-up':>9}")
        for spec, path in graphs.items():
            for app in ("bfs", "sssp", "wcc"):
                g = run(binary, path, app, "cuda", 1, rep)
                c = run(binary, path, app, "cpu", 1, "--repeat=3")
                sp = c["compute_s"] / g["compute_s"]
                print(f"{spec:18} {app:5} {g['compute_s'] * 1e3:9.2f} {g['gteps']:7.2f} "
                      f"{c['compute_s'] * 1e3:9.1f} {sp:8.1f}x")
                results["apps"].append({"graph": spec, "app": app, "gpu_s": g["compute_s"], "gteps": g["gteps"],
                                        "cpu_s": c["compute_s"], "speedup": sp})

        print(f"\nP=4 virtual devices on one GPU against P=1 (kron:{a.scale}; target <= 1.5x)")
        print(f"{'app':5} {'P=1 ms':>9} {'P=4 ms':>9} {'P4/P1':>7}  transport")
        for app in ("bfs", "sssp", "wcc", "pr"):
            one = run(binary, kron, app, "cuda", 1, rep)
            four = run(binary, kron, app, "cuda", 4, rep)
            r = four["compute_s"] / one["compute_s"]
            ok &= r <= 1.5
            print(f"{app:5} {one['compute_s'] * 1e3:9.2f} {four['compute_s'] * 1e3:9.2f} {r:7.2f}  "
                  f"{four['multi']['transport']}")
            results["virtual"].append({"app": app, "p1_s": one["compute_s"], "p4_s": four["compute_s"], "ratio": r})
    results["targets_met"] = bool(ok)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)
    print("\ntargets " + ("met" if ok else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
