"""NetworkX's path lengths and reachability answered by the engine's BFS
and SSSP: from one source, to every node or to one target (NetworkX's
messages where a node is missing or unreachable)."""

from . import algorithms as alg
from .graph import whole_weights
from .nx_common import call_arg, checked_source, engine_options, reached_dict


def _depths(G, source, options):
    """BFS depth of every vertex from source (-1: unreached)."""
    return alg.bfs(G.graph, source, **engine_options(options)).values


def _distances(G, source, weight, options):
    """SSSP distance of every vertex from source over `weight` (-1:
    unreached), and the weights' kind ("int" or "float"); NotImplementedError
    where the engine's distances would not be NetworkX's."""
    raw = G.weights.get(weight)
    if raw is None or not whole_weights(raw):
        raise NotImplementedError("chatty's SSSP reads whole, non-negative weights below 2^32 - 1")
    kind = G.weight_kinds.get(weight, "int")
    if kind == "mixed":  # NetworkX's distance is an int or a float by the path's weights
        raise NotImplementedError("chatty's SSSP gives a distance one type: the weights mix ints and floats")
    try:
        return alg.sssp(G.graph, source, no_default_weights=True,
                        **engine_options(options)).values, kind
    except ValueError as e:
        if "overflow" in str(e):
            raise NotImplementedError(f"chatty's SSSP: {e}") from None
        raise


def _typed(d, kind):
    """A distance as NetworkX types it: sums of float weights are floats."""
    return float(d) if kind == "float" else int(d)


def single_source_shortest_path_length(G, source, cutoff=None, **options):
    checked_source(G, source)
    return reached_dict(G, _depths(G, source, options), cutoff)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight", **options):
    s = checked_source(G, source)
    dist, kind = _distances(G, s, weight, options)
    reached = reached_dict(G, dist, cutoff)
    if kind == "float":  # the source's 0 stays NetworkX's int
        reached = {v: (float(d) if v != s else d) for v, d in reached.items()}
    return reached


def single_source_bellman_ford_path_length(G, source, weight="weight", **options):
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return single_source_dijkstra_path_length(G, source, weight=weight, **options)


def _path_length(G, source, target, weight, options, no_path):
    """The distance source -> target (BFS depth with weight None), or
    NetworkXNoPath with `no_path`'s message."""
    import networkx as nx

    if source == target:
        return 0
    if target not in G:
        raise nx.NetworkXNoPath(no_path)
    if weight is None:
        d, kind = _depths(G, source, options), "int"
    else:
        d, kind = _distances(G, source, weight, options)
    got = d[G.graph.position(target)]
    if got < 0:
        raise nx.NetworkXNoPath(no_path)
    return _typed(got, kind)


def dijkstra_path_length(G, source, target, weight="weight", **options):
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    return _path_length(G, source, target, weight, options, f"Node {target} not reachable from {source}")


def bellman_ford_path_length(G, source, target, weight="weight", **options):
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    return _path_length(G, source, target, weight, options, f"node {target} not reachable from {source}")


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra", **options):
    """The forms with a source (can_run leaves the others to NetworkX)."""
    import networkx as nx

    checked_source(G, source)
    if target is None:
        if weight is None:
            return single_source_shortest_path_length(G, source, **options)
        return single_source_dijkstra_path_length(G, source, weight=weight, **options)
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return _path_length(G, source, target, weight, options, f"No path between {source} and {target}.")


def has_path(G, source, target, **options):
    import networkx as nx

    checked_source(G, source)
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return bool(_depths(G, source, options)[G.graph.position(target)] >= 0)


def descendants_at_distance(G, source, distance, **options):
    import networkx as nx

    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    depth = _depths(G, source, options)
    nodes = G.graph.nodes
    return {nodes[i] for i in (depth == distance).nonzero()[0].tolist()}


def descendants(G, source, **options):
    import networkx as nx

    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the {'digraph' if G.is_directed() else 'graph'}.")
    depth = _depths(G, source, options)
    nodes = G.graph.nodes
    return {nodes[i] for i in (depth > 0).nonzero()[0].tolist()}


def _decline_weight_function(pos):
    def decline(args, kwargs):
        if callable(call_arg(args, kwargs, pos, "weight", "weight")):
            return "reads a weight attribute, not a weight function"
        return None

    return decline


def _decline_shortest_path_length(args, kwargs):
    if call_arg(args, kwargs, 1, "source", None) is None:
        return "answers from one source (source=...)"
    if call_arg(args, kwargs, 4, "method", "dijkstra") not in ("dijkstra", "bellman-ford"):
        return "knows the methods dijkstra and bellman-ford"
    return _decline_weight_function(3)(args, kwargs)


DECLINE = {
    "single_source_dijkstra_path_length": _decline_weight_function(3),
    "single_source_bellman_ford_path_length": _decline_weight_function(2),
    "dijkstra_path_length": _decline_weight_function(3),
    "bellman_ford_path_length": _decline_weight_function(3),
    "shortest_path_length": _decline_shortest_path_length,
}
