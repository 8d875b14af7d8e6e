#!/usr/bin/env python3
"""What a person at the terminal meets: help, did-you-mean, mistakes caught
before loading, results in input ids under relabelling, the summary line,
--json/--quiet output discipline, outputs to links, pipes and full disks, --sources, and thread counts that cannot
stall a tiny graph. Usage: cli_usability_test.py CHATTY"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
import unittest

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"


def chatty(*args, expect=0):
    p = subprocess.run([CHATTY, *args], capture_output=True, text=True, timeout=600)
    if expect is not None and p.returncode != expect:
        raise AssertionError(f"chatty {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def values(path):
    with open(path) as f:
        return [line.split()[1] for line in f]


class Usability(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_help_per_command_exits_zero(self):
        for args in (["help"], ["-h"], ["--help"], ["help", "run"], ["run", "--help"], ["run", "-h"],
                     ["convert", "--help"], ["topo", "-h"]):
            p = chatty(*args)
            self.assertIn("usage: chatty", p.stdout, args)
            self.assertNotIn("Flags from", p.stdout, args)  # no gflags dump with build paths
        run = chatty("run", "--help").stdout
        self.assertIn("--sources", run)
        self.assertIn("examples:", run)

    def test_misspelled_flag_and_command_get_did_you_mean(self):
        p = chatty("run", "--sourc=3", expect=2)
        self.assertIn("unknown flag --sourc (did you mean --source?)", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1)
        self.assertIn("did you mean 'convert'", chatty("convrt", expect=2).stderr)

    def test_values_of_the_wrong_type_are_one_error_line(self):
        for args, message in ((["--repeat=abc", "--delta=-3"], "--repeat=abc: --repeat takes a whole number"),
                              (["--repeat", "1.5"], "--repeat=1.5: --repeat takes a whole number"),
                              (["--migrate_block=99999999999"], "--migrate_block takes a whole number from 0 to"),
                              (["--undirected=pull"], "--undirected takes true or false"),
                              (["--damping=x"], "--damping takes a number")):
            p = chatty("run", "--app=bfs", "--graph=grid:5x5", *args, expect=2)
            self.assertEqual(p.stderr.strip().splitlines(), [p.stderr.strip()], args)
            self.assertTrue(p.stderr.startswith("chatty: error: "), p.stderr)
            self.assertIn(message, p.stderr)
        chatty("run", "--app=bfs", "--graph=grid:5x5", "--repeat", "2", "--novalidate", "--quiet")

    def test_mistakes_fail_before_loading(self):
        for args, message in ((["--output=/no/such/dir/x.txt"], "--output=/no/such/dir/x.txt: cannot write"),
                              (["--trace=/no/such/dir/t.csv"], "--trace=/no/such/dir/t.csv: cannot write"),
                              (["--comm=p2p", "--backend=cpu"], "--comm=p2p is not available for host devices"),
                              (["--reorder=rcm"], "--reorder must be"),
                              (["--sources=4", "--app=pr"], "--sources: pr has no source")):
            t0 = time.time()
            p = chatty("run", "--graph=kron:23", *args, expect=None)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn(message, p.stderr)
            self.assertLess(time.time() - t0, 3.0, args)  # kron:23 alone takes far longer to generate

    def test_a_flag_that_cannot_apply_is_a_usage_error(self):
        # One rule for every command (the flags its help lists), exit 2 and
        # one line; unset values typed out (-1, 0) are not choices.
        for args, message in ((["convert", "kron:8", self.path("a.el"), "--validate"],
                               "--validate does not apply to `chatty convert`"),
                              (["info", "kron:8", "--app=bfs"], "--app does not apply to `chatty info`"),
                              (["topo", "--graph=kron:8"], "--graph does not apply to `chatty topo`"),
                              (["generate", "kron:8", self.path("b.el"), "--undirected"], "--undirected does not apply"),
                              (["run", "--app=kcore", "--graph=kron:8", "--source=3"], "--source: kcore has no source"),
                              (["run", "--app=bfs", "--graph=kron:8", "--sources=0"], "--sources must be at least 1"),
                              (["run", "--app=bfs", "--graph=kron:8", "--source=-1"], "--source must be a vertex id"),
                              (["run", "--app=bfs", "--graph=kron:8", "--backend=gpu"], "unknown --backend 'gpu'"),
                              (["run", "--app=bfs", "--graph=kron:8", "--rank_timeout=0.01"],
                               "--rank_timeout must be 0 (never) or at least 1")):
            p = chatty(*args, expect=2)
            self.assertEqual(p.stderr.strip().splitlines(), ["chatty: error: " + p.stderr.strip()[15:]], args)
            self.assertIn(message, p.stderr, args)
        # The input's problems exit 1, as the help says.
        self.assertIn("cannot open", chatty("run", "--app=bfs", "--graph=/no/such.el", expect=1).stderr)
        self.assertIn("exit 0 on success, 1 on an error, 2 on a usage error", chatty("run", "--help").stdout.lower())

    def test_a_batch_scripts_own_chatty_runs_alone(self):
        # A Slurm batch script holds its allocation's SLURM_NTASKS; a chatty
        # it starts directly (not by srun) is no rank: it started MPI as a
        # one-rank cluster, or, built without MPI, refused to run.
        env = dict(os.environ, SLURM_NTASKS="4", SLURM_PROCID="0", SLURM_JOB_ID="7")
        for args in (["run", "--app=bfs", "--graph=kron:8", "--backend=cpu"], ["info", "kron:8"]):
            p = subprocess.run([CHATTY, *args], capture_output=True, text=True, timeout=120, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("cluster ", p.stdout)

    def test_smaller_truths(self):
        # SSSP's generated weights are not the file's.
        g = self.path("plain.txt")
        with open(g, "w") as f:
            f.write("0 1\n1 2\n2 0\n5 6\n")
        p = chatty("run", "--app=sssp", f"--graph={g}", "--backend=cpu", "--json")
        j = json.loads(p.stdout.splitlines()[-1])
        self.assertEqual((j["weighted"], j["weights"]), (False, "generated"))
        self.assertIn("weights 1..255 generated from --seed", p.stderr)
        # info tells isolated vertices (no edge) from sinks (in-edges only).
        el = self.path("gaps.el")
        with open(el, "w") as f:
            f.write("0 1\n1 2\n5 6\n")
        j = json.loads(chatty("info", el, "--json").stdout)
        self.assertEqual((j["isolated"], j["sinks"]), (2, 2))  # 3 and 4; 2 and 6
        # A compressed file is read by its magic whatever its name.
        subprocess.run(f"gzip -c {g} > {self.path('webgraph')}", shell=True, check=True)
        self.assertEqual(json.loads(chatty("info", self.path("webgraph"), "--json").stdout)["compression"], "gzip")
        # A catalogue name not fetched yet says how to fetch it.
        env_home = dict(os.environ, CHATTY_DATA=self.path("nodata"))
        p = subprocess.run([CHATTY, "run", "--app=bfs", "--graph=usa-road"], capture_output=True, text=True,
                           env=env_home)
        self.assertIn("python3 datasets/fetch.py get usa-road", p.stderr)
        # Defaults as written.
        self.assertIn("[default: 1e-06]", chatty("run", "--help").stdout)

    def test_relabelled_results_are_in_input_ids(self):
        for app in ("wcc", "bfs", "sssp"):
            plain, relabelled = self.path(f"{app}_none.txt"), self.path(f"{app}_degree.txt")
            chatty("run", f"--app={app}", "--graph=kron:11", "--backend=cpu", "--reorder=none", f"--output={plain}")
            p = chatty("run", f"--app={app}", "--graph=kron:11", "--backend=cpu", "--reorder=degree",
                       f"--output={relabelled}", "--validate")
            self.assertIn("validate    PASS", p.stdout)
            self.assertEqual(values(plain), values(relabelled), app)

    def test_pagerank_validation_names_an_input_vertex(self):
        out = self.path("pr.txt")
        p = chatty("run", "--app=pr", "--graph=kron:12", "--backend=cpu", "--reorder=degree", "--validate",
                   f"--output={out}")
        m = re.search(r"worst vertex (\d+) \(([0-9.e-]+) vs", p.stdout)
        self.assertIsNotNone(m, p.stdout)
        rank = float(values(out)[int(m.group(1))])
        self.assertAlmostEqual(rank, float(m.group(2)), delta=1e-6 * max(1.0, rank))

    def test_summary_line_and_json(self):
        expect = {"bfs": r"result      reached \d+ of 1024 vertices .* max depth \d+",
                  "sssp": r"result      reached \d+ of 1024 vertices .* max distance \d+",
                  "wcc": r"result      \d+ components?, the largest \d+ vertices",
                  "pr": r"result      top ranks:( \d+ \([0-9.e-]+\)){5}"}
        keys = {"bfs": "max_depth", "sssp": "max_distance", "wcc": "components", "pr": "top"}
        for app, pattern in expect.items():
            self.assertRegex(chatty("run", f"--app={app}", "--graph=kron:10", "--backend=cpu").stdout, pattern)
            p = chatty("run", f"--app={app}", "--graph=kron:10", "--backend=cpu", "--json")
            self.assertIn(keys[app], json.loads(p.stdout)["summary"])

    def test_json_alone_is_only_json_and_quiet_is_silent(self):
        p = chatty("run", "--graph=kron:10", "--backend=cpu", "--json", "--validate")
        self.assertEqual(len(p.stdout.strip().splitlines()), 1)
        self.assertEqual(json.loads(p.stdout)["validated"], "pass")
        self.assertIn("graph ", p.stderr)
        q = chatty("run", "--graph=kron:10", "--backend=cpu", "--quiet")
        self.assertEqual(q.stdout + q.stderr, "")
        q = chatty("run", "--graph=kron:10", "--backend=cpu", "--quiet", "--json")
        self.assertEqual(len(q.stdout.strip().splitlines()), 1)
        self.assertEqual(q.stderr, "")

    def test_random_sources(self):
        p = chatty("run", "--app=bfs", "--graph=kron:12", "--backend=cpu", "--sources=5", "--validate", "--json")
        j = json.loads(p.stdout)
        self.assertEqual(len(set(j["sources"])), 5)
        self.assertEqual(len(j["source_times"]), 5)
        self.assertEqual(j["validated"], "pass")
        self.assertIn("median over 5 sources", p.stderr)
        again = json.loads(chatty("run", "--app=bfs", "--graph=kron:12", "--backend=cpu", "--sources=5",
                                  "--json").stdout)
        self.assertEqual(again["sources"], j["sources"])  # from --seed, so repeatable
        self.assertIn("exclude each other", chatty("run", "--sources=2", "--source=1", expect=2).stderr)

    def test_outputs_to_links_pipes_and_full_disks(self):
        # A plain file is replaced whole; anything else is written where it
        # is: a link stays a link (its file gets the values), a FIFO stays
        # a FIFO (its reader gets them), a device stays a device.
        run = ["run", "--app=bfs", "--graph=grid:3x3", "--backend=cpu"]
        target, link = self.path("values.txt"), self.path("link.txt")
        os.symlink(target, link)
        for _ in range(2):  # the file not there yet, then there
            chatty(*run, f"--output={link}")
            self.assertTrue(os.path.islink(link))
            self.assertEqual(len(values(target)), 9)
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE, text=True)
        chatty(*run, f"--output={fifo}")
        self.assertEqual(len(reader.communicate(timeout=60)[0].splitlines()), 9)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        if not stat.S_ISCHR(os.stat("/dev/full").st_mode):
            self.skipTest("no /dev/full device here")
        p = chatty(*run, "--output=/dev/full", expect=1)
        self.assertIn("/dev/full: write failed: No space left on device", p.stderr)
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full was replaced")
        with open("/dev/full", "w") as full:  # the summary on a full disk
            p = subprocess.run([CHATTY, *run], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertIn("standard output: write failed: No space left on device", p.stderr)

    def test_absurd_thread_counts_stay_fast_on_tiny_graphs(self):
        g = self.path("tiny.el")
        with open(g, "w") as f:
            f.write("0 1\n1 2\n2 3\n3 4\n")
        for extra in (["--threads=1000"], ["--threads=64", "--devices=4"]):
            t0 = time.time()
            p = chatty("run", "--app=bfs", f"--graph={g}", "--backend=cpu", "--validate", *extra)
            self.assertLess(time.time() - t0, 5.0, extra)
            self.assertIn("validate    PASS", p.stdout)
        self.assertIn("warning: --threads=1000", chatty("run", f"--graph={g}", "--backend=cpu",
                                                        "--threads=1000").stderr)

    def test_cuda_without_a_driver_says_so(self):
        p = chatty("run", "--graph=grid:3x3", "--backend=cuda", expect=None)
        if p.returncode == 0:
            self.skipTest("a GPU is usable here")
        self.assertRegex(p.stderr, "no NVIDIA driver|this build has no CUDA backend|no CUDA device")
        self.assertNotIn("insufficient", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
