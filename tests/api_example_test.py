"""The library as its users link it: `cmake --install` the build's library
component into a scratch prefix, configure and build tests/api_example/
against it in a clean directory with find_package(ChattyGraph), run it
(BFS from an input id with --validate, then PageRank), and compare its
depths, in the input's ids, with `chatty run --output`'s.

    python3 tests/api_example_test.py BUILD_DIR CHATTY GRAPH"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    build, chatty, graph = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as d:
        prefix, src, out = os.path.join(d, "prefix"), os.path.join(d, "src"), os.path.join(d, "out")
        subprocess.run(["cmake", "--install", build, "--prefix", prefix, "--component", "library"], check=True,
                       capture_output=True)
        shutil.copytree(os.path.join(ROOT, "tests", "api_example"), src)
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        for cmd in (["cmake", "-S", src, "-B", out, *gen, f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"],
                    ["cmake", "--build", out]):
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"api_example_test: {' '.join(cmd[:2])} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
        p = subprocess.run([os.path.join(out, "api_example"), graph, "107"], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"api_example_test: the example failed ({p.returncode}): {p.stderr}")
        cli_out = os.path.join(d, "cli.txt")
        subprocess.run([chatty, "run", "--app=bfs", f"--graph={graph}", "--source=107", f"--output={cli_out}",
                        "--quiet"], check=True)
        with open(cli_out) as f:
            want = sorted(line.strip() for line in f if line.strip() and not line.startswith("#")
                          and not line.strip().endswith(" inf"))
        got = sorted(line.strip() for line in p.stdout.splitlines() if line.strip())
        if got != want:
            sys.exit(f"api_example_test: {len(got)} depths from the library, {len(want)} from the CLI; first "
                     f"differences: {[x for x in got if x not in set(want)][:5]}")
        print(f"api_example_test: built against the installed package, {len(got)} depths equal the CLI's; "
              f"{p.stderr.strip()}")


if __name__ == "__main__":
    main()
