#!/usr/bin/env python3
"""ChattyGraph's Katz and eigenvector centrality and label propagation against NetworKit's (PyPI,
installed here if missing) on the same graph and thread count, rounds
interleaved (this VM's timings move 20-40 % between runs).

Each side's time is its run alone: ours `chatty run`'s compute time (the
graph loaded from .cgr before), NetworKit's `run()` on a graph it read
before. Both use the same alpha (NetworKit's default, 1 / (max degree + 1))
and beta. Eigenvector centrality is the same vector on both sides (the L1
distance between the answers is printed); NetworKit's Katz counts walks
otherwise than NetworkX (whose definition ours follows), so for Katz only
the times and iterations compare. Label propagation is NetworkX's
semi-synchronous one on our side, NetworKit's PLP (asynchronous, in
parallel) on the other: the times compare, and the communities' counts
are printed. Weighted betweenness runs exact (every
source) on a road-like graph's lengths on both sides (NetworKit's
Betweenness on a weighted graph), the scores compared. Personalised
PageRank runs against igraph's personalized_pagerank (PRPACK, exact;
NetworKit has only an approximate local push), from the same four
seeds, the L1 distance between the answers printed.

  python3 scripts/bench_centrality.py [--chatty build/chatty] [--graph kron:20] [--road road:120x100]
                                      [--threads 2] [--rounds 3] [--only katz|eigenvector|lpa|wbc|ppr ...]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def networkit():
    try:
        import networkit as nk
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "networkit"], check=True)
        import networkit as nk
    return nk


def igraph_module():
    try:
        import igraph
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "igraph"], check=True)
        import igraph
    return igraph


def ours(chatty, cgr, app, args, threads, out):
    cmd = [chatty, "run", f"--app={app}", f"--graph={cgr}", f"--threads={threads}", "--json", "--quiet",
           f"--output={out}"] + args
    j = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
    return j["compute_s"], j.get("iterations", 0)


def generated(nk, chatty, graph, d):
    """(.cgr path, NetworKit's simple undirected graph) of a generator spec, both from the same edges."""
    el, cgr = os.path.join(d, "g.el"), os.path.join(d, "g.cgr")
    for path in (el, cgr):
        subprocess.run([chatty, "generate", graph, path], check=True, capture_output=True)
    G = nk.readGraph(el, nk.Format.EdgeListSpaceZero, directed=False)
    G.removeMultiEdges()
    G.removeSelfLoops()
    return cgr, G


def values(path, n):
    d = np.loadtxt(path)
    v = np.zeros(n)
    v[d[:, 0].astype(np.int64)] = d[:, 1]
    return v


def spread(xs):
    return f"{statistics.median(xs):.3f} [{min(xs):.3f}-{max(xs):.3f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--road", default="road:120x100", help="weighted betweenness's graph")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", choices=["katz", "eigenvector", "lpa", "wbc", "ppr"], action="append",
                    help="run these rows only (repeat the flag for several)")
    a = ap.parse_args()
    nk = networkit()
    nk.setNumberOfThreads(a.threads)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "values.txt")
        cgr, G = generated(nk, a.chatty, a.graph, d)
        n = G.numberOfNodes()
        alpha = 1.0 / (max(G.degree(v) for v in G.iterNodes()) + 1)
        print(f"{a.graph}: {n} vertices, {G.numberOfEdges()} edges; {a.threads} threads; alpha {alpha:.3g}")
        cases = {
            "katz": ([f"--katz_alpha={alpha!r}", "--katz_beta=0.1"],
                     lambda: nk.centrality.KatzCentrality(G, alpha, 0.1, 1e-8)),
            "eigenvector": ([], lambda: nk.centrality.EigenvectorCentrality(G, 1e-9)),
            "lpa": ([], lambda: nk.community.PLP(G)),
        }
        for app, (args, make) in cases.items():
            if a.only and app not in a.only:
                continue
            ratios, mine, theirs = [], [], []
            for _ in range(a.rounds):
                t_ours, iters = ours(a.chatty, cgr, app, args, a.threads, out)
                algo = make()
                t = time.perf_counter()
                algo.run()
                t_nk = time.perf_counter() - t
                mine.append(t_ours), theirs.append(t_nk), ratios.append(t_ours / t_nk)
            line = (f"{app}: ours {spread(mine)} s ({iters} iterations), NetworKit {spread(theirs)} s; "
                    f"ours / NetworKit {spread(ratios)}")
            if app == "eigenvector":
                diff = np.abs(values(out, n) - np.abs(np.array(algo.scores()))).sum()
                line += f"; L1 distance between the answers {diff:.2g}"
            if app == "lpa":
                ours_count = np.unique(values(out, n)).size
                line += f"; communities: ours {ours_count}, NetworKit's {algo.getPartition().numberOfSubsets()}"
            print(line)
        if not a.only or "ppr" in a.only:
            bench_ppr(a, d, cgr, n, [v for v in G.iterNodes() if G.degree(v) > 0])
        if not a.only or "wbc" in a.only:
            bench_weighted_bc(nk, a, d)


