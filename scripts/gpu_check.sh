#!/usr/bin/env bash
# The GPU check, for a machine with a GPU, nvcc and CMake (no network needed):
#   scripts/gpu_check.sh OUTDIR
# builds a Release tree with CUDA (build-gpu/), runs the GPU tests (ctest
# label gpu: every app on P = 1..4 devices against the CPU backend),
# compute-sanitizer memcheck and racecheck on small graphs, the GPU
# benchmarks, and writes everything into OUTDIR (results.txt is the summary).
# Libraries the machine lacks (gflags, gtest, numa, nlohmann-json) may be
# unpacked Debian packages under $CHATTY_DEPS (scripts/fetch_gpu_deps.sh).
# STEPS="build tests sanitizer bench" (the default) picks what runs, so a
# machine with a per-command time limit can take it in several calls that
# reuse the build tree; results.txt is appended to.
set -uo pipefail
OUT=${1:?usage: scripts/gpu_check.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SUMMARY=$OUT/results.txt
BUILD=${BUILD_DIR:-$ROOT/build-gpu}
STEPS=${STEPS:-build tests sanitizer bench}
want() { [[ " $STEPS " == *" $1 "* ]]; }
note() { echo "$*" | tee -a "$SUMMARY"; }
step() {  # name, command...: runs it, logs to OUT/name.log, records pass/fail
  local name=$1; shift
  local t0=$SECONDS
  if "$@" >"$OUT/$name.log" 2>&1; then note "PASS $name ($((SECONDS - t0)) s)"; else note "FAIL $name ($((SECONDS - t0)) s, see $name.log)"; FAILED=1; fi
}
FAILED=0

nvidia-smi -L >"$OUT/gpus.txt" 2>&1 || true
note "gpu_check $(date -u +%FT%TZ) on $(head -1 "$OUT/gpus.txt")"
note "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"

CMAKE_EXTRA=()
if [[ -n "${CHATTY_DEPS:-}" ]]; then
  D=$CHATTY_DEPS
  CMAKE_EXTRA+=("-DCMAKE_PREFIX_PATH=$D/usr;$D/usr/lib/x86_64-linux-gnu/cmake" "-DCMAKE_INCLUDE_PATH=$D/usr/include"
    "-DCMAKE_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu")
  export LD_LIBRARY_PATH="$D/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
fi
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
if want build; then
step configure cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DCHATTY_NATIVE=OFF \
  -DCMAKE_CUDA_ARCHITECTURES="80;90" "${CMAKE_EXTRA[@]}"
step build cmake --build "$BUILD" -j "$(nproc)"
fi
if [[ ! -x "$BUILD/chatty" ]]; then note "no binary; stopping"; exit 1; fi
if want tests; then
step topo "$BUILD/chatty" topo --bench
cp "$OUT/topo.log" "$OUT/topology.txt" 2>/dev/null || true
step gpu_tests ctest --test-dir "$BUILD" -L gpu --output-on-failure -j 1
grep -E "tests passed|tests failed|Skipped" "$OUT/gpu_tests.log" | tee -a "$SUMMARY"
step cpu_tests ctest --test-dir "$BUILD" -LE gpu -E "output_vs_scipy_networkx" --output-on-failure -j "$(nproc)"
fi

# compute-sanitizer on small graphs: every app, P=1 and P=3 virtual devices.
if ! want sanitizer; then
  :
elif command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    for app in bfs sssp wcc pr; do
      for p in 1 3; do
        step "sanitizer_${tool}_${app}_P$p" compute-sanitizer --tool "$tool" --error-exitcode 9 \
          "$BUILD/chatty" run --backend=cuda --app=$app --graph=kron:12 --devices=$p --comm=p2p --validate
      done
    done
  done
else
  note "SKIP compute-sanitizer (not installed)"
fi

want bench && step bench python3 "$ROOT/scripts/bench_gpu.py" --build "$(realpath --relative-to="$ROOT" "$BUILD")" \
  --json "$OUT/bench_gpu.json"
want bench && cat "$OUT/bench.log" >>"$SUMMARY"
note "overall: $([[ $FAILED == 0 ]] && echo PASS || echo FAIL)"
exit $FAILED
