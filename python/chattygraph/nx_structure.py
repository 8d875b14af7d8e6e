"""NetworkX's components (weak and strong), cores, triangle counts and clustering answered by
the engine's WCC, k-core and triangle counting."""

import numpy as np

from . import algorithms as alg
from .nx_common import engine_options, groups_in_order, nodes_of, require_unweighted


def _groups(G, labels):
    """{label: the set of its nodes}, by ascending label."""
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    nodes = G.graph.nodes
    return {int(labels[part[0]]): {nodes[i] for i in part} for part in np.split(order, cuts)}


def _components(G, options):
    if len(G) == 0:
        return []
    return list(_groups(G, alg.wcc(G.graph, **engine_options(options)).values).values())


def _number(G, options, app):
    if len(G) == 0:
        return 0
    return int(np.unique(app(G.graph, **engine_options(options)).values).size)


def _is_one(G, options, app):
    import networkx as nx

    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return _number(G, options, app) == 1


def connected_components(G, **options):
    yield from _components(G, options)


def weakly_connected_components(G, **options):
    yield from _components(G, options)


def number_connected_components(G, **options):
    return _number(G, options, alg.wcc)


number_weakly_connected_components = number_connected_components


def is_connected(G, **options):
    return _is_one(G, options, alg.wcc)


is_weakly_connected = is_connected


def node_connected_component(G, n, **options):
    if n not in G:
        raise KeyError(n)
    labels = alg.wcc(G.graph, **engine_options(options)).values
    nodes = G.graph.nodes
    return {nodes[i] for i in (labels == labels[G.graph.position(n)]).nonzero()[0].tolist()}


def _sinks_first(G, labels):
    """The component labels in an order where every component comes after
    those it reaches (NetworkX's Tarjan yields them so, and its
    condensation numbers them in that order), ties by least id."""
    import heapq

    indptr, indices, _ = G.graph.csr()
    rows = np.repeat(np.arange(len(G), dtype=np.int64), np.diff(indptr.astype(np.int64)))
    lu, lv = labels[rows], labels[indices.astype(np.int64)]
    cross = np.unique(np.stack([lu, lv], 1)[lu != lv], axis=0)
    out_left = dict(zip(*np.unique(cross[:, 0], return_counts=True))) if len(cross) else {}
    into = {}
    for u, v in cross.tolist():
        into.setdefault(v, []).append(u)
    ready = [c for c in np.unique(labels).tolist() if c not in out_left]
    heapq.heapify(ready)
    order = []
    while ready:
        c = heapq.heappop(ready)
        order.append(c)
        for u in into.get(c, ()):
            out_left[u] -= 1
            if out_left[u] == 0:
                heapq.heappush(ready, u)
    return order


def strongly_connected_components(G, **options):
    if len(G) == 0:
        return
    labels = alg.scc(G.graph, **engine_options(options)).values.astype(np.int64)
    members = _groups(G, labels)
    for label in _sinks_first(G, labels):
        yield members[label]


def number_strongly_connected_components(G, **options):
    return _number(G, options, alg.scc)


def is_strongly_connected(G, **options):
    return _is_one(G, options, alg.scc)


def label_propagation_communities(G, **options):
    if G.is_multigraph():
        raise NotImplementedError("chatty's label propagation reads a simple graph")
    if not len(G):
        return {}.values()
    return groups_in_order(G, alg.label_propagation(G.graph, **engine_options(options)).values).values()


def asyn_lpa_communities(G, weight=None, seed=None, **options):
    """Asynchronous label propagation stops where every node holds a label
    most frequent among its neighbours: the semi-synchronous communities
    meet that rule, and NetworkX's own answer without a seed changes from
    call to call (it draws the order and the ties at random)."""
    import random

    # NetworkX turns seed=None into Python's global generator before the
    # call reaches a backend: that one means no seed was given.
    if seed is not None and seed is not random._inst and seed is not random:
        raise NotImplementedError("chatty's label propagation is not NetworkX's random order for a seed")
    if G.is_directed() or G.is_multigraph() or G.self_loops:
        raise NotImplementedError("chatty's label propagation reads a simple undirected graph")
    require_unweighted(G, weight, "label propagation")
    yield from label_propagation_communities(G, **options)


