"""Louvain and Leiden through the package and NetworkX's functions: planted
communities recovered; the reported modularity is NetworkX's modularity of
the communities; within 0.015 of NetworkX's own Louvain's; the same at
every device count; NetworkX's rules (max_level, weights, seeds, a graph
without edges); Leiden's communities connected, at least Louvain's
modularity."""

import networkx as nx
import numpy as np
import pytest

import chattygraph as cg


def _sets(r):
    return {frozenset(np.flatnonzero(r.values == l).tolist()) for l in np.unique(r.values)}


def test_louvain_recovers_planted_communities():
    G = nx.planted_partition_graph(12, 30, 0.5, 0.005, seed=4)
    r = cg.louvain(G)
    assert _sets(r) == {frozenset(c) for c in G.graph["partition"]}
    assert r.stats["summary"]["modularity"] == pytest.approx(nx.community.modularity(G, _sets(r)), abs=1e-9)
    for devices in (2, 5):
        assert np.array_equal(cg.louvain(G, devices=devices).values, r.values)


@pytest.mark.parametrize("name", ["karate", "les_miserables", "davis", "weighted_random"])
def test_louvain_matches_networkx_modularity(name):
    if name == "karate":
        G = nx.karate_club_graph()  # whole weights, read as NetworkX reads them
    elif name == "les_miserables":
        G = nx.les_miserables_graph()
    elif name == "davis":
        G = nx.davis_southern_women_graph()
    else:
        G = nx.gnm_random_graph(300, 1500, seed=2)
        rng = np.random.default_rng(3)
        for u, v in G.edges():
            G[u][v]["weight"] = int(rng.integers(1, 20))
        G.add_edge(5, 5, weight=40)  # a self-loop: twice in the degree, once inside
    for weight in ("weight", None):
        ours = nx.community.louvain_communities(G, weight=weight, backend="chatty")
        assert nx.community.is_partition(G, ours)
        q = nx.community.modularity(G, ours, weight=weight)
        # NetworkX's own Louvain: its median over three seeds (its answers
        # vary by 0.01-0.03 from seed to seed on these graphs).
        theirs = np.median([nx.community.modularity(G, nx.community.louvain_communities(G, weight=weight, seed=s),
                                                    weight=weight) for s in range(3)])
        assert q >= theirs - 0.015, (name, weight, q, theirs)
        r = cg.louvain(G.to_undirected() if weight else nx.Graph(G.edges()), validate=True)
        assert r.stats["validated"] == "pass"


def test_louvain_partitions_and_options():
    G = nx.ring_of_cliques(40, 5)
    parts = list(nx.community.louvain_partitions(G, backend="chatty"))
    mods = [nx.community.modularity(G, p) for p in parts]
    assert len(parts) >= 2 and all(a < b for a, b in zip(mods, mods[1:]))
    assert parts[-1] == nx.community.louvain_communities(G, backend="chatty")
    assert nx.community.louvain_communities(G, max_level=1, backend="chatty") == parts[0]
    # Every level (one run keeps them all) is what a run cut there gives.
    H = nx.powerlaw_cluster_graph(400, 3, 0.3, seed=2)
    for fn, parts_of in ((nx.community.louvain_communities, nx.community.louvain_partitions),
                         (nx.community.leiden_communities, nx.community.leiden_partitions)):
        hp = list(parts_of(H, backend="chatty"))
        assert len(hp) >= 3
        for level, p in enumerate(hp, 1):
            assert fn(H, max_level=level, backend="chatty") == p, (fn.__name__, level)
    r = cg.louvain(H, keep_levels=True)
    assert r.levels.shape == (len(hp_louvain := list(nx.community.louvain_partitions(H, backend="chatty"))),
                              H.number_of_nodes())
    assert np.array_equal(r.levels[-1], r.values) and len(hp_louvain) == r.stats["summary"]["levels"]
    assert cg.louvain(H).levels is None
    coarse = nx.community.louvain_communities(G, resolution=0.05, backend="chatty")
    assert len(coarse) < len(parts[-1])
    with pytest.raises(ValueError, match="max_level"):
        nx.community.louvain_communities(G, max_level=0, backend="chatty")
    H = nx.Graph()
    H.add_nodes_from(range(4))
    assert nx.community.louvain_communities(H, backend="chatty") == [{0}, {1}, {2}, {3}]


