"""Runs a sweep's points through `chatty run`, one JSON line per point in
DIR/results.jsonl (written as each point ends, so a killed sweep resumes
where it stopped), with the machine, topology fingerprint and commit."""
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

from . import points as pts


def machine():
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count()}


def commit(root):
    p = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return p.stdout.strip() or "unknown"


def topology(chatty):
    p = subprocess.run([chatty, "topo", "--json"], capture_output=True, text=True, timeout=120)
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])["topology"]
    except (ValueError, IndexError, KeyError):
        return {}


def usable_gpus(chatty, topo):
    """GPUs --backend=cuda can use: 0 when a tiny run on it fails."""
    p = subprocess.run([chatty, "run", "--backend=cuda", "--graph=grid:3x3", "--quiet"], capture_output=True,
                       text=True, timeout=300)
    return max(1, len(topo.get("gpus", []))) if p.returncode == 0 else 0


def ranks_unavailable(chatty, launcher):
    """Why points of several ranks cannot run here, or None: the launcher
    must be found and this chatty built with the inter-node layer."""
    words = pts.launch(launcher, 2)
    if not shutil.which(words[0]):
        return f"no launcher '{words[0]}' on this machine (the sweep's launcher setting)"
    p = subprocess.run([*words, chatty, "run", "--backend=cpu", "--graph=grid:4x4"], capture_output=True, text=True,
                       timeout=300)
    if "cluster " not in p.stdout:
        return "this chatty has no inter-node layer (built without MPI), or the launcher failed: " + (
            p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
    return None


def done_keys(results):
    keys = set()
    if os.path.exists(results):
        with open(results) as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        keys.add(pts.key(json.loads(line)["point"]))
                    except (ValueError, KeyError):
                        pass  # a line cut by a kill: the point runs again
    return keys


def run_point(chatty, point, repeat, trace, launcher):
    ranks = pts.launch(launcher, point["ranks"]) if point["ranks"] > 1 else []
    args = [*ranks, chatty, "run", f"--app={point['app']}", f"--graph={point['graph']}", f"--devices={point['devices']}",
            f"--comm={point['comm']}", f"--backend={point['backend']}", f"--repeat={repeat}", "--validate", "--json",
            "--quiet", f"--trace={trace}"]
    p = subprocess.run(args, capture_output=True, text=True)
    lines = p.stdout.strip().splitlines()
    if not lines or not lines[-1].startswith("{"):
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"
    return json.loads(lines[-1]), None


class Progress:
    def __init__(self, total):
        self.total, self.done, self.t0, self.tty = total, 0, time.time(), sys.stderr.isatty()

    def step(self, text):
        self.done += 1
        spent = time.time() - self.t0
        left = spent / self.done * (self.total - self.done)
        line = f"[{self.done}/{self.total}] {text} (about {left:.0f} s left)"
        print(("\r" + line.ljust(100)) if self.tty else line, end="" if self.tty else "\n", file=sys.stderr,
              flush=True)

    def close(self):
        if self.tty:
            print(file=sys.stderr)


def sweep(chatty, spec, out_dir, root):
    os.makedirs(os.path.join(out_dir, "traces"), exist_ok=True)
    results = os.path.join(out_dir, "results.jsonl")
    finished = done_keys(results)
    todo = [p for p in pts.points(spec) if pts.key(p) not in finished]
    topo = topology(chatty)
    context = {"machine": machine(), "commit": commit(root), "topology_fingerprint": topo.get("fingerprint", "")}
    gpus = usable_gpus(chatty, topo) if any(p["backend"] == "cuda" for p in todo) else 0
    no_ranks = ranks_unavailable(chatty, spec["launcher"]) if any(p["ranks"] > 1 for p in todo) else None
    worlds = pts.transports(chatty)
    print(f"sweep: {len(finished)} points done before, {len(todo)} to run, into {results}", file=sys.stderr)
    progress = Progress(len(todo))
    failures = 0
    with open(results, "a") as f:
        for point in todo:
            name = "_".join(str(point[k]) for k in pts.KEYS).replace(":", "-").replace("/", "-")
            row = {"point": point, **context, "repeat": spec["repeat"]}
            reason = pts.skip_reason(point, gpus, worlds, no_ranks)
            if reason:
                row["skipped"] = reason
                progress.step(f"{name}: skipped ({reason})")
            else:
                trace = os.path.join(out_dir, "traces", name + ".csv")
                j, err = run_point(chatty, point, spec["repeat"], trace, spec["launcher"])
                if err:
                    row["error"] = err
                    failures += 1
                    progress.step(f"{name}: error ({err})")
                else:
                    times = j["compute_s_all"]
                    row.update({"run": j, "trace": os.path.relpath(trace, out_dir),
                                "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times)})
                    if j["validated"] != "pass":
                        failures += 1
                    progress.step(f"{name}: {row['median_s'] * 1e3:.2f} ms, {j['validated']}")
            f.write(json.dumps(row) + "\n")
            f.flush()
    progress.close()
    return failures
