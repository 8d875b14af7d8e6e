#!/usr/bin/env python3
"""datasets/fetch.py end to end against an HTTP server on the loopback
address (nothing else is contacted): each format the papers' graphs come
in is downloaded, checked, converted and then loads as --graph=NAME equal
to its source; a partial download resumes with a Range request; a bad
checksum is refused; an unreachable host says so.
Usage: datasets_test.py CHATTY"""
import bz2
import gzip
import hashlib
import http.server
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import threading
import unittest

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"
FETCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "datasets", "fetch.py")
RANGES = []


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves files with byte-range support (resume needs it)."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.translate_path(self.path)
        if not os.path.isfile(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            data = f.read()
        rng = self.headers.get("Range")
        if rng:
            RANGES.append(rng)
            start = int(rng.split("=")[1].split("-")[0])
            if start >= len(data):
                self.send_error(416)
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            data = data[start:]
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def tar_gz(member, text):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        info = tarfile.TarInfo("pkg/" + member)
        info.size = len(text)
        t.addfile(info, io.BytesIO(text))
    return buf.getvalue()


class Datasets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.www = os.path.join(cls.tmp.name, "www")
        os.makedirs(cls.www)
        ring = "".join(f"{i} {(i + 1) % 500}\n{i} {(i * 7) % 500}\n" for i in range(500))
        cls.files = {
            "snap.txt.gz": gzip.compress(("# Undirected graph\n" + ring).encode()),
            "road.gr.gz": gzip.compress(("p sp 300 300\n" + "".join(
                f"a {i + 1} {(i + 1) % 300 + 1} {i % 17 + 1}\n" for i in range(300))).encode()),
            "eur.graph.bz2": bz2.compress(("4 4\n2 3\n1 3\n1 2 4\n3\n").encode()),
            "kron.tar.gz": tar_gz("kron.mtx", ("%%MatrixMarket matrix coordinate pattern symmetric\n50 50 49\n" +
                                                "".join(f"{i + 2} {i + 1}\n" for i in range(49))).encode()),
        }
        for name, data in cls.files.items():
            with open(os.path.join(cls.www, name), "wb") as f:
                f.write(data)
        handler = lambda *a, **k: Handler(*a, directory=cls.www, **k)  # noqa: E731
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}/"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.tmp.cleanup()

    def setUp(self):
        self.data = tempfile.mkdtemp(dir=self.tmp.name)
        self.catalog = os.path.join(self.data, "sources.json")
        self.env = dict(os.environ, CHATTY_DATA=self.data, CHATTY_CATALOG=self.catalog)

    def write_catalog(self, entries):
        with open(self.catalog, "w") as f:
            json.dump(entries, f)

    def fetch(self, *args):
        return subprocess.run([sys.executable, FETCH, *args, "--chatty", CHATTY] if args[0] == "get" else
                              [sys.executable, FETCH, *args], capture_output=True, text=True, env=self.env,
                              timeout=300)

    def info(self, graph, *extra):
        p = subprocess.run([CHATTY, "info", graph, "--json", *extra], capture_output=True, text=True, env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def test_every_format_downloads_converts_and_loads_by_name(self):
        self.write_catalog({
            "snap": {"url": self.base + "snap.txt.gz", "format": "el", "directed": True, "paper": "t"},
            "road": {"url": self.base + "road.gr.gz", "format": "gr", "directed": True, "paper": "t",
                     "sha256": hashlib.sha256(self.files["road.gr.gz"]).hexdigest()},
            "eur": {"url": self.base + "eur.graph.bz2", "format": "metis", "directed": False, "paper": "t"},
            "kron": {"url": self.base + "kron.tar.gz", "format": "mtx", "member": "kron.mtx", "directed": False,
                     "paper": "t", "bytes": len(self.files["kron.tar.gz"])},
        })
        p = self.fetch("get", "snap", "road", "eur", "kron")
        self.assertEqual(p.returncode, 0, p.stderr)
        for name, fname, shape in (("snap", "snap.txt.gz", (500, False)), ("road", "road.gr.gz", (300, True)),
                                   ("eur", "eur.graph.bz2", (4, False)), ("kron", None, (50, False))):
            by_name = self.info(name)
            self.assertEqual((by_name["vertices"], by_name["directed"]), shape, name)
            if fname:  # the converted graph is the source's
                src = self.info(os.path.join(self.www, fname))
                self.assertEqual((src["vertices"], src["edges"], src["weighted"]),
                                 (by_name["vertices"], by_name["edges"], by_name["weighted"]), name)
        self.assertTrue(self.info("road")["weighted"])
        # The local catalogue records what came, and a second get does not fetch again.
        with open(os.path.join(self.data, "catalog.json")) as f:
            cat = json.load(f)
        self.assertEqual(cat["snap"]["sha256"], hashlib.sha256(self.files["snap.txt.gz"]).hexdigest())
        self.assertIn("already here", self.fetch("get", "snap").stdout)
        bfs = subprocess.run([CHATTY, "run", "--app=bfs", "--graph=road", "--backend=cpu", "--validate"],
                             capture_output=True, text=True, env=self.env)
        self.assertIn("validate    PASS", bfs.stdout, bfs.stderr)

    def test_partial_download_resumes(self):
        data = self.files["snap.txt.gz"]
        self.write_catalog({"snap": {"url": self.base + "snap.txt.gz", "format": "el", "paper": "t",
                                     "sha256": hashlib.sha256(data).hexdigest()}})
        os.makedirs(os.path.join(self.data, "snap"))
        with open(os.path.join(self.data, "snap", "snap.txt.gz.part"), "wb") as f:
            f.write(data[: len(data) // 2])
        RANGES.clear()
        p = self.fetch("get", "snap")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(RANGES, [f"bytes={len(data) // 2}-"])
        self.assertIn("resumed at", p.stderr)
        self.assertEqual(self.info("snap")["vertices"], 500)

    def test_bad_checksum_is_refused(self):
        self.write_catalog({"snap": {"url": self.base + "snap.txt.gz", "format": "el", "paper": "t",
                                     "sha256": "0" * 64}})
        p = self.fetch("get", "snap")
        self.assertEqual(p.returncode, 1)
        self.assertIn("checksum mismatch", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.data, "snap", "snap.txt.gz")))
        self.assertFalse(os.path.exists(os.path.join(self.data, "index.txt")))

    def test_no_network_says_so(self):
        with socket_closed_port() as port:
            self.write_catalog({"x": {"url": f"http://127.0.0.1:{port}/x.txt.gz", "format": "el", "paper": "t"}})
            p = self.fetch("get", "x")
        self.assertEqual(p.returncode, 1)
        self.assertIn("cannot reach 127.0.0.1", p.stderr)
        self.assertIn("no network", p.stderr)


class socket_closed_port:
    """A loopback port nothing listens on."""

    def __enter__(self):
        import socket
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        return self.port

    def __exit__(self, *a):
        return False


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
