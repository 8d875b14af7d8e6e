"""The Python package against the CLI's outputs on the same graphs, against
NetworkX and SciPy, its constructors in round trips, bad input (which must
raise, never crash the interpreter), the GIL and Ctrl-C, and the NetworkX
backend. Run with PYTHONPATH=<build>/python and CHATTY=<build>/chatty."""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import chattygraph as cg

nx.config.warnings_to_ignore.add("cache")

CHATTY = os.environ.get("CHATTY", "build/chatty")
FACEBOOK = os.environ.get("CHATTY_FACEBOOK", "build/tests/data/facebook_combined.txt")
INF = np.iinfo(np.uint32).max


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory() as d:
        yield d


def cli_output(tmp, app, graph, *extra):
    """{input id: value} from `chatty run --output` (inf as -1)."""
    out = os.path.join(tmp, "out.txt")
    subprocess.run([CHATTY, "run", f"--app={app}", f"--graph={graph}", f"--output={out}", *extra], check=True,
                   capture_output=True, text=True, timeout=300)
    vals = {}
    for line in open(out):
        v, x = line.split()
        vals[int(v)] = -1 if x == "inf" else float(x)
    return vals


def scattered_ids_file(tmp):
    """A SNAP-style file whose ids are large and sparse (the 'occurring' scheme)."""
    path = os.path.join(tmp, "scattered.txt")
    rng = np.random.default_rng(3)
    ids = np.sort(rng.choice(10**12, size=300, replace=False))
    e = rng.integers(0, 300, size=(1200, 2))
    with open(path, "w") as f:
        f.write("# Directed graph\n")
        for u, v in e:
            f.write(f"{ids[u]}\t{ids[v]}\n")
    return path


# --- the same answers as the CLI ---------------------------------------------
@pytest.mark.parametrize("app,extra", [("bfs", {}), ("sssp", {}), ("pr", {}), ("wcc", {}), ("kcore", {}), ("tc", {}),
                                       ("bfs", {"devices": 3}), ("pr", {"devices": 4, "exchange": "peer"})])
@pytest.mark.parametrize("graph", ["kron:10", "grid:30x20", "facebook", "scattered"])
def test_same_values_as_cli(tmp, app, extra, graph):
    path = {"facebook": FACEBOOK, "scattered": scattered_ids_file(tmp)}.get(graph, graph)
    opts = {"symmetrize": True} if app in ("kcore", "tc") and graph in ("facebook", "scattered") else {}
    g = cg.Graph.load(path, **opts)
    flags = [f"--{k}={v}" for k, v in {**opts, **extra}.items()]
    want = cli_output(tmp, app, path, *flags)
    fn = {"bfs": cg.bfs, "sssp": cg.sssp, "pr": cg.pagerank, "wcc": cg.wcc, "kcore": cg.kcore, "tc": cg.triangles}[app]
    r = fn(g, **extra)
    got = dict(zip(r.ids.tolist(), r.values.tolist()))
    assert got.keys() == want.keys()
    if app == "pr":
        assert max(abs(got[k] - want[k]) for k in want) < 1e-6  # the CLI prints 9 digits
    else:
        assert got == {k: int(v) for k, v in want.items()}


@pytest.mark.parametrize("graph", ["kron:10", "grid:30x20", "urand:10:8"])
@pytest.mark.parametrize("devices", [1, 3])
def test_triangles_match_networkx(graph, devices):
    g = cg.Graph.load(graph)
    G = g.to_networkx()
    want = nx.triangles(G, backend="networkx")
    r = cg.triangles(g, devices=devices, validate=True)
    assert r.to_dict() == want
    assert r.stats["summary"]["triangles"] == sum(want.values()) // 3


@pytest.mark.parametrize("make", [lambda: nx.karate_club_graph(), lambda: nx.gnp_random_graph(120, 0.05, seed=6, directed=True),
                                  lambda: nx.grid_2d_graph(7, 9)])
