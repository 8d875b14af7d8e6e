#!/usr/bin/env bash
# The whole GPU check as one command that fits a 10-minute device call:
#   scripts/gpu_check.sh pack [DIR]   # here: build for sm_90, pack binaries + libraries in DIR (.gpu)
#   scripts/gpu_check.sh run [OUT]    # there: every phase, under one deadline, into OUT (default $OUT)
#   scripts/gpu_check.sh plan         # the device call and each phase's budget
# GPU_CHECK_SKIP="variants bench_virtual ..." leaves phases out (a rerun
# after a fix); GPU_CHECK_VARIANTS=gather,tc times only the variants whose
# flag contains one of those words.
# Each phase runs under its own timeout, cut to what is left of the deadline
# (GPU_CHECK_BUDGET seconds, 480 by default), and appends one line to
# OUT/results.txt as it ends, so a run that is cut off still reports. Every
# log goes into OUT/logs.tar.gz; the table is printed last. A phase is PASS,
# FAIL (with the reason), MISSED (ran, figures valid, a target not met) or
# SKIP (no time left, or the machine cannot run the tool: said why). No GPU
# is FAIL, never PASS.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

plan() {
  cat <<'PLAN'
Here (no GPU needed; 2-15 min on 2 cores the first time):
  scripts/gpu_check.sh pack .gpu        # sm_90 chatty, chatty_gpu_tests, chatty_copy_bench + Debian libraries (18 MB)
Then one device call (nvidia-h100-x1 or nvidia-h200), carry [".gpu"], timeout_s 470:
  GPU_CHECK_BUDGET=420 scripts/gpu_check.sh run $OUT
Phases and their budgets (seconds; the sum is cut to the deadline, 480 s
unless GPU_CHECK_BUDGET says otherwise, the later phases skipped when it
runs out). Measured on an H200 (2026-11-26) in brackets:
  binaries   15  the carried binaries start there (else a -j16 build of only those targets, 300) [0-1]
  gpu        30  the device-to-device copy bench: a usable GPU, the bandwidth reference [0-1]
  smoke      20  BFS on kron:14 on the GPU, validated [0-1]
  topo       40  chatty topo --bench (link costs measured) [0-1]
  gtests    150  chatty_gpu_tests, one process: every app x P x transports x load balance vs the CPU [7-10]
  memcheck  120  compute-sanitizer memcheck, every app, P = 1 and 3, kron:10 (Firecracker only) [6 for five apps]
  bench     150  BFS/SSSP/WCC/PR on kron:22, grid:2000x2000 and road:2000x2000, GPU vs the same binary's CPU,
                 copy bench [25-30 before the road graph joined]
  operators  90  TC (rows, entries), BC (4 sources) and HITS (validated) on kron:22, GPU vs CPU [11 at kron:21, no HITS]
  variants  230  each performance variant against its default on kron and the grid, validated [107 for 14 rows, H200;
                 16 rows need about 190 on the H100: 150 cut it at row 13]
  pytests   120  gpu_cli_test.py (MPI ranks of GPU devices too) and reference_test.py (cuda) [26-30]
  ncu        30  one PageRank run profiled: a kernel must show in the report [4-5]
  extra      rest racecheck/initcheck/synccheck on BFS and PR, P = 4 virtual devices vs P = 1 [17-18]
Device cost: machine start and transfers (about 30-40 s) + 135-380 s of command (328 on the H100 at 916f9f0):
about 3-7 of the 15 minutes.
PLAN
}

