"""What the NetworkX backend's adapters share: arguments as NetworkX passes
them, engine options, sources, node sets and the checks that decline."""

import numpy as np

from . import algorithms as alg


FLOAT_RESOLUTION = 2.0**-23  # what 4-byte ranks resolve around a sum of 1


def call_arg(args, kwargs, pos, key, default):
    return args[pos] if len(args) > pos else kwargs.get(key, default)


def engine_options(extra):
    """Engine options: nx.config.backends.chatty's, then the call's own."""
    import networkx as nx

    cfg = getattr(nx.config.backends, "chatty", None)
    opts = {k: v for k, v in (dict(cfg) if cfg is not None else {}).items() if v is not None}
    opts.update(extra)
    return opts


def checked_source(G, source):
    import networkx as nx

    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return source


def reached_dict(G, values, cutoff):
    """{node: value} for reached vertices (within cutoff), nearest first."""
    keep = values >= 0
    if cutoff is not None:
        keep &= values <= cutoff
    idx = np.flatnonzero(keep)
    idx = idx[np.argsort(values[idx], kind="stable")]
    nodes = G.graph.nodes
    vals = values[idx].tolist()
    return {nodes[i]: v for i, v in zip(idx.tolist(), vals)}


def groups_in_order(G, labels):
    """{label: the set of its nodes}, labels in the order of each one's
    first node (NetworkX's order of communities)."""
    groups = {}
    for node, label in zip(G.graph.nodes, labels.tolist()):
        groups.setdefault(label, set()).add(node)
    return groups


def nodes_of(G, nbunch):
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


def require_unweighted(G, weight, what):
    """NotImplementedError unless the call reads no weights (weight=None, or
    every weight 1)."""
    raw = G.weights.get(weight) if weight is not None else None
    if raw is not None and raw.size and not np.all(raw == 1):
        raise NotImplementedError(f"chatty's {what} reads no edge weights (the graph's are not all 1)")


def power_iteration(run, max_iter):
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
