#!/usr/bin/env python3
"""ChattyGraph's Louvain (or Leiden, --app=leiden) against NetworKit's PLM
(and igraph's Leiden with the modularity objective, for --app=leiden; both
PyPI, installed here if missing): modularity on kron:16, a grid,
ego-Facebook, Les Miserables (weighted) and a planted-partition graph,
each side's communities scored by NetworKit's Modularity (igraph's Leiden
draws at random: the median of --igraph_seeds runs); then the time on
kron:20, rounds interleaved (this VM's timings move 20-40 % between runs),
ratios with their spread.

Each side's time is its run alone: ours `chatty run`'s compute time (the
graph read before), NetworKit's `run()` on a graph it built before. PLM runs
as NetworKit's default (refine=False), resolution 1 on both sides.

  python3 scripts/bench_louvain.py [--app louvain|leiden] [--chatty build/chatty] [--graph kron:20] [--threads 2]
                                   [--rounds 3] [--igraph_seeds 3]
                                   [--facebook build/tests/data/facebook_combined.txt]"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

from bench_centrality import generated, igraph_module, networkit, spread


def ours(chatty, path, threads, out, app="louvain"):
    cmd = [chatty, "run", f"--app={app}", f"--graph={path}", "--undirected", f"--threads={threads}", "--json",
           "--quiet", f"--output={out}"]
    j = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
    return j["compute_s"], j["summary"]


def edge_list(path):
    """(n, edges [u, v, w]) of a file of 'u v [w]' lines (a first line of one number: the vertex count)."""
    rows = [line.split() for line in open(path) if not line.startswith(("#", "%"))]
    e = np.array([[int(r[0]), int(r[1]), int(r[2]) if len(r) > 2 else 1] for r in rows if len(r) >= 2],
                 dtype=np.int64)
    return int(e[:, :2].max()) + 1, e


def nk_graph(nk, n, e, weighted):
    G = nk.Graph(n, weighted=weighted)
    for u, v, w in e.tolist():
        if u != v and not G.hasEdge(u, v):
            G.addEdge(u, v, w) if weighted else G.addEdge(u, v)
    return G


def igraph_leiden(ig, n, e, weighted, seed=0):
    """(membership, seconds) of igraph's Leiden with the modularity
    objective, iterated until it changes nothing (n_iterations=-1), its
    random draws seeded with `seed`."""
    keep = e[e[:, 0] != e[:, 1]]
    G = ig.Graph(n=n, edges=keep[:, :2].tolist(), directed=False)
    G.simplify(combine_edges="first")
    w = None
    if weighted:
        G.es["weight"] = [1] * G.ecount()
        for u, v, x in keep.tolist():
            G.es[G.get_eid(u, v)]["weight"] = x
        w = "weight"
    random.seed(seed)
    ig.set_random_number_generator(random)
    t = time.perf_counter()
    found = G.community_leiden(objective_function="modularity", weights=w, n_iterations=-1)
    return found.membership, time.perf_counter() - t


def partition(nk, n, out):
    d = np.loadtxt(out, dtype=np.int64, ndmin=2)
    p = nk.structures.Partition(n)
    p.setUpperBound(n)
    for v, c in d.tolist():
        p[v] = c
    return p


def quality(nk, a, d):
    import networkx as nx

    files = {}
    for spec in ("kron:16", "grid:300x300"):
        files[spec] = (os.path.join(d, spec.replace(":", "_") + ".el"), False)
        subprocess.run([a.chatty, "generate", spec, files[spec][0]], check=True, capture_output=True)
    files["ego-Facebook"] = (a.facebook, False)
    for name, G, weighted in (("Les Miserables", nx.les_miserables_graph(), True),
                              ("planted 40x50", nx.planted_partition_graph(40, 50, 0.3, 0.005, seed=1), False)):
        G = nx.convert_node_labels_to_integers(G)
        path = os.path.join(d, name.split()[0] + (".wel" if weighted else ".el"))
        with open(path, "w") as f:
            for u, v, w in G.edges(data="weight", default=1):
                f.write(f"{u} {v} {int(w)}\n" if weighted else f"{u} {v}\n")
        files[name] = (path, weighted)
    out = os.path.join(d, "communities.txt")
    ig = igraph_module() if a.app == "leiden" else None
    print(f"graph: modularity ours ({a.app}) / PLM (difference), communities ours / PLM"
          + ("; igraph's Leiden: modularity (median, range), ours - it" if ig else ""))
    for name, (path, weighted) in files.items():
        n, e = edge_list(path)
        G = nk_graph(nk, n, e, weighted)
        _, summary = ours(a.chatty, path, a.threads, out, a.app)
        mine = nk.community.Modularity().getQuality(partition(nk, n, out), G)
        plm = nk.community.PLM(G, refine=False)
        plm.run()
        found = plm.getPartition()
        communities = len(set(found.getVector()))  # numberOfSubsets() read 0 here
        theirs = nk.community.Modularity().getQuality(found, G)
        line = (f"  {name}: {mine:.4f} / {theirs:.4f} ({mine - theirs:+.4f}); reported {summary['modularity']:.4f}; "
                f"{summary['communities']} / {communities}")
        if ig:
            # igraph draws at random: its median over seeds against ours
            # (deterministic).
            qs = []
            for seed in range(a.igraph_seeds):
                membership, _ = igraph_leiden(ig, n, e, weighted, seed)
                p = nk.structures.Partition(n)
                p.setUpperBound(n)
                for v, c in enumerate(membership):
                    p[v] = c
                qs.append(nk.community.Modularity().getQuality(p, G))
            q = float(np.median(qs))
            line += f"; igraph {q:.4f} ({min(qs):.4f}-{max(qs):.4f}, {len(qs)} seeds), {mine - q:+.4f}"
        print(line)


def timing(nk, a, d):
    out = os.path.join(d, "t.txt")
    cgr, G = generated(nk, a.chatty, a.graph, d)
    mine, theirs, ratios = [], [], []
    for _ in range(a.rounds):
        t_ours, summary = ours(a.chatty, cgr, a.threads, out, a.app)
        plm = nk.community.PLM(G, refine=False)
        t = time.perf_counter()
        plm.run()
        t_nk = time.perf_counter() - t
        mine.append(t_ours), theirs.append(t_nk), ratios.append(t_ours / t_nk)
    q = nk.community.Modularity().getQuality(plm.getPartition(), G)
    print(f"{a.graph}, {a.threads} threads: ours {spread(mine)} s (modularity {summary['modularity']:.4f}, "
          f"{summary['levels']} levels), PLM {spread(theirs)} s (modularity {q:.4f}); ours / PLM {spread(ratios)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", choices=("louvain", "leiden"), default="louvain")
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graph", default="kron:20")
    ap.add_argument("--facebook", default="build/tests/data/facebook_combined.txt")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3, help="timing rounds on --graph (0: modularity only)")
    ap.add_argument("--igraph_seeds", type=int, default=3, help="igraph Leiden runs per graph (their median)")
    a = ap.parse_args()
    nk = networkit()
    nk.setNumberOfThreads(a.threads)
    with tempfile.TemporaryDirectory() as d:
        quality(nk, a, d)
        if a.rounds > 0:
            timing(nk, a, d)


if __name__ == "__main__":
    main()
