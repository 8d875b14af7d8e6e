#!/usr/bin/env python3
"""Checks `chatty run --output` against SciPy and NetworkX on generated
graphs: BFS depths, SSSP distances (SciPy Dijkstra), WCC labels (SciPy
connected components, relabelled to the smallest id), PageRank and k-core
coreness (NetworkX). Usage: reference_test.py CHATTY"""
import os
import subprocess
import sys
import tempfile
import unittest

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"
# The backend under test (cpu unless told; the gpu-labelled copy passes cuda
# and skips, exit 77, where no GPU is usable).
BACKEND = sys.argv[2] if len(sys.argv) > 2 else "cpu"
GRAPHS = ["kron:11", "urand:11:4", "grid:40x30"]


def run(*args):
    if args[0] == "run":
        args = (*args, f"--backend={BACKEND}")
    subprocess.run([CHATTY, *args], check=True, capture_output=True, text=True, timeout=600)


def read_values(path):
    vals = {}
    for line in open(path):
        v, x = line.split()
        vals[int(v)] = np.inf if x == "inf" else float(x)
    return np.array([vals[i] for i in range(len(vals))])


class AgainstSciPy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    def load(self, spec, weighted):
        """The graph as chatty sees it, exported through `chatty convert`."""
        el = os.path.join(self.tmp.name, spec.replace(":", "_") + ".txt")  # SNAP text: its header says undirected
        run("convert", spec, el)
        rows = np.loadtxt(el, dtype=np.int64, comments="#", ndmin=2)
        with open(el) as f:  # an undirected graph is written with each edge once, as SNAP does
            if f.readline().startswith("# Undirected graph"):
                rows = np.unique(np.vstack([rows, rows[:, ::-1]]), axis=0)
        n = int(subprocess.run([CHATTY, "info", spec, "--json"], capture_output=True, text=True).stdout.split('"vertices":')[1].split(",")[0])
        return rows, n

    def output(self, app, spec, *extra):
        out = os.path.join(self.tmp.name, f"{app}.txt")
        run("run", f"--app={app}", f"--graph={spec}", f"--output={out}", *extra)
        return read_values(out)

    def test_bfs_depths(self):
        for spec in GRAPHS:
            rows, n = self.load(spec, False)
            a = sp.csr_matrix((np.ones(len(rows)), (rows[:, 0], rows[:, 1])), shape=(n, n))
            src = int(rows[:, 0].min())
            want = csg.shortest_path(a, unweighted=True, indices=src)
            got = self.output("bfs", spec, f"--source={src}")
            np.testing.assert_array_equal(got, want, err_msg=spec)

    def test_sssp_distances(self):
        for spec in GRAPHS:
            rows, n = self.load(spec, False)
            # Random weights, equal in both directions of an undirected edge,
            # written to a weighted edge list that both sides read.
            lo, hi = np.minimum(rows[:, 0], rows[:, 1]), np.maximum(rows[:, 0], rows[:, 1])
            ws = (lo * 7919 + hi * 104729 + 13) % 255 + 1
            wel = os.path.join(self.tmp.name, "weighted.wel")
            with open(wel, "w") as f:
                f.write(f"{n}\n")  # vertex-count header keeps isolated tail vertices
                np.savetxt(f, np.column_stack([rows, ws]), fmt="%d")
            a = sp.csr_matrix((ws.astype(float), (rows[:, 0], rows[:, 1])), shape=(n, n))
            src = int(rows[:, 0].min())
            want = csg.dijkstra(a, indices=src)
            got = self.output("sssp", wel, f"--source={src}")
            np.testing.assert_array_equal(got, want, err_msg=spec)
            self.assertTrue(np.isfinite(got).sum() > 10)

    def test_wcc_labels(self):
        for spec in GRAPHS:
            rows, n = self.load(spec, False)
            a = sp.csr_matrix((np.ones(len(rows)), (rows[:, 0], rows[:, 1])), shape=(n, n))
            _, comp = csg.connected_components(a, directed=True, connection="weak")
            smallest = np.full(comp.max() + 1, n)
            np.minimum.at(smallest, comp, np.arange(n))
            got = self.output("wcc", spec)
            np.testing.assert_array_equal(got, smallest[comp], err_msg=spec)

    def test_pagerank(self):
        for spec in GRAPHS:
            rows, n = self.load(spec, False)
            g = nx.DiGraph()
            g.add_nodes_from(range(n))
            g.add_edges_from(map(tuple, rows))
            want = nx.pagerank(g, alpha=0.85, tol=1e-12, max_iter=1000)
            # 1e-7: float ranks of 2048 vertices round to about 1e-8 of change a step
            got = self.output("pr", spec, "--tolerance=1e-7", "--max_iters=1000")
            want = np.array([want[i] for i in range(n)])
            self.assertLess(np.abs(got - want).sum(), 1e-5, spec)
            self.assertAlmostEqual(got.sum(), 1.0, places=5)

    def test_kcore_coreness(self):
        for spec in GRAPHS:
            rows, n = self.load(spec, False)
            g = nx.Graph()
            g.add_nodes_from(range(n))
            g.add_edges_from(map(tuple, rows))
            g.remove_edges_from(nx.selfloop_edges(g))
            core = nx.core_number(g)
            want = np.array([core[i] for i in range(n)])
            # Every device count on the first graph, a few on the others.
            for devices in range(1, 9) if spec == GRAPHS[0] else (1, 3):
                got = self.output("kcore", spec, f"--devices={devices}")
                np.testing.assert_array_equal(got, want, err_msg=f"{spec} devices={devices}")


