#!/usr/bin/env bash
# Sets up a fresh machine, builds, installs the Python package, and runs the
# main job: all five apps on a built-in Kronecker graph (default kron:20),
# validated, as a table.
#   GRAPH=kron:22 ./scripts/quickstart.sh     # another graph or file
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build=${BUILD_DIR:-build}
# Only what the main job and the Python package need: `chatty` and the
# package's module, in one build (the package installs from it, so nothing
# is compiled twice). CUDA is compiled for the GPUs this machine has, for
# CUDA_ARCH when asked (CUDA_ARCH=90), or not at all; an existing build
# keeps its own choice. The tests build in the test command.
defs=(-DCHATTY_PYTHON=ON -DCHATTY_GTESTS=OFF)
if [ ! -f "$build/CMakeCache.txt" ]; then
  if [ -n "${CUDA_ARCH:-}" ]; then
    defs+=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH")
  elif nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    defs+=(-DCMAKE_CUDA_ARCHITECTURES=native)
  else
    defs+=(-DCHATTY_CUDA=OFF)
  fi
fi
BUILD_DIR=$build TARGET="chatty _core" ./scripts/build.sh "${defs[@]}"
# The Python package into this Python (PYTHON_PACKAGE=0 skips it), from
# the build above: pip configures the same tree with the same options and
# finds the module built.
if [ "${PYTHON_PACKAGE:-1}" = 1 ]; then
  py=${PYTHON:-python3}
  werror=$(sed -n 's/^CHATTY_WERROR:BOOL=//p' "$build/CMakeCache.txt")
  pipargs=(install -q --no-build-isolation -C build-dir="$build" -C cmake.define.CHATTY_WERROR="${werror:-ON}"
           -C cmake.define.CHATTY_GTESTS=OFF .)
  "$py" -m pip "${pipargs[@]}" 2>/dev/null || "$py" -m pip "${pipargs[@]}" --break-system-packages
  "$py" -c "import chattygraph as cg; print('python      chattygraph', cg.__version__, 'installed; apps:', ', '.join(cg.apps()))"
fi
graph=${GRAPH:-kron:20}
bin=$build/chatty
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== ChattyGraph main job on $graph ($(nproc) cores)"
# Build the graph once as .cgr so each app loads it in place.
if [[ "$graph" == *:* ]]; then
  "$bin" generate "$graph" "$tmp/g.cgr" >/dev/null
  input="$tmp/g.cgr"
else
  input="$graph"
fi
for app in bfs sssp pr wcc kcore; do
  # k-core needs an undirected graph: a directed file is symmetrized for it
  # (the generated graphs are undirected already).
  extra=() && [[ $app == kcore ]] && extra=(--undirected)
  "$bin" run --app=$app --graph="$input" "${extra[@]}" --repeat=3 --validate --json --quiet | tail -n 1 > "$tmp/$app.json"
done
python3 - "$tmp" "$graph" <<'PY'
import json, sys
tmp, graph = sys.argv[1], sys.argv[2]
rows = [json.load(open(f"{tmp}/{a}.json")) for a in ["bfs", "sssp", "pr", "wcc", "kcore"]]
r0 = rows[0]
print(f"graph {graph}: {r0['vertices']:,} vertices, {r0['edges']:,} edges; backend {r0['backend']}, {r0['threads']} threads")
def result(r):
    s = r["summary"]
    if "top" in s:
        return "top vertex %d (rank %.3g)" % (s["top"][0]["vertex"], s["top"][0]["rank"])
    if "degeneracy" in s:
        return "degeneracy %d (%d vertices in the top core)" % (s["degeneracy"], s["top_core_vertices"])
    if "components" in s:
        return "%d components, largest %d" % (s["components"], s["largest"])
    return "reached %d, max %s %d" % (s["reached"], "depth" if "max_depth" in s else "distance",
                                      s.get("max_depth", s.get("max_distance", 0)))
print(f"{'app':6} {'compute (ms)':>13} {'iterations':>11} {'GTEPS':>8} {'validated':>10}  result")
for r in rows:
    print(f"{r['app']:6} {r['compute_s']*1e3:13.2f} {r['iterations']:11d} {r['gteps']:8.3f} {r['validated']:>10}  {result(r)}")
bad = [r["app"] for r in rows if r["validated"] != "pass"]
sys.exit(1 if bad else 0)
PY
