#!/usr/bin/env bash
# Builds and runs every test: on an optimised build the CLI's, the Python
# package's and the ranks' tests under OpenMPI (ctest); on an AddressSanitizer
# + UBSan build the GoogleTest suites, then the ranks' tests under MPICH; on
# a ThreadSanitizer build the runtime's suites.
#   SANITIZE=0 ./scripts/test.sh     # skip the sanitizer pass (and MPICH's,
#                                    # which runs on its build)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
start=$SECONDS
# Each pass says when it ends, so the command's time can be kept in bounds.
took() { echo "== $1: done at $((SECONDS - start)) s"; }
# ctest runs two test processes at once on a box of few cores. OpenMP's
# idle threads spin by default, and one process's spinning takes the cores
# the other's working threads wait for: the GoogleTest suites under ASan ran
# 3.3x as long so (112 s against 34 s here). Waiters that sleep cost nothing.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
if command -v clang-format >/dev/null; then
  # Formatting is checked, not left to review.
  unformatted=$(git ls-files '*.h' '*.cc' '*.cu' | xargs clang-format --dry-run 2>&1 | grep -c warning || true)
  [ "$unformatted" = 0 ] || { echo "clang-format: $unformatted lines need formatting (run clang-format -i)"; exit 1; }
fi
sanitize=0
[ "${SANITIZE:-1}" = 1 ] && sanitize=1
gtests=ON
[ "$sanitize" = 1 ] && gtests=OFF
mpich=0
[ "${MPICH:-1}" = 1 ] && [ -x /usr/bin/mpicxx.mpich ] && [ "$sanitize" = 1 ] && mpich=1
# The optimised build: the CLI, the Python package's module (its tests and
# NetworkX's run in ctest) and the CUDA code. CUDA is compiled for sm_90
# only, the lent GPUs' architecture (H100, H200): no GPU runs it here, and
# a second architecture doubles its compile. The GoogleTest suites are
# built once, in the sanitizer build below, and run there.
./scripts/build.sh -DCHATTY_PYTHON=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCHATTY_GTESTS=$gtests
took "main build"
# The ThreadSanitizer build, of the runtime's tests only, with clang:
# OpenMP needs clang's libomp plus the Archer tool to be understood by TSan.
tsan=0
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | head -n 1)
if [ "$tsan" = 1 ]; then
  # ThreadSanitizer over the runtime's tests (multi-device, engine, frontier, operators, BC, TC).
  echo "== thread sanitizer pass (runtime tests)"
  if [ "$sanitize" = 1 ]; then
    wait "$sanitizer_builds" || { tail -n 50 build-tsan/build.log; echo "thread sanitizer build failed"; exit 1; }
    trap - EXIT
  else
    build_tsan 0 || { tail -n 50 build-tsan/build.log; echo "thread sanitizer build failed"; exit 1; }
  fi
  took "thread sanitizer build"
  # Devices of several threads run nested teams. Archer misses the join of
  # a nested team that libomp rebuilds from its thread pool, and reports
  # the next region's reads as races with the last one's writes; hot
  # nested teams keep their threads and are modelled right (their threads
  # outlive main, hence no thread-leak reports). Two shards at once: one
  # process keeps about one core busy.
  shards=()
  for i in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i KMP_HOT_TEAMS_MAX_LEVEL=2 OMP_TOOL_LIBRARIES="$archer" \
      TSAN_OPTIONS="halt_on_error=1 report_thread_leaks=0 suppressions=$PWD/tests/tsan.supp" \
      build-tsan/tests/chatty_runtime_tests --gtest_filter='*Multi*:Engine.*:Partition.*:Frontier.*:Reorder.*:Operators.*:Bc.*:Tc.*' --gtest_brief=1 &
    shards+=($!)
  done
  failed=0
  for pid in "${shards[@]}"; do wait "$pid" || failed=1; done
  [ "$failed" = 0 ] || { echo "thread sanitizer pass failed"; exit 1; }
  took "thread sanitizer pass"
fi
echo "== all tests passed"
