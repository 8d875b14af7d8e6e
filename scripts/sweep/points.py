"""What a sweep covers: the points (app x graph x devices x transport x
backend x ranks) from a TOML file or flags, and why a point cannot run."""
import itertools
import tomllib

KEYS = ("app", "graph", "devices", "comm", "backend", "ranks")
HOST_COMMS = {"auto", "host", "host_read", "host_view"}
GPU_COMMS = {"auto", "uva", "p2p", "nccl", "host"}
DEFAULTS = {"apps": ["bfs", "sssp", "pr", "wcc"], "graphs": ["kron:18"], "devices": [1, 2, 4], "comms": ["auto"],
            "backends": ["cpu"], "ranks": [1], "repeat": 3}


def load_spec(path=None, overrides=None):
    """The sweep's axes: DEFAULTS, then the file's [sweep] table, then flags."""
    spec = dict(DEFAULTS)
    if path:
        with open(path, "rb") as f:
            table = tomllib.load(f).get("sweep", {})
        unknown = set(table) - set(DEFAULTS)
        if unknown:
            raise SystemExit(f"sweep: {path}: unknown keys {sorted(unknown)} (known: {sorted(DEFAULTS)})")
        spec.update(table)
    for k, v in (overrides or {}).items():
        if v is not None:
            spec[k] = v
    return spec


def points(spec):
    for app, graph, devices, comm, backend, ranks in itertools.product(
            spec["apps"], spec["graphs"], spec["devices"], spec["comms"], spec["backends"], spec["ranks"]):
        yield {"app": app, "graph": graph, "devices": int(devices), "comm": comm, "backend": backend,
               "ranks": int(ranks)}


def key(point):
    return tuple(point[k] for k in KEYS)


def skip_reason(point, gpus):
    """Why the point cannot run on this machine (None when it can). gpus is
    the number of usable GPUs (0 when --backend=cuda cannot run)."""
    if point["ranks"] > 1:
        return "several ranks need the inter-node layer, which this build does not have"
    if point["backend"] == "cpu":
        if point["comm"] not in HOST_COMMS:
            return f"--comm={point['comm']} is a GPU transport; host devices use {sorted(HOST_COMMS)}"
        return None
    if point["backend"] != "cuda":
        return f"unknown backend {point['backend']}"
    if gpus == 0:
        return "no usable GPU for --backend=cuda"
    if point["comm"] not in GPU_COMMS:
        return f"--comm={point['comm']} is a host transport; GPUs use {sorted(GPU_COMMS)}"
    if point["comm"] == "nccl" and point["devices"] > gpus:
        return f"NCCL needs one GPU per device: {point['devices']} devices, {gpus} GPUs (virtual devices)"
    return None
