"""What a sweep covers: the points (app x graph x devices x transport x
backend x ranks) from a TOML file or flags, how a point of several ranks is
launched, and why a point cannot run."""
import itertools
import os
import shlex
import tomllib

KEYS = ("app", "graph", "devices", "comm", "backend", "ranks")
HOST_COMMS = {"auto", "host", "host_read", "host_view"}
GPU_COMMS = {"auto", "uva", "p2p", "nccl", "host"}
RANK_COMMS = {"auto", "mpi_ring", "mpi_put", "mpi_alltoallv"}  # between ranks (devices inside a rank share memory)
GPU_RANK_COMMS = {"auto", "mpi_ring", "mpi_put"}
# launcher: the command that starts a point's ranks, "-np R" (or srun's
# "-n R") appended: "mpirun", "mpirun --oversubscribe", "srun", ...
DEFAULTS = {"apps": ["bfs", "sssp", "pr", "wcc"], "graphs": ["kron:18"], "devices": [1, 2, 4], "comms": ["auto"],
            "backends": ["cpu"], "ranks": [1], "repeat": 3, "launcher": "mpirun"}


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


def launch(launcher, ranks):
    """The words that start `ranks` ranks of what follows them."""
    words = shlex.split(launcher)
    return words + (["-n", str(ranks)] if os.path.basename(words[0]) == "srun" else ["-np", str(ranks)])


def skip_reason(point, gpus, no_ranks=None):
    """Why the point cannot run on this machine (None when it can). gpus is
    the number of usable GPUs (0 when --backend=cuda cannot run); no_ranks
    why several ranks cannot start here (None when they can)."""
    if point["ranks"] > 1:
        if no_ranks:
            return no_ranks
        comms = GPU_RANK_COMMS if point["backend"] == "cuda" else RANK_COMMS
        if point["comm"] not in comms:
            return f"--comm={point['comm']} does not reach other ranks; ranks use {sorted(comms)}"
        return None if point["backend"] == "cpu" or gpus else "no usable GPU for --backend=cuda"
    if point["comm"] in RANK_COMMS - {"auto"}:
        return f"--comm={point['comm']} connects ranks: this point has one"
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
