"""What a newcomer met through the package and the NetworkX backend: answers
compared with NetworkX's on several graphs and seeds (BC's sources and
conventions, SSSP on edgeless graphs, triangles' nodes, Dijkstra's number
types), Ctrl-C in every app, and errors in the caller's own words. Run with
PYTHONPATH=<build>/python and CHATTY=<build>/chatty."""

import json
import math
import os
import random
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import chattygraph as cg

nx.config.warnings_to_ignore.add("cache")

CHATTY = os.environ.get("CHATTY", "build/chatty")


def graphs():
    """Small graphs of several shapes, directed and not, with their names."""
    yield "karate", nx.karate_club_graph()
    yield "gnp", nx.gnp_random_graph(60, 0.08, seed=7)
    yield "digraph", nx.gnp_random_graph(50, 0.08, seed=3, directed=True)
    yield "strings", nx.relabel_nodes(nx.path_graph(9), {i: f"v{i}" for i in range(9)})
    yield "grid", nx.convert_node_labels_to_integers(nx.grid_2d_graph(6, 5))


def close(a, b, tol=1e-9):
    assert a.keys() == b.keys()
    for k in a:
        if math.isnan(b[k]):
            assert math.isnan(a[k]), (k, a[k], b[k])
        else:
            assert abs(a[k] - b[k]) <= tol * max(1.0, abs(b[k])), (k, a[k], b[k])


# --- 1. a list of sources is ids, of any length --------------------------------
@pytest.mark.parametrize("name,G", list(graphs()))
def test_betweenness_with_k_sources_is_networkxs(name, G):
    for k in (1, 2, 3):
        for seed in (0, 1, 5, 42):
            for normalized in (True, False):
                want = nx.betweenness_centrality(G, k=k, seed=seed, normalized=normalized)
                got = nx.betweenness_centrality(G, k=k, seed=seed, normalized=normalized, backend="chatty")
                close(got, want, 1e-6)


def test_a_list_of_one_source_is_that_source():
    G = nx.karate_club_graph()
    g = cg.Graph.from_networkx(G)
    for s in (0, 5, 33):
        got = cg.betweenness(g, sources=[s]).values
        want = cg.betweenness(g, source=s).values
        assert np.array_equal(got, want)
        assert cg.betweenness(g, sources=[s]).stats["summary"]["sources"] == 1
    # A count is still a count.
    assert cg.betweenness(g, sources=5).stats["summary"]["sources"] == 5


def test_cli_tells_a_list_of_one_id_from_a_count(tmp_path):
    path = tmp_path / "karate.txt"
    nx.write_edgelist(nx.karate_club_graph(), path, data=False)

    def scores(*extra):
        out = tmp_path / "out.txt"
        p = subprocess.run([CHATTY, "run", "--app=bc", f"--graph={path}", "--undirected", f"--output={out}", "--json",
                            "--quiet", *extra], capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout), {int(a): float(b) for a, b in (line.split() for line in open(out))}

    one, by_list = scores("--sources=0,")
    assert one["summary"]["sources"] == 1 and "source" in one
    assert by_list == scores("--source=0")[1]
    five, _ = scores("--sources=5")
    assert five["summary"]["sources"] == 5
    assert "source" not in five  # several sources: no one source to name (item 6)
    p = subprocess.run([CHATTY, "run", "--app=bc", f"--graph={path}", "--sources=0"], capture_output=True, text=True)
    assert p.returncode == 2 and "at least 1" in p.stderr


# --- 2. BC's conventions --------------------------------------------------------
@pytest.mark.parametrize("name,G", list(graphs()))
def test_bc_scale_is_networkxs_convention(name, G):
    g = cg.Graph.from_networkx(G)
    raw = dict(zip(g.nodes, cg.betweenness(g, sources="all").values.tolist()))
    pairs = dict(zip(g.nodes, cg.betweenness(g, sources="all", bc_scale="pairs").values.tolist()))
    norm = dict(zip(g.nodes, cg.betweenness(g, sources="all", bc_scale="normalized", validate=True).values.tolist()))
    close(pairs, nx.betweenness_centrality(G, normalized=False), 1e-6)
    close(norm, nx.betweenness_centrality(G, normalized=True), 1e-6)
    twice = 1 if G.is_directed() else 2  # ordered pairs: an undirected pair counts both ways
    close(raw, {v: twice * x for v, x in nx.betweenness_centrality(G, normalized=False).items()}, 1e-6)


