"""Runs from several Python threads at once: the GIL is released for the
whole run and a run holds no lock, so a short run on one graph ends while
a long one on another is still running, and each answer is the one its
run gives alone."""

import threading
import time

import numpy as np

import chattygraph as cg


def test_a_short_run_ends_while_a_long_one_runs():
    big = cg.Graph.load("kron:12", undirected=True)  # about 100k edges
    small = cg.Graph.load("grid:30x30")
    sources = list(range(2048))
    bc_alone = cg.betweenness(big, sources=sources).values
    bfs_alone = cg.bfs(small, source=0).values
    got, ended = {}, {}

    def long_run():
        got["bc"] = cg.betweenness(big, sources=sources).values
        ended["bc"] = time.perf_counter()

    def short_runs():
        time.sleep(0.05)  # the long run is under way
        for _ in range(5):
            got["bfs"] = cg.bfs(small, source=0).values
        ended["bfs"] = time.perf_counter()

    threads = [threading.Thread(target=long_run), threading.Thread(target=short_runs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ended["bfs"] < ended["bc"], "the short runs waited for the long one"
    np.testing.assert_array_equal(got["bfs"], bfs_alone)
    np.testing.assert_allclose(got["bc"], bc_alone, rtol=1e-5)


def test_two_threads_on_one_graph():
    g = cg.Graph.load("kron:11", undirected=True)
    alone = {"pr": cg.pagerank(g).values, "wcc": cg.wcc(g).values}
    got = {}
    threads = [
        threading.Thread(target=lambda: got.__setitem__("pr", cg.pagerank(g).values)),
        threading.Thread(target=lambda: got.__setitem__("wcc", cg.wcc(g).values)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    np.testing.assert_allclose(got["pr"], alone["pr"], rtol=1e-6)
    np.testing.assert_array_equal(got["wcc"], alone["wcc"])


ONLY_THIS_RUN = r"""
import os, signal, threading, time
import numpy as np
import chattygraph as cg
g = cg.Graph.load("kron:12", undirected=True)
sources = list(range(2048))  # about 1.5 s: still running when Ctrl-C comes
want = cg.betweenness(g, sources=sources).values
other = {}
def other_thread():
    try:
        other["values"] = cg.betweenness(g, sources=sources).values
    except BaseException as e:
        other["error"] = repr(e)
t = threading.Thread(target=other_thread)
t.start()
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    cg.betweenness(g, sources=list(range(4096)) * 4)  # long: Ctrl-C comes first
    print("main: not interrupted")
except KeyboardInterrupt:
    print("main: interrupted")
t.join()
print("other:", "error " + other["error"] if "error" in other else
      "same" if np.allclose(other["values"], want, rtol=1e-5) else "different")
"""


def test_ctrl_c_stops_only_the_interrupted_threads_run():
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-c", ONLY_THIS_RUN], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[:2] == ["main: interrupted", "other: same"], p.stdout + p.stderr
