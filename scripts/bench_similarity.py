#!/usr/bin/env python3
"""ChattyGraph's per-pair apps against the CPU libraries on PyPI, rounds
interleaved (this VM's timings move 20-40 % between runs):

- similarity, Jaccard of every edge: ours against NetworKit's
  (TriangleEdgeScore, then JaccardSimilarityAttributizer: its per-edge
  Jaccard needs the per-edge triangle counts first, so both runs are its
  time) at the same thread count, and igraph's similarity_jaccard over the
  same pairs (one thread); the answers compared edge for edge.
- ktruss: no PyPI library computes truss numbers in parallel (igraph's
  trussness is not in its Python API; NetworKit has none), so ours is timed
  against NetworkX's k_truss at the largest k on a small graph, and against
  our own triangle count on the large one.

Each side's time is its run alone: ours `chatty run`'s compute time (the
graph read from .cgr first), theirs the call on a graph built before.

  python3 scripts/bench_similarity.py [--chatty build/chatty] [--graph kron:18] [--small FILE]
                                      [--threads 2] [--rounds 3]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def need(module, package):
    try:
        return __import__(module)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", package], check=True)
        return __import__(module)


def ours(chatty, cgr, app, threads, out, *args):
    cmd = [chatty, "run", f"--app={app}", f"--graph={cgr}", f"--threads={threads}", "--json", "--quiet",
           f"--output={out}", *args]
    j = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
    return j["compute_s"], j


def spread(xs):
    return f"{statistics.median(xs):.3f} [{min(xs):.3f}-{max(xs):.3f}]"


def timed(f):
    t = time.perf_counter()
    r = f()
    return time.perf_counter() - t, r


def bench_jaccard(a, d, nk, ig):
    el, cgr, out = (os.path.join(d, x) for x in ("g.el", "g.cgr", "sim.txt"))
    for path in (el, cgr):
        subprocess.run([a.chatty, "generate", a.graph, path], check=True, capture_output=True)
    G = nk.readGraph(el, nk.Format.EdgeListSpaceZero, directed=False)
    G.removeMultiEdges()
    G.removeSelfLoops()
    G.indexEdges()
    edges = np.array(list(G.iterEdges()), dtype=np.int64)
    H = ig.Graph(n=G.numberOfNodes(), edges=edges.tolist())
    pairs = [tuple(e) for e in edges.tolist()]
    print(f"{a.graph}: {G.numberOfNodes()} vertices, {G.numberOfEdges()} edges; {a.threads} threads")
    mine, theirs, single, r_nk, r_ig = [], [], [], [], []
    for _ in range(a.rounds):
        t_ours, _ = ours(a.chatty, cgr, "similarity", a.threads, out)

        def networkit_jaccard():
            tri = nk.sparsification.TriangleEdgeScore(G)
            tri.run()
            j = nk.sparsification.JaccardSimilarityAttributizer(G, tri.scores())
            return j.getAttribute()

        t_nk, attr = timed(networkit_jaccard)
        t_ig, want = timed(lambda: H.similarity_jaccard(pairs=pairs, loops=False))
        mine.append(t_ours), theirs.append(t_nk), single.append(t_ig)
        r_nk.append(t_ours / t_nk), r_ig.append(t_ours / t_ig)
    got = {}
    with open(out) as f:
        for line in f:
            u, v, p = line.split()
            got[(int(u), int(v))] = float(p)
    worst = max(abs(got[(min(u, v), max(u, v))] - w) for (u, v), w in zip(pairs, want))
    print(f"jaccard, every edge: ours {spread(mine)} s, NetworKit {spread(theirs)} s, igraph (1 thread) "
          f"{spread(single)} s; ours / NetworKit {spread(r_nk)}, ours / igraph {spread(r_ig)}; largest difference "
          f"from igraph's {worst:.2g}")
    tc, tr = [], []
    for _ in range(a.rounds):
        t_truss, j = ours(a.chatty, cgr, "ktruss", a.threads, out)
        t_tc, _ = ours(a.chatty, cgr, "tc", a.threads, out)
        tc.append(t_truss / t_tc), tr.append(t_truss)
    print(f"ktruss: {spread(tr)} s (largest truss {j['summary']['max_truss']}); ktruss / our triangle count "
          f"{spread(tc)}")


def bench_small_truss(a, d, nx):
    cgr, out = os.path.join(d, "s.cgr"), os.path.join(d, "t.txt")
    subprocess.run([a.chatty, "convert", a.small, cgr, "--symmetrize"], check=True, capture_output=True)
    G = nx.read_edgelist(a.small, nodetype=int, data=False)
    mine, theirs = [], []
    for _ in range(a.rounds):
        t_ours, j = ours(a.chatty, cgr, "ktruss", a.threads, out)
        k = j["summary"]["max_truss"]
        t_nx, H = timed(lambda: nx.k_truss(G, k, backend="networkx"))
        mine.append(t_ours), theirs.append(t_nx)
    same = H.number_of_edges() == j["summary"]["max_truss_edges"]
    print(f"ktruss on {os.path.basename(a.small)}: ours (every edge's number) {spread(mine)} s, NetworkX's "
          f"k_truss(k={k}) {spread(theirs)} s; NetworkX / ours {statistics.median(theirs) / statistics.median(mine):.0f}x; "
          f"the {k}-truss's edges {'agree' if same else 'DIFFER'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graph", default="kron:18")
    ap.add_argument("--small", default="build/tests/data/facebook_combined.txt")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    nk = need("networkit", "networkit")
    ig = need("igraph", "igraph")
    nx = need("networkx", "networkx")
    nk.setNumberOfThreads(a.threads)
    with tempfile.TemporaryDirectory() as d:
        bench_jaccard(a, d, nk, ig)
        bench_small_truss(a, d, nx)


if __name__ == "__main__":
    main()
