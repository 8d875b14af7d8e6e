#!/usr/bin/env python3
"""GPU benchmark (the CUDA backend issue's figures), every figure measured in
this run against a reference measured in the same run, every GPU result
validated against the sequential reference (a mismatch fails the run):

  * pr: PageRank (pull, 20 iterations) on kron:24: effective bandwidth - the
    bytes the gather must move per iteration (in-edge offsets and targets,
    one contribution read per edge, out-degrees, ranks and contributions
    written) / time per iteration - against the device-to-device copy
    bandwidth from chatty_copy_bench (read + write; target >= 50 %).
  * apps: BFS, SSSP, WCC on kron:24 and grid:4000x4000: GTEPS on the GPU and
    the speed-up over the CPU backend on this machine's cores (grid target:
    every app >= 3x).
  * virtual: P=4 virtual devices on one GPU against P=1, every app (target
    <= 1.5x).

  python3 scripts/bench_gpu.py [--build build] [--part pr|apps|virtual|all] [--scale 24]
                               [--grid 4000x4000] [--repeat 5] [--json out.json]
Each part fits one 10-minute command (scripts/gpu_check.sh runs them apart).
The lines after '---' are the summary gpu_check.sh keeps.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


class Mismatch(Exception):
    pass


def run(binary, graph, app, backend, devices=1, *extra, validate=False):
    cmd = [binary, "run", f"--app={app}", f"--graph={graph}", f"--backend={backend}", f"--devices={devices}",
           "--json", *extra] + (["--validate"] if validate else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = p.stdout.strip().splitlines()
    if not lines or not lines[-1].startswith("{"):
        raise Mismatch(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    j = json.loads(lines[-1])
    if validate and j.get("validated") != "pass":
        raise Mismatch(f"{app} on {graph} ({backend}, P={devices}) failed validation: {p.stdout}{p.stderr}")
    return j


def part_pr(binary, graphs, a, ref, results):
    kron = graphs["kron"]
    pr = run(binary, kron, "pr", "cuda", 1, f"--repeat={a.repeat}", "--max_iters=20", "--tolerance=1e-300",
             validate=True)
    n, m, it = pr["vertices"], pr["edges"], pr["iterations"]
    per_iter = 2 * 8 * (n + 1) + 4 * m + 4 * m + 4 * n * 3
    gbps = per_iter * it / pr["compute_s"] / 1e9
    frac = gbps / ref["d2d_gbps"]
    print(f"PageRank kron:{a.scale}, {it} iterations: {pr['compute_s'] * 1e3:.1f} ms, "
          f"effective {gbps:.0f} GB/s = {100 * frac:.0f} % of copy (target >= 50 %)")
    results["pagerank"] = {"iterations": it, "compute_s": pr["compute_s"], "effective_gbps": gbps,
                           "fraction_of_copy": frac}
    return frac >= 0.5


def part_apps(binary, graphs, a, ref, results):
    ok = True
    print(f"{'graph':18} {'app':5} {'GPU ms':>9} {'GTEPS':>7} {'CPU ms':>9} {'speed-up':>9}")
    for name, path in graphs.items():
        spec = f"kron:{a.scale}" if name == "kron" else f"grid:{a.grid}"
        for app in ("bfs", "sssp", "wcc"):
            g = run(binary, path, app, "cuda", 1, f"--repeat={a.repeat}", validate=True)
            c = run(binary, path, app, "cpu", 1, "--repeat=3")
            sp = c["compute_s"] / g["compute_s"]
            if name == "grid":
                ok &= sp >= 3
            print(f"{spec:18} {app:5} {g['compute_s'] * 1e3:9.2f} {g['gteps']:7.2f} "
                  f"{c['compute_s'] * 1e3:9.1f} {sp:8.1f}x")
            results["apps"].append({"graph": spec, "app": app, "gpu_s": g["compute_s"], "gteps": g["gteps"],
                                    "cpu_s": c["compute_s"], "speedup": sp})
    return ok


def part_virtual(binary, graphs, a, ref, results):
    ok = True
    print(f"P=4 virtual devices on one GPU against P=1 (kron:{a.scale}; target <= 1.5x)")
    print(f"{'app':5} {'P=1 ms':>9} {'P=4 ms':>9} {'P4/P1':>7}  transport")
    for app in ("bfs", "sssp", "wcc", "pr"):
        one = run(binary, graphs["kron"], app, "cuda", 1, f"--repeat={a.repeat}", validate=True)
        four = run(binary, graphs["kron"], app, "cuda", 4, f"--repeat={a.repeat}", validate=True)
        r = four["compute_s"] / one["compute_s"]
        ok &= r <= 1.5
        print(f"{app:5} {one['compute_s'] * 1e3:9.2f} {four['compute_s'] * 1e3:9.2f} {r:7.2f}  "
              f"{four['multi']['transport']}")
        results["virtual"].append({"app": app, "p1_s": one["compute_s"], "p4_s": four["compute_s"], "ratio": r})
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--part", default="all", choices=["pr", "apps", "virtual", "all"])
    ap.add_argument("--scale", type=int, default=24)
    ap.add_argument("--grid", default="4000x4000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    build = a.build if os.path.isabs(a.build) else os.path.join(os.getcwd(), a.build)
    binary = os.path.join(build, "chatty")
    copy = subprocess.run([os.path.join(build, "chatty_copy_bench")], capture_output=True, text=True)
    if copy.returncode != 0:
        print("bench_gpu: " + (copy.stderr.strip() or "chatty_copy_bench failed"), file=sys.stderr)
        return 2
    ref = json.loads(copy.stdout)
    results = {"gpu": ref["gpu"], "d2d_copy_gbps": ref["d2d_gbps"], "apps": [], "virtual": []}
    parts = ["pr", "apps", "virtual"] if a.part == "all" else [a.part]
    ok = True
    print("---")
    print(f"{ref['gpu']}: device-to-device copy {ref['d2d_gbps']:.0f} GB/s (read + write)")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            graphs = {}
            for name, spec in (("kron", f"kron:{a.scale}"), ("grid", f"grid:{a.grid}")):
                if name == "grid" and "apps" not in parts:
                    continue
                path = os.path.join(tmp, spec.replace(":", "_") + ".cgr")
                subprocess.run([binary, "generate", spec, path], check=True, capture_output=True)
                graphs[name] = path
            for part in parts:
                ok &= {"pr": part_pr, "apps": part_apps, "virtual": part_virtual}[part](binary, graphs, a, ref,
                                                                                         results)
                print()
    except Mismatch as e:
        print(f"bench_gpu: MISMATCH: {e}")
        results["mismatch"] = str(e)
        ok = False
        code = 1
    else:
        code = 0
    results["targets_met"] = bool(ok)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)
    print("targets " + ("met" if ok else "NOT met"))
    return code


if __name__ == "__main__":
    sys.exit(main())
