"""NetworkX's centralities answered by the engine: PageRank, betweenness,
Katz and eigenvector centrality (NetworkX's signatures and conventions;
NotImplementedError where the engine's answer would not be NetworkX's, so
that NetworkX runs the call)."""

import functools

import numpy as np

from . import algorithms as alg
from .graph import whole_weights
from .nx_common import FLOAT_RESOLUTION, call_arg, engine_options, power_iteration, require_unweighted


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
            if personalization is None:
                r = alg.pagerank(G.graph, damping=alpha, tolerance=tol * n, max_iters=max_iter, reorder="none",
                                 **engine_options(options))
            else:  # equal shares on its nodes (_decline_pagerank saw to that)
                seeds = [v for v, x in personalization.items() if x]
                r = alg.personalized_pagerank(G.graph, sources=seeds, damping=alpha, tolerance=tol * n,
                                              max_iters=max_iter, **engine_options(options))
        except alg.NotConvergedWarning:
            raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(G.graph.nodes, r.values.astype(np.float64).tolist()))


# Personalised PageRank's seeds at most (apps/ppr/program.h).
_MAX_SEEDS = 64


def _decline_pagerank(args, kwargs):
    for pos, key in ((5, "nstart"), (7, "dangling")):
        if call_arg(args, kwargs, pos, key, None) is not None:
            return f"does not take {key}"
    G = args[0] if args else kwargs.get("G")
    p = call_arg(args, kwargs, 2, "personalization", None)
    if p is not None:
        shares = {x for x in p.values() if x}
        if len(shares) != 1 or next(iter(shares)) <= 0 or G is None or any(v not in G for v in p):
            return "takes a personalization of equal positive shares on nodes of the graph"
        if sum(1 for x in p.values() if x) > _MAX_SEEDS:
            return f"takes a personalization of at most {_MAX_SEEDS} nodes"
    tol = call_arg(args, kwargs, 4, "tol", 1e-6)
    n = len(G) if G is not None else 1
    if n and tol * n < 2 * FLOAT_RESOLUTION:
        return f"ranks are 4-byte floats: tol * n = {tol * n:.3g} is below the {2 * FLOAT_RESOLUTION:.2g} they resolve"
    return None


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
    run = alg.betweenness
    weights = G.weights.get(weight) if weight is not None else None
    if weights is not None and weights.size and not np.all(weights == 1):
        # Weighted paths: whole weights of at least 1 (a weight 0 ties
        # paths in an order NetworkX's Dijkstra settles otherwise).
        if not np.all((weights >= 1) & (weights < 2**32 - 1) & (weights == np.floor(weights))):
            raise NotImplementedError("chatty's weighted BC reads whole weights from 1 to 2^32 - 2")
        run = functools.partial(alg.weighted_betweenness, no_default_weights=True)
    raw = run(G.graph, sources=sources, bc_scale=scale, **engine_options(options)).values
    scores = dict(zip(nodes, raw.tolist()))
    if k == 1 and n > 2:
        scores[sources[0]] = math.nan
    return scores


def _decline_betweenness(args, kwargs):
    if call_arg(args, kwargs, 4, "endpoints", False):
        return "does not count endpoints"
    return None


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None, normalized=True, weight=None,
                    **options):
    if len(G) == 0:
        return {}
    require_unweighted(G, weight, "Katz centrality")
    n = len(G)
    r = power_iteration(lambda: alg.katz(G.graph, katz_alpha=alpha, katz_beta=float(beta), tolerance=tol * n,
                                          max_iters=max_iter, katz_normalized=bool(normalized), reorder="none",
                                          **engine_options(options)), max_iter)
    return dict(zip(G.graph.nodes, r.values.tolist()))


