#!/usr/bin/env python3
"""scripts/sweep.py end to end: a sweep killed midway resumes without
redoing finished points, points that cannot run are skipped with the
reason, the report has its plots, and compare reads two sweeps.
Usage: sweep_test.py CHATTY"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"
SWEEP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "sweep.py")


def sweep(*args, **kw):
    return subprocess.run([sys.executable, SWEEP, *args], capture_output=True, text=True, timeout=600, **kw)


def lines(path):
    with open(path) as f:
        return [json.loads(x) for x in f if x.strip()]


class Sweep(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "a")
        spec = os.path.join(self.tmp.name, "s.toml")
        with open(spec, "w") as f:
            f.write('[sweep]\napps = ["bfs", "sssp", "wcc"]\ngraphs = ["grid:40x40", "kron:10"]\n'
                    'devices = [1, 2, 3]\ncomms = ["host", "p2p"]\nranks = [1]\nrepeat = 2\n')
        self.args = ["run", spec, "--out", self.out, "--chatty", CHATTY]

    def tearDown(self):
        self.tmp.cleanup()

    def test_killed_sweep_resumes_without_redoing_points(self):
        results = os.path.join(self.out, "results.jsonl")
        p = subprocess.Popen([sys.executable, SWEEP, *self.args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while time.time() < deadline and (not os.path.exists(results) or len(lines(results)) < 5):
            time.sleep(0.05)
        p.kill()
        p.wait()
        before = lines(results)
        self.assertGreaterEqual(len(before), 5)
        self.assertLess(len(before), 36, "the sweep finished before it was killed")
        r = sweep(*self.args)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"{len(before)} points done before", r.stderr)
        after = lines(results)
        self.assertEqual(after[:len(before)], before)  # finished points kept, not run again
        keys = [tuple(x["point"].values()) for x in after]
        self.assertEqual(len(keys), 36)
        self.assertEqual(len(set(keys)), 36)
        ran = [x for x in after if "run" in x]
        skipped = [x for x in after if "skipped" in x]
        self.assertEqual(len(ran), 18)
        self.assertTrue(all(x["run"]["validated"] == "pass" for x in ran))
        self.assertTrue(all("is not available for host devices" in x["skipped"] for x in skipped))
        self.assertTrue(all(x["min_s"] <= x["median_s"] <= x["max_s"] for x in ran))
        for name in ("grid_40x40_time.png", "kron_10_split.png", "kron_10_communicated.png", "kron_10_bytes.png",
                     "report.md"):
            self.assertGreater(os.path.getsize(os.path.join(self.out, "report", name)), 1000 if "png" in name else 10)
        with open(os.path.join(self.out, "results.csv")) as f:
            self.assertEqual(len(f.read().strip().splitlines()), 37)
        # Nothing left to do: a third run runs no point.
        self.assertIn("0 to run", sweep(*self.args).stderr)

    def test_ranks_axis_runs_through_the_launcher(self):
        # Points of 2 ranks start under mpirun and report every rank's
        # devices; transports between ranks need ranks, and host ones a rank.
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")
        if os.environ.get("CHATTY_NO_RANK_TESTS"):
            self.skipTest("ranks are tested in the main pass, not under the sanitizers")
        if not shutil.which("mpirun"):
            self.skipTest("no mpirun")
        probe = subprocess.run(["mpirun", "-np", "2", CHATTY, "run", "--backend=cpu", "--graph=grid:4x4"],
                               capture_output=True, text=True, env=env)
        if "cluster " not in probe.stdout:
            self.skipTest("this chatty has no inter-node layer")
        r = sweep("run", "--out", self.out, "--chatty", CHATTY, "--apps", "bfs,pr", "--graphs", "kron:10",
                  "--devices", "1,2", "--comms", "auto,mpi_put,host", "--ranks", "1,2", "--repeat", "1", env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = lines(os.path.join(self.out, "results.jsonl"))
        self.assertEqual(len(rows), 2 * 2 * 3 * 2)
        ran = {(x["point"]["app"], x["point"]["devices"], x["point"]["comm"], x["point"]["ranks"]): x for x in rows
               if "run" in x}
        for app in ("bfs", "pr"):
            j = ran[(app, 2, "mpi_put", 2)]["run"]
            self.assertEqual((j["ranks"], j["devices"]), (2, 4))
            self.assertTrue(j["multi"]["transport"].startswith("mpi_put"))
            self.assertEqual(j["validated"], "pass")
            self.assertIn((app, 2, "auto", 2), ran)
        reasons = {(x["point"]["comm"], x["point"]["ranks"]): x["skipped"] for x in rows if "skipped" in x}
        self.assertIn("connects ranks", reasons[("mpi_put", 1)])
        self.assertIn("is not available for ranks", reasons[("host", 2)])
        self.assertGreater(os.path.getsize(os.path.join(self.out, "report", "kron_10_time.png")), 1000)

    def test_compare_two_sweeps(self):
        b = os.path.join(self.tmp.name, "b")
        for out in (self.out, b):
            r = sweep("run", "--out", out, "--chatty", CHATTY, "--apps", "bfs", "--graphs", "kron:9", "--devices",
                      "1,2", "--comms", "host", "--repeat", "2")
            self.assertEqual(r.returncode, 0, r.stderr)
        png = os.path.join(self.tmp.name, "c.png")
        r = sweep("compare", self.out, b, "--plot", png)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("B / A compute time (2 points in both", r.stdout)
        self.assertTrue(os.path.getsize(png) > 1000)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
