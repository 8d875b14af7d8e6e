"""NetworkX's backend_info for ChattyGraph's `chatty` backend.

NetworkX reads every installed backend's info when it is imported, so this
package imports neither NumPy nor the engine: `import networkx` on a
machine with chattygraph installed loads nothing of it. The functions are
those the engine's app registry names (apps/registry.h, AppSpec::networkx),
written into _functions.py when the package is built."""

from ._functions import FUNCTIONS

# Keyword arguments every function takes beyond NetworkX's own: `chatty
# run`'s flags, of which these are the ones a NetworkX user asks for.
ADDITIONAL_PARAMETERS = {
    "devices : int, optional": "Host or GPU devices to split the graph over (`chatty run --devices`).",
    "backend : str, optional": '"cpu", "cuda" or "auto" (`chatty run --backend`).',
    "threads : int, optional": "Threads of the CPU backend (`chatty run --threads`).",
}


def get_info():
    """NetworkX's backend_info entry point."""
    return {
        "backend_name": "chatty",
        "project": "ChattyGraph",
        "package": "chattygraph",
        "short_summary": "ChattyGraph's multi-device engine (CPU, CUDA)",
        "default_config": {"devices": None, "backend": None, "threads": None},
        "functions": {
            name: {
                "additional_docs": "Runs on ChattyGraph's engine where its answer is NetworkX's "
                "(chattygraph.nx_backend says where it declines).",
                "additional_parameters": dict(ADDITIONAL_PARAMETERS),
            }
            for name in FUNCTIONS
        },
    }