def test_louvain_declines_what_it_would_answer_otherwise():
    G = nx.karate_club_graph()
    for u, v in G.edges():
        G[u][v]["weight"] = 0.5 + u / 7  # fractional: NetworkX's answer, not the engine's
    with pytest.raises(NotImplementedError):
        nx.community.louvain_communities(G, backend="chatty")
    with pytest.raises(NotImplementedError):  # a seed asks for NetworkX's own random order
        nx.community.louvain_communities(nx.karate_club_graph(), seed=2, backend="chatty")
    with pytest.raises(ValueError, match="undirected"):
        cg.louvain(nx.DiGraph([(0, 1), (1, 2)]))


def test_louvain_command_reads_the_files_weights(tmp_path):
    import json
    import os
    import subprocess

    G = nx.convert_node_labels_to_integers(nx.les_miserables_graph())
    path = tmp_path / "lesmis.wel"
    path.write_text("".join(f"{u} {v} {int(w)}\n" for u, v, w in G.edges(data="weight")))
    out = subprocess.run([os.environ.get("CHATTY", "build/chatty"), "run", "--app=louvain", f"--graph={path}",
                          "--undirected", "--validate", "--json", "--quiet", f"--output={tmp_path / 'c.txt'}"],
                         check=True, capture_output=True, text=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    labels = np.loadtxt(tmp_path / "c.txt", dtype=np.int64, ndmin=2)
    groups = {}
    for v, c in labels.tolist():
        groups.setdefault(c, set()).add(v)
    q = nx.community.modularity(G, groups.values(), weight="weight")
    assert report["summary"]["modularity"] == pytest.approx(q, abs=1e-9)
    assert q > nx.community.modularity(G, groups.values(), weight=None)  # the weights shaped it


@pytest.mark.parametrize("name", ["karate", "les_miserables", "grid", "lfr"])
def test_leiden_connected_and_at_least_louvains_modularity(name):
    G = {"karate": nx.karate_club_graph, "les_miserables": nx.les_miserables_graph,
         "grid": lambda: nx.convert_node_labels_to_integers(nx.grid_2d_graph(40, 40)),
         "lfr": lambda: nx.LFR_benchmark_graph(250, 3, 1.5, 0.009, average_degree=5, min_community=20, seed=10)}[name]()
    for weight in ("weight", None):
        ours = nx.community.leiden_communities(G, weight=weight, seed=7, backend="chatty")
        assert nx.community.is_partition(G, ours)
        assert all(nx.is_connected(G.subgraph(c)) for c in ours), name
        q = nx.community.modularity(G, ours, weight=weight)
        louvain = nx.community.modularity(G, nx.community.louvain_communities(G, weight=weight, backend="chatty"),
                                          weight=weight)
        assert q >= louvain - 0.005, (name, weight, q, louvain)
    g = G if name != "lfr" else nx.Graph(G)
    r = cg.leiden(g, validate=True)
    assert r.stats["validated"] == "pass"
    groups = {}
    for node, label in r.to_dict().items():
        groups.setdefault(label, set()).add(node)
    q = nx.community.modularity(G, groups.values(), weight=None)  # from_networkx reads no weights by default
    assert r.stats["summary"]["modularity"] == pytest.approx(q, abs=1e-9)
    assert np.array_equal(cg.leiden(g, devices=3).values, r.values)


def test_leiden_partitions_and_max_level():
    G = nx.ring_of_cliques(40, 5)
    parts = list(nx.community.leiden_partitions(G, backend="chatty"))
    mods = [nx.community.modularity(G, p) for p in parts]
    assert len(parts) >= 2 and all(a < b for a, b in zip(mods, mods[1:]))
    assert parts[-1] == nx.community.leiden_communities(G, backend="chatty")
    assert nx.community.leiden_communities(G, max_level=1, backend="chatty") == parts[0]
    with pytest.raises(ValueError):
        nx.community.leiden_communities(G, max_level=0, backend="chatty")


def test_asyn_lpa_meets_its_stopping_rule():
    # Asynchronous label propagation stops where every node holds a label
    # most frequent among its neighbours; without a seed NetworkX's answer
    # is random, the backend's the semi-synchronous one, which meets it.
    for G in (nx.karate_club_graph(), nx.les_miserables_graph(), nx.caveman_graph(4, 6)):
        got = list(nx.community.asyn_lpa_communities(G, backend="chatty"))
        assert [set(c) for c in got] == [set(c) for c in nx.community.label_propagation_communities(G)]
        label = {v: i for i, c in enumerate(got) for v in c}
        for v in G:
            counts = {}
            for w in G[v]:
                counts[label[w]] = counts.get(label[w], 0) + 1
            assert not counts or counts.get(label[v], 0) == max(counts.values()), v
    with pytest.raises(NotImplementedError):
        list(nx.community.asyn_lpa_communities(nx.karate_club_graph(), seed=1, backend="chatty"))
