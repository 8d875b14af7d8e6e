#!/usr/bin/env python3
"""Loading compressed text against the plain file (target: a .txt.gz of
kron:20 loads in at most 1.5x the time of the .txt), and standard input.

  python3 scripts/bench_load.py [--graph kron:20] [--rounds 5] [--build build]

The files are written once into BUILD/bench-data (gzip -6, zstd -3, bzip2
-9, the tools' defaults). The inputs alternate round after round, so drift
in the machine's speed hits every one; each figure is the median load time
(`chatty info --json`: parse and build, as `chatty run` reports it) and
the ratio is taken against the plain file's median in the same run."""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_seconds(binary, path, stdin=None, extra=()):
    """`chatty info --json` of path (or of standard input), as a dict."""
    args = [binary, "info", "--json", "--graph=" + ("-" if stdin else path), *extra]
    if stdin:
        with open(path, "rb") as f:
            out = subprocess.run(args, stdin=f, check=True, capture_output=True, text=True).stdout
    else:
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--tools", default="gzip,zstd,bzip2")
    a = ap.parse_args()
    binary = os.path.join(a.build, "chatty")
    data = os.path.join(a.build, "bench-data")
    os.makedirs(data, exist_ok=True)
    plain = os.path.join(data, a.graph.replace(":", "_") + ".txt")
    if not os.path.exists(plain):
        subprocess.run([binary, "generate", a.graph, plain], check=True, capture_output=True)
    inputs = [("plain .txt", plain, False)]
    suffix = {"gzip": ".gz", "zstd": ".zst", "bzip2": ".bz2"}
    for tool in a.tools.split(","):
        z = plain + suffix[tool]
        if not os.path.exists(z):
            with open(z, "wb") as f:
                subprocess.run([tool, "-c", plain], stdout=f, check=True)
        inputs.append((f".txt{suffix[tool]}", z, False))
    inputs.append(("stdin (plain)", plain, True))
    times = {name: [] for name, _, _ in inputs}
    shape = None
    for _ in range(a.rounds):
        for name, path, stdin in inputs:
            j = load_seconds(binary, path, stdin)
            got = (j["vertices"], j["edges"], j["directed"])
            if shape is None:
                shape = got
            elif got != shape:  # every input must load to the same graph
                sys.exit(f"{name}: loaded {got}, the plain file {shape}")
            times[name].append(j["load_s"])
    print(f"graph {a.graph}: {shape[0]} vertices, {shape[1]} stored edges; {a.rounds} rounds, "
          f"{os.cpu_count()} cores; sizes in MB")
    base = statistics.median(times["plain .txt"])
    print(f"{'input':16} {'size':>8} {'median s':>9} {'min s':>7} {'max s':>7} {'x plain':>8}")
    for name, path, _ in inputs:
        t = times[name]
        med = statistics.median(t)
        print(f"{name:16} {os.path.getsize(path) / 1e6:8.1f} {med:9.3f} {min(t):7.3f} {max(t):7.3f} {med / base:8.2f}")
    gz = statistics.median(times[".txt.gz"]) / base if ".txt.gz" in times else None
    if gz is not None:
        print(f"target .txt.gz <= 1.5x plain: {'met' if gz <= 1.5 else 'NOT met'} ({gz:.2f}x)")


if __name__ == "__main__":
    main()
