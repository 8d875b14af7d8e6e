#!/usr/bin/env python3
"""The inter-node layer end to end: `mpirun -np R chatty run` on 1..4 ranks
(oversubscribed on this machine) with 1 or 2 host devices per rank must
write exactly the single process's --output (PageRank within tolerance)
for every app on kron, urand, grid and the shared real graph; bad input
fails on every rank with one line and a non-zero exit; ranks that
disagree on their input or command are refused; ranks in trouble
(tests/mpi_faults.py) end the job instead of hanging it.
Usage: mpi_test.py CHATTY FACEBOOK_TXT [--faults or --no-faults: one half]
(exit 77: no mpirun or no MPI build).
MPIRUN=mpirun.mpich mpi_test.py ... --portability: MPICH's launcher, 2 ranks
only (MPICH busy-polls: more ranks than cores take milliseconds a call)."""
import gzip
import json
import os
import re
import shutil
import subprocess
import unittest

from mpi_faults import RankFaults
from mpi_support import (APPS, CHATTY, ENV, FACEBOOK, LAYOUTS, MPIRUN, PORTABILITY, SOME_LAYOUTS,
                         TRANSPORT_LAYOUTS, RankCase, auto_transport, chatty, main, run, values)


class Ranks(RankCase):
    def check_graph(self, graph, extra=(), rank_extra=(), layouts=None):
        for app in APPS:
            ref = self.path(f"{app}.ref")
            p = chatty(0, f"--app={app}", f"--graph={graph}", f"--output={ref}", *extra)
            self.assertEqual(p.returncode, 0, p.stderr)
            for ranks, devices in layouts or LAYOUTS:
                got = self.path(f"{app}.{ranks}.{devices}")
                what = f"{app} on {graph}, {ranks} ranks x {devices} devices"
                p = chatty(ranks, f"--app={app}", f"--graph={graph}", f"--devices={devices}", f"--output={got}",
                           "--json", *extra, *(rank_extra if ranks > 1 else ()))
                self.assertEqual(p.returncode, 0, what + "\n" + p.stdout + p.stderr)
                report = json.loads(p.stdout.splitlines()[-1])
                self.assertEqual((report["ranks"], report["devices"]), (ranks, ranks * devices), what)
                if ranks > 1:
                    named = [a[len("--comm="):] for a in rank_extra if a.startswith("--comm=")]
                    want = named[0] if named else auto_transport(report)
                    self.assertTrue(report["multi"]["transport"].startswith(want), what)
                    m = report["multi"]
                    self.assertEqual(sum(map(sum, m["rank_pair_bytes"])), m["bytes_application"], what)
                    self.assertEqual(len(m["rank_pair_records"]), ranks, what)
                    self.assertEqual(len(m["rank_migrated"]), ranks, what)
                    self.assertEqual(sum(m["rank_migrated"]), m["migrated"], what)
                    times = report["multi"]["device_seconds"]
                    self.assertTrue(all(sum(t.values()) > 0 for t in times), what + ": a rank's times are missing")
                    for ph in ("merge_s", "compute_s", "compact_s", "exchange_s", "wait_s"):  # means over every rank's
                        mean = sum(t[ph] for t in times) / len(times)
                        self.assertAlmostEqual(m[ph], mean, delta=1e-6 + 1e-3 * mean, msg=f"{what}: {ph}")
                self.assert_same(app, ref, got, what)

    def test_whole_graph_apps_over_ranks(self):
        # Ranks each hold the whole graph and take a share of the rows (TC,
        # similarity's edges) or of the sources (BC), or rank 0 computes
        # (HITS, Louvain, ktruss); the results, summed over the ranks, equal
        # one process's: exactly for TC, Louvain and the per-pair apps,
        # within float output for BC and HITS. A generated graph, a text
        # file (symmetrized) and a .cgr, on 2 x 1, 3 x 2 and 4 x 1 ranks x
        # devices (the per-pair apps: 3 x 2 on the first two), with the
        # verifier on rank 0.
        cgr = self.path("fb.cgr")
        self.assertEqual(run([CHATTY, "convert", FACEBOOK, cgr, "--symmetrize"]).returncode, 0)
        for graph, extra in (("kron:11", []), (FACEBOOK, ["--symmetrize"]), (cgr, [])):
            for app, more in (("tc", []), ("bc", ["--sources=6"]), ("hits", []), ("louvain", []), ("similarity", []),
                              ("ktruss", [])):
                per_pair = app in ("similarity", "ktruss")
                if per_pair and (graph == cgr or PORTABILITY):  # OpenMPI's pass runs them
                    continue
                ref = self.path(f"{app}.ref")
                p = chatty(0, f"--app={app}", f"--graph={graph}", f"--output={ref}", *extra, *more)
                self.assertEqual(p.returncode, 0, p.stderr)
                layouts = ((2, 1),) if PORTABILITY else ((3, 2),) if per_pair else ((2, 1), (3, 2), (4, 1))
                for ranks, devices in layouts:
                    got = self.path(f"{app}.{ranks}.{devices}")
                    what = f"{app} on {graph}, {ranks} ranks x {devices} devices"
                    p = chatty(ranks, f"--app={app}", f"--graph={graph}", f"--devices={devices}", f"--output={got}",
                               "--validate", "--json", *extra, *more)
                    self.assertEqual(p.returncode, 0, what + "\n" + p.stdout + p.stderr)
                    report = json.loads(p.stdout.splitlines()[-1])
                    self.assertEqual((report["ranks"], report["validated"]), (ranks, "pass"), what)
                    self.assertIn("summed over the ranks", report["multi"]["transport"], what)
                    self.assert_same(app, ref, got, what)

    def test_kron(self):
        self.check_graph("kron:12")

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_urand(self):
        self.check_graph("urand:12", layouts=[(4, 1), (1, 2)])

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_grid(self):
        self.check_graph("grid:30x40", layouts=SOME_LAYOUTS)

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_real_graph(self):
        self.check_graph(FACEBOOK, ["--undirected"], layouts=[(2, 1), (4, 1)])

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_per_peer_exchange_and_no_migration(self):
        self.check_graph("kron:11", ["--exchange=peer", "--migrate=false"], layouts=SOME_LAYOUTS)

    def test_migration_across_ranks(self):
        # Blocks migrate across ranks (claimed by compare-and-swap on the
        # owner's worklist words): PageRank's computed from fetched rows and
        # values and put back; BFS's and SSSP's push steps relaxed from the
        # owner's published frontier and fetched rows into the thief's
        # replica. The same ranks with it off, with one block a claim and no
        # cache, and with the defaults' claim size and a cache; blocks are
        # counted per rank. SSSP's wide buckets make frontiers of many blocks.
        # A grid of 301 x 301 has |V| no multiple of 16, where a thief once
        # wrote a gather's published values a few vertices off: the values
        # must then agree closely, not just within PageRank's tolerance.
        # The last rank's devices straggle (a pause before each own block),
        # so the others run out of work first on any machine, however idle.
        # Last, the claims and fetches as MPI calls (--net=mpi), as between
        # nodes, where one node's ranks otherwise share their windows (and a
        # push's thief reads rows in place): with no cache, each claim gets
        # its rows.
        for app, graph, extra in (("pr", "kron:14", []), ("pr", "grid:301x301", []),
                                  ("bfs", "kron:15", ["--direction=push"]), ("sssp", "kron:14", ["--delta=100000"])):
            ref = self.path(f"{app}.ref")
            self.assertEqual(chatty(0, f"--app={app}", f"--graph={graph}", f"--output={ref}", *extra).returncode, 0)
            claimed = 0
            # Several devices a rank, and the most ranks.
            for ranks, devices in ((2, 2),) if PORTABILITY else ((2, 2), (4, 1)):
                for opts in (["--migrate=false"],
                             ["--migrate_block=1", "--migrate_threshold=0", "--migrate_cache_mb=0"],
                             ["--migrate_block=4", "--migrate_threshold=0"],
                             ["--migrate_block=4", "--migrate_threshold=0", "--migrate_cache_mb=0", "--net=mpi"]):
                    got = self.path(f"{app}.got")
                    what = f"{app} on {graph}, {ranks} ranks x {devices} devices, {' '.join(opts + extra)}"
                    slow = f"--straggler={(ranks - 1) * devices}-{ranks * devices - 1}:300"
                    p = chatty(ranks, f"--app={app}", f"--graph={graph}", f"--devices={devices}", f"--output={got}",
                               "--json", slow, *extra, *opts)
                    self.assertEqual(p.returncode, 0, what + "\n" + p.stderr)
                    m = json.loads(p.stdout.splitlines()[-1])["multi"]
                    blocks = m["rank_migrated_blocks"]
                    self.assertEqual(len(blocks), ranks, what)
                    if opts[0] == "--migrate=false":
                        self.assertEqual((sum(blocks), m["migrated"]), (0, 0), what)
                    claimed += sum(blocks)
                    if sum(blocks):  # a claimed block's rows and values came by MPI_Get
                        gets = m["rank_mpi_ops"]["get"]
                        self.assertGreater(sum(gets[a][b] for a in range(ranks) for b in range(ranks) if a != b), 0,
                                           what)
                    self.assert_same(app, ref, got, what)
                    if app == "pr":
                        a, b = values(ref), values(got)
                        worst = max(abs(a[v] - b[v]) for v in a)
                        self.assertLess(worst, 1e-5 * max(a.values()), what)
            self.assertGreater(claimed, 0, f"{app} on {graph}")

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_sendall_against_per_edge_messages(self):
        # PageRank's values travel once per reading device (SendAll) or once
        # per crossing edge: the same ranks, and SendAll carries fewer bytes.
        ref = self.path("pr.ref")
        self.assertEqual(chatty(0, "--app=pr", "--graph=kron:12", f"--output={ref}").returncode, 0)
        for ranks, devices in LAYOUTS:
            if ranks < 2:
                continue
            sent = {}
            for messages in ("sendall", "per_edge"):
                got = self.path(f"pr.{messages}")
                what = f"pr on kron:12, {ranks} ranks x {devices} devices, --messages={messages}"
                p = chatty(ranks, "--app=pr", "--graph=kron:12", f"--devices={devices}", f"--messages={messages}",
                           f"--output={got}", "--json")
                self.assertEqual(p.returncode, 0, what + "\n" + p.stderr)
                m = json.loads(p.stdout.splitlines()[-1])["multi"]
                # Per-edge records are addressed; SendAll's are per peer across ranks (auto), but
                # broadcast where each device has one peer, which gets the same records either way.
                addressed = messages == "per_edge" or ranks * devices > 2
                self.assertEqual((m["messages"], m["exchange"]), (messages, "peer" if addressed else "broadcast"), what)
                sent[messages] = m["bytes_application"]
                self.assert_same("pr", ref, got, what)
            self.assertLess(sent["sendall"], 0.55 * sent["per_edge"], f"{ranks} x {devices}: {sent}")

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_directed_text_and_cgr(self):
        # A directed graph: ranks keep their rows of the out- and in-edges
        # of a parsed file, and read their rows of a mapped .cgr in place.
        el = self.path("directed.el")
        with open(el, "w") as f:
            for i in range(3000):
                for k in (1, 7, 31):
                    if (i * k) % 5:
                        f.write(f"{i} {(i * k + 13 * k) % 3000}\n")
        cgr = self.path("directed.cgr")
        p = run([CHATTY, "convert", el, cgr])
        self.assertEqual(p.returncode, 0, p.stderr)
        for graph in (el, cgr):
            for app in ("bfs", "sssp", "wcc", "pr", "scc")[: 5 if graph == el else 4]:
                ref = self.path(f"{app}.ref")
                p = chatty(0, f"--app={app}", f"--graph={graph}", f"--output={ref}")
                self.assertEqual(p.returncode, 0, p.stderr)
                for ranks, devices in ((2, 1), (3, 1), (2, 2)):
                    got = self.path(f"{app}.{ranks}.{devices}")
                    what = f"{app} on {graph}, {ranks} ranks x {devices} devices"
                    p = chatty(ranks, f"--app={app}", f"--graph={graph}", f"--devices={devices}",
                               f"--output={got}", "--json")
                    self.assertEqual(p.returncode, 0, what + "\n" + p.stderr)
                    self.assert_same(app, ref, got, what)

    def test_ranks_hold_their_own_rows(self):
        cgr = self.path("facebook.cgr")
        p = run([CHATTY, "convert", FACEBOOK, cgr, "--undirected"])
        self.assertEqual(p.returncode, 0, p.stderr)
        for graph in ("kron:13", "grid:60x50", FACEBOOK, cgr):
            p = chatty(3, "--app=pr", f"--graph={graph}", "--json", "--undirected")
            self.assertEqual(p.returncode, 0, p.stderr)
            j = json.loads(p.stdout.splitlines()[-1])
            held = j["rank_edges_held"]
            self.assertEqual(len(held), 3, graph)
            self.assertEqual(sum(held), j["edges"], graph)  # every row held once
            self.assertLess(max(held), 0.6 * j["edges"], graph)
            self.assertTrue(all(x > 0 for x in j["rank_peak_rss_mb"]), graph)

    @unittest.skipIf(PORTABILITY, "the full matrix runs under OpenMPI")
    def test_relabelled_ranks(self):
        # Every app relabelled by degree within chunks on every rank.
        self.check_graph("kron:11", rank_extra=["--reorder=degree"], layouts=[(2, 1), (3, 1)])

    def test_auto_takes_rings_past_the_put_window(self):
        # --comm=auto is mpi_put while its window on a rank is at most
        # --put_window_mb, and mpi_ring past it; the answers are the same.
        ref = self.path("ref")
        self.assertEqual(chatty(0, "--app=bfs", "--graph=kron:12", f"--output={ref}").returncode, 0)
        for cap in ("1024", "0"):
            got = self.path(f"got{cap}")
            p = chatty(2, "--app=bfs", "--graph=kron:12", "--devices=2", f"--put_window_mb={cap}", "--json",
                       f"--output={got}")
            self.assertEqual(p.returncode, 0, p.stderr)
            report = json.loads(p.stdout.splitlines()[-1])
            want = auto_transport(report) if cap != "0" else "mpi_ring"
            self.assertTrue(report["multi"]["transport"].startswith(want), cap)
            self.assert_same("bfs", ref, got, f"--put_window_mb={cap}")

    def test_streamed_rings(self):
        # Rings far smaller than a superstep's records: batches wrap around
        # the ring and senders wait for receivers to free room.
        self.check_graph("urand:11", rank_extra=["--comm=mpi_ring", "--ring_bytes=4096", "--batch_bytes=256",
                                                 "--small_bytes=0"],
                         layouts=TRANSPORT_LAYOUTS)

    def test_windows_by_mpi_calls_as_between_nodes(self):
        # Ranks of one node reach each other's windows by loads and stores;
        # --net=mpi makes every access the MPI call it stands for, as
        # between nodes: rings that wrap and fill, and mpi_put's slots.
        for comm in ("mpi_ring", "mpi_put"):
            self.check_graph("urand:11", rank_extra=["--net=mpi", f"--comm={comm}", "--ring_bytes=4096",
                                                     "--batch_bytes=256", "--small_bytes=0"],
                             layouts=[(2, 2)])

    def test_ring_lanes(self):
        # Three rings per pair, each fed by one thread of the sender's team
        # and read by one of the receiver's, small enough to wrap and fill.
        self.check_graph("urand:11", rank_extra=["--comm=mpi_ring", "--ring_lanes=3", "--ring_bytes=8192",
                                                 "--batch_bytes=256", "--small_bytes=0"],
                         layouts=TRANSPORT_LAYOUTS)

    def test_ranks_without_edges(self):
        # A triangle among 1000 vertices (positions: "# Nodes: 1000" keeps the
        # isolated ones): two of four ranks hold no edge.
        graph = self.path("triangle.txt")
        with open(graph, "w") as f:
            f.write("# Nodes: 1000 Edges: 3\n0 1\n1 2\n2 0\n")
        for app in APPS:
            ref, got = self.path(f"{app}.ref"), self.path(f"{app}.got")
            p = chatty(0, f"--app={app}", f"--graph={graph}", "--ids=positions", "--undirected", f"--output={ref}")
            self.assertEqual(p.returncode, 0, p.stderr)
            p = chatty(4, f"--app={app}", f"--graph={graph}", "--ids=positions", "--undirected", "--devices=2",
                       f"--output={got}", "--json")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(0, json.loads(p.stdout.splitlines()[-1])["rank_edges_held"], app)
            self.assert_same(app, ref, got, f"{app} with edgeless ranks")

    def test_batches_are_counted(self):
        # 256-byte batches hold 32 records of 8 bytes: at least that many
        # batches; one two-sided message a superstep below the switch.
        for small, check in (("0", lambda b, r, steps: b >= r / 32 + 1),
                             ("1073741824", lambda b, r, steps: 0 < b <= steps)):
            p = chatty(2, "--app=pr", "--graph=kron:12", "--comm=mpi_ring", "--ring_bytes=4096",
                       "--batch_bytes=256", f"--small_bytes={small}", "--json")
            self.assertEqual(p.returncode, 0, p.stderr)
            j = json.loads(p.stdout.splitlines()[-1])
            m = j["multi"]
            b, r = m["rank_pair_batches"][0][1], m["rank_pair_records"][0][1]
            self.assertTrue(check(b, r, j["iterations"]), f"--small_bytes={small}: {b} batches, {r} records")

    def test_mpi_operations_are_counted(self):
        # Every MPI operation of the run by kind, origin and target rank.
        # Receivers are passive: the status agreement is a put of the
        # rank's records and an arrival word (an accumulate) to each other
        # rank, rings announce each pair's exchange by a notice word and
        # put their batches, and below the switch a pair's records are one
        # message each, received; mpi_put puts the records and a stamped
        # count word, or, where the ranks map each other's windows, only
        # the word: a broadcast is read in place. None of them calls a
        # collective or sends a message above the switch; the two-sided
        # baseline moves records by two collectives a superstep.
        for comm in ("mpi_ring", "small", "mpi_put", "put_by_calls", "mpi_alltoallv"):
            small = "1073741824" if comm == "small" else "0"
            name = {"small": "mpi_ring", "put_by_calls": "mpi_put"}.get(comm, comm)
            p = chatty(2, "--app=pr", "--graph=kron:12", f"--comm={name}", f"--small_bytes={small}", "--json",
                       *(["--net=mpi"] if comm == "put_by_calls" else []))
            self.assertEqual(p.returncode, 0, p.stderr)
            j = json.loads(p.stdout.splitlines()[-1])
            ops, steps = j["multi"]["rank_mpi_ops"], j["iterations"]
            across = {k: [v[0][1], v[1][0]] for k, v in ops.items()}
            self.assertEqual(across["collective"], [0, 0], comm)
            self.assertTrue(all(x >= steps for x in across["atomic"]), f"{comm}: {across['atomic']}")
            self.assertTrue(all(x >= steps for x in across["put"]), f"{comm}: {across['put']}")
            if comm in ("mpi_put", "put_by_calls"):
                # The devices' vote that all of them started, the status of
                # each superstep, then the records unless read in place.
                self.assertEqual(across["put"], [1 + steps * (1 + (comm == "put_by_calls"))] * 2, comm)
                self.assertEqual("in place" in j["multi"]["transport"], comm == "mpi_put", j["multi"]["transport"])
            if comm == "mpi_alltoallv":
                self.assertEqual(across["send"] + across["recv"], [0, 0, 0, 0], comm)
                self.assertTrue(all(ops["collective"][r][r] >= 2 * steps for r in (0, 1)), comm)  # sizes, records
                continue
            self.assertEqual([ops["collective"][0][0], ops["collective"][1][1]], [0, 0], comm)
            if comm == "small":
                self.assertTrue(all(0 < x <= steps for x in across["send"]), f"{comm}: {across['send']}")
                self.assertEqual(across["recv"], across["send"][::-1], comm)
            else:
                self.assertEqual(across["send"] + across["recv"], [0, 0, 0, 0], comm)
            if comm == "mpi_ring":
                batches = j["multi"]["rank_pair_batches"]
                self.assertGreaterEqual(across["put"][0], steps + batches[0][1], comm)  # status, then 1 or 2 a batch

    def test_small_messages_two_sided(self):
        # Every pair's records go as one two-sided message, whatever their size.
        self.check_graph("kron:11", rank_extra=["--comm=mpi_ring", "--small_bytes=1073741824"],
                         layouts=TRANSPORT_LAYOUTS)

    def test_switch_point_is_measured_once_and_cached(self):
        # The RDMA thesis's small/large switch: measured between two ranks on the
        # first run of a cluster, read from the cache after, measured again
        # on request, or given.
        env = dict(ENV, XDG_CACHE_HOME=self.path("cache"))

        def report(*extra):
            p = run([MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--graph=kron:10", "--json", "--quiet",
                     *extra], env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            j = json.loads(p.stdout.splitlines()[-1])
            return j["small_bytes"], j["small_bytes_how"]

        measured, how = report()
        self.assertTrue(how.startswith("measured between ranks 0 and 1"), how)
        cache = os.path.join(self.path("cache"), "chattygraph", "cluster_switch.json")
        with open(cache) as f:
            entry = next(iter(json.load(f).values()))
        self.assertEqual(entry["small_bytes"], measured)
        self.assertEqual(len(entry["one_sided_us"]), len(entry["sizes"]))
        self.assertEqual(report(), (measured, "cached in " + cache))
        self.assertTrue(report("--small_bytes=measure")[1].startswith("measured"))
        self.assertEqual(report("--small_bytes=4096"), (4096, "--small_bytes"))
        p = run([MPIRUN, "-np", "2", CHATTY, "run", "--graph=kron:10", "--small_bytes=lots"], env=env)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--small_bytes must be auto, measure or a byte count", p.stderr)

    def test_one_put_per_peer(self):
        self.check_graph("urand:11", rank_extra=["--comm=mpi_put"], layouts=TRANSPORT_LAYOUTS)

    def test_two_sided_baseline(self):
        self.check_graph("urand:11", rank_extra=["--comm=mpi_alltoallv"], layouts=TRANSPORT_LAYOUTS)

    def test_transport_that_cannot_reach_ranks_is_refused(self):
        p = chatty(2, "--comm=host")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("is not available for ranks", p.stderr)

    def test_ranks_share_their_nodes_cores(self):
        # Unbound ranks (MPICH's default, OpenMPI's --bind-to none; past 2
        # ranks OpenMPI binds each to a whole socket) ran a thread per CPU
        # each, their barriers spinning through each other's time slices:
        # SSSP on kron:20 at 2 ranks took 4.8 s instead of 0.3 s. Each
        # rank now takes its share of its node's CPUs unless told.
        env = {k: v for k, v in ENV.items() if k != "OMP_NUM_THREADS"}
        cpus = len(os.sched_getaffinity(0))
        unbound = [] if PORTABILITY else ["--bind-to", "none"]

        def threads(ranks, *args, env=env):
            p = run([MPIRUN, "-np", str(ranks), *unbound, CHATTY, "run", "--backend=cpu", "--graph=kron:10", *args],
                    env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            return int(re.search(r"devices?, (\d+) threads?", p.stdout).group(1))

        for ranks in (2, 3):
            self.assertEqual(threads(ranks), max(1, cpus // ranks), ranks)
        self.assertEqual(threads(2, "--threads=3"), 3)  # told, by a flag or OpenMP's variable
        self.assertEqual(threads(2, env=dict(env, OMP_NUM_THREADS="3")), 3)
        # Bound by the launcher to fewer CPUs than it has (OpenMPI binds each
        # of 2 ranks to one core: on a 64-core box, 2 threads in all), the
        # ranks say so once; left unbound, nothing.
        first = min(os.sched_getaffinity(0))  # a container's CPUs may not start at 0
        both_on_one = (["-bind-to", f"user:{first},{first}"] if PORTABILITY else
                       ["--cpu-set", str(first), "--bind-to", "hwthread"])
        warning = "chatty: warning: the launcher bound this node's 2 ranks to 1 of the"
        if cpus > 1:
            p = run([MPIRUN, "-np", "2", *both_on_one, CHATTY, "run", "--backend=cpu", "--graph=kron:10"], env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stderr.count(warning), 1, p.stderr)
        p = run([MPIRUN, "-np", "2", *unbound, CHATTY, "run", "--backend=cpu", "--graph=kron:10"], env=env)
        self.assertNotIn("chatty: warning", p.stderr)

    def test_ranks_say_what_connects_them(self):
        p = chatty(2, "--graph=kron:10", "--json", "--quiet")
        self.assertEqual(p.returncode, 0, p.stderr)
        fabric = json.loads(p.stdout.splitlines()[-1])["fabric"]
        self.assertTrue(fabric.startswith("MPI windows in shared memory"), fabric)  # every rank on this node
        p = chatty(2, "--graph=kron:10", "--json", "--quiet", "--net=mpi")
        self.assertEqual(p.returncode, 0, p.stderr)
        by_calls = json.loads(p.stdout.splitlines()[-1])["fabric"]
        self.assertTrue(by_calls.startswith("MPI ("), by_calls)
        if not PORTABILITY:  # a one-sided component the user picked that makes no shared windows: MPI calls
            p = run([MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--graph=kron:10", "--json", "--validate"],
                    env=dict(ENV, OMPI_MCA_osc="ucx"))
            self.assertEqual(p.returncode, 0, p.stderr)
            report = json.loads(p.stdout.splitlines()[-1])
            self.assertTrue(report["fabric"].startswith("MPI ("), report["fabric"])
            self.assertEqual(report["validated"], "pass")
        if "no RDMA" in fabric:  # this machine: ibv_get_device_list fails; verbs is refused, never half-run
            p = chatty(2, "--graph=kron:10", "--net=verbs")
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("--net=verbs: ", p.stderr)
            self.assertIn("--net=mpi runs without one", p.stderr)

    def test_gpu_ranks_need_a_gpu_on_every_rank(self):
        # GPU devices inside ranks run where every rank has a GPU
        # (gpu_cli_test.py runs them there); here --backend=cuda fails every
        # rank, agreed, with one line from rank 0, and auto agrees on the CPU
        # everywhere.
        p = run([MPIRUN, "-np", "2", CHATTY, "run", "--graph=kron:10", "--backend=cuda"])
        if p.returncode == 0:
            self.skipTest("these ranks have GPUs")
        errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
        self.assertEqual(len(errors), 1, p.stderr)
        self.assertIn("--backend=cuda: ", errors[0])
        p = run([MPIRUN, "-np", "2", CHATTY, "run", "--graph=kron:10", "--backend=auto", "--json"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout.splitlines()[-1])["backend"], "cpu")

    def test_validate_on_rank_zero(self):
        p = chatty(2, "--app=wcc", "--graph=kron:12", "--validate")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.count("validate    PASS"), 1, p.stdout)

    def test_bad_input_fails_every_rank_with_one_line(self):
        for args in (["--graph=/no/such/file.txt"], ["--graph=kron:10", "--source=99999"],
                     ["--app=sssp", "--graph=nope:3"]):
            p = chatty(2, *args)
            self.assertNotEqual(p.returncode, 0, args)
            errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
            self.assertEqual(len(errors), 1, p.stderr)  # every rank holds it; rank 0 says it

    def test_a_different_file_on_one_rank_is_refused(self):
        half = self.path("half.txt")
        with open(FACEBOOK) as f, open(half, "w") as g:
            g.writelines(f.readlines()[:100000])
        line = self.one_rank_differs([f"--graph={FACEBOOK}"], [f"--graph={half}"])
        self.assertIn("ranks 1, 2 loaded a different graph from rank 0's", line)
        # One weight alone differs, in a bit past the 24th: only the low 24
        # bits were hashed, and SSSP ran to a wrong distance (exit 0).
        with open(FACEBOOK) as f:
            lines = f.readlines()
        last = max(i for i, l in enumerate(lines) if len(l.split()) == 3)  # the file ends in a "-1" line
        u, v, w = lines[last].split()
        lines[last] = f"{u} {v} {int(w) + (1 << 24)}\n"
        heavier = self.path("heavier.txt")
        with open(heavier, "w") as g:
            g.writelines(lines)
        line = self.one_rank_differs([f"--graph={FACEBOOK}", "--app=sssp"], [f"--graph={heavier}", "--app=sssp"])
        self.assertIn("ranks 1, 2 loaded a different graph from rank 0's", line)

    def test_one_graph_in_two_formats_runs_and_other_ids_are_refused(self):
        # A node's .cgr beside another's text file is the same graph: it
        # was refused as a different one (only text files' edges were
        # hashed). A DIMACS copy (ids 1-based) holds the same edges, but
        # --source=3000 names another vertex there: it ran, and BFS came
        # out wrong (rank 1 started from what rank 0 calls 2999).
        cgr, gz, gr = self.path("fb.cgr"), self.path("fb.txt.gz"), self.path("fb.gr")
        self.assertEqual(run([CHATTY, "convert", FACEBOOK, cgr]).returncode, 0)
        with open(FACEBOOK, "rb") as f:
            text = f.read()
        with gzip.open(gz, "wb") as g:
            g.write(text)
        edges = [l.split() for l in text.decode().splitlines() if len(l.split()) == 3]
        with open(gr, "w") as g:
            g.write(f"p sp 4039 {len(edges)}\n" + "".join(f"a {int(u) + 1} {int(v) + 1} {w}\n" for u, v, w in edges))
        want = self.path("want.txt")
        self.assertEqual(run([CHATTY, "run", "--backend=cpu", f"--graph={FACEBOOK}", "--source=3000",
                              f"--output={want}"]).returncode, 0)
        for other in (cgr, gz):
            out = self.path("out.txt")
            p = run([MPIRUN, "-np", "1", CHATTY, "run", "--backend=cpu", f"--graph={FACEBOOK}", "--source=3000",
                     f"--output={out}", ":", "-np", "1", CHATTY, "run", "--backend=cpu", f"--graph={other}",
                     "--source=3000", f"--output={out}"], timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(values(out), values(want), other)
        line = self.one_rank_differs([f"--graph={FACEBOOK}", "--source=3000"], [f"--graph={gr}", "--source=3000"],
                                     (1, 1))
        self.assertIn("rank 1 loaded a different graph from rank 0's (|V|, |E|, degrees, edges, weights or ids differ)", line)

    def test_ranks_with_different_commands_are_refused(self):
        # One command on every rank: a flag set otherwise on some (an MPMD
        # launch, a stale script) would pair collectives wrongly or mix
        # answers. The graph's path may differ (a node's own copy).
        for mine, theirs, flag in ((["--graph=kron:10", "--source=1"], ["--graph=kron:10", "--source=5"], "--source"),
                                   (["--graph=kron:10", "--devices=2"], ["--graph=kron:10"], "--devices"),
                                   (["--graph=kron:10", "--comm=mpi_put"], ["--graph=kron:10"], "--comm")):
            line = self.one_rank_differs(mine, theirs)
            self.assertIn(f"ranks 1, 2 run with a different {flag} from rank 0's", line)
        line = self.one_rank_differs([f"--graph={FACEBOOK}", "--threads=1"], [f"--graph={FACEBOOK}", "--validate"],
                                     (1, 1))
        self.assertIn("rank 1 runs with a different --validate", line)
        p = run([MPIRUN, "-np", "1", CHATTY, "run", "--backend=cpu", f"--graph={FACEBOOK}", "--threads=1", ":", "-np",
                 "1", CHATTY, "run", "--backend=cpu", f"--graph={self.copy_of(FACEBOOK)}"], timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)  # a node's own copy, its own thread count

    def copy_of(self, path):
        copy = self.path("copy_" + os.path.basename(path))
        shutil.copyfile(path, copy)
        return copy

    @unittest.skipIf(PORTABILITY, "MPICH's launcher fails a job whose standard input no rank reads, by itself")
    def test_standard_input_under_ranks_is_refused(self):
        with open(FACEBOOK) as f:
            p = subprocess.run([MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--graph=-"], stdin=f,
                               capture_output=True, text=True, timeout=60, env=ENV)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("a pipe or standard input can be read by only one", p.stderr)
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        p = chatty(2, f"--graph={fifo}")  # nothing writes it: a rank reading it would wait forever
        self.assertIn("a pipe or standard input can be read by only one", p.stderr)
        # Standard input named on rank 1 alone, whose input the launcher made
        # /dev/null: the line said "unknown format".
        with open(FACEBOOK) as f:
            p = subprocess.run([MPIRUN, "-np", "1", CHATTY, "run", "--backend=cpu", f"--graph={FACEBOOK}", ":", "-np",
                                "1", CHATTY, "run", "--backend=cpu", "--graph=/dev/stdin"], stdin=f,
                               capture_output=True, text=True, timeout=60, env=ENV)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("rank 1: --graph=/dev/stdin: every rank reads the graph itself", p.stderr)

    def test_rank_zeros_unwritable_output_reaches_every_rank(self):
        p = chatty(2, "--graph=kron:10", f"--output={self.path('no/such/dir/out.txt')}")
        self.assertNotEqual(p.returncode, 0)
        errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
        self.assertEqual(len(errors), 1, p.stderr)
        self.assertIn("cannot write", errors[0])

    def test_more_ranks_than_vertices_is_refused(self):
        p = chatty(3, "--graph=grid:1x2")  # fails before any rank waits on another
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("fewer than the 3 ranks x 1 devices", p.stderr)


if __name__ == "__main__":
    main(Ranks, RankFaults)