@pytest.mark.parametrize("kw", [{}, {"normalized": False}, {"k": 12, "seed": 5}])
def test_betweenness_matches_networkx(make, kw):
    G = make()
    want = nx.betweenness_centrality(G, backend="networkx", **kw)
    got = nx.betweenness_centrality(G, backend="chatty", **kw)
    assert max(abs(got[v] - want[v]) / max(abs(want[v]), 1e-12) if want[v] else abs(got[v]) for v in G) < 1e-6


# Held-out inputs: graphs that no test, tuning or benchmark of tc and bc
# used before, from NetworkX's collection and generators (string node
# names, weights, a directed graph), run through the NetworkX backend on 1,
# 4 and 8 host devices.
HELD_OUT = {
    "les_miserables": nx.les_miserables_graph,
    "florentine_families": nx.florentine_families_graph,
    "davis_southern_women": nx.davis_southern_women_graph,
    "powerlaw_cluster": lambda: nx.powerlaw_cluster_graph(300, 4, 0.3, seed=11),
    "watts_strogatz": lambda: nx.connected_watts_strogatz_graph(250, 6, 0.2, seed=3),
    "random_regular": lambda: nx.random_regular_graph(5, 200, seed=8),
    "scale_free_directed": lambda: nx.DiGraph(nx.scale_free_graph(200, seed=4)),
}


@pytest.mark.parametrize("name", sorted(HELD_OUT))
@pytest.mark.parametrize("devices", [1, 4, 8])
def test_held_out_graphs_triangles_and_betweenness(name, devices):
    G = HELD_OUT[name]()
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    cfg = nx.config.backends.chatty
    saved, cfg.devices = cfg.devices, devices
    try:
        if not G.is_directed():
            assert nx.triangles(G, backend="chatty") == nx.triangles(G, backend="networkx")
        want = nx.betweenness_centrality(G, backend="networkx")
        got = nx.betweenness_centrality(G, backend="chatty")
    finally:
        cfg.devices = saved
    assert max(abs(got[v] - want[v]) / max(abs(want[v]), 1e-12) if want[v] else abs(got[v]) for v in G) < 1e-6


def test_betweenness_same_as_cli(tmp):
    path = scattered_ids_file(tmp)
    g = cg.Graph.load(path)
    ids = [int(g.ids[i]) for i in (3, 50, 200)]
    want = cli_output(tmp, "bc", path, "--sources=" + ",".join(map(str, ids)))
    got = dict(zip(g.ids.tolist(), cg.betweenness(g, sources=ids, devices=2).values.tolist()))
    assert max(abs(got[k] - want[k]) / max(1.0, abs(want[k])) for k in want) < 1e-6
    exact = cg.betweenness(cg.Graph.load("grid:12x10"), sources="all", validate=True)
    assert exact.stats["validated"] == "pass" and exact.stats["summary"]["sources"] == 120
    with pytest.raises(ValueError, match="exclude"):
        cg.betweenness(g, source=ids[0], sources=ids)
    with pytest.raises(ValueError, match="not a vertex"):
        cg.betweenness(g, sources=[ids[0], 7])  # 7 is no id of this file


def test_source_is_an_input_id(tmp):
    path = scattered_ids_file(tmp)
    g = cg.Graph.load(path)
    src = int(g.ids[17])
    assert src > 300  # an id, not a position
    r = cg.bfs(g, source=src)
    assert r.values[17] == 0
    assert r.to_dict() == {int(k): int(v) for k, v in cli_output(tmp, "bfs", path, f"--source={src}").items() if v >= 0}


# --- against NetworkX and SciPy ----------------------------------------------
def nx_facebook():
    G = nx.read_edgelist(FACEBOOK, nodetype=int, create_using=nx.DiGraph, data=False)
    return G


def test_pagerank_matches_networkx():
    G = nx_facebook()
    want = nx.pagerank(G, backend="networkx", tol=1e-10)
    r = cg.pagerank(cg.Graph.from_networkx(G), tolerance=1e-7)
    got = r.to_dict()
    assert max(abs(got[k] - want[k]) for k in G) < 1e-6


