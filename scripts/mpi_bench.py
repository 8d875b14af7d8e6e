"""What the ranks benchmarks share: the mpirun environment for
oversubscribed ranks on one box, and one timed `chatty run` under mpirun
that returns the rank-0 --json report."""
import json
import os
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def add_common_args(ap, graphs, apps):
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--graphs", default=graphs)
    ap.add_argument("--apps", default=apps)
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--repeat", type=int, default=3)


def launch(chatty, ranks, app, graph, repeat, extra, mpirun_args=(), mpirun="mpirun"):
    cmd = [mpirun, "-np", str(ranks), *mpirun_args, chatty, "run", "--backend=cpu", f"--app={app}", f"--graph={graph}",
           f"--repeat={repeat}", "--json", "--quiet", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=1800)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout.splitlines()[-1])


class BusyCore:
    """Another tenant: a process spinning on the machine's last core while
    the ranks run bound one per core, so the rank there runs at about half
    speed (RGraph's case for task migration)."""

    def __enter__(self):
        core = os.cpu_count() - 1
        self.p = subprocess.Popen(["taskset", "-c", str(core), sys.executable, "-c", "while True: pass"])
        return self

    def __exit__(self, *exc):
        self.p.kill()
        self.p.wait()


BIND = ("--bind-to", "core", "--map-by", "core")
