"""Every ```sh and ```python block of the README and docs/*.md runs, as
written, in a scratch directory where `build/chatty` is the chatty under
test and the files the examples name are there: ego-Facebook as shipped,
the others made by `chatty generate` in the named format (SNAP text,
DIMACS, Matrix Market, gzip). Generator scales are capped (kron:12,
grid:200x200) to keep the test short; nothing else is changed. A command
that cannot run on a machine without a GPU, a cluster or a network is
named in NOT_HERE with the reason; any other command that fails, and any
NOT_HERE entry that no longer matches a command, fails the test.

    python3 tests/docs_examples_test.py build/chatty"""

import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHATTY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "chatty")
BUILD = os.path.dirname(CHATTY)
FACEBOOK = os.path.join(BUILD, "tests", "data", "facebook_combined.txt")

# A command matching one of these is not run here, for the reason given.
NOT_HERE = {
    r"^\./scripts/(quickstart|test)\.sh$": "the README's two commands: CI runs them on a fresh clone",
    r"^pip install \.": "installs the package: the quickstart does, and this test runs the built one",
    r"--backend=cuda|--comm=p2p|gpu_check\.sh (pack|run)|bench_gpu\.py|topo --bench": "needs a GPU",
    r"--hostfile|^srun ": "needs a cluster of nodes",
    r"fetch\.py get|--graph=livejournal": "downloads a data set (no network in CI)",
}

# name -> (generator spec, format written, gzip it)
MADE = {
    "soc-LiveJournal1.txt.gz": ("urand:12", "txt", True),  # every id up to 4095 has edges: 107 is one
    "web-Google.txt.gz": ("kron:11", "txt", True),
    "com-orkut.ungraph.txt.gz": ("kron:12", "txt", True),
    "USA-road-d.USA.gr": ("grid:60x60", "gr", False),
    "road.mtx": ("grid:60x60", "mtx", False),
    "edges.txt": ("kron:10", "txt", False),
}


def blocks():
    """(file:line, language, text) of every sh and python block."""
    for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        lang, buf, start = None, [], 0
        for i, line in enumerate(open(path), 1):
            fence = re.match(r"^```(\w*)", line)
            if fence and lang is None:
                lang, buf, start = fence.group(1) or "-", [], i
            elif fence:
                if lang in ("sh", "python"):
                    yield f"{os.path.relpath(path, ROOT)}:{start}", lang, "".join(buf)
                lang = None
            elif lang is not None:
                buf.append(line)


def commands(text):
    """A shell block's commands: continued lines joined, comment lines left out."""
    out, cur = [], ""
    for line in text.splitlines():
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        cur += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            out.append(cur.strip())
            cur = ""
    return out


def smaller(cmd):
    cmd = re.sub(r"kron:(\d+)", lambda m: f"kron:{min(int(m.group(1)), 12)}", cmd)
    return re.sub(r"grid:(\d+)x(\d+)", lambda m: f"grid:{min(int(m.group(1)), 200)}x{min(int(m.group(2)), 200)}",
                  cmd)


def scratch():
    d = tempfile.mkdtemp(prefix="chatty-docs-")
    os.symlink(BUILD, os.path.join(d, "build"))
    for sub in ("scripts", "sweeps", "datasets", "python", "tests"):
        os.symlink(os.path.join(ROOT, sub), os.path.join(d, sub))
    shutil.copy(FACEBOOK, d)
    for name, (spec, fmt, gz) in MADE.items():
        plain = os.path.join(d, f"made.{fmt}")
        subprocess.run([CHATTY, "generate", spec, plain], check=True, capture_output=True)
        target = os.path.join(d, name)
        if gz:
            with open(plain, "rb") as src, gzip.open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(plain)
        else:
            os.replace(plain, target)
    return d


def main():
    d = scratch()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(BUILD, "python"), os.path.join(ROOT, "python")]),
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1", XDG_CACHE_HOME=os.path.join(d, ".cache"),
               MPLBACKEND="Agg")
    used, failed, ran, skipped = set(), [], 0, 0
    for where, lang, text in blocks():
        runs = commands(text) if lang == "sh" else [text]
        for cmd in runs:
            reason = next((k for k in NOT_HERE if lang == "sh" and re.search(k, cmd)), None)
            if reason:
                used.add(reason)
                skipped += 1
                print(f"not here  {where}: {cmd.splitlines()[0][:90]} ({NOT_HERE[reason]})")
                continue
            argv = ["bash", "-o", "pipefail", "-c", smaller(cmd)] if lang == "sh" else [sys.executable, "-c", text]
            p = subprocess.run(argv, cwd=d, env=env, capture_output=True, text=True, timeout=300)
            ran += 1
            first = cmd.splitlines()[0][:90]
            if p.returncode != 0:
                failed.append(where)
                print(f"FAIL      {where}: {first}: exit {p.returncode}\n{p.stderr[-2000:]}")
            else:
                print(f"ok        {where}: {first}")
    stale = set(NOT_HERE) - used
    for k in stale:
        print(f"FAIL      NOT_HERE entry {k!r} matches no command of the docs: remove it")
    shutil.rmtree(d, ignore_errors=True)
    print(f"{ran} ran, {skipped} not here, {len(failed)} failed")
    sys.exit(1 if failed or stale or ran == 0 else 0)


if __name__ == "__main__":
    main()