def _decline_katz(args, kwargs):
    if call_arg(args, kwargs, 5, "nstart", None) is not None:
        return "starts from zero (nstart=None)"
    beta = call_arg(args, kwargs, 2, "beta", 1.0)
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        return "takes one beta for every node"
    alpha = call_arg(args, kwargs, 1, "alpha", 0.1)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)) or not alpha > 0:
        return "takes a positive alpha"
    tol = call_arg(args, kwargs, 4, "tol", 1e-6)
    if tol < 8 * FLOAT_RESOLUTION * max(1.0, abs(float(beta))):
        return f"values are 4-byte floats: tol = {tol:.3g} is below what they resolve"
    return None


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None, **options):
    import networkx as nx

    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    require_unweighted(G, weight, "eigenvector centrality")
    n = len(G)
    r = power_iteration(lambda: alg.eigenvector(G.graph, tolerance=tol * n, max_iters=max_iter, reorder="none",
                                                 **engine_options(options)), max_iter)
    return dict(zip(G.graph.nodes, r.values.tolist()))


def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True, **options):
    """NetworkX's hits, whose answer is the principal singular vectors of the
    weighted adjacency matrix (ARPACK's, from any start: nstart changes
    nothing). The engine's power iteration reaches them when it converges
    within max_iter iterations and the principal singular value is simple;
    otherwise (an undirected bipartite graph, two equal components) NetworkX
    runs the call."""
    import networkx as nx

    n = len(G)
    if n == 0:
        return {}, {}
    if max_iter < 1:
        raise nx.PowerIterationFailedConvergence(max_iter)
    raw = G.weights.get("weight")
    if raw is not None and not whole_weights(raw):
        raise NotImplementedError("chatty's HITS reads whole weights from 0 to 2^32 - 2")
    if G.graph.m == 0 or (raw is not None and raw.size and not raw.any()):
        raise NotImplementedError("chatty's HITS needs an edge of positive weight (NetworkX's answer is NaN)")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", alg.NotConvergedWarning)
        try:
            r = alg.hits(G.graph, tolerance=tol, max_iters=max_iter, **engine_options(options))
        except alg.NotConvergedWarning:
            raise NotImplementedError(f"chatty's power iteration did not converge in {max_iter} iterations") from None
    if not _principal_is_simple(G, r.values, r.authorities):
        raise NotImplementedError("the principal singular value is not simple: NetworkX's answer is ARPACK's choice")
    nodes = G.graph.nodes
    return dict(zip(nodes, r.values.tolist())), dict(zip(nodes, r.authorities.tolist()))


def _principal_is_simple(G, hubs, authorities):
    """Whether the scores lie on one component of the bipartite double cover
    (hub u -- authority v for every edge u -> v): where two components share
    the principal singular value, the power iteration keeps weight on both
    and ARPACK picks its own mix."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    indptr, indices = G.nx_csr
    n = len(hubs)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr.astype(np.int64)))
    cover = sp.coo_matrix((np.ones(rows.size), (rows, indices.astype(np.int64) + n)), shape=(2 * n, 2 * n))
    k, label = connected_components(cover, directed=False)
    mass = np.sort(np.bincount(label, np.concatenate([hubs, authorities]), minlength=k))
    return k < 2 or mass[-2] <= _HITS_STRAY_MASS


# Score mass the hits adapter lets stray off the principal component: the
# L1 distance within which the engine's answer is NetworkX's.
_HITS_STRAY_MASS = 1e-6


def _decline_hits(args, kwargs):
    if not call_arg(args, kwargs, 4, "normalized", True):
        return "scales its scores to sum 1 (normalized=True)"
    return None


def _decline_eigenvector(args, kwargs):
    if call_arg(args, kwargs, 3, "nstart", None) is not None:
        return "starts from the uniform vector (nstart=None)"
    if call_arg(args, kwargs, 2, "tol", 1e-6) < 8 * FLOAT_RESOLUTION:
        return "values are 4-byte floats: tol is below what they resolve"
    return None


DECLINE = {
    "pagerank": _decline_pagerank,
    "betweenness_centrality": _decline_betweenness,
    "katz_centrality": _decline_katz,
    "eigenvector_centrality": _decline_eigenvector,
    "hits": _decline_hits,
}