pack() {  # DIR: binaries built for sm_90 here, the test data, the libraries the device lacks
  local dir=${1:-$ROOT/.gpu} build=${BUILD_DIR:-$ROOT/build-gpu90}
  mkdir -p "$dir/bin" && dir=$(cd "$dir" && pwd)
  if [[ ! -f "$build/CMakeCache.txt" ]]; then
    cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCHATTY_NATIVE=OFF \
      -DCMAKE_CUDA_ARCHITECTURES=90 || return 1
  fi
  cmake --build "$build" -j "$(nproc)" --target chatty chatty_gpu_tests chatty_copy_bench || return 1
  command -v patchelf >/dev/null || { echo "gpu_check pack: needs patchelf (apt-get install patchelf)"; return 1; }
  # The binaries find the carried libraries first (RUNPATH), and nothing else
  # there does: an LD_LIBRARY_PATH would hand Debian's zlib to the device's Python.
  for b in chatty tests/chatty_gpu_tests chatty_copy_bench; do
    strip -o "$dir/bin/${b#tests/}" "$build/$b" && patchelf --set-rpath '$ORIGIN/../deps/usr/lib/x86_64-linux-gnu' "$dir/bin/${b#tests/}" ||
      return 1
  done
  # chatty_gpu_tests reads its data from the absolute path it was built with.
  echo "$build/tests/data" >"$dir/test_data_path"
  cp -f "$build/tests/data/facebook_combined.txt" "$dir/" || return 1
  [[ -d "$dir/deps/usr" ]] || "$ROOT/scripts/fetch_gpu_deps.sh" "$dir/deps" || return 1
  git -C "$ROOT" describe --always --dirty >"$dir/commit"
  du -sh "$dir"
}

case ${1:-} in
  plan) plan; exit 0 ;;
  pack) shift; pack "$@"; exit $? ;;
  run) shift ;;
  *) echo "usage: scripts/gpu_check.sh plan | pack [DIR] | run [OUT]" >&2; exit 2 ;;
esac

OUT=${1:-${OUT:-$ROOT/gpu-check-out}}
mkdir -p "$OUT/logs" && OUT=$(cd "$OUT" && pwd)
LOGS=$OUT/logs
SUMMARY=$OUT/results.txt
: >"$SUMMARY"
DEADLINE=$((SECONDS + ${GPU_CHECK_BUDGET:-480}))
PACK=${GPU_CHECK_PACK:-$ROOT/.gpu}
BIN=$PACK/bin
CHATTY=$BIN/chatty
FAILED=0
line() { echo "$*" >>"$SUMMARY"; echo "gpu_check: $*"; }
left() { echo $((DEADLINE - SECONDS)); }

# phase NAME BUDGET COMMAND...: runs COMMAND under min(BUDGET, time left),
# logs to logs/NAME.log, appends its line. A timeout is a FAIL; exit 3 is a
# missed target; exit 4 is a skip whose reason is the log's last line.
phase() {
  local name=$1 budget=$2; shift 2
  local t=$(($(left) < budget ? $(left) : budget)) t0=$SECONDS rc
  if [[ " ${GPU_CHECK_SKIP:-} " == *" $name "* ]]; then line "SKIP $name: left out by GPU_CHECK_SKIP"; return 4; fi
  if ((t < 5)); then line "SKIP $name: no time left before the deadline"; return 4; fi
  timeout -k 5 "$t" bash -c '"$@"' "$name" "$@" >"$LOGS/$name.log" 2>&1
  rc=$?
  local took=$((SECONDS - t0)) last
  last=$(grep -v '^\s*$' "$LOGS/$name.log" | tail -1 | cut -c1-200)
  case $rc in
    0) line "PASS $name (${took} s)" ;;
    3) line "MISSED $name (${took} s): a target not met, see its figures" ;;
    4) line "SKIP $name (${took} s): $last" ;;
    124 | 137) line "FAIL $name (${took} s): timed out after ${t} s: $last"; FAILED=1 ;;
    *) line "FAIL $name (${took} s): exit $rc: $last"; FAILED=1 ;;
  esac
  return $rc
}

finish() {
  cp "$LOGS/topo.log" "$OUT/topology.txt" 2>/dev/null
  tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  line "overall: $([[ $FAILED == 0 ]] && echo PASS || echo FAIL) in $SECONDS s"
  echo
  echo "================ gpu_check results ================"
  cat "$SUMMARY"
  exit $FAILED
}
trap 'line "FAIL interrupted"; FAILED=1; finish' INT TERM

