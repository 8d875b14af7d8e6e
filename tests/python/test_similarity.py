"""Similarity and truss numbers against NetworkX: jaccard_coefficient exactly
(every non-edge, given pairs, every edge), the k-truss edge for edge, the
input's ids in results and files, and both through the NetworkX backend."""
import os
import subprocess

import networkx as nx
import numpy as np
import pytest

import chattygraph as cg
from nx_reference import once, read_edgelist

FACEBOOK = os.environ.get("CHATTY_FACEBOOK")
CHATTY = os.environ.get("CHATTY", "chatty")


def graphs():
    yield "karate", nx.karate_club_graph()
    yield "les miserables", nx.les_miserables_graph()
    yield "gnp", nx.gnp_random_graph(200, 0.05, seed=5)
    if FACEBOOK:
        yield "facebook", read_edgelist(FACEBOOK)


@pytest.mark.parametrize("devices", [1, 3])
def test_jaccard_equals_networkx_exactly(devices):
    for name, G in graphs():
        pairs = list(G.edges()) if G.number_of_edges() > 10000 else list(nx.non_edges(G))[:20000] + list(G.edges())
        want = once((name, "jaccard"), lambda: list(nx.jaccard_coefficient(G, pairs, backend="networkx")))
        r = cg.similarity(G, pairs=pairs, devices=devices, validate=True)
        assert [(u, v, p) for (u, v), p in zip(pairs, r.values.tolist())] == want, name
        every = cg.similarity(G, devices=devices)  # every edge once
        assert {frozenset(e) for e in every.to_dict()} == {frozenset(e) for e in G.edges()}, name


def test_jaccard_through_the_networkx_backend():
    G = nx.karate_club_graph()
    assert list(nx.jaccard_coefficient(G, backend="chatty")) == list(nx.jaccard_coefficient(G, backend="networkx"))
    ebunch = [(0, 1), (2, 3), (5, 5), (33, 0)]
    assert list(nx.jaccard_coefficient(G, ebunch, backend="chatty")) == list(nx.jaccard_coefficient(G, ebunch))
    with pytest.raises(nx.NodeNotFound):
        list(nx.jaccard_coefficient(G, [(0, 99)], backend="chatty"))
    assert list(nx.jaccard_coefficient(nx.complete_graph(4), backend="chatty")) == []
    G.add_edge(3, 3)  # NetworkX's common neighbours leave a self-loop's node out: declined
    with pytest.raises(NotImplementedError):
        list(nx.jaccard_coefficient(G, backend="chatty"))


def test_overlap_sorensen_and_top_k():
    G = nx.karate_club_graph()
    adj = {v: set(G[v]) for v in G}
    r = cg.similarity(G, pairs=[(0, 33), (1, 2)], similarity="overlap", validate=True)
    for (u, v), p in zip(r.pairs.tolist(), r.values.tolist()):
        assert p == len(adj[u] & adj[v]) / min(len(adj[u]), len(adj[v]))
    r = cg.similarity(G, pairs=[(0, 33)], similarity="sorensen")
    assert r.values[0] == 2 * len(adj[0] & adj[33]) / (len(adj[0]) + len(adj[33]))
    top = cg.similarity(G, top_k=3, similar_to=[0, 33], validate=True)
    for s in (0, 33):
        scores = sorted(((len(adj[s] & adj[w]) / len(adj[s] | adj[w]), -w) for w in G if w != s and adj[s] & adj[w]),
                        reverse=True)[:3]
        got = [(p, -v) for (u, v), p in zip(top.pairs.tolist(), top.values.tolist()) if u == s]
        assert got == scores, s
    with pytest.raises(ValueError, match="exclude each other"):
        cg.similarity(G, pairs=[(0, 1)], top_k=2)


def test_input_ids_in_pairs_and_output(tmp_path):
    # ids 10, 20, 30, 40 as the file writes them, in results and --output
    path = tmp_path / "square.txt"
    path.write_text("10 20\n20 30\n30 40\n40 10\n10 30\n")
    g = cg.Graph.load(str(path), symmetrize=True)
    r = cg.similarity(g, pairs=[(20, 40), (10, 30)], validate=True)
    assert r.pairs.tolist() == [[20, 40], [10, 30]]
    assert r.values.tolist() == [1.0, 1 / 2]
    t = cg.truss_numbers(g, validate=True)
    assert {tuple(sorted(p)): k for p, k in zip(t.pairs.tolist(), t.values.tolist())} == {
        (10, 20): 3, (20, 30): 3, (30, 40): 3, (10, 40): 3, (10, 30): 3}
    out = tmp_path / "sim.txt"
    subprocess.run([CHATTY, "run", "--app=similarity", f"--graph={path}", "--symmetrize", "--pairs=20:40,10:30",
                    f"--output={out}", "--quiet"], check=True)
    assert out.read_text().split("\n")[:2] == ["20 40 1", "10 30 0.5"]
    bad = subprocess.run([CHATTY, "run", "--app=similarity", f"--graph={path}", "--symmetrize", "--pairs=20:50"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "50 is not a vertex" in bad.stderr


@pytest.mark.parametrize("devices", [1, 2])
def test_k_truss_equals_networkx(devices):
    # NetworkX's k_truss takes minutes on ego-Facebook: the verifier's
    # sequential peel checks that one (test_truss_numbers_validated).
    for name, G in [g for g in graphs() if g[0] != "facebook"]:
        r = cg.truss_numbers(G, devices=devices, validate=True)
        truss = dict(zip(map(tuple, r.pairs.tolist()), r.values.tolist()))
        nodes = list(G)
        for k in sorted(set(truss.values()))[::3] + [max(truss.values()) + 1]:
            want = nx.k_truss(G, k, backend="networkx")
            got = {frozenset((nodes[u], nodes[v])) for (u, v), t in truss.items() if t >= k}
            assert got == {frozenset(e) for e in want.edges()}, (name, k)
            H = nx.k_truss(G, k, backend="chatty")
            assert list(H) == list(want) and list(H.edges(data=True)) == list(want.edges(data=True)), (name, k)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.k_truss(nx.Graph([(0, 0), (0, 1)]), 3, backend="chatty")
    assert np.all(cg.truss_numbers(nx.complete_graph(6)).values == 6)


@pytest.mark.skipif(not FACEBOOK, reason="CHATTY_FACEBOOK not set")
def test_truss_numbers_validated():
    r = cg.truss_numbers(cg.Graph.load(FACEBOOK, symmetrize=True), devices=2, validate=True)
    assert r.stats["validated"] == "pass"
    assert r.stats["summary"]["max_truss"] == 97  # ego-Facebook's largest truss
