#!/usr/bin/env python3
"""ChattyGraph's kernels against GAP's on the same file, measured in one run
(rounds interleaved; this VM's timings move 20-40 % between runs).

GAP is built from its public source (https://github.com/sbeamer/gapbs,
`make`), and its directory given with --gap. Each graph is written once as
an edge list (GAP reads it with -s, symmetrized) and as .cgr (ours).

  python3 scripts/bench_gap.py --gap ~/gapbs [--apps tc] [--graphs kron:20 grid:1000x1000 road:1000x1000 FILE]
                               [--rounds 3]

Prints per app and graph our median compute time, GAP's median trial time,
and ours / GAP's as the median and range over rounds. The app `load`
times loading the edge list on each side instead (GAP's converter: its
read and build times; ours: `chatty info`'s load time, the same work:
parse, symmetrize, sort, dedupe) and each side's peak memory (the
process's maximum resident set)."""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

GAP_KERNEL = {"tc": "tc", "bc": "bc", "bfs": "bfs", "sssp": "sssp", "pr": "pr", "wcc": "cc"}
# GAP's bc -i 4 sums over 4 sources a trial; ours over --sources=4: random
# ones on each side, or with --source that one four times on both (a
# grid's level count, BC's cost, depends on where its source is).
# PageRank runs 20 iterations on both sides: GAP's pr is Gauss-Seidel
# (8 iterations to an L1 change of 1e-4 on kron:20), ours Jacobi, which
# devices that exchange their values need (10), so the kernels are
# compared per iteration.
GAP_ARGS = {"bc": ["-i", "4"], "pr": ["-i", "20", "-t", "0"]}
OUR_ARGS = {"bc": ["--sources=4"], "pr": ["--max_iters=20", "--tolerance=1e-30"]}


# BFS and SSSP start from one vertex on both sides (GAP's -r; without it
# GAP draws a random source per trial).
ROOTED = ("bfs", "sssp")


def ours(chatty, cgr, app, repeat, source):
    args = OUR_ARGS.get(app, [])
    if app in ROOTED and source is not None:
        args = [*args, f"--source={source}"]
    if app == "bc" and source is not None:
        args = [f"--sources={','.join([str(source)] * 4)}"]
    p = subprocess.run([chatty, "run", f"--app={app}", f"--graph={cgr}", f"--repeat={repeat}", "--json", "--quiet",
                        "--backend=cpu", *args], capture_output=True, text=True)
    # PageRank's 20 iterations end "not converged" (exit 4), as meant.
    if p.returncode not in ((0, 4) if app == "pr" else (0,)):
        # BC refuses a graph whose path counts pass a double (a large grid): a row that says so
        if app == "bc" and "overflow" in p.stderr:
            return None
        raise SystemExit(f"chatty failed ({p.returncode}): {p.stderr}")
    j = json.loads(p.stdout.strip().splitlines()[-1])
    # A run that relabels its graph first (PageRank, by degree) pays for it
    # as GAP's tc pays for its own relabelling inside the timed kernel:
    # GAP's pr does not relabel, so ours' relabelling counts in its time.
    return j["compute_s"] + j.get("reorder_s", 0.0)


def gap(gapdir, el, app, repeat, source):
    rooted = ["-r", str(source)] if (app in ROOTED or app == "bc") and source is not None else []
    out = subprocess.run([os.path.join(gapdir, GAP_KERNEL[app]), "-f", el, "-s", "-n", str(repeat),
                          *GAP_ARGS.get(app, []), *rooted], check=True, capture_output=True, text=True).stdout
    times = [float(t) for t in re.findall(r"Trial Time:\s+([0-9.]+)", out)]
    return statistics.median(times)