nvidia-smi -L >"$LOGS/gpus.txt" 2>&1 || echo "no GPU listed (nvidia-smi missing or failed)" >"$LOGS/gpus.txt"
line "gpu_check $(date -u +%FT%TZ) on $(head -1 "$LOGS/gpus.txt"); driver $(nvidia-smi --query-gpu=driver_version \
  --format=csv,noheader 2>/dev/null | head -1); kernel $(uname -r); $(nproc) cores; binaries of commit $(cat \
  "$PACK/commit" 2>/dev/null || echo unknown)"
# gVisor reports a 4.x kernel; compute-sanitizer and ncu need Firecracker.
FIRECRACKER=1; [[ $(uname -r) == 4.4.* ]] && FIRECRACKER=0
export ROOT OUT LOGS PACK BIN CHATTY FIRECRACKER
# The test binary's data path is absolute, as built; give it the data there.
if [[ -f "$PACK/test_data_path" ]]; then
  data=$(cat "$PACK/test_data_path")
  [[ -n "$data" && ! -f "$data/facebook_combined.txt" ]] && mkdir -p "$data" &&
    cp "$PACK/facebook_combined.txt" "$data/" 2>/dev/null
fi

starts() {  # loads, GPU or not; a missing library is named
  ! ldd "$BIN/chatty" "$BIN/chatty_gpu_tests" | grep "not found" && "$BIN/chatty" topo &&
    "$BIN/chatty_gpu_tests" --gtest_list_tests >/dev/null
}
build_there() {  # the fallback: only the three targets, every core
  local b=$ROOT/build-gpu-there D=$PACK/deps
  cmake -S "$ROOT" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCHATTY_NATIVE=OFF -DCHATTY_WERROR=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_PREFIX_PATH=$D/usr;$D/usr/lib/x86_64-linux-gnu/cmake" \
    "-DCMAKE_INCLUDE_PATH=$D/usr/include" "-DCMAKE_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu" \
    "-DCMAKE_BUILD_RPATH=$D/usr/lib/x86_64-linux-gnu" &&
    cmake --build "$b" -j 16 --target chatty chatty_gpu_tests chatty_copy_bench &&
    mkdir -p "$BIN" && cp "$b/chatty" "$b/tests/chatty_gpu_tests" "$b/chatty_copy_bench" "$BIN/" &&
    echo "$b/tests/data" >"$PACK/test_data_path" && mkdir -p "$b/tests/data" &&
    cp "$PACK/facebook_combined.txt" "$b/tests/data/"
}
export -f starts build_there
if ! phase binaries 15 starts; then
  phase build_there 300 build_there && phase binaries_built 15 starts || finish
fi
phase gpu 30 "$BIN/chatty_copy_bench" || finish  # no usable GPU: nothing below can pass

phase smoke 20 "$CHATTY" run --backend=cuda --app=bfs --graph=kron:14 --validate
phase topo 40 "$CHATTY" topo --bench

gtests() {  # every GPU gtest in one process; all of them skipped means no GPU was used: FAIL
  local f=$LOGS/gtests.out ran skipped rc
  "$BIN/chatty_gpu_tests" --gtest_color=no 2>&1 | tee "$f"
  rc=${PIPESTATUS[0]}
  ran=$(grep -E '^\[==========\] [0-9]+ tests? from .* ran' "$f" | grep -oE '[0-9]+' | head -1)
  skipped=$(grep -E '^\[  SKIPPED \] [0-9]+ test' "$f" | grep -oE '[0-9]+' | head -1)
  if [[ $rc == 0 && -n $ran && ${skipped:-0} -ge $ran ]]; then echo "every GPU test skipped ($ran): no GPU used"; return 1; fi
  return "$rc"
}
export -f gtests
phase gtests 150 gtests
# gtest's closing summary names each skip and failure once
sed -n '/^\[==========\] .* ran/,$p' "$LOGS/gtests.out" 2>/dev/null | grep -E '^\[  (PASSED|SKIPPED|FAILED)  ?\]' |
  sed 's/^/  gtests: /' >>"$SUMMARY"