def test_bc_scale_on_sampled_sources_matches_networkx():
    G = nx.karate_club_graph()
    g = cg.Graph.from_networkx(G)
    for seed in (3, 9):
        sample = random.Random(seed).sample(list(G), 4)
        for normalized in (True, False):
            want = nx.betweenness_centrality(G, k=4, seed=seed, normalized=normalized)
            got = cg.betweenness(g, sources=sample, bc_scale="normalized" if normalized else "pairs")
            close(dict(zip(g.nodes, got.values.tolist())), want, 1e-6)


# --- 4. an edgeless graph is a graph --------------------------------------------
def test_every_app_runs_on_graphs_without_edges():
    for n in (1, 3):
        G = nx.empty_graph(n)
        assert nx.single_source_dijkstra_path_length(G, 0, backend="chatty") == {0: 0}
        assert nx.single_source_shortest_path_length(G, 0, backend="chatty") == {0: 0}
        assert nx.triangles(G, backend="chatty") == {v: 0 for v in range(n)}
        assert nx.core_number(G, backend="chatty") == {v: 0 for v in range(n)}
        assert nx.betweenness_centrality(G, backend="chatty") == nx.betweenness_centrality(G)
        g = cg.Graph.from_networkx(G)
        assert cg.sssp(g, source=0).to_dict() == {0: 0}
        assert cg.sssp(g, source=0, no_default_weights=True, validate=True).to_dict() == {0: 0}
        assert cg.bfs(g, source=0, validate=True).to_dict() == {0: 0}
        assert list(cg.wcc(g).values) == list(range(n))
        assert cg.pagerank(g).values.sum() == pytest.approx(1.0)


def test_automatic_mode_answers_sssp_on_one_node():
    code = ("import networkx as nx\n"
            "G = nx.Graph(); G.add_node(0)\n"
            "print(nx.single_source_dijkstra_path_length(G, 0))\n")
    env = dict(os.environ, NETWORKX_AUTOMATIC_BACKENDS="chatty")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "{0: 0}", p.stderr


# --- 5. NetworkX's argument handling ---------------------------------------------
def test_triangles_nodes_as_networkx_takes_them():
    K = nx.complete_graph(20)
    assert nx.triangles(K, nodes=[0, 99], backend="chatty") == nx.triangles(K, nodes=[0, 99]) == {0: 171}
    assert nx.triangles(K, nodes=3, backend="chatty") == nx.triangles(K, nodes=3)
    assert nx.triangles(K, nodes=iter([5, 2, 5]), backend="chatty") == nx.triangles(K, nodes=[5, 2, 5])
    assert nx.triangles(K, nodes=[], backend="chatty") == {}
    for bad in (99, [[1]]):
        with pytest.raises(nx.NetworkXError) as want:
            nx.triangles(K, nodes=bad)
        with pytest.raises(nx.NetworkXError) as got:
            nx.triangles(K, nodes=bad, backend="chatty")
        assert str(got.value) == str(want.value)


# --- 10. Dijkstra's distances keep the weights' type ------------------------------
def test_dijkstra_distances_have_networkxs_types():
    for weights in ([2.0, 3.0, 1.0], [2, 3, 1]):
        G = nx.Graph()
        G.add_weighted_edges_from([(0, 1, weights[0]), (1, 2, weights[1]), (0, 2, weights[2] + 9)])
        want = nx.single_source_dijkstra_path_length(G, 0)
        got = nx.single_source_dijkstra_path_length(G, 0, backend="chatty")
        assert got == want
        assert [type(x) for x in got.values()] == [type(x) for x in want.values()]
    G = nx.Graph()
    G.add_edge(0, 1, weight=2.0)
    G.add_edge(1, 2, weight=3)  # mixed: NetworkX's types differ by path, so NetworkX answers
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend="chatty")