def peak_run_rss(args):
    """Runs args; (stdout, the process's peak resident bytes)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(args, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        out.seek(0), err.seek(0)
        if status != 0:
            raise SystemExit(f"{args[0]} failed ({status}): {err.read().decode()}")
        return out.read().decode(), usage.ru_maxrss * 1024


def load_ours(chatty, el):
    """(load seconds, peak resident bytes, stored edges)."""
    out, peak = peak_run_rss([chatty, "info", "--json", "--undirected", f"--graph={el}"])
    info = json.loads(out.strip().splitlines()[-1])
    return info["load_s"], peak, info["edges"]


def load_gap(gapdir, el):
    out, peak = peak_run_rss([os.path.join(gapdir, "converter"), "-f", el, "-s", "-b", os.devnull])
    read = float(re.search(r"Read Time:\s+([0-9.]+)", out).group(1))
    build = float(re.search(r"Build Time:\s+([0-9.]+)", out).group(1))
    return read + build, peak


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gap", required=True, help="a built gapbs directory")
    ap.add_argument("--chatty", default="build/chatty")
    ap.add_argument("--apps", nargs="+", default=["tc"])
    ap.add_argument("--graphs", nargs="+", default=["kron:20", "grid:1000x1000"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=1, help="runs per round and side (median)")
    ap.add_argument("--source", type=int, default=None,
                    help="BFS's and SSSP's source on both sides, and BC's four (a position: the files' ids are "
                         "0..n-1); default: GAP's random ones against ours")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        for spec in a.graphs:
            el, cgr = os.path.join(d, "g.el"), os.path.join(d, "g.cgr")
            if ":" in spec and not os.path.exists(spec):
                subprocess.run([a.chatty, "generate", spec, el], check=True, capture_output=True)
            else:
                subprocess.run([a.chatty, "convert", spec, el, "--undirected"], check=True, capture_output=True)
            if any(app != "load" for app in a.apps):  # loading reads the edge list only
                subprocess.run([a.chatty, "convert", el, cgr, "--undirected"], check=True, capture_output=True)
            # A weighted generator's SSSP runs on its own weights on both
            # sides (.wel for GAP, a weighted .cgr for us), not on weights
            # each side makes up.
            wel, wcgr = os.path.join(d, "g.wel"), os.path.join(d, "gw.cgr")
            weighted = spec.startswith("road:") and "sssp" in a.apps
            if weighted:
                subprocess.run([a.chatty, "generate", spec, wel], check=True, capture_output=True)
                subprocess.run([a.chatty, "convert", wel, wcgr, "--undirected"], check=True, capture_output=True)
            for app in a.apps:
                if app == "load":
                    compare_loading(a, spec, el)
                    continue
                files = (wel, wcgr) if weighted and app == "sssp" else (el, cgr)
                mine, theirs = [], []
                for _ in range(a.rounds):
                    theirs.append(gap(a.gap, files[0], app, a.repeat, a.source))
                    mine.append(ours(a.chatty, files[1], app, a.repeat, a.source))
                if None in mine:
                    print(f"{app:5} {spec:22} ours refused (path counts beyond a double); GAP "
                          f"{statistics.median(theirs):8.3f} s", flush=True)
                    continue
                ratios = [m / t for m, t in zip(mine, theirs)]
                print(f"{app:5} {spec:22} ours {statistics.median(mine):8.3f} s  GAP {statistics.median(theirs):8.3f} s  "
                      f"ours/GAP {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})", flush=True)


def compare_loading(a, spec, el):
    mine, theirs = [], []
    for _ in range(a.rounds):
        theirs.append(load_gap(a.gap, el))
        mine.append(load_ours(a.chatty, el))
    ratios = [m[0] / t[0] for m, t in zip(mine, theirs)]
    peak_m, peak_t = max(m[1] for m in mine), max(t[1] for t in theirs)
    edges = mine[0][2]
    print(f"load  {spec:22} ours {statistics.median(m[0] for m in mine):8.3f} s  "
          f"GAP {statistics.median(t[0] for t in theirs):8.3f} s  ours/GAP {statistics.median(ratios):.2f} "
          f"({min(ratios):.2f}-{max(ratios):.2f});  peak ours {peak_m / 1e6:.0f} MB "
          f"({peak_m / edges:.1f} B/edge)  GAP {peak_t / 1e6:.0f} MB ({peak_t / edges:.1f} B/edge)", flush=True)


if __name__ == "__main__":
    main()