def bench_ppr(a, d, cgr, n, linked):
    igraph = igraph_module()
    el, out = os.path.join(d, "g.el"), os.path.join(d, "ppr.txt")
    G = igraph.Graph.Read_Edgelist(el, directed=False)
    G.add_vertices(max(0, n - G.vcount()))
    G.simplify()
    seeds = sorted(int(v) for v in np.random.default_rng(1).choice(linked, 4, replace=False))
    mine, theirs, ratios = [], [], []
    for _ in range(a.rounds):
        t_ours, iters = ours(a.chatty, cgr, "ppr", [f"--sources={','.join(map(str, seeds))}"], a.threads, out)
        t = time.perf_counter()
        want = np.array(G.personalized_pagerank(reset_vertices=seeds, damping=0.85))
        t_ig = time.perf_counter() - t
        mine.append(t_ours), theirs.append(t_ig), ratios.append(t_ours / t_ig)
    diff = np.abs(values(out, n) - want).sum()
    print(f"ppr, seeds {seeds}: ours {spread(mine)} s ({iters} iterations), igraph {spread(theirs)} s; "
          f"ours / igraph {spread(ratios)}; L1 distance between the answers {diff:.2g}")


def bench_weighted_bc(nk, a, d):
    wel, cgr, out = os.path.join(d, "r.wel"), os.path.join(d, "r.cgr"), os.path.join(d, "wbc.txt")
    subprocess.run([a.chatty, "generate", a.road, wel], check=True, capture_output=True)
    subprocess.run([a.chatty, "convert", wel, cgr, "--undirected"], check=True, capture_output=True)
    edges = np.loadtxt(wel, dtype=np.int64, ndmin=2)
    n = int(edges[:, :2].max()) + 1
    G = nk.Graph(n, weighted=True)
    for u, v, w in edges.tolist():
        G.addEdge(u, v, w)
    mine, theirs, ratios = [], [], []
    for _ in range(a.rounds):
        t_ours, _ = ours(a.chatty, cgr, "wbc", ["--sources=all", "--bc_scale=pairs"], a.threads, out)
        algo = nk.centrality.Betweenness(G, False)
        t = time.perf_counter()
        algo.run()
        t_nk = time.perf_counter() - t
        mine.append(t_ours), theirs.append(t_nk), ratios.append(t_ours / t_nk)
    got, want = values(out, n), np.array(algo.scores()) / 2  # NetworKit counts an undirected pair both ways
    worst = float(np.max(np.abs(got - want) / np.maximum(1, want)))
    print(f"weighted betweenness, {a.road} ({n} points, every source): ours {spread(mine)} s, NetworKit "
          f"{spread(theirs)} s; ours / NetworKit {spread(ratios)}; largest relative difference {worst:.2g}")


if __name__ == "__main__":
    main()