# --- 3. Ctrl-C stops every app within a fraction of a second ----------------------
INTERRUPT = """
import chattygraph as cg, os, signal, sys, threading, time
g = cg.Graph.load(sys.argv[1])
app, kw = sys.argv[2], eval(sys.argv[3])
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t = time.time()
try:
    getattr(cg, app)(g, **kw)
    print("finished after %.2f s" % (time.time() - t))
except KeyboardInterrupt:
    print("interrupted after %.2f s" % (time.time() - t))
print(cg.bfs(g, source=0).values[0])
"""


@pytest.mark.parametrize("app,graph,kw", [
    ("betweenness", "kron:14", {"sources": "all"}),                   # a team per level
    ("betweenness", "grid:150x150", {"sources": "all"}),              # a source per thread
    ("betweenness", "kron:12", {"sources": "all", "validate": True}),  # the reference's loop
    ("triangles", "kron:19", {}),
    ("pagerank", "kron:16", {"max_iters": 100000, "tolerance": 1e-30}),
    # The superstep apps, run again and again: a repeat stops too.
    ("bfs", "kron:14", {"repeat": 100000}),
    ("sssp", "kron:14", {"repeat": 100000}),
    ("wcc", "kron:14", {"repeat": 100000}),
    ("kcore", "kron:14", {"repeat": 100000}),
])
def test_ctrl_c_stops_the_app_at_once(app, graph, kw):
    p = subprocess.run([sys.executable, "-c", INTERRUPT, graph, app, repr(kw)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    first, second = p.stdout.split("\n")[:2]
    assert first.startswith("interrupted after"), first
    assert float(first.split()[2]) < 1.5, first  # the signal came at 1 s
    assert second == "0"


def test_ctrl_c_stops_the_cli_at_once():
    import signal
    import time
    for app in ("bc", "tc"):
        p = subprocess.Popen([CHATTY, "run", f"--app={app}", "--graph=kron:16", "--sources=all"
                              if app == "bc" else "--repeat=50"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        t = time.time()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=30)
        assert time.time() - t < 0.5 and p.returncode != 0


# --- 9. errors name what the caller typed ------------------------------------------
def test_errors_name_python_keywords():
    g = cg.Graph.load("kron:8")
    with pytest.raises(ValueError) as e:
        cg.pagerank(g, tolerance=-1)
    assert "tolerance=" in str(e.value) and "--" not in str(e.value)
    with pytest.raises(ValueError) as e:
        cg.bfs(g, tolerence=1)
    assert "tolerence=" in str(e.value) and "tolerance=" in str(e.value) and "--" not in str(e.value)
    d = cg.Graph.from_edges([0, 1], [1, 2])
    with pytest.raises(ValueError) as e:
        cg.kcore(d)
    assert "--" not in str(e.value), str(e.value)


# --- 8. help a newcomer can read ------------------------------------------------------
def test_help_lists_every_app_and_groups_run_flags():
    first = subprocess.run([CHATTY, "help"], capture_output=True, text=True).stdout.splitlines()[0]
    for app in cg.apps():
        assert app in first, first
    text = subprocess.run([CHATTY, "help", "run"], capture_output=True, text=True).stdout
    heads = [line for line in text.splitlines() if line.endswith(":") or line.startswith("tuning")]
    assert heads[:3] == ["apps:", "common:", "the input:"], heads
    assert any(h.startswith("tuning") for h in heads) and "ranks (under mpirun):" in heads
    assert text.index("--ring_bytes") > text.index("tuning")  # engine internals apart from everyday flags
    assert "--noFLAG" in text and "Katz, eigenvector, HITS" in text and "ordered pairs" in text
    said = subprocess.run([CHATTY, "run", "--graph=kron:6"], capture_output=True, text=True).stdout
    assert "bfs (no --app given: the default)" in said and "no --graph" not in said, said
    said = subprocess.run([CHATTY, "run", "--app=wcc"], capture_output=True, text=True).stdout
    assert "kron:16 (no --graph given: the default)" in said and "no --app" not in said, said
