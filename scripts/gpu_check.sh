#!/usr/bin/env bash
# The GPU check, in steps that each fit a 10-minute command on a machine that
# may be fresh every time (so each step builds what it needs, quickly: only
# its targets, only the GPU's architecture).
#   scripts/gpu_check.sh plan          # prints the steps and the commands
#   scripts/gpu_check.sh STEP OUTDIR   # runs one step
# Every step writes OUTDIR/results.txt (one page: PASS/FAIL lines and the
# figures) and OUTDIR/logs.tar.gz (every log), so a machine that hands back
# only a few files still returns everything. No nvcc, no compute-sanitizer
# for a sanitizer step, or GPU tests that all skipped is FAIL, never PASS.
# Libraries the machine lacks (gflags, gtest, numa, nlohmann-json, zlib,
# zstd, bzip2) come from unpacked Debian packages under CHATTY_DEPS, an
# absolute path (scripts/fetch_gpu_deps.sh makes it).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STEPS="build tests memcheck racecheck initcheck synccheck bench-pr bench-apps bench-virtual ncu"

plan() {
  cat <<PLAN
GPU check plan: one command per step, each under 10 minutes on a fresh machine
(build ~3-5 min of it). Carry the dependency folder made here with
  scripts/fetch_gpu_deps.sh .deps          (.deps is ignored by git)
then run, each as its own device command with carry [".deps"]:
PLAN
  for s in $STEPS; do
    echo "  CHATTY_DEPS=\$PWD/.deps scripts/gpu_check.sh $s \$OUT"
  done
  cat <<PLAN
Steps: build (configure + every target + topo --bench), tests (ctest -L gpu:
every app x P=1..4 x transports x load balance against the CPU), memcheck /
racecheck / initcheck / synccheck (compute-sanitizer, every app, P=1 and 3),
bench-pr / bench-apps / bench-virtual (scripts/bench_gpu.py parts, each
result validated), ncu (a profile of each app's slowest kernel).
PLAN
}

[[ "${1:-}" == plan ]] && { plan; exit 0; }
STEP=${1:?usage: scripts/gpu_check.sh plan | STEP OUTDIR (steps: $STEPS)}
OUT=${2:?usage: scripts/gpu_check.sh STEP OUTDIR}
[[ " $STEPS " == *" $STEP "* ]] || { echo "gpu_check: unknown step '$STEP' (steps: $STEPS)"; exit 2; }
mkdir -p "$OUT/logs"
OUT=$(cd "$OUT" && pwd)
SUMMARY=$OUT/results.txt
BUILD=${BUILD_DIR:-$ROOT/build-gpu}
FAILED=0
note() { echo "$*" | tee -a "$SUMMARY"; }
fail() { note "FAIL $*"; FAILED=1; }
finish() {
  note "overall ($STEP): $([[ $FAILED == 0 ]] && echo PASS || echo FAIL)"
  tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$OUT/logs"
  exit $FAILED
}
step() {  # name, command...: runs it, logs to logs/name.log, records pass/fail
  local name=$1; shift
  local t0=$SECONDS
  if "$@" >"$OUT/logs/$name.log" 2>&1; then note "PASS $name ($((SECONDS - t0)) s)"; else fail "$name ($((SECONDS - t0)) s, see logs/$name.log)"; fi
}

nvidia-smi -L >"$OUT/logs/gpus.txt" 2>&1 || echo "no GPU listed (nvidia-smi missing or failed)" >"$OUT/logs/gpus.txt"
note "gpu_check $STEP $(date -u +%FT%TZ) on $(head -1 "$OUT/logs/gpus.txt")"
note "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1); commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! command -v nvcc >/dev/null; then
  fail "nvcc not found: the CUDA backend cannot be built"
  finish
fi

CMAKE_EXTRA=()
if [[ -n "${CHATTY_DEPS:-}" ]]; then
  [[ "$CHATTY_DEPS" == /* && -d "$CHATTY_DEPS" ]] || { fail "CHATTY_DEPS=$CHATTY_DEPS is not an absolute path to a folder"; finish; }
  D=$CHATTY_DEPS
  CMAKE_EXTRA+=("-DCMAKE_PREFIX_PATH=$D/usr;$D/usr/lib/x86_64-linux-gnu/cmake" "-DCMAKE_INCLUDE_PATH=$D/usr/include"
    "-DCMAKE_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu")
  export LD_LIBRARY_PATH="$D/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
fi
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
ARCH=${ARCH:-90}
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
case $STEP in
  build) TARGETS=(all) ;;
  tests) TARGETS=(chatty chatty_gpu_tests) ;;
  bench-*) TARGETS=(chatty chatty_copy_bench) ;;
  *) TARGETS=(chatty) ;;
esac
if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
  # Warnings are not fatal here: the host compiler may not be the GCC the
  # project is checked with.
  step configure cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DCHATTY_NATIVE=OFF \
    -DCHATTY_WERROR=OFF -DCMAKE_CUDA_ARCHITECTURES="$ARCH" "${CMAKE_EXTRA[@]}"
fi
step build cmake --build "$BUILD" -j "$(nproc)" --target "${TARGETS[@]}"
[[ -x "$BUILD/chatty" ]] || { fail "no chatty binary"; finish; }
grep -q "CHATTY_HAVE_CUDA:INTERNAL=ON\|CMAKE_CUDA_COMPILER:.*nvcc" "$BUILD/CMakeCache.txt" ||
  fail "the build has no CUDA backend (CMake did not enable CUDA)"

sanitize() {  # tool: every app on a small graph, one and three virtual devices
  command -v compute-sanitizer >/dev/null || { fail "compute-sanitizer not found: $1 cannot run"; return; }
  local extra=()
  [[ $1 == racecheck || $1 == synccheck ]] && extra=(--racecheck-report all)
  [[ $1 != racecheck ]] && extra=()
  for app in bfs sssp wcc pr; do
    for p in 1 3; do
      step "${1}_${app}_P$p" compute-sanitizer --tool "$1" "${extra[@]}" --error-exitcode 9 \
        "$BUILD/chatty" run --backend=cuda --app=$app --graph=kron:10 --devices=$p --comm=p2p --validate
    done
  done
}

case $STEP in
  build)
    step topo "$BUILD/chatty" topo --bench
    cp "$OUT/logs/topo.log" "$OUT/topology.txt" 2>/dev/null || true
    step smoke "$BUILD/chatty" run --backend=cuda --app=bfs --graph=kron:14 --validate
    ;;
  tests)
    # Every gpu-labelled test: the GoogleTest suite and the CLI and SciPy
    # checks on --backend=cuda. All skipped means no GPU was used: FAIL; the
    # tests that skip on one GPU (NCCL across GPUs) are listed.
    step gpu_tests ctest --test-dir "$BUILD" -L gpu --output-on-failure -j 1
    total=$(grep -oE "out of [0-9]+" "$OUT/logs/gpu_tests.log" | tail -1 | grep -oE "[0-9]+")
    skipped=$(grep -c "(Skipped)\|\*\*\*Skipped" "$OUT/logs/gpu_tests.log" || true)
    grep -E "tests passed|tests failed" "$OUT/logs/gpu_tests.log" | tail -1 | tee -a "$SUMMARY"
    note "gpu tests: ${total:-0} run, $skipped skipped"
    grep -E "SKIPPED|Skipped" "$OUT/logs/gpu_tests.log" | head -20 >>"$SUMMARY"
    [[ ${total:-0} -gt 0 && ${total:-0} -gt $skipped ]] || fail "every GPU test skipped or none ran (${total:-0} run, $skipped skipped)"
    ;;
  memcheck | racecheck | initcheck | synccheck) sanitize "$STEP" ;;
  bench-pr | bench-apps | bench-virtual)
    step "$STEP" python3 "$ROOT/scripts/bench_gpu.py" --build "$BUILD" --part "${STEP#bench-}" --json "$OUT/$STEP.json"
    sed -n '/^---/,$p' "$OUT/logs/$STEP.log" >>"$SUMMARY"
    ;;
  ncu)
    if ! command -v ncu >/dev/null; then
      fail "ncu not found"
    else
      for app in bfs sssp wcc pr; do
        step "ncu_$app" ncu --clock-control none --set basic -k regex:. --launch-count 40 \
          "$BUILD/chatty" run --backend=cuda --app=$app --graph=kron:20
        grep -E "^  [a-z_].*\(|Duration|Memory Throughput|Achieved Occupancy" "$OUT/logs/ncu_$app.log" |
          head -60 >"$OUT/ncu_$app.txt" || true
      done
    fi
    ;;
esac
finish