def core_number(G, **options):
    import networkx as nx

    if G.self_loops:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G))."
        )
    if G.is_directed():
        raise NotImplementedError("chatty's k-core reads an undirected graph")
    if len(G) == 0:
        return {}
    core = alg.kcore(G.graph, **engine_options(options)).values
    return dict(zip(G.graph.nodes, core.tolist()))


def _core_subgraph(G, keep, k, core, default_k, options):
    """The subgraph of the NetworkX graph G came from, with every attribute
    (NetworkX's k_core and its kin copy them), on the vertices `keep` takes
    by their core numbers (the engine's, unless the call gave its own)."""
    if G.source is None:
        raise NotImplementedError("chatty returns these subgraphs of a NetworkX graph it converted")
    if core is None:
        core = core_number(G, **options)
    if k is None:
        k = default_k(core)  # max() of no core numbers raises, as NetworkX's does
    return G.source.subgraph([v for v in core if keep(v, k, core)]).copy()


def _main_core(core):
    return max(core.values())


def k_core(G, k=None, core_number=None, **options):
    return _core_subgraph(G, lambda v, k, c: c[v] >= k, k, core_number, _main_core, options)


def k_shell(G, k=None, core_number=None, **options):
    return _core_subgraph(G, lambda v, k, c: c[v] == k, k, core_number, _main_core, options)


def k_crust(G, k=None, core_number=None, **options):
    return _core_subgraph(G, lambda v, k, c: c[v] <= k, k, core_number, lambda c: _main_core(c) - 1, options)


def k_corona(G, k, core_number=None, **options):
    adj = G.source.adj if G.source is not None else None

    def keep(v, k, c):
        return c[v] == k and k == sum(1 for w in adj[v] if c[w] >= k)

    return _core_subgraph(G, keep, k, core_number, _main_core, options)


def triangles(G, nodes=None, **options):
    if G.is_multigraph():
        raise NotImplementedError("chatty's triangle count reads a simple graph")
    counts = alg.triangles(G.graph, **engine_options(options)).values.tolist() if len(G) else []
    every = dict(zip(G.graph.nodes, counts))
    if nodes is None:
        return every
    if nodes in G:
        return every[nodes]
    return {v: every[v] for v in nodes_of(G, nodes)}



def _triangles_and_degrees(G, options):
    """Each vertex's triangles and its neighbours other than itself (the
    degree NetworkX's clustering divides by), as arrays by position."""
    if G.is_multigraph():
        raise NotImplementedError("chatty's triangle count reads a simple graph")
    if G.is_directed():
        raise NotImplementedError("chatty's clustering is that of an undirected graph")
    indptr, indices, _ = G.graph.csr()
    rows = np.repeat(np.arange(len(G), dtype=np.int64), np.diff(indptr.astype(np.int64)))
    degree = np.diff(indptr.astype(np.int64)) - np.bincount(rows[rows == indices], minlength=len(G))
    return alg.triangles(G.graph, **engine_options(options)).values.astype(np.int64), degree


def _clustering_values(G, options):
    t, d = _triangles_and_degrees(G, options)
    nodes = G.graph.nodes
    return {nodes[i]: (0 if t[i] == 0 else 2 * int(t[i]) / (int(d[i]) * (int(d[i]) - 1))) for i in range(len(G))}


def clustering(G, nodes=None, weight=None, **options):
    require_unweighted(G, weight, "clustering")
    every = _clustering_values(G, options) if len(G) else {}
    if nodes is None:
        return every
    if nodes in G:
        return every[nodes]
    return {v: every[v] for v in nodes_of(G, nodes)}


def average_clustering(G, nodes=None, weight=None, count_zeros=True, **options):
    c = clustering(G, nodes, weight=weight, **options)
    c = list(c.values()) if isinstance(c, dict) else [c]
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G, **options):
    if len(G) == 0:
        return 0
    t, d = _triangles_and_degrees(G, options)
    triangles, triads = 2 * int(t.sum()), int((d * (d - 1)).sum())
    return 0 if triangles == 0 else triangles / triads


DECLINE = {}
