"""ChattyGraph from Python: the same engine, backends and devices as the
`chatty` command line, called in process.

    import chattygraph as cg
    g = cg.Graph.load("facebook_combined.txt.gz")
    r = cg.pagerank(g, devices=4)
    r.values, r.ids, r.stats["compute_s"]

NetworkX users: nx.pagerank(G, backend="chatty") (see nx_backend)."""

from ._core import ChattyError, UsageError
from .algorithms import FUNCTIONS, NotConvergedWarning, Result, ValidationError, apps
from .graph import Graph

# One function per app of the engine's registry (bfs, sssp, pagerank, wcc,
# kcore, triangles, betweenness, ...).
globals().update(FUNCTIONS)

__version__ = "0.1.0"
__all__ = ["Graph", "Result", "apps", "ChattyError", "UsageError", "ValidationError", "NotConvergedWarning",
           *FUNCTIONS]
