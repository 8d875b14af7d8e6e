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


def launch(chatty, ranks, app, graph, repeat, extra):
    cmd = ["mpirun", "-np", str(ranks), chatty, "run", "--backend=cpu", f"--app={app}", f"--graph={graph}",
           f"--repeat={repeat}", "--json", "--quiet", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=1800)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout.splitlines()[-1])
