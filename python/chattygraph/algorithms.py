"""The apps as functions, one made from each entry of the engine's app
registry (apps/registry.h: its Python name, docstring, whether it takes a
source or sources, the kind of its values): each runs the engine once (the
GIL released, Ctrl-C stopping it at the next superstep) and returns a
Result indexed by vertex. Keyword options are `chatty run`'s flags
(devices=4, backend="cpu", exchange="peer", tolerance=1e-8, validate=True,
...), checked by the same code, so a bad one raises ValueError with the
CLI's message."""

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
    `stats` is the run's statistics (`chatty run --json`'s object). An app
    with a second value per vertex has it as an attribute of its name
    (hits: `values` the hubs, `authorities`). An app with a value per pair
    of vertices (similarity) has `pairs`, an array of shape (k, 2) in the
    input's ids (a NetworkX graph's: positions, `nodes` maps them), and
    values[i] is that of pairs[i]. Louvain and Leiden with keep_levels=True
    have `levels`, an array of shape (levels, n): row l the labels a run
    cut at level l + 1 gives (max_level), the last equal to `values`."""

    def __init__(self, graph, app, values, stats, unreached=False, second=None, pairs=None, levels=None):
        self.graph = graph
        self.app = app
        self.values = values
        self.stats = stats
        self._unreached = unreached
        self.pairs = pairs
        self.levels = levels
        if second is not None:
            setattr(self, second[0], second[1])

    def _pair_keys(self):
        if self.graph._nodes is None:
            return [tuple(p) for p in self.pairs.tolist()]
        nodes = self.graph.nodes
        return [(nodes[u], nodes[v]) for u, v in self.pairs.tolist()]

    ids = property(lambda self: self.graph.ids)
    nodes = property(lambda self: self.graph.nodes)

    def to_dict(self):
        """{input id or node: value}, unreached vertices left out (NetworkX's
        form); per pair, {(u, v): value}."""
        if self.pairs is not None:
            return dict(zip(self._pair_keys(), self.values.tolist()))
        keys = self.graph.nodes
        vals = self.values.tolist()
        if self._unreached:
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


def _id_flag(g, v):
    """A vertex as the CLI's flags take it: an input id, or the position of
    a NetworkX node (positions are the ids of a graph from NetworkX)."""
    return g.position(v) if g._nodes is not None else int(v)


def _source_flags(g, source, sources):
    args = []
    if sources is not None:  # "all", a count of random ones, or a list of ids (nodes)
        if isinstance(sources, bool):
            raise TypeError("sources: 'all', a count, or a list of ids (got a bool)")
        if isinstance(sources, str) or isinstance(sources, (int, np.integer)):
            args.append(f"--sources={sources}")
        else:
            ids = [_id_flag(g, s) for s in sources]
            if not ids:
                raise ValueError("sources: an empty list")
            # The trailing comma makes it a list even of one id: "5" is a count.
            args.append("--sources=" + ",".join(map(str, ids)) + ",")
    if source is not None:
        if g._nodes is not None or not isinstance(source, (int, np.integer)):
            source = g.position(source)  # positions are the ids of a graph from NetworkX
        args.append(f"--source={int(source)}")
    return args


def _pair_flags(g, options):
    """--pairs and --similar_to from Python lists of ids (nodes of a graph
    from NetworkX); a string is a file's name or the CLI's list."""
    args = []
    pairs = options.pop("pairs", None)
    if pairs is not None and not isinstance(pairs, str):
        listed = [f"{_id_flag(g, u)}:{_id_flag(g, v)}" for u, v in pairs]
        if not listed:
            raise ValueError("pairs: an empty list")
        args.append("--pairs=" + ",".join(listed))
    elif pairs is not None:
        args.append(f"--pairs={pairs}")
    of = options.pop("similar_to", None)
    if of is not None and not isinstance(of, str):
        listed = [str(_id_flag(g, v)) for v in of]
        if not listed:
            raise ValueError("similar_to: an empty list")
        args.append("--similar_to=" + ",".join(listed) + ",")
    elif of is not None:
        args.append(f"--similar_to={of}")
    return args


def _communicator(comm):
    """The ranks' MPI communicator as its Fortran handle: an mpi4py
    communicator (its py2f()) or the handle itself; None: the launcher's
    ranks under mpirun, else one process."""
    if comm is None:
        return None
    if hasattr(comm, "py2f"):
        return int(comm.py2f())
    if isinstance(comm, (int, np.integer)) and not isinstance(comm, bool):
        return int(comm)
    raise TypeError(f"communicator: an mpi4py communicator or its Fortran handle (got {type(comm).__name__})")


@python_errors
def _run(spec, G, source, options, sources=None):
    app = spec["name"]
    g = _graph(G)
    options = dict(options)
    comm = _communicator(options.pop("communicator", None))
    args = _pair_flags(g, options) if spec["per_pair"] else []
    args = flags(options) + _source_flags(g, source, sources) + args
    values, stats, code, second, pairs, levels = _core.run(app, g._core, args, comm)
    if code == 3:
        raise ValidationError(stats.get("validation", "validation failed"))
    if code == 4:
        warnings.warn(f"{app}: not converged after {stats['iterations']} iterations (change "
                      f"{stats.get('last_change')} > tolerance)", NotConvergedWarning, stacklevel=3)
    if spec["unreached"]:
        out = values.astype(np.int64)
        out[values == np.iinfo(np.uint32).max] = -1
        values = out
    elif spec["double"]:
        values = values.astype(np.float64)
        second = second.astype(np.float64) if second is not None else None
    elif spec["names_vertices"]:  # e.g. WCC's labels: the least vertex of each component, as an input id
        values = g.ids[values] if g._nodes is None else values.astype(np.int64)
    if pairs is not None:
        pairs = pairs.reshape(-1, 2)
        pairs = g.ids[pairs] if g._nodes is None else pairs.astype(np.int64)
    if levels is not None:  # labels as `values` are, one row per level
        levels = levels.reshape(-1, values.size)
        levels = g.ids[levels] if g._nodes is None else levels.astype(np.int64)
    return Result(g, app, values, stats, spec["unreached"],
                  (spec["second"], second) if spec["second"] and second is not None else None, pairs, levels)


_OPTIONS_DOC = "\n\nOptions are `chatty run`'s flags as keywords (devices=4, validate=True, ...)."


def _function(spec):
    """The Python function of one registry entry."""
    if spec["sources_at_once"]:

        def f(G, source=None, sources=None, **options):
            if source is not None and sources is not None:
                raise ValueError("source and sources exclude each other")
            return _run(spec, G, source, options, sources)

    elif spec["needs_source"]:

        def f(G, source=None, **options):
            return _run(spec, G, source, options)

    else:

        def f(G, **options):
            return _run(spec, G, None, options)

    f.__name__ = f.__qualname__ = spec["python_name"]
    f.__module__ = "chattygraph"
    f.__doc__ = spec["doc"] + _OPTIONS_DOC
    return f


SPECS = tuple(_core.apps())
FUNCTIONS = {spec["python_name"]: _function(spec) for spec in SPECS}
globals().update(FUNCTIONS)


def apps():
    """The apps this build runs, as `chatty run --app` names them."""
    return [spec["name"] for spec in SPECS]