class InputIds(unittest.TestCase):
    """Answers in the input's own ids, against NetworkX reading the same
    files: SNAP text with ids 1..34 (Zachary's karate club), gapped 64-bit
    ids, ids past 2^63 up to 2^64-1, and a 1-based DIMACS file."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    def values(self, app, path, *extra):
        out = os.path.join(self.tmp.name, f"{app}.out")
        run("run", f"--app={app}", f"--graph={path}", f"--output={out}", "--validate", *extra)
        vals = {}
        with open(out) as f:
            for line in f:
                v, x = line.split()
                # integers as integers: labels past 2^53 stay exact
                vals[int(v)] = np.inf if x == "inf" else int(x) if x.lstrip("-").isdigit() else float(x)
        return vals

    def karate(self, relabel, name):
        g = nx.relabel_nodes(nx.karate_club_graph(), relabel)
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(f"# Undirected graph\n# Nodes: {g.number_of_nodes()} Edges: {g.number_of_edges()}\n")
            for u, v in g.edges():
                f.write(f"{u}\t{v}\n")
        return g, path

    def test_karate_in_its_own_ids(self):
        for name, relabel in (("karate1.txt", lambda v: v + 1), ("karate64.txt", lambda v: v * 1000003 + 10**12),
                              ("karate_top.txt", lambda v: 2**64 - 1 - v * 10**15)):  # past 2^63, to 2^64-1
            g, path = self.karate(relabel, name)
            ids = sorted(g.nodes())
            wcc = self.values("wcc", path)
            self.assertEqual(sorted(wcc), ids, name)  # 34 vertices, no vertex 0
            self.assertEqual(set(wcc.values()), {ids[0]}, name)  # one component, labelled by its least id
            want = nx.pagerank(g, alpha=0.85, tol=1e-12, max_iter=1000, weight=None)  # the file has no weights
            # above the 1.2e-7 that 4-byte ranks resolve (a smaller one may
            # end in a rounding cycle on any backend)
            got = self.values("pr", path, "--tolerance=2e-7")
            self.assertLess(sum(abs(got[v] - want[v]) for v in ids), 1e-5, name)
            depth = nx.single_source_shortest_path_length(g, ids[5])
            got = self.values("bfs", path, f"--source={ids[5]}")
            self.assertEqual(got, {v: depth[v] for v in ids}, name)

    def test_dimacs_is_one_based(self):
        path = os.path.join(self.tmp.name, "road.gr")
        arcs = [(1, 2, 4), (2, 3, 1), (1, 3, 7), (3, 4, 2), (4, 1, 3)]
        with open(path, "w") as f:
            f.write(f"p sp 4 {len(arcs)}\n" + "".join(f"a {u} {v} {w}\n" for u, v, w in arcs))
        g = nx.DiGraph()
        g.add_weighted_edges_from(arcs)
        want = nx.single_source_dijkstra_path_length(g, 2)
        got = self.values("sssp", path, "--source=2")  # DIMACS vertex 2, not position 2
        self.assertEqual(got, {v: want[v] for v in g.nodes()})


if __name__ == "__main__":
    if BACKEND == "cuda":
        probe = subprocess.run([CHATTY, "run", "--backend=cuda", "--graph=grid:3x3"], capture_output=True, text=True)
        if probe.returncode != 0 and "no usable GPU" in probe.stderr:
            print("skipped: " + probe.stderr.strip())
            sys.exit(77)
        if probe.returncode != 0:
            print("the GPU probe run failed: " + probe.stderr.strip())
            sys.exit(1)
    unittest.main(argv=[sys.argv[0]])
