"""NetworkX backend "chatty": nx.pagerank(G, backend="chatty"), or every
call through NETWORKX_AUTOMATIC_BACKENDS=chatty.

A call runs here only where the answer is NetworkX's: can_run declines
arguments the engine does not compute (personalization, a weight function,
tolerances below what 4-byte ranks resolve), and an algorithm raises
NotImplementedError, so that NetworkX runs it, where the graph's weights are
not what the engine reads (fractional or negative SSSP weights, a weighted
PageRank). Engine options (devices=, backend=, threads=, ...) come from
nx.config.backends.chatty or as extra keyword arguments."""

import functools
import inspect
import os

import numpy as np

from . import algorithms as alg
from .graph import Graph, whole_weights

_FLOAT_RESOLUTION = 2.0**-23  # what 4-byte ranks resolve around a sum of 1


class ChattyNxGraph:
    """A NetworkX graph converted for the engine (cached by NetworkX in
    G.__networkx_cache__, so repeated calls skip the conversion)."""

    __networkx_backend__ = "chatty"

    def __init__(self, graph, directed, multigraph, self_loops, weights, weight_kinds):
        self.graph = graph  # chattygraph.Graph
        self._directed = directed
        self._multigraph = multigraph
        self.self_loops = self_loops
        self.weights = weights  # {attr: raw float64 weights in CSR order}
        self.weight_kinds = weight_kinds  # {attr: "int", "float" or "mixed"}
        self.graph_attrs = {}

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __len__(self):
        return self.graph.n

    def __contains__(self, node):
        try:
            self.graph.position(node)
            return True
        except ValueError:
            return False

    def __iter__(self):
        return iter(self.graph.nodes)


def _convert(G, weight_attrs):
    from .nx_convert import csr_of_networkx

    nodes, indptr, indices, _ = csr_of_networkx(G, None)
    weights, kinds = {}, {}
    for attr, default in (weight_attrs or {}).items():
        weights[attr], kinds[attr] = _raw_weights(G, attr, 1 if default is None else default, indptr[-1])
    whole = None
    for raw in weights.values():  # the one weight the call reads becomes SSSP's
        if whole_weights(raw):
            whole = raw.astype(np.uint32)
    from . import _core

    core, _ = _core.from_csr((indptr, indices, whole), indptr, indices, whole, G.is_directed(),
                             np.empty(0, np.uint64), "<networkx>")
    g = Graph(core, nodes=nodes)
    loops = int(np.sum(np.repeat(np.arange(len(nodes), dtype=np.int64), np.diff(indptr.astype(np.int64))) ==
                       indices.astype(np.int64)))
    return ChattyNxGraph(g, G.is_directed(), G.is_multigraph(), loops, weights, kinds)


def _raw_weights(G, attr, default, m):
    from .nx_convert import edge_values_and_kind

    try:
        return edge_values_and_kind(G, attr, default, m)
    except (TypeError, ValueError):
        return np.full(int(m), np.nan), "mixed"  # not numbers: no call here reads them


class _Backend:
    """What NetworkX's dispatcher looks up by name."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                        preserve_graph_attrs=False, name=None, graph_name=None):
        if isinstance(G, ChattyNxGraph):
            return G
        if preserve_edge_attrs:
            raise NotImplementedError("chatty keeps numeric edge weights only")
        return _convert(G, edge_attrs)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, ChattyNxGraph):
            return obj.graph.to_networkx()
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        if name not in _FUNCTIONS:
            return False
        reason = _DECLINE.get(name, lambda a, k: None)(args, kwargs)
        if reason:
            _note("declined", name, f"chatty {reason}")
        return f"chatty {reason}" if reason else True

    @staticmethod
    def should_run(name, args, kwargs):
        """Under automatic dispatch, whether converting and running here beats
        NetworkX's own call: not on a NetworkX graph smaller than the
        function's _WORTH_FROM_EDGES (a graph converted already always runs
        here; an explicit backend="chatty" runs here whatever the size)."""
        G = args[0] if args else kwargs.get("G")
        if G is None or isinstance(G, ChattyNxGraph) or not hasattr(G, "number_of_edges"):
            return True
        need = _WORTH_FROM_EDGES.get(name, _WORTH_FROM_EDGES_DEFAULT)
        m = G.number_of_edges()
        if m < need:
            return f"chatty: NetworkX's own run is faster on {m} edges (below about {need}, conversion included)"
        return True


# The fewest edges on which converting a NetworkX graph and running here
# beats NetworkX's own call (scripts/bench_python.py --parts 4: random
# graphs of mean degree 8, the crossover of each function, rounded up).
_WORTH_FROM_EDGES = {
    "betweenness_centrality": 2_000,
    "pagerank": 8_000,
    "triangles": 8_000,
    "core_number": 8_000,
}
_WORTH_FROM_EDGES_DEFAULT = 32_000  # components, shortest path lengths


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


_DECLINE = {
    "pagerank": _decline_pagerank,
    "single_source_dijkstra_path_length": _decline_dijkstra,
    "betweenness_centrality": _decline_betweenness,
}

# The NetworkX functions answered here: those the engine's app registry
# names (AppSpec::networkx), each by the adapter of that name above.
_FUNCTIONS = {name: globals()[name] for spec in alg.SPECS for name in spec["networkx"].split()}

# With CHATTY_NX_RECORD set, every call says whether it ran here or was
# declined, and why (tests/python/nx_suite_report.py counts them).
_RECORD = bool(os.environ.get("CHATTY_NX_RECORD"))
events = []


def _note(kind, name, reason=""):
    if _RECORD:
        events.append((kind, name, reason))


def _recorded(name, f):
    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            rv = f(*args, **kwargs)
            if inspect.isgenerator(rv):
                rv = list(rv)  # run now, so that the record is of this call
                _note("ran", name)
                return iter(rv)
        except NotImplementedError as e:
            _note("declined", name, str(e))
            raise
        _note("ran", name)
        return rv

    return call


backend_interface = _Backend()
for _name, _f in _FUNCTIONS.items():
    setattr(backend_interface, _name, _recorded(_name, _f))
