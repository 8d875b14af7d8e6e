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
from . import nx_centrality, nx_community, nx_distance, nx_paths, nx_similarity, nx_structure
from .graph import Graph, whole_weights

class ChattyNxGraph:
    """A NetworkX graph converted for the engine (cached by NetworkX in
    G.__networkx_cache__, so repeated calls skip the conversion)."""

    __networkx_backend__ = "chatty"

    def __init__(self, graph, directed, multigraph, self_loops, weights, weight_kinds):
        self.graph = graph  # chattygraph.Graph
        self._directed = directed
        self._multigraph = multigraph
        self.self_loops = self_loops
        self.weights = weights  # {attr: raw float64 weights in nx_csr's order}
        self.nx_csr = None  # (indptr, indices) as NetworkX's adjacency gave them
        self.weight_kinds = weight_kinds  # {attr: "int", "float" or "mixed"}
        self.graph_attrs = {}
        # The NetworkX graph this was converted from, for the functions that
        # return a subgraph of it with its attributes (k_core and its kin).
        self.source = None

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
    converted = ChattyNxGraph(g, G.is_directed(), G.is_multigraph(), loops, weights, kinds)
    converted.source = G
    converted.nx_csr = (indptr, indices)
    return converted


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
        # A subgraph of G itself is returned where every attribute is kept.
        if preserve_edge_attrs and name not in _SUBGRAPHS_OF_SOURCE:
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


_SUBGRAPHS_OF_SOURCE = {"k_core", "k_shell", "k_crust", "k_corona", "k_truss"}

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



# The NetworkX functions answered here: those the engine's app registry
# names (AppSpec::networkx), each by the adapter of that name above.
_ADAPTERS = (nx_centrality, nx_community, nx_distance, nx_paths, nx_similarity, nx_structure)
_DECLINE = {name: why for module in _ADAPTERS for name, why in module.DECLINE.items()}


def _adapter(name):
    for module in _ADAPTERS:
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"the app registry names NetworkX's {name}, which no nx_*.py module answers")


_FUNCTIONS = {name: _adapter(name) for spec in alg.SPECS for name in spec["networkx"].split()}

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
