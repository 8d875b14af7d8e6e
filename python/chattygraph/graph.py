"""Graphs: loaded from files and generators, or made from NumPy, SciPy and
NetworkX objects (in place where their arrays already fit)."""

import numpy as np

from . import _core
from ._options import flags, python_errors

_U32_MAX = np.iinfo(np.uint32).max


def _as(arr, dtype, what):
    """arr as a contiguous 1-D array of dtype, copied only when it is not one."""
    a = np.asarray(arr)
    if a.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional (got shape {a.shape})")
    if a.size and a.dtype.kind in "iu" and np.dtype(dtype).kind == "u" and a.min() < 0:
        raise ValueError(f"{what} has a negative entry ({a.min()})")
    if a.size and a.dtype.kind == "f":
        raise ValueError(f"{what} must be integers (got {a.dtype})")
    if a.size and np.dtype(dtype) == np.uint32 and a.max() > _U32_MAX - 1:
        raise ValueError(f"{what} has an entry above {_U32_MAX - 1} ({a.max()})")
    return np.ascontiguousarray(a, dtype=dtype)


def whole_weights(w):
    """Whether every entry of the float array w is one of SSSP's weights: a
    whole number from 0 to 2^32 - 2."""
    return w.size == 0 or (np.all(np.isfinite(w)) and np.all(w == np.round(w)) and w.min() >= 0 and w.max() < _U32_MAX)


def _weights(data, weighted, what):
    """SSSP's weights from data: whole numbers 0..2^32-2, or None.

    weighted=None keeps them when they are whole, non-negative and not all 1
    (fractional ones are dropped: every app but SSSP ignores weights)."""
    if weighted is False or data is None:
        return None
    w = np.asarray(data)
    whole = whole_weights(w)
    if weighted is None:
        if not whole or w.size == 0 or np.all(w == 1):
            return None
    elif not whole:
        raise ValueError(f"{what}: weights must be whole numbers from 0 to {_U32_MAX - 1} (SSSP's)")
    return np.ascontiguousarray(w, dtype=np.uint32)


