"""The apps as functions: each runs the engine once (the GIL released, Ctrl-C
stopping it at the next superstep) and returns a Result indexed by vertex.
Keyword options are `chatty run`'s flags (devices=4, backend="cpu",
exchange="peer", tolerance=1e-8, validate=True, ...), checked by the same
code, so a bad one raises ValueError with the CLI's message."""

import json
import warnings

import numpy as np

from . import _core
from ._options import flags, python_errors
from .graph import Graph


class ValidationError(RuntimeError):
    """validate=True and the result disagrees with the sequential reference."""


class NotConvergedWarning(RuntimeWarning):
    """PageRank stopped at max_iters before reaching its tolerance."""


class Result:
    """values[v] for every vertex v (0..n-1; `ids` / `nodes` name them as the
    input does); unreached vertices are -1 in BFS depths and SSSP distances.
    `stats` is the run's statistics (`chatty run --json`'s object)."""

    def __init__(self, graph, app, values, stats):
        self.graph = graph
        self.app = app
        self.values = values
        self.stats = stats

    ids = property(lambda self: self.graph.ids)
    nodes = property(lambda self: self.graph.nodes)

    def to_dict(self):
        """{input id or node: value}, unreached vertices left out (NetworkX's form)."""
        keys = self.graph.nodes
        vals = self.values.tolist()
        if self.app in ("bfs", "sssp"):
            return {keys[v]: x for v, x in enumerate(vals) if x >= 0}
        return dict(zip(keys, vals))

    def __repr__(self):
        return f"<chattygraph.Result {self.app} on {self.graph.name}: {self.values.size} values>"


def _graph(G):
    if isinstance(G, Graph):
        return G
    if hasattr(G, "adj") and hasattr(G, "is_directed"):  # a NetworkX graph
        return Graph.from_networkx(G)
    raise TypeError(f"expected a chattygraph.Graph or a NetworkX graph (got {type(G).__name__})")


@python_errors
def _run(app, G, source, options, sources=None):
    g = _graph(G)
    args = flags(options)
    if sources is not None:  # BC: "all", a count of random ones, or a list of ids (nodes)
        if isinstance(sources, bool):
            raise TypeError("sources: 'all', a count, or a list of ids (got a bool)")
        if isinstance(sources, str) or isinstance(sources, (int, np.integer)):
            args.append(f"--sources={sources}")
        else:
            ids = [g.position(s) if g._nodes is not None else int(s) for s in sources]
            if not ids:
                raise ValueError("sources: an empty list")
            # The trailing comma makes it a list even of one id: "5" is a count.
            args.append("--sources=" + ",".join(map(str, ids)) + ",")
    if source is not None:
        if g._nodes is not None or not isinstance(source, (int, np.integer)):
            source = g.position(source)  # positions are the ids of a graph from NetworkX
        args.append(f"--source={int(source)}")
    values, stats_json, code = _core.run(app, g._core, args)
    stats = json.loads(stats_json)
    if code == 3:
        raise ValidationError(stats.get("validation", "validation failed"))
    if code == 4:
        warnings.warn(f"{app}: not converged after {stats['iterations']} iterations (change "
                      f"{stats.get('last_change')} > tolerance)", NotConvergedWarning, stacklevel=3)
    if app in ("bfs", "sssp"):
        out = values.astype(np.int64)
        out[values == np.iinfo(np.uint32).max] = -1
        values = out
    elif app == "bc":
        values = values.astype(np.float64)
    elif app == "wcc":  # labels are the least vertex of each component, as an input id
        values = g.ids[values] if g._nodes is None else values.astype(np.int64)
    return Result(g, app, values, stats)


def bfs(G, source=None, **options):
    """Depth of every vertex from `source` (an input id; default: the lowest
    id with an out-edge), -1 where unreached."""
    return _run("bfs", G, source, options)


def sssp(G, source=None, **options):
    """Shortest-path distance from `source` over the edges' weights (whole
    numbers; an unweighted graph gets weights 1..255 from `seed`, unless
    no_default_weights=True), -1 where unreached."""
    return _run("sssp", G, source, options)


def pagerank(G, **options):
    """PageRank (damping=0.85, tolerance=1e-6 on the L1 change, max_iters=100),
    dangling mass spread uniformly; ranks sum to 1 (float32)."""
    return _run("pr", G, None, options)


def wcc(G, **options):
    """Weakly connected components: each vertex's label is the least input id
    (the first NetworkX node, by position) of its component."""
    return _run("wcc", G, None, options)


def kcore(G, **options):
    """Core number of every vertex (on an undirected graph)."""
    return _run("kcore", G, None, options)


def triangles(G, **options):
    """Triangles through every vertex of an undirected graph (uint64, as
    NetworkX's `triangles`); stats["summary"]["triangles"] is the total."""
    return _run("tc", G, None, options)


def betweenness(G, source=None, sources=None, **options):
    """Betweenness centrality (Brandes): each vertex's dependencies summed
    over the sources. From `source` (an id), or `sources`: "all" (exact), a
    count of random ones (from seed=), or a list (or array) of ids of any
    length. bc_scale="ordered" (default) counts ordered pairs, so an
    undirected graph's pairs count both ways (GAP's); "pairs" is NetworkX's
    normalized=False and "normalized" its normalized=True, sampled sources
    scaled as NetworkX scales them. stats["summary"]["max_score"] is the
    largest (GAP normalises by it)."""
    if source is not None and sources is not None:
        raise ValueError("source and sources exclude each other")
    return _run("bc", G, source, options, sources)


def apps():
    """The apps this build runs, as `chatty run --app` names them."""
    return list(_core.apps())
