"""Ranks in trouble: a file missing on one rank, a rank out of memory, a
rank that dies, one that stops answering, a thief that stalls after a
claim. Each job must end within its deadline plus a few seconds, every
rank non-zero, with one line that names the rank and the cause (a thief's
blocks are taken back and the job goes on while its rank still answers).
Run by mpi_test.py (--faults), alone: the tests time deadlines."""
import fcntl
import os
import signal
import subprocess
import termios
import time
import unittest

from mpi_support import ENV, FACEBOOK, MPIRUN, PORTABILITY, CHATTY, RankCase, run


class RankFaults(RankCase):
    def test_a_file_missing_on_one_rank_ends_the_job(self):
        line = self.one_rank_differs([f"--graph={FACEBOOK}"], [f"--graph={self.path('missing.txt')}"], (1, 1))
        self.assertIn("rank 1: ", line)
        self.assertIn("missing.txt: cannot open", line)

    def test_a_different_build_on_one_rank_is_refused(self):
        # Same flags, another build (here the same file with a byte more):
        # their collectives need not pair up, and such a job hung. A copy
        # of the same file runs.
        other, same = self.path("other_chatty"), self.path("same_chatty")
        for path, extra in ((other, b"x"), (same, b"")):
            with open(CHATTY, "rb") as f, open(path, "wb") as g:
                g.write(f.read() + extra)
            os.chmod(path, 0o755)
        args = ["run", "--backend=cpu", "--app=bfs", "--graph=grid:4x4"]
        p = run([MPIRUN, "-np", "1", CHATTY, *args, ":", "-np", "1", other, *args], timeout=60)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
        self.assertEqual(errors, ["chatty: error: rank 1 runs a different chatty build from rank 0's: every rank "
                                  "must run the same binary (or one built alike)"], p.stderr)
        p = run([MPIRUN, "-np", "1", CHATTY, *args, ":", "-np", "1", same, *args], timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_too_little_shared_memory_is_one_line(self):
        # Shared windows are files in /dev/shm, made without their pages:
        # where it could not hold them, a rank died of SIGBUS at its first
        # write and the job hung. The room is faked (the real case is a
        # small tmpfs mounted there).
        t0 = time.time()
        p = run([MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--app=bfs", "--graph=kron:16"], timeout=60,
                env=dict(ENV, CHATTY_FAULT_SHM_FREE_MB="1"))
        self.assertLess(time.time() - t0, 30)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
        self.assertEqual(len(errors), 1, p.stderr)
        self.assertRegex(errors[0], r"a shared window of the ranks needs \d+ MB in /dev/shm, which has 1 MB free")

    def test_a_usage_error_is_said_once(self):
        # Every rank meets a bad flag before MPI starts: one line, from
        # rank 0. Where only rank 1 has it (an MPMD launch), rank 1 names
        # itself, and rank 0, waiting for it in MPI_Init, is ended too
        # (under MPICH that launch hung).
        p = run([MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--app=bfz", "--graph=grid:4x4"], timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
        self.assertEqual(len(errors), 1, p.stderr)
        self.assertRegex(errors[0], r"^chatty: error: unknown app 'bfz' \(bc, bfs, [a-z, ]+\)$")
        # The ranks end together, each with the code: no abort, no banner of
        # the launcher's but for a non-zero exit.
        self.assertNotIn("MPI_ABORT", p.stderr)
        self.assertNotIn("MPI_Abort", p.stderr)
        line = self.one_rank_differs(["--graph=grid:4x4"], ["--graph=grid:4x4", "--bogus"], (1, 1))
        self.assertTrue(line.startswith("chatty: error: rank 1: unknown flag --bogus"), line)
        # Rank 1 says it before rank 0's start deadline (2 s) ends the job
        # with a line that names no cause.
        line = self.one_rank_differs(["--graph=grid:4x4", "--rank_timeout=2"],
                                     ["--graph=grid:4x4", "--rank_timeout=2", "--bogus"], (1, 1))
        self.assertTrue(line.startswith("chatty: error: rank 1: unknown flag --bogus"), line)

    def test_a_rank_running_another_command_is_refused(self):
        # An MPMD launch whose rank 1 runs `info`, `run --help` or a failing
        # `convert` while rank 0 runs `run`: rank 1 never started MPI, and
        # rank 0 waited for it in MPI_Init for good (MPICH; OpenMPI
        # too for `run --help`). Every rank now meets first.
        run_args = [CHATTY, "run", "--backend=cpu", "--app=bfs", "--graph=grid:4x4"]
        for other, said in (([CHATTY, "info", "grid:4x4"], "chatty info"), ([*run_args, "--help"], "chatty run --help"),
                            ([CHATTY, "convert", self.path("none.txt"), self.path("x.cgr")], "chatty convert")):
            t0 = time.time()
            p = run([MPIRUN, "-np", "1", *run_args, ":", "-np", "1", *other], timeout=60)
            self.assertLess(time.time() - t0, 30, said)
            self.assertEqual(p.returncode, 2, p.stderr)
            errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
            self.assertEqual(errors, [f"chatty: error: rank 1 runs `{said}`, not `chatty run` as rank 0 does: every "
                                      "rank of a launch must run the same command"], p.stderr)
        p = run([MPIRUN, "-np", "2", CHATTY, "info", "grid:4x4"], timeout=60)  # the same command on every rank runs
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.count("vertices     16"), 2, p.stdout)

    def test_a_rank_stopped_before_the_ranks_met_ends_the_job(self):
        # Stopped before MPI_Init: the others waited in MPI_Init (or the
        # first collective) for good, before any watchdog ran. Rank 0 says
        # so; where rank 0 is the one stopped, rank 1 does.
        args = [CHATTY, "run", "--backend=cpu", "--app=bfs", "--graph=grid:4x4", "--rank_timeout=2"]
        stopped = ["bash", "-c", 'kill -STOP $$; exec "$@"', "stopped", *args]
        for first, second, said in ((args, stopped, "chatty: error: not"), (stopped, args, "chatty: error: rank 1: not")):
            t0 = time.time()
            p = run([MPIRUN, "-np", "1", *first, ":", "-np", "1", *second], timeout=60)
            self.assertLess(time.time() - t0, 15)
            self.assertNotEqual(p.returncode, 0, p.stderr)
            errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
            self.assertEqual(errors, [f"{said} every rank started within 2 s: one stopped or hung before the ranks "
                                      "met (--rank_timeout=2)"], p.stderr)

    @unittest.skipIf(PORTABILITY, "a rank's own error takes the same path under any MPI (and ASan needs the "
                                  "address space a limit takes away)")
    def test_a_rank_out_of_memory_ends_the_job(self):
        # Rank 1 may allocate too little to run (a node short of memory):
        # its allocation fails after the ranks agreed on the graph, while
        # rank 0 waits for it in a collective or a ring. The limits step
        # through the places it fails (where they lie on this VM): the
        # graph's mapping, its rows, a shared window it cannot map (where
        # OpenMPI's osc sm would fail on that rank alone), and its devices'
        # arrays (where an error unwinding into a window's collective free
        # would wait for good). Each run finishes, or ends within the
        # deadline with one line naming rank 1.
        graph = self.path("k.cgr")
        run([CHATTY, "generate", "kron:20", graph], timeout=120)
        failed = 0
        for app, limits in (("pr", (300000, 580000, 620000, 660000, 700000)), ("bfs", (540000, 580000, 620000, 665000))):
            for limit_kb in limits:
                t0 = time.time()
                p = run([MPIRUN, "-np", "1", CHATTY, "run", "--backend=cpu", f"--app={app}", f"--graph={graph}", ":",
                         "-np", "1", "bash", "-c",
                         f"ulimit -v {limit_kb}; exec {CHATTY} run --backend=cpu --app={app} --graph={graph}"],
                        timeout=120)
                what = f"{app}, ulimit -v {limit_kb}: {p.stderr}"
                self.assertLess(time.time() - t0, 60, what)
                if p.returncode == 0:
                    continue
                failed += 1
                self.assertEqual(p.returncode, 1, what)
                errors = [l for l in p.stderr.splitlines() if l.startswith("chatty: error:")]
                self.assertEqual(len(errors), 1, what)
                self.assertRegex(errors[0], r"^chatty: error: rank 1[: ]", what)
        self.assertGreater(failed, 2, "the limits were not too small: the case tests nothing")

    LONG = "--repeat=100000"  # marks a long job's processes

    def long_job(self, *extra, app=("--app=pr", "--max_iters=1000000", "--tolerance=1e-30")):
        """A long job (PageRank by default, one run that never converges, so
        that a rank stopped in it is in a superstep) on 3 ranks (MPICH: 2),
        once every rank computes: (job, the ranks' pids in rank order)."""
        ranks = 2 if PORTABILITY else 3
        cmd = [MPIRUN, "-np", str(ranks), CHATTY, "run", "--backend=cpu", *app, "--graph=kron:12", self.LONG, *extra]
        job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
                               start_new_session=True)
        for _ in range(300):
            time.sleep(0.1)
            ps = run(["pgrep", "-f", "--", self.LONG]).stdout.split()
            kids = sorted(int(x) for x in ps if int(x) != job.pid and
                          run(["ps", "-o", "comm=", "-p", x]).stdout.strip() == "chatty")
            if len(kids) == ranks:
                time.sleep(2)
                return job, kids
        os.killpg(job.pid, signal.SIGKILL)
        self.fail("the ranks did not start")

    def ends(self, job, within, why):
        try:
            _, err = job.communicate(timeout=within)
        except subprocess.TimeoutExpired:
            os.killpg(job.pid, signal.SIGKILL)
            job.communicate()
            self.fail(why)
        self.assertNotEqual(job.returncode, 0)
        self.assertEqual(run(["pgrep", "-f", "--", self.LONG]).stdout.split(), [], "ranks left running")
        return err

    @unittest.skipIf(PORTABILITY, "the launcher's part, tested under OpenMPI's")
    def test_a_rank_that_dies_ends_the_job(self):
        job, ranks = self.long_job()
        os.kill(ranks[1], signal.SIGKILL)
        self.ends(job, 60, "the job hung after a rank died")

    def test_a_stopped_rank_is_named_and_ends_the_job(self):
        # SIGSTOP: alive to the launcher, silent to the others. On one node
        # the watchdog reads the stopped rank's words in place; by MPI calls
        # (--net=mpi) under MPICH a read of its window never returns, and a
        # second thread of the watchdog times it. BC has no supersteps: its
        # ranks each run a share of the sources.
        cases = [("auto", ("--app=pr", "--max_iters=1000000", "--tolerance=1e-30"), "superstep"),
                 ("auto", ("--app=bc", "--sources=64"), "its share of the work")]
        if PORTABILITY:
            cases.append(("mpi", ("--app=pr", "--max_iters=1000000", "--tolerance=1e-30"), "superstep"))
        for net, app, where in cases:
            job, ranks = self.long_job("--rank_timeout=3", f"--net={net}", app=app)
            stopped = ranks[-1]
            with open(f"/proc/{stopped}/environ", "rb") as f:  # the launcher names each process's rank
                env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
            rank_of = {stopped: int(env.get(b"OMPI_COMM_WORLD_RANK", env.get(b"PMI_RANK", b"-1")))}
            os.kill(stopped, signal.SIGSTOP)
            t0 = time.time()
            try:
                err = self.ends(job, 30, f"--net={net} {app}: the job hung after a rank stopped")
            finally:
                for sig in (signal.SIGKILL, signal.SIGCONT):
                    try:
                        os.kill(stopped, sig)
                    except ProcessLookupError:
                        pass
            self.assertLess(time.time() - t0, 15, net)
            lines = [l for l in err.splitlines() if "stopped answering" in l]
            self.assertTrue(lines, err)
            self.assertIn(f"rank {rank_of[stopped]} stopped answering", lines[0])
            self.assertIn(f"last in {where}", lines[0])

    @unittest.skipIf(PORTABILITY, "the watchdog's rule, the same under any MPI (MPICH runs 2 ranks here)")
    def test_ranks_stopped_together_are_named_together(self):
        # A node or its switch lost: the line named the first silent rank
        # alone, though the job lost two.
        job, ranks = self.long_job("--rank_timeout=3")
        rank_of = {}
        for pid in ranks:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
            rank_of[pid] = int(env[b"OMPI_COMM_WORLD_RANK"])
        stopped = [pid for pid in ranks if rank_of[pid] != 0]
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        try:
            err = self.ends(job, 30, "the job hung after two ranks stopped")
        finally:
            for pid in stopped:
                for sig in (signal.SIGKILL, signal.SIGCONT):
                    try:
                        os.kill(pid, sig)
                    except ProcessLookupError:
                        pass
        lines = [l for l in err.splitlines() if "stopped answering" in l]
        self.assertTrue(lines, err)
        self.assertIn("ranks 1, 2 stopped answering: no sign of rank 1 for ", lines[0])
        self.assertIn("; of rank 2 for ", lines[0])
        self.assertIn("last in superstep", lines[0])

    def run_thief_on_rank_0(self, stall_s, *args, timeout=120):
        """2 ranks running `chatty *args`, rank 0's first claim of the other
        rank's blocks stalling for stall_s: rank 0 alone, since on a loaded
        machine rank 1 may claim rank 0's blocks too, and its stall would be
        taken back as well. A claim needs rank 0 to end a phase's blocks
        while rank 1 still has some (its straggler pauses make that the rule,
        not a certainty), so a job in which the stall never came (chatty says
        when it does) is run again: the fault was not tried."""
        cmd = [MPIRUN, "-np", "1", "env", f"CHATTY_FAULT_THIEF_STALL_S={stall_s}", CHATTY, *args, ":", "-np", "1",
               CHATTY, *args]
        for _ in range(3):
            t0 = time.time()
            p = run(cmd, timeout=timeout)
            p.seconds = time.time() - t0
            if "chatty: fault injection: device 0 stalls" in p.stderr:
                return p
            # No stall: a job as any other, which must succeed before it is run again.
            self.assertEqual(p.returncode, 0, "a job without the stall failed: " + p.stdout + p.stderr)
        self.fail("rank 0 claimed no block of rank 1's in 3 jobs: " + p.stdout + p.stderr)

    def test_a_rank_stopped_as_the_job_ends_is_named(self):
        # Rank 0 stops once its results are out, before the ranks free their
        # windows together (a collective): rank 1 waits for it with its
        # watchdog still on, and names it, rather than waiting for good.
        env = dict(ENV, CHATTY_FAULT_STOP_AT_FINISH="0")
        marker = "--rank_timeout=2.5"  # this job's processes alone
        cmd = [MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--app=bfs", "--graph=kron:12", marker]
        t0 = time.time()
        job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               start_new_session=True)
        try:
            out, err = job.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            out, err = "", "the job hung after a rank stopped as it ended"
        finally:
            run(["pkill", "-CONT", "-f", "--", marker])
            run(["pkill", "-KILL", "-f", "--", marker])
        self.assertLess(time.time() - t0, 30, err)
        self.assertNotEqual(job.returncode, 0)
        self.assertIn("reached", out)  # rank 0's summary came first
        lines = [l for l in err.splitlines() if "stopped answering" in l]
        self.assertTrue(lines, f"exit {job.returncode} after {time.time() - t0:.1f} s, stderr:\n{err}")
        self.assertIn("rank 0 stopped answering", lines[0])

    def test_a_rank_stopped_while_writing_the_results_is_named_there(self):
        # Rank 0 writes its output into a pipe that nobody reads until it is
        # full, then stops: rank 1 names it with where it was (the line said
        # "last in superstep N", a run long over).
        fifo = self.path("out.fifo")
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open: rank 0's write blocks, not its open
        fcntl.fcntl(reader, fcntl.F_SETPIPE_SZ, 65536)  # the output (about 300 KB) overfills it on any kernel
        room = fcntl.fcntl(reader, fcntl.F_GETPIPE_SZ)
        marker = "--rank_timeout=2.5"
        cmd = [MPIRUN, "-np", "2", CHATTY, "run", "--backend=cpu", "--app=bfs", "--graph=kron:15", f"--output={fifo}",
               "--quiet", marker]
        job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
                               start_new_session=True)
        try:
            for _ in range(600):  # until the pipe is full: rank 0 waits in its write
                time.sleep(0.1)
                if int.from_bytes(fcntl.ioctl(reader, termios.FIONREAD, b"\0\0\0\0"), "little") >= room:
                    break
            else:
                self.fail("rank 0 never filled the pipe")
            writers = [int(x) for x in run(["pgrep", "-f", "--", marker]).stdout.split()
                       if run(["ps", "-o", "comm=", "-p", x]).stdout.strip().startswith("chatty")]
            rank0 = [w for w in writers if os.path.exists(f"/proc/{w}/fd") and
                     any(os.path.realpath(f"/proc/{w}/fd/{fd}") == os.path.realpath(fifo)
                         for fd in os.listdir(f"/proc/{w}/fd"))]
            self.assertEqual(len(rank0), 1, writers)
            os.kill(rank0[0], signal.SIGSTOP)
            err = self.ends(job, 30, "the job hung after rank 0 stopped while writing")
        finally:
            run(["pkill", "-CONT", "-f", "--", marker])
            run(["pkill", "-KILL", "-f", "--", marker])
            os.close(reader)
        lines = [l for l in err.splitlines() if "stopped answering" in l]
        self.assertTrue(lines, err)
        self.assertIn("rank 0 stopped answering", lines[0])
        self.assertIn("last in the time after its run (gathering, validating or writing results)", lines[0])

    STALLED = ["run", "--backend=cpu", "--graph=kron:14", "--straggler=1:300", "--migrate_threshold=0"]

    @unittest.skipIf(PORTABILITY, "the owners' and thieves' protocol is the same under any MPI")
    def test_a_stalled_thiefs_blocks_are_taken_back_and_the_job_goes_on(self):
        # A device that claimed blocks of another rank's stalls for 6 s
        # after its first claim, its rank alive: the owner waits
        # --rank_timeout (4 s) for them, takes them back and computes them
        # itself (RGraph's ownership rule); the thief, when it wakes, finds
        # its claim gone and neither writes back nor counts it. The job
        # ends as a run without the stall does. Rank 1's device straggles,
        # so rank 0's claims its blocks.
        for app, extra in (("pr", []), ("sssp", ["--delta=100000"])):  # a gather's claims, and a push step's
            ref, got = self.path(f"{app}.ref"), self.path(f"{app}.got")
            p = run([MPIRUN, "-np", "2", CHATTY, *self.STALLED, f"--app={app}", *extra, f"--output={ref}"])
            self.assertEqual(p.returncode, 0, p.stderr)
            p = self.run_thief_on_rank_0(6, *self.STALLED, f"--app={app}", *extra, "--rank_timeout=4", "--validate",
                                         f"--output={got}")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("PASS", p.stdout)
            lines = [l for l in p.stderr.splitlines() if "taken back" in l]
            self.assertEqual(len(lines), 1, p.stdout + p.stderr)
            self.assertIn("rank 1: blocks of device 1 claimed by device 0 (rank 0) not done within 4 s", lines[0])
            self.assert_same(app, ref, got, f"{app} with a thief's blocks taken back")

    @unittest.skipIf(PORTABILITY, "the owners' and thieves' protocol is the same under any MPI")
    def test_a_stalled_thief_is_named_and_ends_the_job(self):
        # The same thief stalled for good: its owner takes its blocks back
        # and goes on, but the thief's rank never finishes the superstep, so
        # a deadline later the owner's watchdog names it and ends the job.
        p = self.run_thief_on_rank_0(120, *self.STALLED, "--app=pr", "--rank_timeout=2", timeout=90)
        self.assertLess(p.seconds, 30, p.stderr)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("rank 1: blocks of device 1 claimed by device 0 (rank 0) not done within 2 s: taken back",
                      p.stderr)
        lines = [l for l in p.stderr.splitlines() if "stalled thief" in l]
        self.assertTrue(lines, p.stderr)
        self.assertIn("chatty: error: rank 0 stalled in superstep", lines[0])
