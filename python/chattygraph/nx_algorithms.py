"""The NetworkX functions the "chatty" backend answers (python/chattygraph/
nx_backend.py dispatches to them by name): each an adapter from NetworkX's
signature and conventions to an app of the engine, raising
NotImplementedError where the graph's weights are not what the engine
reads, so that NetworkX runs the call; and, in _DECLINE, the arguments
can_run declines before anything is converted."""

import numpy as np

from . import algorithms as alg
from .graph import whole_weights

_FLOAT_RESOLUTION = 2.0**-23  # what 4-byte ranks resolve around a sum of 1


def _arg(args, kwargs, pos, key, default):
    return args[pos] if len(args) > pos else kwargs.get(key, default)


def _decline_pagerank(args, kwargs):
    for pos, key in ((2, "personalization"), (5, "nstart"), (7, "dangling")):
        if _arg(args, kwargs, pos, key, None) is not None:
            return f"does not take {key}"
    G = args[0] if args else kwargs.get("G")
    tol = _arg(args, kwargs, 4, "tol", 1e-6)
    n = len(G) if G is not None else 1
    if n and tol * n < 2 * _FLOAT_RESOLUTION:
        return f"ranks are 4-byte floats: tol * n = {tol * n:.3g} is below the {2 * _FLOAT_RESOLUTION:.2g} they resolve"
    return None


def _decline_dijkstra(args, kwargs):
    if callable(_arg(args, kwargs, 3, "weight", "weight")):
        return "reads a weight attribute, not a weight function"
    return None




def _options(extra):
    """Engine options: nx.config.backends.chatty's, then the call's own."""
    import networkx as nx

    cfg = getattr(nx.config.backends, "chatty", None)
    opts = {k: v for k, v in (dict(cfg) if cfg is not None else {}).items() if v is not None}
    opts.update(extra)
    return opts


def _source(G, source):
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return source


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None, **options):
    import networkx as nx

    n = len(G)
    if n == 0:
        return {}
    raw = G.weights.get(weight) if weight is not None else None
    if raw is not None and raw.size and not np.all(raw == 1):
        raise NotImplementedError("chatty's PageRank reads no edge weights (the graph's are not all 1)")
    if max_iter < 1:
        raise nx.PowerIterationFailedConvergence(max_iter)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", alg.NotConvergedWarning)
        try:
            r = alg.pagerank(G.graph, damping=alpha, tolerance=tol * n, max_iters=max_iter, reorder="none",
                             **_options(options))
        except alg.NotConvergedWarning:
            raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(G.graph.nodes, r.values.astype(np.float64).tolist()))


def single_source_shortest_path_length(G, source, cutoff=None, **options):
    s = _source(G, source)
    depth = alg.bfs(G.graph, s, **_options(options)).values
    return _reached(G, depth, cutoff)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight", **options):
    s = _source(G, source)
    raw = G.weights.get(weight)
    if raw is None or not whole_weights(raw):
        raise NotImplementedError("chatty's SSSP reads whole, non-negative weights below 2^32 - 1")
    kind = G.weight_kinds.get(weight, "int")
    if kind == "mixed":  # NetworkX's distance is an int or a float by the path's weights
        raise NotImplementedError("chatty's SSSP gives a distance one type: the weights mix ints and floats")
    try:
        dist = alg.sssp(G.graph, s, no_default_weights=True, **_options(options)).values
    except ValueError as e:
        if "overflow" in str(e):
            raise NotImplementedError(f"chatty's SSSP: {e}") from None
        raise
    reached = _reached(G, dist, cutoff)
    if kind == "float":  # sums of float weights are floats; the source's 0 stays NetworkX's int
        reached = {v: (float(d) if v != s else d) for v, d in reached.items()}
    return reached


def _reached(G, values, cutoff):
    """{node: value} for reached vertices (within cutoff), nearest first."""
    keep = values >= 0
    if cutoff is not None:
        keep &= values <= cutoff
    idx = np.flatnonzero(keep)
    idx = idx[np.argsort(values[idx], kind="stable")]
    nodes = G.graph.nodes
    vals = values[idx].tolist()
    return {nodes[i]: v for i, v in zip(idx.tolist(), vals)}


def _components(G, options):
    if len(G) == 0:
        return []
    labels = alg.wcc(G.graph, **_options(options)).values
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    nodes = G.graph.nodes
    return [{nodes[i] for i in part} for part in np.split(order, cuts)]


def connected_components(G, **options):
    yield from _components(G, options)


def weakly_connected_components(G, **options):
    yield from _components(G, options)


def number_connected_components(G, **options):
    if len(G) == 0:
        return 0
    return int(np.unique(alg.wcc(G.graph, **_options(options)).values).size)


number_weakly_connected_components = number_connected_components


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
    core = alg.kcore(G.graph, **_options(options)).values
    return dict(zip(G.graph.nodes, core.tolist()))


