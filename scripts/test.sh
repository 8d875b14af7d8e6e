#!/usr/bin/env bash
# Builds and runs every test: the GoogleTest suites and the Python end-to-end
# tests (ctest), then the same suites built with AddressSanitizer + UBSan.
#   SANITIZE=0 ./scripts/test.sh     # skip the sanitizer pass
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
start=$SECONDS
# Each pass says when it ends, so the command's time can be kept in bounds.
took() { echo "== $1: done at $((SECONDS - start)) s"; }
if command -v clang-format >/dev/null; then
  # Formatting is checked, not left to review.
  unformatted=$(git ls-files '*.h' '*.cc' '*.cu' | xargs clang-format --dry-run 2>&1 | grep -c warning || true)
  [ "$unformatted" = 0 ] || { echo "clang-format: $unformatted lines need formatting (run clang-format -i)"; exit 1; }
fi
# With the Python package's module: its tests and NetworkX's run in ctest.
# CUDA code is compiled for sm_90 only, the lent GPUs' architecture (H100,
# H200): no GPU runs it here, and a second architecture doubles its compile.
./scripts/build.sh -DCHATTY_PYTHON=ON -DCMAKE_CUDA_ARCHITECTURES=90
took "main build"
mpich=0
if [ "${MPICH:-1}" = 1 ] && [ -x /usr/bin/mpicxx.mpich ]; then
  mpich=1
  mkdir -p build-mpich
  # The MPICH build runs beside the main tests at the lowest priority: the
  # ranks' tests run alone (RUN_SERIAL) and mostly wait (deadlines, stalls,
  # launches), so it takes the cores they leave idle. -O1: these tests
  # check behaviour, not speed, and compile twice as fast so.
  (BUILD_DIR=build-mpich TARGET=chatty nice -n 19 ./scripts/build.sh -DCHATTY_CUDA=OFF \
    -DMPI_CXX_COMPILER=/usr/bin/mpicxx.mpich -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g0 -DNDEBUG" > build-mpich/build.log 2>&1) &
  mpich_build=$!
fi
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j 2)
took "main tests"
if [ "$mpich" = 1 ]; then
  # The cluster layer under MPICH too (the ctest label mpi runs OpenMPI):
  # two ranks, since MPICH busy-polls.
  echo "== MPICH portability (2 ranks)"
  wait "$mpich_build" || { cat build-mpich/build.log; echo "MPICH build failed"; exit 1; }
  MPIRUN=mpirun.mpich python3 tests/mpi_test.py build-mpich/chatty build-mpich/tests/data/facebook_combined.txt \
    --portability
  took "MPICH pass"
fi
if [ "${SANITIZE:-1}" = 1 ]; then
  echo "== sanitizer pass (ASan + UBSan)"
  # No CUDA objects: the GPU paths cannot run here, and ASan does not see into them.
  # -O1 and line tables only: instrumented builds compile 2.3x faster so
  # (30 s against 13 s for multi_device_test.cc), and stacks keep file:line.
  # The GoogleTest suites only: they drive the loaders with bad and varied
  # input, the engine, every app and backend path that runs here; the CLI's
  # end-to-end scripts ran against the main build.
  BUILD_DIR=build-asan TARGET=chatty_tests ./scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHATTY_SANITIZE=ON \
    -DCHATTY_CUDA=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  # LeakSanitizer does not work under every ptrace-restricted CI sandbox;
  # leaks are not what this pass is for.
  (cd build-asan && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j 2 \
    -E '_end_to_end$|^output_vs_scipy_networkx$|^cli_usability$|^layers$')
  took "sanitizer pass"
fi
if [ "${TSAN:-1}" = 1 ] && command -v clang++ >/dev/null; then
  # ThreadSanitizer over the runtime's tests (multi-device, engine, frontier, operators, BC, TC).
  # OpenMP needs clang's libomp plus the Archer tool to be understood by TSan.
  echo "== thread sanitizer pass (runtime tests)"
  archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | head -n 1)
  if [ -z "$archer" ]; then
    echo "thread sanitizer pass skipped: no libarcher.so (OpenMP would report false races without it)"
  else
    CC=clang CXX=clang++ BUILD_DIR=build-tsan TARGET=chatty_runtime_tests ./scripts/build.sh \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHATTY_TSAN=ON -DCHATTY_WERROR=OFF -DCHATTY_CUDA=OFF \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
    # Devices of several threads run nested teams. Archer misses the join of
    # a nested team that libomp rebuilds from its thread pool, and reports
    # the next region's reads as races with the last one's writes; hot
    # nested teams keep their threads and are modelled right (their threads
    # outlive main, hence no thread-leak reports).
    KMP_HOT_TEAMS_MAX_LEVEL=2 OMP_TOOL_LIBRARIES="$archer" \
      TSAN_OPTIONS="halt_on_error=1 report_thread_leaks=0 suppressions=$PWD/tests/tsan.supp" \
      build-tsan/tests/chatty_runtime_tests --gtest_filter='*Multi*:Engine.*:Partition.*:Frontier.*:Reorder.*:Operators.*:Bc.*:Tc.*' --gtest_brief=1
    took "thread sanitizer pass"
  fi
fi
echo "== all tests passed"
