#!/usr/bin/env python3
"""What JSON costs the build: the compile time of one source that builds,
dumps and parses a small document (as the run report does) with this
project's JsonValue (runtime/base/json_value.h, whose implementation
compiles once, timed too), with nlohmann/json and with RapidJSON
(Debian's nlohmann-json3-dev and rapidjson-dev, installed here if missing).
Sources in scripts/bench_json/; median of --rounds compiles each.

  python3 scripts/bench_json_compile.py [--rounds 3]"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_s(src, rounds):
    times = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(rounds):
            t = time.perf_counter()
            subprocess.run(["g++", "-std=c++20", "-O3", f"-I{ROOT}", "-c", src, "-o", os.path.join(d, "x.o")],
                           check=True)
            times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    if not (os.path.exists("/usr/include/nlohmann/json.hpp") and os.path.exists("/usr/include/rapidjson/document.h")):
        subprocess.run(["apt-get", "install", "-y", "-qq", "nlohmann-json3-dev", "rapidjson-dev"], check=True)
    users = sum(1 for top, _, files in os.walk(ROOT) if "/build" not in top and "/." not in top and "/scripts" not in top
                for f in files if f.endswith((".cc", ".h", ".cu", ".cuh"))
                and "runtime/base/json_value.h" in open(os.path.join(top, f), errors="ignore").read())
    here = os.path.join(ROOT, "scripts", "bench_json")
    ours = compile_s(os.path.join(here, "ours.cc"), a.rounds)
    impl = compile_s(os.path.join(ROOT, "runtime", "base", "json_value.cc"), a.rounds)
    print(f"a source using it, median of {a.rounds} compiles (g++ -O3); {users} project files include json_value.h")
    print(f"  JsonValue     {ours:5.2f} s  (+ json_value.cc once: {impl:.2f} s)")
    for name, f in (("RapidJSON", "rapid.cc"), ("nlohmann", "nlohmann.cc")):
        t = compile_s(os.path.join(here, f), a.rounds)
        print(f"  {name:13} {t:5.2f} s  ({t / ours:.1f}x JsonValue's)")


if __name__ == "__main__":
    main()