def test_bfs_and_wcc_match_scipy():
    g = cg.Graph.load("urand:12:3")
    indptr, indices, _ = g.csr()
    A = sp.csr_array((np.ones(indices.size), indices.astype(np.int64), indptr.astype(np.int64)), shape=(g.n, g.n))
    d = csg.shortest_path(A, unweighted=True, indices=0)
    r = cg.bfs(g, source=0)
    assert np.array_equal(np.where(np.isinf(d), -1, d).astype(np.int64), r.values)
    ncomp, labels = csg.connected_components(A, directed=True, connection="weak")
    w = cg.wcc(g).values
    assert np.unique(w).size == ncomp
    # the same partition: each SciPy component maps to one label
    pairs = set(zip(labels.tolist(), w.tolist()))
    assert len(pairs) == ncomp


def test_scc_matches_scipy_and_networkx():
    rng = np.random.default_rng(4)
    n = 3000
    src, dst = rng.integers(0, n, 2 * n), rng.integers(0, n, 2 * n)
    g = cg.Graph.from_edges(src, dst, n=n, directed=True)
    A = sp.csr_array((np.ones(src.size), (src, dst)), shape=(n, n))
    ncomp, labels = csg.connected_components(A, directed=True, connection="strong")
    got = cg.scc(g, devices=3).values
    assert np.unique(got).size == ncomp
    assert len(set(zip(labels.tolist(), got.tolist()))) == ncomp
    assert all(got[v] <= v and got[got[v]] == got[v] for v in range(n))  # the least id of each
    # Through NetworkX: the same sets, sinks first (a valid condensation order).
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    mine = list(nx.strongly_connected_components(G, backend="chatty"))
    assert {frozenset(c) for c in mine} == {frozenset(c) for c in nx.strongly_connected_components(G)}
    at = {v: i for i, c in enumerate(mine) for v in c}
    assert all(at[u] >= at[v] for u, v in G.edges())
    assert nx.number_strongly_connected_components(G, backend="chatty") == ncomp
    assert not nx.is_strongly_connected(G, backend="chatty")


def test_label_propagation_matches_networkx():
    for seed, groups in ((1, 3), (2, 25)):
        G = nx.planted_partition_graph(groups, 20, 0.5, 0.02, seed=seed)
        G.add_node(len(G))  # one alone
        G.add_edges_from([(0, 0), (7, 7)])  # self-loops: twice in a degree, once as a neighbour
        want = [set(c) for c in nx.community.label_propagation_communities(G)]
        got = [set(c) for c in nx.community.label_propagation_communities(G, backend="chatty")]
        assert got == want  # the same communities, in the same order
        r = cg.label_propagation(G, devices=3)
        assert {frozenset(np.flatnonzero(r.values == l).tolist()) for l in np.unique(r.values)} == \
            {frozenset(c) for c in want}


def test_sssp_uses_the_graphs_weights():
    rng = np.random.default_rng(5)
    src = rng.integers(0, 200, 2000)
    dst = rng.integers(0, 200, 2000)
    w = rng.integers(0, 50, 2000)
    g = cg.Graph.from_edges(src, dst, w, n=200, dedupe=False, drop_self_loops=False)
    A = sp.coo_array((w.astype(float) + 1e-9, (src, dst)), shape=(200, 200)).tocsr()  # zero weights stay edges
    A.sum_duplicates()  # the lightest of parallel edges is what Dijkstra takes; rebuild with minima
    lightest = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        lightest[(u, v)] = min(x, lightest.get((u, v), x))
    keys = np.array(list(lightest))
    A = sp.csr_array((np.array(list(lightest.values()), float) + 1e-9, (keys[:, 0], keys[:, 1])), shape=(200, 200))
    d = csg.dijkstra(A, indices=int(src[0]))
    r = cg.sssp(g, source=int(src[0]))
    assert np.array_equal(np.where(np.isinf(d), -1, np.round(d)).astype(np.int64), r.values)


def test_validate_and_devices_agree():
    g = cg.Graph.load("kron:11")
    one = cg.pagerank(g, validate=True)
    assert one.stats["validated"] == "pass"
    four = cg.pagerank(g, devices=4, validate=True)
    assert np.abs(one.values - four.values).sum() < 1e-5
    assert np.array_equal(cg.bfs(g, source=1).values, cg.bfs(g, source=1, devices=3, direction="push").values)