def _nbunch(G, nbunch):
    """The nodes of nbunch that are in G, in its order, as NetworkX's
    Graph.nbunch_iter gives them (and its errors for what is not one)."""
    import networkx as nx

    if nbunch in G:
        return [nbunch]
    out = []
    try:
        for v in nbunch:
            hash(v)
            if v in G:
                out.append(v)
    except TypeError as err:
        message = str(err.args[0]) if err.args else ""
        if "object is not iterable" in message:
            raise nx.NetworkXError(f"Node {nbunch} is not in the graph.") from err
        if "iter" in message:
            raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from err
        if "hashable" in message:
            raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from err
        raise
    return out


def triangles(G, nodes=None, **options):
    if G.is_multigraph():
        raise NotImplementedError("chatty's triangle count reads a simple graph")
    counts = alg.triangles(G.graph, **_options(options)).values.tolist() if len(G) else []
    every = dict(zip(G.graph.nodes, counts))
    if nodes is None:
        return every
    if nodes in G:
        return every[nodes]
    return {v: every[v] for v in _nbunch(G, nodes)}


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None, **options):
    import math
    import random

    if G.is_multigraph():
        raise NotImplementedError("chatty's BC counts paths over a simple graph")
    n = len(G)
    if n == 0:
        return {}
    nodes = G.graph.nodes
    if k == n:
        k = None
    if k is None:
        sources = "all"
    else:  # NetworkX's own sample, from the same random state
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        sources = rng.sample(list(nodes), k)
        if k == 0:  # no sources: NetworkX's scale divides by k
            raise ZeroDivisionError("division by zero")
    # The engine scales as NetworkX does (bc_scale), but for one sampled
    # source, whose score NetworkX leaves undefined.
    scale = "normalized" if normalized else "pairs"
    raw = alg.betweenness(G.graph, sources=sources, bc_scale=scale, **_options(options)).values
    scores = dict(zip(nodes, raw.tolist()))
    if k == 1 and n > 2:
        scores[sources[0]] = math.nan
    return scores


def _decline_betweenness(args, kwargs):
    if _arg(args, kwargs, 3, "weight", None) is not None:
        return "counts unweighted shortest paths (weight=None)"
    if _arg(args, kwargs, 4, "endpoints", False):
        return "does not count endpoints"
    return None


def _unweighted(G, weight, what):
    """NotImplementedError unless the call reads no weights (weight=None, or
    every weight 1)."""
    raw = G.weights.get(weight) if weight is not None else None
    if raw is not None and raw.size and not np.all(raw == 1):
        raise NotImplementedError(f"chatty's {what} reads no edge weights (the graph's are not all 1)")


def _power_iteration(run, max_iter):
    """run()'s result, or NetworkX's PowerIterationFailedConvergence where
    the engine stopped at max_iter without converging."""
    import warnings

    import networkx as nx

    if max_iter < 1:
        raise nx.PowerIterationFailedConvergence(max_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("error", alg.NotConvergedWarning)
        try:
            return run()
        except alg.NotConvergedWarning:
            raise nx.PowerIterationFailedConvergence(max_iter) from None


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None, normalized=True, weight=None,
                    **options):
    if len(G) == 0:
        return {}
    _unweighted(G, weight, "Katz centrality")
    n = len(G)
    r = _power_iteration(lambda: alg.katz(G.graph, katz_alpha=alpha, katz_beta=float(beta), tolerance=tol * n,
                                          max_iters=max_iter, katz_normalized=bool(normalized), reorder="none",
                                          **_options(options)), max_iter)
    return dict(zip(G.graph.nodes, r.values.tolist()))


def _decline_katz(args, kwargs):
    if _arg(args, kwargs, 5, "nstart", None) is not None:
        return "starts from zero (nstart=None)"
    beta = _arg(args, kwargs, 2, "beta", 1.0)
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        return "takes one beta for every node"
    alpha = _arg(args, kwargs, 1, "alpha", 0.1)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)) or not alpha > 0:
        return "takes a positive alpha"
    tol = _arg(args, kwargs, 4, "tol", 1e-6)
    if tol < 8 * _FLOAT_RESOLUTION * max(1.0, abs(float(beta))):
        return f"values are 4-byte floats: tol = {tol:.3g} is below what they resolve"
    return None


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None, **options):
    import networkx as nx

    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    _unweighted(G, weight, "eigenvector centrality")
    n = len(G)
    r = _power_iteration(lambda: alg.eigenvector(G.graph, tolerance=tol * n, max_iters=max_iter, reorder="none",
                                                 **_options(options)), max_iter)
    return dict(zip(G.graph.nodes, r.values.tolist()))


def _decline_eigenvector(args, kwargs):
    if _arg(args, kwargs, 3, "nstart", None) is not None:
        return "starts from the uniform vector (nstart=None)"
    if _arg(args, kwargs, 2, "tol", 1e-6) < 8 * _FLOAT_RESOLUTION:
        return "values are 4-byte floats: tol is below what they resolve"
    return None


DECLINE = {
    "katz_centrality": _decline_katz,
    "eigenvector_centrality": _decline_eigenvector,
    "pagerank": _decline_pagerank,
    "single_source_dijkstra_path_length": _decline_dijkstra,
    "betweenness_centrality": _decline_betweenness,
}
