#!/usr/bin/env python3
"""End-to-end tests of the inputs people download, through the `chatty`
binary: compressed files and pipes give the same answers as the plain file,
real-weighted Matrix Market files are never rounded, conversions keep
directedness, and each mistake is one error line with a non-zero exit.
Usage: inputs_cli_test.py CHATTY FACEBOOK_TXT"""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"
FACEBOOK = sys.argv[2] if len(sys.argv) > 2 else "build/tests/data/facebook_combined.txt"


def chatty(*args, expect=0, stdin=None):
    p = subprocess.run([CHATTY, *args], capture_output=True, text=True, timeout=600, stdin=stdin)
    if expect is not None and p.returncode != expect:
        raise AssertionError(f"chatty {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def last_json(p):
    return json.loads(p.stdout.strip().splitlines()[-1])


class Inputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def depths(self, graph, *extra, stdin=None):
        out = self.path("out.txt")
        chatty("run", "--app=bfs", "--backend=cpu", f"--graph={graph}", f"--output={out}", "--validate",
               "--source=0", *extra, stdin=stdin)
        with open(out) as f:
            return f.read()

    def test_gzip_file_and_pipe_give_the_plain_answer(self):
        plain = self.depths(FACEBOOK)
        gz = self.path("fb.txt.gz")
        with open(FACEBOOK, "rb") as src, gzip.open(gz, "wb") as dst:
            dst.write(src.read())
        self.assertEqual(self.depths(gz), plain)
        with open(gz, "rb") as f:  # `zcat x.gz | chatty run --graph=-`, here the archive itself
            self.assertEqual(self.depths("-", stdin=f), plain)
        with open(FACEBOOK, "rb") as f:
            self.assertEqual(self.depths("-", "--format=el", stdin=f), plain)

    def test_real_weights_sssp_refused_bfs_runs(self):
        mtx = self.write("real.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.3\n2 3 -1.5\n3 1 2\n")
        p = chatty("run", "--app=sssp", "--backend=cpu", f"--graph={mtx}", expect=None)
        self.assertNotEqual(p.returncode, 0)
        err = p.stderr.strip().splitlines()
        self.assertEqual(len(err), 1, p.stderr)
        self.assertRegex(err[0], r"real\.mtx:\d+: (weight 0\.3 is not an integer|negative weight -1\.5)")
        p = chatty("run", "--app=bfs", "--backend=cpu", f"--graph={mtx}", "--source=1", "--validate", "--json")
        j = last_json(p)
        self.assertEqual(j["validated"], "pass")
        self.assertFalse(j["weighted"])

    def test_matrix_market_renamed_txt_is_read_as_matrix_market(self):
        mtx = self.path("g.mtx")
        chatty("convert", FACEBOOK, mtx, "--undirected")
        renamed = self.path("g_renamed.txt")
        os.rename(mtx, renamed)
        j = last_json(chatty("run", "--app=wcc", "--backend=cpu", f"--graph={renamed}", "--json"))
        self.assertEqual(j["vertices"], 4039)  # not 4040: the size line is no edge and ids are 1-based
        self.assertFalse(j["directed"])

    def test_undirected_round_trips_through_every_text_format(self):
        for ext in ["el", "txt", "gr", "mtx", "cgr", "csv.gz"]:
            out = self.path("fb_u." + ext)
            p = chatty("convert", FACEBOOK, out, "--undirected")
            # .el and .csv have no header to say so: the note says how to read them back
            headerless = ext in ("el", "csv.gz")
            self.assertEqual("read it back with --undirected" in p.stderr, headerless, ext)
            first = "1" if ext in ("gr", "mtx") else "0"  # DIMACS and Matrix Market ids are 1-based
            j = last_json(chatty("run", "--app=bfs", "--backend=cpu", f"--graph={out}", f"--source={first}", "--json",
                                 *(["--undirected"] if headerless else [])))
            self.assertFalse(j["directed"], ext)
            self.assertEqual(j["edges"], 176468, ext)

    def test_snap_undirected_header_reaches_every_vertex(self):
        # A path listed once per edge: directed, BFS from 0 reaches all the
        # same, but from the far end it reaches only itself.
        g = self.write("path.txt", "# Undirected graph (each unordered pair of nodes is saved once)\n0 1\n1 2\n2 3\n")
        out = self.path("d.txt")
        chatty("run", "--app=bfs", "--backend=cpu", f"--graph={g}", "--source=3", f"--output={out}")
        with open(out) as f:
            self.assertNotIn("inf", f.read())
        p = chatty("run", "--app=bfs", "--backend=cpu", f"--graph={g}", "--source=3")
        self.assertIn("undirected", p.stdout + p.stderr)

    def test_stdin_from_a_terminal_is_refused_not_waited_on(self):
        master, slave = os.openpty()
        try:
            p = subprocess.run([CHATTY, "run", "--graph=-", "--backend=cpu"], stdin=slave, capture_output=True,
                               text=True, timeout=20)
        finally:
            os.close(master)
            os.close(slave)
        self.assertEqual(p.returncode, 1)
        self.assertIn("standard input is a terminal", p.stderr)

    def test_corrupt_compressed_input_is_one_error_line(self):
        gz = self.path("cut.txt.gz")
        with open(FACEBOOK, "rb") as src:
            data = gzip.compress(src.read())
        with open(gz, "wb") as f:
            f.write(data[: len(data) // 2])
        p = chatty("run", "--app=bfs", "--backend=cpu", f"--graph={gz}", expect=None)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("truncated gzip", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