def test_validate_reads_the_file_as_it_was_loaded():
    # --validate reads the file again with the graph's own load options,
    # not the run's defaults (an undirected reading is not a directed one).
    g = cg.Graph.load(FACEBOOK, symmetrize=True)
    r = cg.bfs(g, source=107, validate=True)
    assert r.stats["validated"] == "pass"
    assert "second, independent reading" in r.stats["validation"]


def test_communicator_is_checked():
    g = cg.Graph.load("kron:8")
    with pytest.raises(TypeError, match="communicator: an mpi4py communicator"):
        cg.bfs(g, communicator="world")
    # This process never initialised MPI: a communicator cannot name its ranks.
    with pytest.raises(Exception, match="MPI is not running in this process|this build has no MPI"):
        cg.bfs(g, communicator=0)


# --- constructors and round trips --------------------------------------------
def test_from_scipy_uses_the_arrays_in_place():
    A = sp.random_array((500, 500), density=0.02, format="csr", random_state=1, dtype=np.float64)
    A.data[:] = 1
    assert A.indices.dtype == np.int32  # SciPy's choice for a small matrix
    g = cg.Graph.from_scipy(A)
    indptr, indices, w = g.csr()
    assert not g.copied_edges
    assert np.shares_memory(indices, A.indices)
    wide = sp.csr_array((A.data, A.indices.astype(np.int64), A.indptr.astype(np.int64)), shape=A.shape)
    assert cg.Graph.from_scipy(wide).copied_edges  # int64 indices: converted
    assert w is None and g.m == A.nnz
    del A  # the graph keeps the arrays alive
    assert cg.bfs(g, source=0).values[0] == 0


def test_from_scipy_converts_what_does_not_fit():
    A = sp.coo_array(([2, 3, 1, 5], ([0, 2, 1, 0], [1, 0, 2, 1])), shape=(3, 3))  # a duplicate (0,1): summed to 7
    g = cg.Graph.from_scipy(A)
    assert g.copied_edges and g.weighted
    B = g.to_scipy()
    assert np.array_equal(B.toarray(), A.toarray())
    u = cg.Graph.from_scipy(A, directed=False)  # not symmetric: symmetrized
    assert not u.directed and u.m == 6  # 0-1, 0-2 and 1-2, each both ways
    frac = sp.csr_array(np.array([[0, 0.5], [0.25, 0]]))
    assert not cg.Graph.from_scipy(frac).weighted  # fractional values are not SSSP's weights: dropped
    with pytest.raises(ValueError, match="whole numbers"):
        cg.Graph.from_scipy(frac, weighted=True)


def test_from_scipy_symmetric_undirected_in_place():
    A = sp.random_array((300, 300), density=0.03, format="csr", random_state=2)
    A = ((A + A.T) > 0).astype(np.float64).tocsr()
    g = cg.Graph.from_scipy(A, directed=False)
    assert not g.copied_edges and not g.directed
    assert np.array_equal(g.to_scipy().toarray(), A.toarray())


def test_from_edges_round_trip():
    src = np.array([0, 1, 2, 2, 5])
    dst = np.array([1, 2, 0, 0, 1])
    g = cg.Graph.from_edges(src, dst)
    assert (g.n, g.m) == (6, 4)  # vertex 5 counts; one parallel edge dropped (dedupe)
    indptr, indices, _ = g.csr()
    assert indptr.tolist() == [0, 1, 2, 3, 3, 3, 4] and indices.tolist() == [1, 2, 0, 1]
    keep = cg.Graph.from_edges(src, dst, dedupe=False, n=8)
    assert (keep.n, keep.m) == (8, 5)
    und = cg.Graph.from_edges(src, dst, directed=False)
    assert not und.directed and und.m == 8


