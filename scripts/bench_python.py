#!/usr/bin/env python3
"""The Python package's costs, each against a reference measured in the same
run (this VM's timings move 20-40 % between runs):

  1. PageRank on kron:20 called from Python (wall time of the call, the graph
     prepared by an earlier call) against `chatty run`'s compute time on the
     same graph, rounds interleaved: target <= 1.05.
  2. Graph.from_scipy on a CSR whose index types fit: resident memory added
     against the size of the arrays (none copied).
  3. nx.pagerank on a graph of about 1M edges: NetworkX's own against
     backend="chatty" repeated with the converted graph in NetworkX's cache
     (target >= 20x), the first call's conversion, the conversion rate
     (target >= 1M edges/s) and the largest difference between the answers.
  4. Where the backend is worth its conversion (its should_run): NetworkX's
     own call against backend="chatty" on a fresh graph (conversion
     included), random graphs of mean degree 8 from 32 to 8192 nodes, for
     each function the backend implements. Part 4 alone: --parts 4.

  PYTHONPATH=build/python python3 scripts/bench_python.py [--chatty build/chatty] [--rounds 3]"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import warnings

import numpy as np


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0


def spread(xs):
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f})"


def bench_call(chatty, graph, rounds):
    import chattygraph as cg

    with tempfile.TemporaryDirectory() as d:
        cgr = os.path.join(d, "g.cgr")
        subprocess.run([chatty, "generate", graph, cgr], check=True, capture_output=True)
        g = cg.Graph.load(cgr)
        cg.pagerank(g)  # prepares the graph (relabelled, in-edges), as the CLI does before timing
        ratios, ratios_compute = [], []
        for _ in range(rounds):
            out = subprocess.run([chatty, "run", "--app=pr", f"--graph={cgr}", "--repeat=3", "--json", "--quiet"],
                                 check=True, capture_output=True, text=True).stdout
            cli = json.loads(out.strip().splitlines()[-1])["compute_s"]
            walls, computes = [], []
            for _ in range(3):
                t = time.perf_counter()
                r = cg.pagerank(g)
                walls.append(time.perf_counter() - t)
                computes.append(r.stats["compute_s"])
            ratios.append(statistics.median(walls) / cli)
            ratios_compute.append(statistics.median(computes) / cli)
            print(f"  round: CLI compute {cli * 1e3:.1f} ms, Python call {statistics.median(walls) * 1e3:.1f} ms "
                  f"(its compute {statistics.median(computes) * 1e3:.1f} ms)")
        print(f"PageRank {graph}: Python call / CLI compute {spread(ratios)}; Python's compute / CLI's "
              f"{spread(ratios_compute)} (target <= 1.05)")


def bench_scipy(graph):
    import scipy.sparse as sp

    import chattygraph as cg

    g = cg.Graph.load(graph)
    indptr, indices, _ = g.csr()
    A = sp.csr_array((np.ones(indices.size, np.float32), indices.astype(np.int32), indptr.astype(np.int32)),
                     shape=(g.n, g.n))  # SciPy's own index types for fewer than 2^31 entries
    del g
    arrays_mb = A.indices.nbytes / 2**20
    before = rss_mb()
    h = cg.Graph.from_scipy(A)
    added = rss_mb() - before
    print(f"from_scipy {graph}: resident memory +{added:.1f} MB for {arrays_mb:.1f} MB of edges "
          f"(int32 indices; edges copied: {h.copied_edges}; indptr converted to uint64)")


def bench_networkx(graph, rounds):
    import networkx as nx

    import chattygraph as cg
    from chattygraph import nx_backend

    nx.config.warnings_to_ignore.add("cache")
    G = cg.Graph.load(graph).to_networkx()
    m = G.number_of_edges()
    t = time.perf_counter()
    nx_backend.backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
    convert = time.perf_counter() - t
    t = time.perf_counter()
    ours = nx.pagerank(G, backend="chatty")  # converts, and NetworkX caches the result on G
    first = time.perf_counter() - t
    theirs_t, ours_t = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        theirs = nx.pagerank(G, backend="networkx")
        theirs_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        ours = nx.pagerank(G, backend="chatty")
        ours_t.append(time.perf_counter() - t)
    diff = max(abs(ours[k] - theirs[k]) for k in G)
    speedup = [a / b for a, b in zip(theirs_t, ours_t)]
    print(f"nx.pagerank {graph} ({G.number_of_nodes()} nodes, {m} edges): NetworkX {statistics.median(theirs_t):.3f} s, "
          f"chatty cached {statistics.median(ours_t) * 1e3:.1f} ms: {spread(speedup)}x (target >= 20); first call "
          f"{first:.2f} s; conversion {convert:.2f} s = {m / convert / 1e6:.2f} M edges/s (target >= 1); "
          f"max |difference| {diff:.1e}")


def bench_small(rounds):
    import networkx as nx

    from _chattygraph_nx import FUNCTIONS

    calls = {  # one call of each function, on a connected source where one is taken
        "pagerank": lambda G, **b: nx.pagerank(G, **b),
        "single_source_shortest_path_length": lambda G, **b: nx.single_source_shortest_path_length(G, 0, **b),
        "single_source_dijkstra_path_length": lambda G, **b: nx.single_source_dijkstra_path_length(G, 0, **b),
        "connected_components": lambda G, **b: list(nx.connected_components(G, **b)),
        "weakly_connected_components": lambda G, **b: list(nx.weakly_connected_components(G.to_directed(), **b)),
        "number_connected_components": lambda G, **b: nx.number_connected_components(G, **b),
        "number_weakly_connected_components": lambda G, **b: nx.number_weakly_connected_components(
            G.to_directed(), **b),
        "core_number": lambda G, **b: nx.core_number(G, **b),
        "triangles": lambda G, **b: nx.triangles(G, **b),
        "betweenness_centrality": lambda G, **b: nx.betweenness_centrality(G, k=min(8, len(G)), seed=1, **b),
    }
    sizes = [32, 128, 512, 2048, 8192]
    print("NetworkX's time / chatty's (fresh graph, conversion included), by nodes:", *sizes)
    for name in FUNCTIONS:
        row = []
        for n in sizes:
            ratios = []
            for r in range(rounds):
                G = nx.gnp_random_graph(n, 8 / n, seed=r)
                t = time.perf_counter()
                calls[name](G.copy(), backend="networkx")
                theirs = time.perf_counter() - t
                t = time.perf_counter()
                calls[name](G.copy(), backend="chatty")
                ratios.append(theirs / (time.perf_counter() - t))
            row.append(statistics.median(ratios))
        print(f"  {name:36}", " ".join(f"{x:7.2f}" for x in row))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--nx_graph", default="kron:16")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--parts", default="1,2,3,4", help="which parts to run, e.g. 4")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    parts = set(a.parts.split(","))
    if "1" in parts:
        bench_call(a.chatty, a.graph, a.rounds)
    if "2" in parts:
        bench_scipy(a.graph)
    if "3" in parts:
        bench_networkx(a.nx_graph, a.rounds)
    if "4" in parts:
        bench_small(a.rounds)


if __name__ == "__main__":
    main()
