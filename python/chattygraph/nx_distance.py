"""NetworkX's distance measures answered by the engine's closeness app (a
breadth-first walk of every vertex): closeness and harmonic centrality,
eccentricity and what follows from it (diameter, radius, center,
periphery), and the sums of all distances (average shortest path length,
Wiener index), unweighted, with NetworkX's errors and types."""

import math

from . import algorithms as alg
from .nx_common import call_arg, engine_options, nodes_of, require_unweighted
from .nx_structure import number_connected_components


def _measure(G, measure, options):
    """{node: value} of one distance measure over every vertex."""
    if len(G) == 0:
        return {}
    values = alg.closeness(G.graph, distance_measure=measure, **engine_options(options)).values
    return dict(zip(G.graph.nodes, values.tolist()))


def closeness_centrality(G, u=None, distance=None, wf_improved=True, **options):
    require_unweighted(G, distance, "closeness")
    every = _measure(G, "closeness", options)
    return every[u] if u is not None else every


def harmonic_centrality(G, nbunch=None, distance=None, sources=None, **options):
    require_unweighted(G, distance, "harmonic centrality")
    every = _measure(G, "harmonic", options)
    keep = nodes_of(G, nbunch) if nbunch is not None else list(every)
    return {v: every[v] for v in keep}


def _eccentricities(G, weight, options):
    import networkx as nx

    require_unweighted(G, weight, "eccentricity")
    e = _measure(G, "eccentricity", options)
    if any(math.isinf(x) for x in e.values()):
        raise nx.NetworkXError("Found infinite path length because the digraph is not strongly connected"
                               if G.is_directed() else
                               "Found infinite path length because the graph is not connected")
    return {v: int(x) for v, x in e.items()}


def eccentricity(G, v=None, sp=None, weight=None, **options):
    e = _eccentricities(G, weight, options)
    if v is None:
        return e
    if v in G:
        return e[v]
    return {n: e[n] for n in nodes_of(G, v)}


def diameter(G, e=None, usebounds=False, weight=None, **options):
    return max(_eccentricities(G, weight, options).values())


def radius(G, e=None, usebounds=False, weight=None, **options):
    return min(_eccentricities(G, weight, options).values())


def center(G, e=None, usebounds=False, weight=None, **options):
    e = _eccentricities(G, weight, options)
    r = min(e.values())
    return [v for v in e if e[v] == r]


def periphery(G, e=None, usebounds=False, weight=None, **options):
    e = _eccentricities(G, weight, options)
    d = max(e.values())
    return [v for v in e if e[v] == d]


# A vertex's distance sum D comes back as closeness (n - 1) / D in a 4-byte
# float: exact after rounding while D stays below this.
_EXACT_SUM = 2**22


def _distance_sums(G, options):
    """Every vertex's sum of distances to it, exact, or None where some
    vertex does not reach every other."""
    n = len(G)
    # Every vertex reaches every other: one component (WCC, a pass over the
    # edges), or for a directed graph no infinite eccentricity (a walk of
    # every vertex: strong components are not the engine's yet).
    if G.is_directed():
        if any(math.isinf(x) for x in _measure(G, "eccentricity", options).values()):
            return None
    elif number_connected_components(G, **options) != 1:
        return None
    sums = []
    for x in _measure(G, "closeness", options).values():
        d = (n - 1) / x if x > 0 else 0
        if d >= _EXACT_SUM:
            raise NotImplementedError("chatty's distance sums come as 4-byte floats: too large to be exact here")
        sums.append(round(d))
    return sums


def average_shortest_path_length(G, weight=None, method=None, **options):
    import networkx as nx

    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept("the null graph has no paths, thus there is no average shortest path length")
    if n == 1:
        return 0
    require_unweighted(G, weight, "average shortest path length")
    sums = _distance_sums(G, options)
    if sums is None:
        raise nx.NetworkXError("Graph is not strongly connected." if G.is_directed() else "Graph is not connected.")
    return sum(sums) / (n * (n - 1))


def wiener_index(G, weight=None, **options):
    require_unweighted(G, weight, "Wiener index")
    if len(G) == 0:
        return 0
    sums = _distance_sums(G, options)
    if sums is None:
        return float("inf")
    total = sum(sums)
    return total if G.is_directed() else total / 2


def barycenter(G, weight=None, attr=None, sp=None, **options):
    import networkx as nx

    require_unweighted(G, weight, "barycenter")
    if G.is_directed():
        raise NotImplementedError("chatty's distance sums are of an undirected graph here")
    if len(G) == 0:
        return []
    sums = _distance_sums(G, options)
    if sums is None:
        raise nx.NetworkXNoPath(f"Input graph {G.source if G.source is not None else G} is disconnected, so every "
                                "induced subgraph has infinite barycentricity.")
    least = min(sums)
    return [v for v, s in zip(G.graph.nodes, sums) if s == least]


def _decline_arguments(*checks):
    """A can_run check: the first (position, name, what it must be) an argument fails."""

    def decline(args, kwargs):
        for pos, name, ok, why in checks:
            if not ok(call_arg(args, kwargs, pos, name, None)):
                return why
        return None

    return decline


_NO_E = (1, "e", lambda x: x is None, "computes the eccentricities itself (e=None)")

DECLINE = {
    "closeness_centrality": _decline_arguments(
        (3, "wf_improved", lambda x: x is None or x, "scales as Wasserman and Faust (wf_improved=True)")),
    "harmonic_centrality": _decline_arguments((3, "sources", lambda x: x is None, "sums over every source")),
    "eccentricity": _decline_arguments((2, "sp", lambda x: x is None, "computes the distances itself (sp=None)")),
    "barycenter": _decline_arguments(
        (2, "attr", lambda x: x is None, "does not write node attributes (attr=None)"),
        (3, "sp", lambda x: x is None, "computes the distances itself (sp=None)")),
    "diameter": _decline_arguments(_NO_E),
    "radius": _decline_arguments(_NO_E),
    "center": _decline_arguments(_NO_E),
    "periphery": _decline_arguments(_NO_E),
    "average_shortest_path_length": _decline_arguments(
        (2, "method", lambda x: x in (None, "unweighted"), "walks unweighted (method=None or 'unweighted')")),
}
