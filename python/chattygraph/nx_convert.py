"""NetworkX graphs to CSR arrays, without a Python loop per edge where NumPy
can take the adjacency dicts directly."""

from itertools import chain

import numpy as np


def csr_of_networkx(G, weight=None):
    """(nodes, indptr uint64, indices uint32, weights uint32 or None) of G's
    adjacency (successors when directed): every entry an edge, a
    multigraph's parallel edges once each, self-loops kept."""
    from .graph import _weights

    adj = G._adj
    nodes = list(adj)
    n = len(nodes)
    index = {v: i for i, v in enumerate(nodes)}
    rows = adj.values()
    if G.is_multigraph():
        deg = np.fromiter((sum(map(len, nbrs.values())) for nbrs in rows), dtype=np.int64, count=n)
        targets = chain.from_iterable((v for v, keys in nbrs.items() for _ in keys) for nbrs in rows)
    else:
        deg = np.fromiter(map(len, rows), dtype=np.int64, count=n)
        targets = chain.from_iterable(rows)
    indptr = np.zeros(n + 1, np.uint64)
    np.cumsum(deg, out=indptr[1:])
    m = int(indptr[-1])
    indices = np.fromiter(map(index.__getitem__, targets), dtype=np.uint32, count=m)
    w = None
    if weight is not None:
        w = _weights(edge_values(G, weight, 1, m), True, f"edge attribute {weight!r}")
    return nodes, indptr, indices, w


def _edge_attrs(G):
    """G's adjacency entries' attribute dicts, in csr_of_networkx's order."""
    rows = G._adj.values()
    if G.is_multigraph():
        return chain.from_iterable((d for keys in nbrs.values() for d in keys.values()) for nbrs in rows)
    return chain.from_iterable(nbrs.values() for nbrs in rows)


def edge_values(G, attr, default, m):
    """G's m adjacency entries' `attr` (default where absent) as float64, in
    the order of csr_of_networkx's indices."""
    return np.fromiter((d.get(attr, default) for d in _edge_attrs(G)), dtype=np.float64, count=int(m))


def edge_values_and_kind(G, attr, default, m):
    """(edge_values's array, "int", "float" or "mixed"): what kind of number
    the values are, since NetworkX's sums of them keep it (2 + 3 is 5, 2.0
    + 3.0 is 5.0)."""
    values = [d.get(attr, default) for d in _edge_attrs(G)]
    array = np.fromiter(values, dtype=np.float64, count=int(m))
    kinds = {"int" if issubclass(t, (int, np.integer)) else "float" for t in set(map(type, values))}
    kind = kinds.pop() if len(kinds) == 1 else ("int" if not kinds else "mixed")
    return array, kind
