#!/usr/bin/env python3
"""Scaling sweeps of `chatty run`: apps x graphs x devices x transports x
backends x ranks, each point repeated (median and spread kept) and
validated once; skipped points say why; an interrupted sweep resumes
without redoing finished points.

  python3 scripts/sweep.py run [SPEC.toml] --out DIR [--apps bfs,pr] [--graphs kron:18,grid:500x500]
                               [--devices 1,2,4] [--comms host,host_view] [--backends cpu] [--ranks 1] [--repeat 3]
  python3 scripts/sweep.py report DIR        # plots and report.md in DIR/report (run does this too)
  python3 scripts/sweep.py compare A B [--plot FILE]   # B / A per point, with the spread

DIR/results.jsonl has one line per point (every field of `chatty run
--json`, the machine, topology fingerprint and commit); DIR/results.csv is
the tidy table. A SPEC.toml holds a [sweep] table with the same keys:
apps, graphs, devices, comms, backends, ranks, repeat, launcher. Points
of several ranks start through the launcher (default mpirun: `mpirun -np
R chatty run ...`; srun gets `-n R`), with --comm between ranks (auto,
mpi_ring, mpi_put, mpi_alltoallv); the plots put ranks x devices on the
x axis, a line per transport and rank count.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import compare, points, report, runner  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def listed(kind):
    return lambda s: [kind(x) for x in s.split(",") if x]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run (or resume) a sweep, then write its report")
    r.add_argument("spec", nargs="?")
    r.add_argument("--out", required=True)
    r.add_argument("--chatty", default=os.path.join(ROOT, "build", "chatty"))
    for name, kind in (("apps", str), ("graphs", str), ("devices", int), ("comms", str), ("backends", str),
                       ("ranks", int)):
        r.add_argument("--" + name, type=listed(kind))
    r.add_argument("--repeat", type=int)
    r.add_argument("--launcher", help='what starts a point\'s ranks ("mpirun", "srun", "mpirun --oversubscribe")')
    rep = sub.add_parser("report", help="write DIR/report from DIR/results.jsonl")
    rep.add_argument("dir")
    c = sub.add_parser("compare", help="B / A per point")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--plot")
    a = ap.parse_args()
    if a.cmd == "report":
        print(report.write_report(a.dir))
        return 0
    if a.cmd == "compare":
        return compare.compare(a.a, a.b, a.plot)
    if not os.path.exists(a.chatty):
        sys.exit(f"sweep: no chatty binary at {a.chatty} (build first: ./scripts/build.sh)")
    spec = points.load_spec(a.spec, {k: getattr(a, k) for k in ("apps", "graphs", "devices", "comms", "backends",
                                                                 "ranks", "repeat", "launcher")})
    failures = runner.sweep(a.chatty, spec, a.out, ROOT)
    print(report.write_report(a.out))
    if failures:
        print(f"sweep: {failures} points failed or did not validate (see results.csv)", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
