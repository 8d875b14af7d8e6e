"""Keyword options to the CLI's flags: one spelling for both, checked by the
same code (`chatty run --help` lists them)."""

# Set by the package itself, never by a caller.
_RESERVED = {
    "graph": "pass the graph as the first argument",
    "app": "call the app's function (bfs, sssp, pagerank, wcc, kcore)",
    "json": "the statistics come back as Result.stats",
    "quiet": "nothing is printed from Python",
    "sources": "call the function once per source",
}


def flags(options):
    """["--name=value", ...] for the options given (None means unset)."""
    out = []
    for name, value in options.items():
        if name in _RESERVED:
            raise ValueError(f"{name}= is not an option here: {_RESERVED[name]}")
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        out.append(f"--{name}={value}")
    return out