class Graph:
    """A graph the engine runs on. Vertices are numbered 0..n-1 inside; `ids`
    gives each vertex's id as the input named it (the file's ids, or
    NetworkX's nodes through `nodes`)."""

    def __init__(self, core, nodes=None):
        self._core = core
        self._nodes = nodes  # NetworkX node objects by position, or None
        self._index = None
        self.copied_edges = False  # whether making it copied the caller's edge arrays

    # --- making graphs -------------------------------------------------
    @classmethod
    @python_errors
    def load(cls, path, *, weights=True, **options):
        """A file (every format and compression `chatty` reads), "-" for
        standard input, or a generator spec (kron:SCALE[:EF], urand:...,
        grid:WxH, road:WxH). Options are `chatty`'s load flags: format=, ids=,
        symmetrize= (or undirected=), dedupe=, drop_self_loops=, seed=.
        weights=False drops the file's weights (needed only by SSSP)."""
        return cls(_core.load(str(path), flags(options), bool(weights)))

    @classmethod
    def from_edges(cls, src, dst, weights=None, n=None, *, directed=True, dedupe=True, drop_self_loops=True,
                   ids=None):
        """Edges as two integer arrays of vertex positions 0..n-1 (n: one past
        the largest, unless given). directed=False adds each edge's reverse."""
        src = _as(src, np.uint32, "src")
        dst = _as(dst, np.uint32, "dst")
        if src.size != dst.size:
            raise ValueError(f"src has {src.size} entries and dst {dst.size}")
        top = int(max(src.max(initial=0), dst.max(initial=0))) + 1 if src.size else 0
        if n is None:
            n = top
        elif n < top:
            raise ValueError(f"n={n} but an edge names vertex {top - 1}")
        w = None if weights is None else _weights(weights, True, "from_edges")
        ids = np.empty(0, np.uint64) if ids is None else _as(ids, np.uint64, "ids")
        return cls(_core.from_edges(src, dst, w, int(n), bool(directed), bool(dedupe), bool(drop_self_loops), ids,
                                    "<edges>"))

    @classmethod
    def from_csr(cls, indptr, indices, weights=None, *, directed=True, ids=None, name="<csr>"):
        """A CSR's arrays. The edges (indices, and weights if given) are used
        in place, not copied, when indices are int32/uint32 (weights uint32),
        rows are sorted and, for directed=False, every edge's reverse is
        present; indptr (a vertex's offset, n + 1 entries) is converted to
        uint64 where it is not. Otherwise the arrays are copied first; an
        undirected CSR that lacks reverses is symmetrized. `copied_edges`
        says which."""
        indices = np.asarray(indices)
        if indices.dtype == np.int32 and (indices.size == 0 or indices.min() >= 0):
            indices = indices.view(np.uint32)
        in_place = indices.dtype == np.uint32 and indices.flags.c_contiguous
        indptr = _as(indptr, np.uint64, "indptr")
        indices = _as(indices, np.uint32, "indices")
        w = None if weights is None else _weights(weights, True, "from_csr")
        in_place = in_place and (weights is None or w is weights)
        idv = np.empty(0, np.uint64) if ids is None else _as(ids, np.uint64, "ids")
        core, copied = _core.from_csr((indptr, indices, w), indptr, indices, w, bool(directed), idv, name)
        if core is None:  # undirected, reverses missing: symmetrize
            n = indptr.size - 1
            src = np.repeat(np.arange(n, dtype=np.uint32), np.diff(indptr.astype(np.int64)))
            core = _core.from_edges(src, indices, w, n, False, True, False, idv, name)
            copied = True
        g = cls(core)
        g.copied_edges = bool(copied) or not in_place
        return g

    @classmethod
    def from_scipy(cls, A, *, directed=True, weighted=None):
        """A SciPy sparse matrix or array: a CSR's edges are used in place
        when its indices are int32 (SciPy's choice below 2^31 entries) and
        sorted; COO and other formats go through CSR. Entry (i, j) is an edge i->j.
        weighted=None keeps whole, non-negative values that are not all 1 as
        SSSP's weights; True requires them; False drops them."""
        import scipy.sparse as sp

        if not sp.issparse(A):
            raise ValueError(f"from_scipy takes a SciPy sparse matrix or array (got {type(A).__name__})")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"an adjacency matrix is square (got {A.shape})")
        if A.format != "csr":
            A = A.tocsr()
        if not A.has_canonical_format:
            A = A.copy()
            A.sum_duplicates()
        w = _weights(A.data, weighted, "from_scipy")
        return cls.from_csr(A.indptr, A.indices, w, directed=directed, name="<scipy>")

    @classmethod
    def from_networkx(cls, G, weight=None):
        """A NetworkX graph: nodes become positions 0..n-1 in G's order
        (`nodes` maps back), every adjacency entry an edge (self-loops and a
        multigraph's parallel edges kept, as NetworkX counts them). With
        `weight`, that edge attribute (default 1) becomes SSSP's weights."""
        from .nx_convert import csr_of_networkx

        nodes, indptr, indices, w = csr_of_networkx(G, weight)
        core, _ = _core.from_csr((indptr, indices, w), indptr, indices, w, G.is_directed(),
                                 np.empty(0, np.uint64), "<networkx>")
        g = cls(core, nodes=nodes)
        g.copied_edges = True
        return g

    # --- what it is ----------------------------------------------------
    n = property(lambda self: self._core.n, doc="vertices")
    m = property(lambda self: self._core.m, doc="edges (an undirected edge counts in both directions)")
    directed = property(lambda self: self._core.directed)
    weighted = property(lambda self: self._core.weighted, doc="whether edges carry SSSP's weights")
    name = property(lambda self: self._core.name)
    id_scheme = property(lambda self: self._core.id_scheme, doc="positions, 1-based or occurring (docs/inputs.md)")
    format = property(lambda self: self._core.format, doc="what the input was: edge list, Matrix Market, ...")

    @property
    def ids(self):
        """The input's id of every vertex (uint64): the file's ids, or 0..n-1."""
        return self._core.ids()

    @property
    def nodes(self):
        """The NetworkX nodes of a graph from NetworkX, else `ids` as a list."""
        return self._nodes if self._nodes is not None else self.ids.tolist()

    def position(self, node):
        """The internal vertex of an input id (or NetworkX node)."""
        if self._index is None:
            keys = self._nodes if self._nodes is not None else self.ids.tolist()
            self._index = {k: i for i, k in enumerate(keys)}
        try:
            return self._index[node]
        except (KeyError, TypeError):
            raise ValueError(f"{node!r} is not a vertex of {self.name}") from None

    def csr(self):
        """(indptr uint64, indices uint32, weights uint32 or None): read-only
        views of the engine's arrays."""
        return self._core.csr()

    def to_scipy(self):
        import scipy.sparse as sp

        indptr, indices, w = self.csr()
        data = np.ones(indices.size, np.float64) if w is None else w.astype(np.float64)
        return sp.csr_array((data, indices.astype(np.int64), indptr.astype(np.int64)), shape=(self.n, self.n))

    def to_networkx(self):
        import networkx as nx

        indptr, indices, w = self.csr()
        G = nx.DiGraph() if self.directed else nx.Graph()
        nodes = self.nodes
        G.add_nodes_from(nodes)
        src = np.repeat(np.arange(self.n), np.diff(indptr.astype(np.int64)))
        if w is None:
            G.add_edges_from((nodes[u], nodes[v]) for u, v in zip(src.tolist(), indices.tolist()))
        else:
            G.add_weighted_edges_from((nodes[u], nodes[v], x) for u, v, x in zip(src.tolist(), indices.tolist(),
                                                                               w.tolist()))
        return G

    def save(self, path):
        """Writes the graph in the format path's extension names (as `chatty
        convert`); returns a note when part of it could not be written."""
        return self._core.save(str(path))

    @staticmethod
    def convert(src, dst, **options):
        """`chatty convert`: load src (with load options) and save it as dst."""
        return Graph.load(src, **options).save(dst)

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        return f"<chattygraph.Graph {self.name}: {self.n} vertices, {self.m} edges, {kind}>"
