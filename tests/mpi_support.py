"""What the rank tests share (tests/mpi_test.py runs them): the binary and
data from the command line, the launcher, its environment, a run helper,
and RankCase's comparisons of outputs. Imported with the command line of
mpi_test.py: CHATTY FACEBOOK_TXT [--portability] [--faults|--no-faults]."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"
FACEBOOK = sys.argv[2] if len(sys.argv) > 2 else "build/tests/data/facebook_combined.txt"
PORTABILITY = "--portability" in sys.argv
MPIRUN = shutil.which(os.environ.get("MPIRUN", "mpirun"))
LAYOUTS = [(2, 1), (2, 2)] if PORTABILITY else [(1, 2), (2, 1), (2, 2), (3, 1), (4, 1)]  # ranks x devices
# The other graphs and options each take two layouts, between them every
# rank count: the layouts' partitions are kron's matrix, the graphs' data
# (and the mpirun launches cost a second each on this 2-core machine).
SOME_LAYOUTS = [(2, 2), (3, 1)]
# A transport between ranks: two of them, and four.
TRANSPORT_LAYOUTS = [(2, 2)] if PORTABILITY else [(2, 2), (4, 1)]

# Oversubscribed ranks on a small box; chatty picks OpenMPI's one-sided
# component itself (its default, osc rdma, crashes on 64-bit CAS).
# The switch points the ranks measure are cached in a folder of the tests' own.
CACHE = tempfile.mkdtemp(prefix="chatty_mpi_cache_")
# Open MPI's transports for one node only: its start-up otherwise opens
# UCX, InfiniBand, libfabric and TCP as well, none of which it then selects
# here (ob1 over shared memory): 0.28 s a launch instead of 0.49 s, and
# this file launches about 350 jobs.
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1", XDG_CACHE_HOME=CACHE)
for k, v in (("OMPI_MCA_pml", "ob1"), ("OMPI_MCA_btl", "self,vader")):
    ENV.setdefault(k, v)  # a caller's own choice stands

APPS = ["bfs", "sssp", "wcc", "pr", "kcore"]


def run(cmd, timeout=300, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env or ENV)


def chatty(ranks, *args):
    base = [CHATTY, "run", "--backend=cpu", *args]
    return run([MPIRUN, "-np", str(ranks), *base] if ranks else base)


def auto_transport(report):
    """What --comm=auto picks for these tests' small graphs (their put
    windows fit): mpi_put where one-sided transfers win at 1 MB (the
    measured switch point at most 1 MB: OpenMPI here), else mpi_ring."""
    return "mpi_put" if report["small_bytes"] <= 1 << 20 else "mpi_ring"


def values(path):
    """{id: value} of an --output file ({id: (value, ...)} where it has
    several columns: HITS's hub and authority)."""
    out = {}
    with open(path) as f:
        for line in f:
            v, *x = line.split()
            out[int(v)] = float(x[0]) if len(x) == 1 else tuple(map(float, x))
    return out


class RankCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def assert_same(self, app, ref, got, what):
        if app in ("similarity", "ktruss"):  # "u v value" lines, in the same order, the same values
            with open(ref) as a, open(got) as b:
                self.assertEqual(a.read(), b.read(), what)
            return
        a, b = values(ref), values(got)
        self.assertEqual(sorted(a), sorted(b), what)
        if app == "pr":
            l1 = sum(abs(a[v] - b[v]) for v in a)
            self.assertLess(l1, 1e-4, what)
        elif app == "bc":  # sums of doubles in another order, written as floats
            worst = max(abs(a[v] - b[v]) / max(1.0, abs(a[v])) for v in a)
            self.assertLess(worst, 1e-6, what)
        elif app == "hits":  # rank 0's devices sum in another order than one process's
            worst = max(abs(x - y) for v in a for x, y in zip(a[v], b[v]))
            self.assertLess(worst, 1e-7, what)
        else:
            bad = [v for v in a if a[v] != b[v]]
            self.assertEqual(bad[:5], [], what)

    def one_rank_differs(self, mine, theirs, ranks=(1, 2)):
        """Rank 0 runs `mine`, the others `theirs` (an MPMD launch): the job
        ends within seconds, non-zero, with one line."""
        base = [CHATTY, "run", "--backend=cpu", "--app=bfs"]
        t0 = time.time()
        p = run([MPIRUN, "-np", "1", *base, *mine, ":", "-np", str(ranks[1]), *base, *theirs], timeout=60)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertLess(time.time() - t0, 30)
        errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
        self.assertEqual(len(errors), 1, p.stderr)
        return errors[0]


def main(answers, faults):
    """Runs the cases (exit 77 without mpirun or an MPI build): --faults the
    failing and stalled ranks' only, which time deadlines and run alone;
    --no-faults the answers' only, which may share the machine; else both."""
    if not MPIRUN:
        print("mpi_test: no mpirun; skipped")
        sys.exit(77)
    probe = run([MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--graph=grid:4x4"])
    if "cluster " not in probe.stdout:
        print("mpi_test: this chatty has no MPI layer; skipped\n" + probe.stdout + probe.stderr)
        sys.exit(77)
    chosen = [faults] if "--faults" in sys.argv else [answers] if "--no-faults" in sys.argv else [answers, faults]
    loader = unittest.TestLoader()
    try:
        result = unittest.TextTestRunner(verbosity=2).run(
            unittest.TestSuite(loader.loadTestsFromTestCase(c) for c in chosen))
    finally:
        shutil.rmtree(CACHE, ignore_errors=True)
    sys.exit(0 if result.wasSuccessful() else 1)
