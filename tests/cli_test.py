#!/usr/bin/env python3
"""End-to-end tests of the `chatty` binary: every subcommand, --json,
--output, --validate, and one clear error line with a non-zero exit for
bad input. Usage: cli_test.py CHATTY FACEBOOK_TXT"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

CHATTY = sys.argv[1] if len(sys.argv) > 1 else "build/chatty"
FACEBOOK = sys.argv[2] if len(sys.argv) > 2 else "build/tests/data/facebook_combined.txt"


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def chatty(*args, expect=0):
    # These are CPU tests: on a GPU box --backend=auto would pick CUDA, so
    # every run names its backend (GPU CLI tests live in gpu_cli_test.py).
    if args and args[0] == "run" and not any(a.startswith("--backend") for a in args):
        args = (*args, "--backend=cpu")
    p = subprocess.run([CHATTY, *args], capture_output=True, text=True, timeout=600)
    if expect is not None and p.returncode != expect:
        raise AssertionError(f"chatty {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


class Cli(unittest.TestCase):
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

    def test_files_are_never_destroyed(self):
        # The same file in and out is refused and the input survives intact;
        # a write that fails leaves the old output as it was, and no
        # temporary file behind.
        cgr = self.path("g.cgr")
        chatty("generate", "kron:8", cgr)
        before = read(cgr, "rb")
        self.assert_error("convert", cgr, cgr, contains="is the input itself")
        self.assertEqual(read(cgr, "rb"), before)
        out = self.write("out.txt", "precious\n")
        self.assert_error("run", "--app=bfs", "--graph=kron:8", "--source=999999", f"--output={out}",
                          contains="--source=999999 is not a vertex")
        self.assertEqual(read(out), "precious\n")
        chatty("convert", cgr, self.path("copy.txt"))
        self.assertEqual(sorted(os.listdir(self.dir)), ["copy.txt", "g.cgr", "out.txt"])

    def test_pagerank_stopped_by_max_iters_says_not_converged(self):
        # As NetworkX raises PowerIterationFailedConvergence: the result line,
        # --json and the exit code (4) tell that the tolerance was not met.
        for devices in ("1", "3"):
            p = chatty("run", "--app=pr", "--graph=kron:10", "--max_iters=3", "--json", f"--devices={devices}",
                       expect=4)
            j = json.loads(p.stdout.strip().splitlines()[-1])
            self.assertFalse(j["converged"])
            self.assertGreater(j["last_change"], 1e-6)
            self.assertEqual(j["iterations"], 3)
            self.assertIn("not converged after 3 iterations (change ", p.stderr)
            self.assertIn(" > tolerance 1e-06)", p.stderr)
        p = chatty("run", "--app=pr", "--graph=kron:10", "--json")
        j = json.loads(p.stdout.strip().splitlines()[-1])
        self.assertTrue(j["converged"])
        self.assertNotIn("last_change", j)
        self.assertNotIn("not converged", p.stderr)

    def test_run_every_app_json_and_validate(self):
        for app in ["bfs", "sssp", "pr", "wcc"]:
            p = chatty("run", f"--app={app}", "--graph=kron:10", "--validate", "--repeat=3", "--json")
            j = json.loads(p.stdout.strip().splitlines()[-1])
            self.assertEqual(j["app"], app)
            self.assertEqual(j["vertices"], 1024)
            self.assertEqual(j["validated"], "pass")
            self.assertEqual(len(j["compute_s_all"]), 3)
            self.assertEqual(j["compute_s"], sorted(j["compute_s_all"])[1])  # the median
            for key in ["backend", "devices", "threads", "load_s", "iterations", "gteps", "edges"]:
                self.assertIn(key, j)
            self.assertIn("validate    PASS", p.stderr)  # with --json the human lines go to stderr

    def test_validate_reads_the_file_a_second_time(self):
        # The graph the run was given is checked against an independent
        # reading of the file; standard input cannot be read twice and says so.
        g = self.write("und.txt", "# Undirected graph\n10 20\n20 30\n30 30\n")
        for app in ["bfs", "wcc", "pr"]:
            p = chatty("run", f"--app={app}", f"--graph={g}", "--validate")
            self.assertIn("second, independent reading of the file gives the same 3 vertices and 4 edges", p.stderr
                          + p.stdout)
        p = subprocess.run([CHATTY, "run", "--app=bfs", "--graph=-", "--format=el", "--validate", "--backend=cpu"],
                           input="0 1\n1 2\n", capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("not read a second time (standard input cannot be read twice)", p.stdout + p.stderr)

    def test_output_file_format(self):
        out = self.path("bfs.txt")
        g = self.write("g.el", "0 1\n1 2\n3 4\n")
        chatty("run", "--app=bfs", f"--graph={g}", f"--output={out}")
        lines = read(out).splitlines()
        self.assertEqual(lines, ["0 0", "1 1", "2 2", "3 inf", "4 inf"])
        chatty("run", "--app=pr", f"--graph={g}", f"--output={out}")
        ranks = [float(l.split()[1]) for l in read(out).splitlines()]
        self.assertAlmostEqual(sum(ranks), 1.0, places=5)
        first = read(out).splitlines()[0].split()[1]
        self.assertGreaterEqual(len(first.replace(".", "").lstrip("0")), 9)  # 9 significant digits

    def test_default_source_is_lowest_vertex_with_out_edge(self):
        g = self.write("src.el", "5 6\n6 7\n")
        p = chatty("run", "--app=bfs", f"--graph={g}", "--json")
        self.assertEqual(json.loads(p.stdout.splitlines()[-1])["source"], 5)

    def test_ids_past_2_to_the_63_are_sources_and_print_exactly(self):
        # A file's ids may be any 64-bit integer: typed as a source, read in
        # --json and --output as themselves (not a double's rounding).
        top, mid = 18446744073709551615, 9007199254740993
        g = self.write("big.el", f"{top} 5\n5 {mid}\n")
        out = self.path("depth.txt")
        p = chatty("run", "--app=bfs", f"--graph={g}", "--ids=occurring", f"--source={top}", "--json",
                   f"--output={out}")
        self.assertEqual(json.loads(p.stdout.splitlines()[-1])["source"], top)
        self.assertEqual(read(out).split("\n")[:3], ["5 1", f"{mid} 2", f"{top} 0"])
        p = chatty("run", "--app=pr", f"--graph={g}", "--ids=occurring", "--json")
        self.assertEqual([t["vertex"] for t in json.loads(p.stdout.splitlines()[-1])["summary"]["top"]], [mid, 5, top])
        p = chatty("run", "--app=bfs", f"--graph={g}", "--ids=occurring", f"--source={top + 1}", expect=None)
        self.assertIn("--source must be a vertex id", p.stderr)

    def test_real_graph(self):
        p = chatty("run", "--app=sssp", f"--graph={FACEBOOK}", "--validate", "--json")
        self.assertEqual(json.loads(p.stdout.splitlines()[-1])["validated"], "pass")

    def test_generate_convert_info(self):
        cgr, mtx, el = self.path("k.cgr"), self.path("k.mtx"), self.path("k.el")
        chatty("generate", "kron:9", cgr)
        chatty("convert", cgr, mtx)
        chatty("convert", mtx, el)
        a = json.loads(chatty("info", cgr, "--json").stdout)
        b = json.loads(chatty("info", mtx, "--json").stdout)
        c = json.loads(chatty("info", el, "--symmetrize", "--json").stdout)
        for k in ["vertices", "edges", "degree_max", "isolated", "directed"]:
            self.assertEqual(a[k], b[k], k)
            self.assertEqual(a[k], c[k], k)
        text = chatty("info", "grid:10x10").stdout
        self.assertIn("vertices     100", text)
        self.assertIn("out-degree   min 2, median 4, mean 3.60, max 4", text)

    def assert_error(self, *args, contains):
        p = chatty(*args, expect=None)
        self.assertNotEqual(p.returncode, 0, p.stdout)
        err = p.stderr.strip().splitlines()
        self.assertEqual(len(err), 1, p.stderr)  # one clear line
        self.assertIn(contains, err[0])
        self.assertNotIn("terminate", p.stderr)

    def test_bad_input_is_one_error_line(self):
        self.assert_error("run", "--graph=/no/such/file.el", contains="/no/such/file.el: cannot open")
        files = {
            "x.abc": ("a b c", "unknown format"),  # lines of numbers would be an edge list
            "bad.el": ("0 1\n1 x\n", "bad.el:2: target id not a non-negative integer"),
            "neg.el": ("0 1\n-1 2\n", "neg.el:2: source id negative"),
            "neg.wel": ("0 1 -5\n", "neg.wel:1: negative weight -5"),
            "big.wel": ("0 1 99999999999\n", "big.wel:1: weight 99999999999 too large"),
            "h.gr": ("p sp 2 5\na 1 2 1\n", "header says 5 arcs"),
            "e.el": ("", "empty graph"),
        }
        for name, (text, message) in files.items():
            # SSSP: the one app that reads weights (the others ignore them).
            self.assert_error("run", "--app=sssp", "--graph=" + self.write(name, text), contains=message)
        self.assert_error("run", "--graph=kron:99", contains="bad scale")
        self.assert_error("run", "--graph=grid:5x5", "--source=25", contains="--source=25 is not a vertex of grid:5x5 (its ids: 0..24)")
        self.assert_error("run", "--graph=grid:5x5", "--source=-2", contains="--source must be")
        self.assert_error("run", "--app=sssp", "--graph=grid:5x5", "--no_default_weights", contains="sssp needs edge weights")
        self.assert_error("run", "--app=nope", contains="unknown app")
        self.assert_error("run", "--graph=grid:5x5", "--devices=2", "--straggler=2:50", contains="names device 2, but the run has 2 devices")
        for bad in ("1", "a:5", "1-0:5", "-1:5", "0:"):
            self.assert_error("run", "--graph=grid:5x5", "--devices=2", "--straggler=" + bad, contains="--straggler")
        auto = json.loads(chatty("run", "--graph=grid:3x3", "--json", "--backend=auto").stdout.splitlines()[-1])
        if auto["backend"] == "cpu":  # no usable GPU (or no CUDA in this build): cuda is an error, auto says why
            self.assert_error("run", "--backend=cuda", "--graph=grid:3x3", contains="--backend=cuda: ")
            self.assertIn("cpu (auto)", chatty("run", "--graph=grid:3x3", "--backend=auto").stdout)
        else:
            j = json.loads(chatty("run", "--backend=cuda", "--graph=grid:3x3", "--validate", "--json").stdout.splitlines()[-1])
            self.assertEqual(j["validated"], "pass")
        self.assert_error("run", "--backend=tpu", "--graph=grid:3x3", contains="unknown --backend")
        self.assert_error("run", "--backend=cpu", "--gpu_lb=x", "--graph=grid:3x3", contains="--gpu_lb")
        cgr = self.path("t.cgr")
        chatty("generate", "grid:20x20", cgr)
        data = read(cgr, "rb")
        with open(cgr, "wb") as f:
            f.write(data[: len(data) - 7])
        self.assert_error("run", f"--graph={cgr}", contains="truncated")
        with open(cgr, "wb") as f:
            f.write(data[:100] + bytes([data[100] ^ 1]) + data[101:])
        self.assert_error("run", f"--graph={cgr}", contains="checksum")

    def test_too_little_memory_is_one_error_line(self):
        # A process allowed too little address space (ulimit -v) fails
        # wherever its next allocation falls: loading, starting a device,
        # or inside a superstep on a device's thread, whose exception cannot
        # unwind out of its OpenMP region. The limits step through those
        # places (where they lie on this VM, for these graphs); each run
        # either finishes or exits 1 with one line.
        if b"__asan_init" in read(CHATTY, "rb"):  # built with -fsanitize=address
            self.skipTest("the sanitizer's shadow memory needs more address space than the limits allow")
        env = dict(os.environ, OMP_NUM_THREADS="2")
        kron, grid = self.path("k.cgr"), self.path("g.cgr")
        chatty("generate", "kron:20", kron)
        chatty("generate", "grid:1000x1000", grid)
        cases = [(kron, "bfs", 2, range(160000, 215000, 5000)),
                 (grid, "pr", 3, range(146000, 212000, 6000))]
        failed = 0
        for graph, app, devices, limits in cases:
            for kb in limits:
                cmd = f"ulimit -v {kb}; exec {CHATTY} run --backend=cpu --app={app} --graph={graph} --devices={devices}"
                p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120, env=env)
                what = f"{app} on {os.path.basename(graph)}, {devices} devices, ulimit -v {kb}: {p.stderr}"
                self.assertIn(p.returncode, (0, 1), what)
                if p.returncode:
                    failed += 1
                    self.assertEqual(len(p.stderr.strip().splitlines()), 1, what)
                    self.assertNotIn("terminate", p.stderr, what)
        self.assertGreater(failed, 0, "no limit was too small: the case tests nothing")

    def test_too_few_threads_for_the_devices_is_one_error_line(self):
        # Each host device has a thread of its own that drives it. With
        # fewer (OMP_THREAD_LIMIT, or OMP_DYNAMIC on a busy machine), a
        # device without one left the others alone with part of the graph:
        # BFS reached half of a grid, exit 0.
        def run(env, *args):
            return subprocess.run([CHATTY, "run", "--backend=cpu", "--app=bfs", "--graph=grid:100x100", *args],
                                  capture_output=True, text=True, timeout=120, env=dict(os.environ, **env))
        p = run({"OMP_THREAD_LIMIT": "1"}, "--devices=2")
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertEqual(p.stderr.strip().splitlines(),
                         ["chatty: error: --devices=2 needs a thread to drive each device, and OMP_THREAD_LIMIT "
                          "allows 1"])
        # Dynamic teams may be cut short only once the run starts: the
        # answer is right, or the run stops with one line.
        p = run({"OMP_DYNAMIC": "true"}, "--devices=8", "--validate")
        if p.returncode == 0:
            self.assertIn("validate    PASS", p.stdout)
        else:
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn("to drive the 8 devices, one each (check OMP_THREAD_LIMIT and OMP_DYNAMIC)", p.stderr)

    def test_multi_device_run_info_and_trace(self):
        for comm in ["host", "host_read", "host_view"]:
            p = chatty("run", "--app=sssp", "--graph=grid:60x40", "--devices=4", f"--comm={comm}", "--validate", "--json",
                       "--backend=cpu")
            j = json.loads(p.stdout.splitlines()[-1])
            self.assertEqual(j["devices"], 4)
            self.assertEqual(j["validated"], "pass")
            m = j["multi"]
            self.assertIn(comm, m["transport"])
            self.assertGreater(m["updated"], 0)
            self.assertLess(m["communicated_ratio"], 0.4)
            self.assertGreater(m["bytes_application"], 0)
            for phase in ["merge_s", "compute_s", "compact_s", "exchange_s", "wait_s"]:
                self.assertIn(phase, m)
                # The steps' figures are means over the devices' own.
                per_device = [d[phase] for d in m["device_seconds"]]
                self.assertAlmostEqual(sum(per_device) / 4, m[phase], delta=1e-5 + 1e-3 * m[phase])
            self.assertEqual(len(m["device_seconds"]), 4)
            self.assertTrue(all(d["compute_s"] > 0 for d in m["device_seconds"]))
            self.assertIn("device 3 merge", p.stderr)
        # Work migration: every run reports how many vertex computations peers
        # ran; with it off there are none, and the answer is the same.
        for flag, some in (("--migrate=true", None), ("--migrate=false", 0)):
            j = json.loads(chatty("run", "--app=pr", "--graph=kron:12", "--devices=2", flag, "--validate", "--json",
                                  "--backend=cpu").stdout.splitlines()[-1])
            self.assertEqual(j["validated"], "pass")
            self.assertGreaterEqual(j["multi"]["migrated"], 0)
            if some is not None:
                self.assertEqual(j["multi"]["migrated"], some)
        j = json.loads(chatty("run", "--app=bfs", "--graph=kron:12", "--devices=2", "--numa", "--validate",
                              "--json", "--backend=cpu").stdout.splitlines()[-1])
        self.assertEqual(j["validated"], "pass")
        info = json.loads(chatty("info", "grid:60x40", "--devices=3", "--json").stdout)
        self.assertEqual(len(info["chunks"]), 3)
        self.assertEqual(sum(c["vertices"] for c in info["chunks"]), 2400)
        self.assertIn("boundary", chatty("info", "kron:8", "--devices=2").stdout)
        # Relabelled by degree (as PageRank runs by default), vertices stay in
        # the chunks F chose for the input's ids: every chunk keeps its vertices
        # and edges (hubs first within it), where a whole-graph relabelling would
        # put all hubs in chunk 0.
        plain, by_degree = [json.loads(chatty("info", "kron:12", "--devices=3", "--json", f"--reorder={r}").stdout)
                            ["chunks"] for r in ("none", "degree")]
        for a, b in zip(plain, by_degree):
            self.assertEqual((a["vertices"], a["edges"], a["balance"]), (b["vertices"], b["edges"], b["balance"]))
        self.assert_error("info", "kron:8", "--devices=2", "--reorder=rcm", contains="--reorder must be")
        trace = self.path("m.csv")
        chatty("run", "--app=pr", "--graph=grid:30x30", "--devices=3", f"--trace={trace}", "--backend=cpu")
        rows = read(trace).splitlines()
        self.assertEqual(rows[0], "step,direction,updated,edges,communicated,application_bytes,status_bytes,merge_s,compute_s,compact_s,exchange_s,wait_s,supersteps")
        self.assertGreater(len(rows), 3)
        # PageRank gathers from in-neighbours: every superstep is a pull.
        self.assertEqual({r.split(",")[1] for r in rows[1:]}, {"pull"})
        self.assert_error("run", "--graph=grid:2x2", "--devices=5", contains="exceeds the graph's 4 vertices")
        self.assert_error("run", "--graph=grid:4x4", "--devices=2", "--comm=nccl", "--backend=cpu",
                          contains="not available for host devices (host_view (auto), host or host_read; nccl serves GPU devices)")

    def test_transport_table(self):
        # What sweeps and users read: every --comm name once per world, the
        # defaults, and the policy's own entry marked as no --comm choice.
        rows = json.loads(chatty("topo", "--transports", "--json").stdout)["transports"]
        worlds = {}
        for t in rows:
            worlds.setdefault(t["world"], []).append(t["name"])
        self.assertLessEqual({"host_view", "host", "host_read"}, set(worlds["host"]))
        self.assertLessEqual({"mpi_ring", "mpi_put", "mpi_alltoallv"}, set(worlds["ranks"]))
        for names in worlds.values():
            self.assertEqual(len(names), len(set(names)))
        self.assertEqual({t["name"] for t in rows if t["auto"]}, {"host_view", "mpi_ring"})
        self.assertEqual([t["name"] for t in rows if not t["comm_flag"]], ["async-copy"])
        text = chatty("topo", "--transports").stdout
        self.assertIn("mpi_alltoallv", text)
        for t in rows:  # each name a --comm takes is refused only for the worlds it does not serve
            if t["comm_flag"] and t["world"] == "host":
                self.assertEqual(chatty("run", "--graph=grid:3x3", "--devices=2", "--backend=cpu",
                                        "--comm=" + t["name"]).returncode, 0, t["name"])

    def test_topo(self):
        import time
        t0 = time.perf_counter()
        p = chatty("topo")
        self.assertLess(time.perf_counter() - t0, 1.0)  # no GPU: under a second
        if "CPU backend" in p.stdout:
            self.assertIn("host", p.stdout)
            self.assert_error("topo", "--bench", "--topology_cache=" + self.path("c.json"), contains="--bench needs a GPU")
        for name in ["dgx1-v100", "dgx-a100", "dgx-h100", "pcie8"]:
            j = json.loads(chatty("topo", f"--topology={name}", "--json").stdout)
            self.assertEqual(len(j["topology"]["gpus"]), 8)
            self.assertEqual([d["class"] for d in j["policy"]][0], "status")
        text = chatty("topo", "--topology=dgx1-v100").stdout
        self.assertIn("NV2", text)
        self.assertIn("nccl", text)
        saved = self.path("box.json")
        with open(saved, "w") as f:
            f.write(json.dumps(json.loads(chatty("topo", "--topology=pcie8", "--json").stdout)["topology"]))
        self.assertIn("PIX", chatty("topo", f"--topology={saved}").stdout)
        self.assertIn("share a GPU", chatty("topo", "--topology=dgx-h100", "--devices=12").stdout)
        self.assert_error("topo", "--topology=nope", contains="no such synthetic topology")

    def test_reorder_is_invisible_in_results(self):
        outs = {}
        for app, extra in [("pr", []), ("bfs", ["--source=7"]), ("sssp", ["--source=7"])]:
            # On several devices the relabelling stays within each device's chunk.
            # auto relabels on GPU devices only (on the CPU it cost more than it saved).
            for mode, devices in [("none", 1), ("auto", 1), ("degree", 1), ("degree", 3)]:
                path = self.path(f"{app}_{mode}_{devices}.txt")
                p = chatty("run", f"--app={app}", "--graph=kron:11", f"--reorder={mode}", f"--output={path}",
                           f"--devices={devices}", "--backend=cpu", "--validate", "--json", *extra)
                j = json.loads(p.stdout.splitlines()[-1])
                self.assertEqual(j["validated"], "pass")
                self.assertEqual(j["reordered"], mode == "degree")
                self.assertEqual("reorder_s" in j, mode == "degree")
                if extra:
                    self.assertEqual(j["source"], 7)
                outs[(mode, devices)] = [l.split() for l in read(path).splitlines()]
            for other in [("degree", 1), ("degree", 3)]:
                if app == "pr":
                    for a, b in zip(outs[("none", 1)], outs[other]):
                        self.assertEqual(a[0], b[0])
                        self.assertAlmostEqual(float(a[1]), float(b[1]), delta=1e-7)
                else:
                    self.assertEqual(outs[("none", 1)], outs[other])

    def test_trace_csv(self):
        # One trace format for every device count: a row per superstep.
        for devices in (1, 2):
            trace = self.path(f"t{devices}.csv")
            j = json.loads(chatty("run", "--app=bfs", "--graph=kron:10", f"--devices={devices}", f"--trace={trace}",
                                  "--json").stdout)
            rows = read(trace).splitlines()
            self.assertEqual(rows[0], "step,direction,updated,edges,communicated,application_bytes,status_bytes,merge_s,compute_s,compact_s,exchange_s,wait_s,supersteps")
            # a row per sync, which may cover several supersteps (a wave)
            self.assertEqual(sum(int(r.split(",")[-1]) for r in rows[1:]), j["iterations"])
            self.assertGreater(j["iterations"], 1)
            self.assertEqual(sum(int(r.split(",")[3]) for r in rows[1:]), j["edges_examined"])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