def test_from_networkx_round_trip():
    G = nx.DiGraph()
    G.add_edges_from([("a", "b"), ("b", "c"), ("c", "a"), ("c", "c"), ("d", "a")])
    g = cg.Graph.from_networkx(G)
    assert g.nodes == list(G) and g.m == G.number_of_edges()
    H = g.to_networkx()
    assert set(H.edges) == set(G.edges)
    assert cg.bfs(g, source="d").to_dict() == nx.single_source_shortest_path_length(G, "d", backend="networkx")
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    gm = cg.Graph.from_networkx(M)
    assert gm.m == 6  # both directions of every parallel edge
    W = nx.Graph()
    W.add_weighted_edges_from([(0, 1, 4), (1, 2, 1), (0, 2, 7)])
    gw = cg.Graph.from_networkx(W, weight="weight")
    assert cg.sssp(gw, source=0).to_dict() == nx.single_source_dijkstra_path_length(W, 0, backend="networkx")


@pytest.mark.parametrize("ext", ["el", "wel", "mtx", "cgr", "txt.gz", "gr"])
def test_save_and_load_round_trip(tmp, ext):
    rng = np.random.default_rng(7)
    src, dst = rng.integers(0, 400, 3000), rng.integers(0, 400, 3000)
    g = cg.Graph.from_edges(src, dst, rng.integers(1, 100, 3000), n=400)
    path = os.path.join(tmp, f"g.{ext}")
    g.save(path)
    h = cg.Graph.load(path)
    a, b = g.csr(), h.csr()
    assert h.directed and np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    if ext != "el" and ext != "txt.gz":  # the formats that carry weights
        assert np.array_equal(a[2], b[2])


def test_convert(tmp):
    out = os.path.join(tmp, "fb.cgr")
    cg.Graph.convert(FACEBOOK, out, symmetrize=True)
    g = cg.Graph.load(out)
    assert not g.directed and g.n == 4039


# --- bad input raises, with the CLI's message ---------------------------------
def test_bad_options_raise_value_error():
    g = cg.Graph.load("kron:8")
    with pytest.raises(ValueError, match=r"unknown option tolerence= \(did you mean tolerance=\?\)"):
        cg.pagerank(g, tolerence=1e-3)
    with pytest.raises(ValueError, match="devices=many: devices= takes a whole number"):
        cg.bfs(g, devices="many")
    with pytest.raises(ValueError, match="pr has no source"):
        cg.pagerank(g, source=1)
    with pytest.raises(ValueError, match="is not a vertex of kron:8"):
        cg.bfs(g, source=10**6)
    with pytest.raises(ValueError, match="^repeat= must be at least 1"):
        cg.bfs(g, repeat=0)
    with pytest.raises(ValueError, match="graph= is not an option here"):
        cg.bfs(g, graph="x")
    with pytest.raises(ValueError, match="reorder= must be"):
        cg.pagerank(g, reorder="sideways")
    with pytest.raises(ValueError):
        cg.Graph.load("kron:8", validate=True)  # not a load option (chatty info does not take it)


