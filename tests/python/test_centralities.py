"""Katz and eigenvector centrality against NetworkX's own (its linear
solve and its sparse eigensolver: exact where its iterations would take
seconds on the real graph; ours to a tight tolerance), on every device
count, directed and undirected, and through the NetworkX backend."""
import os

import networkx as nx
import pytest

import chattygraph as cg
from nx_reference import once, read_edgelist

FACEBOOK = os.environ.get("CHATTY_FACEBOOK")


def graphs():
    yield "karate", nx.karate_club_graph()
    yield "directed", nx.gnp_random_graph(300, 0.03, seed=7, directed=True)
    if FACEBOOK:
        yield "facebook", read_edgelist(FACEBOOK)


def l1(a, b):
    return sum(abs(a[k] - b[k]) for k in b)


@pytest.mark.parametrize("devices", [1, 3])
def test_katz_matches_networkx(devices):
    for name, G in graphs():
        alpha = 0.9 / max(d for _, d in (G.in_degree() if G.is_directed() else G.degree()))
        want = once((name, "katz"), lambda: nx.katz_centrality_numpy(G, alpha=alpha, backend="networkx"))
        g = cg.Graph.from_networkx(G)
        got = cg.katz(g, katz_alpha=alpha, tolerance=1e-9, max_iters=10000, devices=devices).to_dict()
        assert l1(got, want) < 1e-5, name
        unscaled = cg.katz(g, katz_alpha=alpha, katz_normalized=False, tolerance=1e-9, max_iters=10000).to_dict()
        want = once((name, "katz unscaled"),
                    lambda: nx.katz_centrality_numpy(G, alpha=alpha, normalized=False, backend="networkx"))
        assert max(abs(unscaled[k] - want[k]) / want[k] for k in want) < 1e-5, name


@pytest.mark.parametrize("devices", [1, 3])
def test_eigenvector_matches_networkx(devices):
    for name, G in graphs():
        want = once((name, "eigenvector"), lambda: nx.eigenvector_centrality_numpy(G, backend="networkx"))
        got = cg.eigenvector(cg.Graph.from_networkx(G), tolerance=1e-9, max_iters=10000, devices=devices).to_dict()
        assert l1(got, want) < 1e-5, name


@pytest.mark.parametrize("devices", [1, 3])
def test_hits_matches_networkx(devices):
    for name, G in [*graphs(), ("les miserables", nx.les_miserables_graph()),
                    ("scale-free", nx.DiGraph(nx.scale_free_graph(800, seed=3)))]:
        hubs, authorities = once((name, "hits"), lambda: nx.hits(G, tol=1e-12, backend="networkx"))
        weighted = name in ("karate", "les miserables")
        r = cg.hits(cg.Graph.from_networkx(G, weight="weight" if weighted else None), tolerance=1e-10,
                    max_iters=10000, devices=devices, validate=True)
        got = r.to_dict()
        assert l1(got, hubs) < 1e-6, name
        assert l1(dict(zip(r.nodes, r.authorities.tolist())), authorities) < 1e-6, name
        assert r.stats["converged"], name
    assert "top_authorities" in r.stats["summary"]


def test_hits_through_the_networkx_backend():
    for G in (nx.karate_club_graph(), nx.DiGraph([(1, 3), (1, 5), (2, 1), (3, 5), (5, 4), (5, 3), (6, 5)])):
        want = nx.hits(G, backend="networkx")
        got = nx.hits(G, backend="chatty")
        for w, g in zip(want, got):
            assert l1(g, w) < 1e-6
    assert nx.hits(nx.DiGraph(), backend="chatty") == ({}, {})
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.hits(nx.path_graph(5), max_iter=0, backend="chatty")
    # Bipartite undirected graphs share the principal singular value between
    # the double cover's two halves: NetworkX's answer is ARPACK's to pick.
    with pytest.raises(NotImplementedError):
        nx.hits(nx.grid_2d_graph(6, 6), backend="chatty")
    G = nx.DiGraph([(0, 1, {"weight": 0.5}), (1, 2, {"weight": 2})])
    with pytest.raises(NotImplementedError):
        nx.hits(G, backend="chatty")  # fractional weights


