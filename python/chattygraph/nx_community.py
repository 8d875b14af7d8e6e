"""NetworkX's Louvain and Leiden functions on the engine's (apps/louvain,
apps/leiden).

Without a seed, NetworkX's louvain_communities visits the nodes in a new
random order each call, so its partition is one of many; the engine's is
deterministic and as good by modularity (scripts/bench_louvain.py). With a
seed, a caller asks for NetworkX's own partition for that seed, which
follows Python's random order of visits: that call is declined, and
NetworkX runs it."""

import numpy as np

from . import algorithms as alg
from .graph import Graph, whole_weights
from .nx_common import call_arg, engine_options, groups_in_order


def _communities(G, labels):
    return list(groups_in_order(G, labels).values())


def _check(G, max_level):
    """NetworkX's error for a bad max_level; NotImplementedError for a
    directed graph."""
    if max_level is not None and max_level <= 0:
        raise ValueError("max_level argument must be a positive integer or None")
    if G.is_directed():
        raise NotImplementedError("chatty's Louvain and Leiden read an undirected graph")


def _graph_of(G, weight):
    """The engine's graph with the weights NetworkX reads: `weight`'s, or
    none (NetworkX may hand over a conversion cached with other weights)."""
    want = None
    if weight is not None:
        raw = G.weights.get(weight)
        if raw is None or not whole_weights(raw):
            raise NotImplementedError("chatty's Louvain and Leiden read whole, non-negative edge weights")
        if not np.all(raw == 1):
            want = raw.astype(np.uint32)
    if want is None and not G.graph.weighted:
        return G.graph
    indptr, indices = G.nx_csr
    return Graph.from_csr(indptr, indices, want, directed=False, name=G.graph.name)


def _run(g, resolution, threshold, max_level, options, app=alg.louvain, keep_levels=None):
    return app(g, resolution=float(resolution), threshold=float(threshold), max_level=int(max_level or 0),
               keep_levels=keep_levels, **engine_options(options))


def louvain_communities(G, weight="weight", resolution=1, threshold=0.0000001, max_level=None, seed=None,
                        **options):
    _check(G, max_level)
    g = _graph_of(G, weight)
    if g.m == 0:  # NetworkX: every node alone
        return [{node} for node in G.graph.nodes]
    return _communities(G, _run(g, resolution, threshold, max_level, options).values)


def louvain_partitions(G, weight="weight", resolution=1, threshold=0.0000001, seed=None, **options):
    yield from _partitions(G, weight, resolution, threshold, options, alg.louvain)


def _partitions(G, weight, resolution, threshold, options, app):
    _check(G, None)
    g = _graph_of(G, weight)
    if g.m == 0:
        yield [{node} for node in G.graph.nodes]
        return
    # One run keeps every level's communities: each what a run stopped
    # after that level (max_level) gives.
    for labels in _run(g, resolution, threshold, None, options, app, keep_levels=True).levels:
        yield _communities(G, labels)


# NetworkX has no Leiden of its own (a backend's is the answer), so any
# seed is taken: the engine's partition is the same for every seed.
_LEIDEN_THRESHOLD = 0.0000001  # Louvain's default: stop when a level gains no more


def leiden_communities(G, weight="weight", resolution=1, max_level=None, seed=None, **options):
    _check(G, max_level)
    g = _graph_of(G, weight)
    if g.m == 0:
        return [{node} for node in G.graph.nodes]
    return _communities(G, _run(g, resolution, _LEIDEN_THRESHOLD, max_level, options, alg.leiden).values)


def leiden_partitions(G, weight="weight", resolution=1, seed=None, **options):
    yield from _partitions(G, weight, resolution, _LEIDEN_THRESHOLD, options, alg.leiden)


def _seeded(seed):
    """NetworkX's py_random_state has made the seed a random.Random by the
    time it dispatches: the module's own one where the caller gave none."""
    import random

    if seed is None or seed is random._inst:
        return None
    return "follows its own order of visits, not NetworkX's random order for a seed"


DECLINE = {
    "louvain_communities": lambda a, k: _seeded(call_arg(a, k, 5, "seed", None)),
    "louvain_partitions": lambda a, k: _seeded(call_arg(a, k, 4, "seed", None)),
}
