"""NetworkX's answers computed once per test session: the tests that check
every device count against the same NetworkX run share it (NetworkX's pure
Python takes seconds on ego-Facebook where the engine takes milliseconds)."""
import functools

_answers = {}


def once(key, compute):
    """compute()'s value, computed the first time key is asked for."""
    if key not in _answers:
        _answers[key] = compute()
    return _answers[key]


@functools.cache
def read_edgelist(path):
    """The file as an undirected NetworkX graph of int nodes (callers do not
    modify it)."""
    import networkx as nx

    return nx.read_edgelist(path, nodetype=int, data=False)