def test_bad_graphs_raise(tmp):
    with pytest.raises(ValueError, match="cannot open"):
        cg.Graph.load(os.path.join(tmp, "missing.txt"))
    bad = os.path.join(tmp, "bad.mtx")
    with open(bad, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n2 3\n")  # truncated
    with pytest.raises(ValueError):
        cg.Graph.load(bad)
    with pytest.raises(ValueError, match="not a vertex of a graph of 3"):
        cg.Graph.from_csr(np.array([0, 1, 2, 2]), np.array([1, 7]))
    with pytest.raises(ValueError, match="indptr"):
        cg.Graph.from_csr(np.array([0, 2, 1, 2]), np.array([1, 2]))
    with pytest.raises(ValueError, match="negative"):
        cg.Graph.from_edges([0, -1], [1, 2])
    with pytest.raises(ValueError, match="integers"):
        cg.Graph.from_edges([0.5], [1])
    with pytest.raises(ValueError, match="n=2 but an edge names vertex 4"):
        cg.Graph.from_edges([0], [4], n=2)
    with pytest.raises(ValueError, match="square"):
        cg.Graph.from_scipy(sp.csr_array((2, 3)))
    with pytest.raises(TypeError):
        cg.bfs([[0, 1]])
    with pytest.raises(ValueError, match="no vertices"):
        cg.bfs(cg.Graph.from_edges([], []))
    assert nx.pagerank(nx.DiGraph(), backend="chatty") == {}  # NetworkX's answer for no vertices


def test_unweighted_sssp_gets_default_weights_unless_refused():
    g = cg.Graph.load("kron:8", weights=False)
    assert cg.sssp(g).stats["weights"] == "generated"
    assert not g.weighted  # the run's weights are its own
    with pytest.raises(ValueError, match="weights"):
        cg.sssp(g, no_default_weights=True)


# --- the GIL and Ctrl-C --------------------------------------------------------
def test_runs_release_the_gil():
    g = cg.Graph.load("kron:15")
    ticks = 0
    done = threading.Event()

    def run():
        try:
            cg.pagerank(g, max_iters=60, tolerance=1e-30)
        finally:
            done.set()

    t = threading.Thread(target=run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t.start()
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)
        t.join()
    assert ticks > 5  # the interpreter ran meanwhile


def test_ctrl_c_stops_a_run():
    code = (
        "import chattygraph as cg, os, signal, threading, time\n"
        "g = cg.Graph.load('kron:16')\n"
        "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "t = time.time()\n"
        "try:\n"
        "    cg.pagerank(g, max_iters=100000, tolerance=1e-30)\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted after %.1f s' % (time.time() - t))\n"
        "print(cg.bfs(g, source=0).values[0])\n"  # the next run works
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.split("\n")
    assert lines[0].startswith("interrupted after") and float(lines[0].split()[2]) < 10
    assert lines[1] == "0"


# --- the NetworkX backend -------------------------------------------------------
def test_networkx_backend_answers():
    G = nx.gnp_random_graph(300, 0.02, seed=4, directed=True)
    for alpha in (0.85, 0.7):
        a = nx.pagerank(G, alpha=alpha, backend="chatty")
        b = nx.pagerank(G, alpha=alpha, backend="networkx")
        assert max(abs(a[k] - b[k]) for k in G) < 1e-6
    assert nx.single_source_shortest_path_length(G, 3, backend="chatty") == \
        nx.single_source_shortest_path_length(G, 3, backend="networkx")
    U = G.to_undirected()
    assert sorted(map(sorted, nx.connected_components(U, backend="chatty"))) == \
        sorted(map(sorted, nx.connected_components(U, backend="networkx")))
    assert nx.number_connected_components(U, backend="chatty") == nx.number_connected_components(U)
    assert nx.core_number(U, backend="chatty") == nx.core_number(U, backend="networkx")
    assert nx.triangles(U, backend="chatty") == nx.triangles(U, backend="networkx")
    assert nx.triangles(U, 5, backend="chatty") == nx.triangles(U, 5, backend="networkx")
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, "nope", backend="chatty")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=1, backend="chatty")


def test_networkx_backend_declines_what_it_does_not_compute(monkeypatch):
    from chattygraph import nx_backend

    monkeypatch.setattr(nx_backend, "_RECORD", True)
    del nx_backend.events[:]
    G = nx.path_graph(5, create_using=nx.DiGraph)
    with pytest.raises(Exception, match="not implemented by 'chatty'"):
        nx.pagerank(G, personalization={0: 1, 1: 2}, backend="chatty")  # unequal shares
    nx.set_edge_attributes(G, 0.5, "weight")  # fractional weights: NetworkX's answer, never ours
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend="chatty")
    assert nx_backend.events == [
        ("declined", "pagerank", "chatty takes a personalization of equal positive shares on nodes of the graph"),
        ("declined", "single_source_dijkstra_path_length",
         "chatty's SSSP reads whole, non-negative weights below 2^32 - 1"),
    ]


def test_networkx_automatic_backend():
    code = (
        "import networkx as nx, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from chattygraph import nx_backend\n"
        # Large enough for should_run (small graphs are NetworkX's to run).
        "G = nx.gnp_random_graph(3000, 0.003, seed=1)\n"
        "r = nx.pagerank(G)\n"
        "p = nx.pagerank(G, personalization={0: 1, 1: 2})\n"  # declined: NetworkX runs it
        "print(sorted({e[0] + ':' + e[1] for e in nx_backend.events}))\n"
    )
    env = dict(os.environ, NETWORKX_AUTOMATIC_BACKENDS="chatty", CHATTY_NX_RECORD="1")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "['declined:pagerank', 'ran:pagerank']"
