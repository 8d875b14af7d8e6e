"""NetworkX's link prediction by neighbourhood similarity (jaccard_coefficient)
and its k-truss, answered by the engine's similarity and ktruss apps."""

from . import algorithms as alg
from .nx_common import engine_options


def _pairs(G, ebunch):
    """The pairs NetworkX scores: ebunch's (every node checked, as NetworkX
    does), or every non-edge in NetworkX's own order."""
    import networkx as nx

    if ebunch is None:
        if G.source is None:
            raise NotImplementedError("chatty lists the non-edges of the NetworkX graph it converted")
        return list(nx.non_edges(G.source))
    pairs = list(ebunch)
    for u, v in pairs:
        if u not in G:
            raise nx.NodeNotFound(f"Node {u} not in G.")
        if v not in G:
            raise nx.NodeNotFound(f"Node {v} not in G.")
    return pairs


def jaccard_coefficient(G, ebunch=None, **options):
    # NetworkX's common neighbours of u and v leave u and v out; its union
    # keeps them: with a self-loop the two counts differ from the lists'.
    if G.self_loops:
        raise NotImplementedError("chatty's similarity counts a self-loop's vertex among the common neighbours")
    pairs = _pairs(G, ebunch)
    if not pairs:
        return iter(())
    r = alg.similarity(G.graph, pairs=pairs, **engine_options(options))
    return ((u, v, p) for (u, v), p in zip(pairs, r.values.tolist()))


def k_truss(G, k, **options):
    """NetworkX's k-truss: a copy of the graph without the edges of truss
    number below k, then without the nodes left isolated."""
    import networkx as nx

    if G.source is None:
        raise NotImplementedError("chatty returns a subgraph of the NetworkX graph it converted")
    if G.self_loops:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    H = G.source.copy()
    if G.graph.m:
        r = alg.truss_numbers(G.graph, **engine_options(options))
        nodes = G.graph.nodes
        H.remove_edges_from((nodes[u], nodes[v]) for (u, v), t in zip(r.pairs.tolist(), r.values.tolist()) if t < k)
    H.remove_nodes_from(list(nx.isolates(H)))
    return H


DECLINE = {}