sanitize() {  # TOOL APPS...: each app at P = 1 and 3 on kron:10; APP+FLAG runs it with FLAG
  local tool=$1; shift
  command -v compute-sanitizer >/dev/null || { echo "compute-sanitizer is not installed here"; return 4; }
  [[ $FIRECRACKER == 1 ]] || { echo "a gVisor machine: compute-sanitizer refuses its device"; return 4; }
  local bad=0
  for entry in "$@"; do
    local app=${entry%%+*} flags=()
    [[ $entry == *+* ]] && flags=("${entry#*+}")
    for p in 1 3; do
      echo "== $tool $entry P=$p"
      timeout 40 compute-sanitizer --tool "$tool" --error-exitcode 9 "$CHATTY" run --backend=cuda --app="$app" \
        --graph=kron:10 --devices=$p --validate "${flags[@]}" || { echo "$tool: $entry P=$p exit $?"; bad=1; }
    done
  done
  return $bad
}
export -f sanitize
phase memcheck 120 sanitize memcheck bfs sssp wcc pr kcore tc bc wbc katz eigenvector ppr hits scc closeness similarity lpa ktruss louvain leiden \
  bfs+--gpu_wave=64 sssp+--gpu_wave=64 similarity+--top_k=5
grep -E "ERROR SUMMARY|exit [0-9]" "$LOGS/memcheck.log" 2>/dev/null | sort | uniq -c | sed 's/^/  memcheck: /' >>"$SUMMARY"

phase bench 150 python3 "$ROOT/scripts/bench_gpu.py" --build "$BIN" --part apps --json "$OUT/bench.json"
sed -n '/^---/,$p' "$LOGS/bench.log" 2>/dev/null | sed 's/^/  /' >>"$SUMMARY"

phase operators 90 python3 "$ROOT/scripts/bench_gpu.py" --build "$BIN" --part operators --scale 22 \
  --json "$LOGS/operators.json"
sed -n '/^---/,$p' "$LOGS/operators.log" 2>/dev/null | sed 's/^/  /' >>"$SUMMARY"

phase variants 230 python3 "$ROOT/scripts/bench_gpu.py" --build "$BIN" --part variants --json "$OUT/variants.json" \
  --road '' --only "${GPU_CHECK_VARIANTS:-}"
sed -n '/^---/,$p' "$LOGS/variants.log" 2>/dev/null | sed 's/^/  /' >>"$SUMMARY"

export PYTHONUNBUFFERED=1
phase gpu_cli_test 60 python3 "$ROOT/tests/gpu_cli_test.py" "$CHATTY"
phase reference_test 60 python3 "$ROOT/tests/reference_test.py" "$CHATTY" cuda

ncu_check() {  # a profiled kernel must show in the report, not only ncu's exit code
  command -v ncu >/dev/null || { echo "ncu is not installed here"; return 4; }
  [[ $FIRECRACKER == 1 ]] || { echo "a gVisor machine: ncu cannot read the counters"; return 4; }
  ncu --clock-control none --set basic -k regex:. --launch-skip 10 --launch-count 6 \
    "$CHATTY" run --backend=cuda --app=pr --graph=kron:18 --max_iters=10 >"$OUT/ncu.txt" 2>&1
  local rc=$?
  grep -qE "^  [A-Za-z_].*\(.*\)x\(.*\)|Duration" "$OUT/ncu.txt" || { echo "ncu exit $rc: no kernel profiled"; return 1; }
  grep -E "^  [A-Za-z_].*\(|Duration|Memory Throughput|Achieved Occupancy" "$OUT/ncu.txt" | head -40
}
export -f ncu_check
phase ncu 30 ncu_check

phase racecheck 50 sanitize racecheck bfs bc bfs+--gpu_wave=64
phase initcheck 40 sanitize initcheck bfs pr
phase synccheck 40 sanitize synccheck bfs bfs+--gpu_wave=64 sssp+--gpu_wave=64
phase bench_virtual 90 python3 "$ROOT/scripts/bench_gpu.py" --build "$BIN" --part virtual --scale 20 \
  --json "$OUT/bench_virtual.json"
sed -n '/^---/,$p' "$LOGS/bench_virtual.log" 2>/dev/null | sed 's/^/  /' >>"$SUMMARY"
finish
