"""What a sweep covers: the points (app x graph x devices x transport x
backend x ranks) from a TOML file or flags, how a point of several ranks is
launched, and why a point cannot run."""
import itertools
import json
import os
import shlex
import subprocess
import tomllib

KEYS = ("app", "graph", "devices", "comm", "backend", "ranks")
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


def transports(chatty):
    """The binary's transport table (chatty topo --transports): the --comm
    names each world takes, auto included, and the ranks' transports GPU
    devices can stage through (gpu_ranks)."""
    rows = json.loads(subprocess.run([chatty, "topo", "--transports", "--json"], capture_output=True, text=True,
                                     check=True).stdout)["transports"]
    worlds = {w: {"auto"} for w in ("host", "gpu", "ranks", "gpu_ranks")}
    for t in rows:
        if t["comm_flag"]:
            worlds[t["world"]].add(t["name"])
            if t["gpu_ranks"]:
                worlds["gpu_ranks"].add(t["name"])
    return worlds


def skip_reason(point, gpus, worlds, no_ranks=None):
    """Why the point cannot run on this machine (None when it can). gpus is
    the number of usable GPUs (0 when --backend=cuda cannot run); worlds
    what transports() returned; no_ranks why several ranks cannot start
    here (None when they can)."""
    if point["ranks"] > 1:
        if no_ranks:
            return no_ranks
        comms = worlds["gpu_ranks" if point["backend"] == "cuda" else "ranks"]
        if point["comm"] not in comms:
            return f"--comm={point['comm']} is not available for ranks; they use {sorted(comms)}"
        return None if point["backend"] == "cpu" or gpus else "no usable GPU for --backend=cuda"
    if point["comm"] in worlds["ranks"] - {"auto"}:
        return f"--comm={point['comm']} connects ranks: this point has one"
    if point["backend"] == "cpu":
        if point["comm"] not in worlds["host"]:
            return f"--comm={point['comm']} is not available for host devices; they use {sorted(worlds['host'])}"
        return None
    if point["backend"] != "cuda":
        return f"unknown backend {point['backend']}"
    if gpus == 0:
        return "no usable GPU for --backend=cuda"
    if point["comm"] not in worlds["gpu"]:
        return f"--comm={point['comm']} is not available for GPU devices; they use {sorted(worlds['gpu'])}"
    if point["comm"] == "nccl" and point["devices"] > gpus:
        return f"NCCL needs one GPU per device: {point['devices']} devices, {gpus} GPUs (virtual devices)"
    return None