def test_through_the_networkx_backend():
    G = nx.karate_club_graph()
    for f in (nx.katz_centrality, nx.eigenvector_centrality):
        want = f(G, backend="networkx")
        got = f(G, backend="chatty")
        assert max(abs(got[k] - want[k]) for k in want) < 1e-6, f.__name__
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.katz_centrality(G, alpha=0.5, backend="chatty")  # above 1 / the largest eigenvalue: the values grow
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.eigenvector_centrality(nx.Graph(), backend="chatty")
    assert nx.katz_centrality(nx.Graph(), backend="chatty") == {}


def test_weighted_betweenness_matches_networkx():
    import random

    G = nx.gnp_random_graph(150, 0.04, seed=5)
    for u, v in G.edges():
        G[u][v]["weight"] = random.Random(u * 1000 + v).randint(1, 9)
    for graph in (G, nx.DiGraph(G)):
        want = nx.betweenness_centrality(graph, weight="weight", backend="networkx")
        got = nx.betweenness_centrality(graph, weight="weight", backend="chatty")
        assert max(abs(got[k] - want[k]) for k in want) < 1e-6
        # The unweighted scores differ: the weights are read.
        plain = nx.betweenness_centrality(graph, backend="networkx")
        assert max(abs(got[k] - plain[k]) for k in want) > 1e-3
    g = cg.Graph.from_networkx(G, weight="weight")
    r = cg.weighted_betweenness(g, sources="all", bc_scale="normalized", validate=True)
    assert max(abs(r.to_dict()[k] - v) for k, v in nx.betweenness_centrality(G, weight="weight").items()) < 1e-6


@pytest.mark.parametrize("devices", [1, 3])
def test_personalized_pagerank_matches_networkx(devices):
    for name, G in graphs():
        nodes = list(G)
        for seeds in ([nodes[0]], nodes[3:9]):
            want = once((name, "ppr", tuple(seeds)),
                        lambda: nx.pagerank(G, personalization={v: 1 for v in seeds}, tol=1e-12, max_iter=1000,
                                            weight=None, backend="networkx"))
            g = cg.Graph.from_networkx(G)
            got = cg.personalized_pagerank(g, sources=seeds, tolerance=1e-7, max_iters=1000, devices=devices,
                                           validate=True).to_dict()
            assert l1(got, want) < 1e-5, name
            # Through the backend, with NetworkX's arguments.
            got = nx.pagerank(G, personalization={v: 2.5 for v in seeds}, weight=None, backend="chatty")
            want = nx.pagerank(G, personalization={v: 1 for v in seeds}, weight=None, backend="networkx")
            assert l1(got, want) < 1e-5
    G = nx.karate_club_graph()
    with pytest.raises(NotImplementedError):  # unequal shares: declined (NetworkX runs them where it may)
        nx.pagerank(G, personalization={0: 1, 1: 2}, weight=None, backend="chatty")


def test_distance_measures_match_networkx():
    for name, G in list(graphs())[:2]:  # NetworkX's own walks of every vertex take a minute on Facebook
        for f in (nx.closeness_centrality, nx.harmonic_centrality):
            want, got = f(G, backend="networkx"), f(G, backend="chatty")
            assert max(abs(got[k] - want[k]) / max(1.0, want[k]) for k in want) < 1e-6, (name, f.__name__)
        got = cg.closeness(cg.Graph.from_networkx(G), distance_measure="harmonic", devices=3, validate=True)
        assert got.stats["validated"] == "pass"
    G = nx.connected_watts_strogatz_graph(300, 4, 0.1, seed=2)
    for f in (nx.eccentricity, nx.diameter, nx.radius, nx.center, nx.periphery, nx.average_shortest_path_length,
              nx.wiener_index):
        assert f(G, backend="chatty") == f(G, backend="networkx"), f.__name__  # exactly: sums of whole distances
    assert nx.eccentricity(G, 5, backend="chatty") == nx.eccentricity(G, 5, backend="networkx")
    with pytest.raises(nx.NetworkXError, match="graph is not connected"):
        nx.diameter(nx.Graph([(0, 1), (2, 3)]), backend="chatty")
    with pytest.raises(nx.NetworkXError, match="digraph is not strongly connected"):
        nx.eccentricity(nx.DiGraph([(0, 1)]), backend="chatty")
    with pytest.raises(nx.NetworkXError, match="Graph is not strongly connected."):
        nx.average_shortest_path_length(nx.DiGraph([(0, 1)]), backend="chatty")
    assert nx.wiener_index(nx.Graph([(0, 1), (2, 3)]), backend="chatty") == float("inf")
