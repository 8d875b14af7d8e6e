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
if [ "$sanitize" = 1 ]; then
  # The ASan + UBSan build compiles beside the main tests at the lowest
  # priority: the ranks' tests there mostly wait (launches, deadlines,
  # stalls) and leave cores idle. No CUDA objects: the GPU paths cannot run
  # here, and ASan does not see into them. -O1 and line tables only:
  # instrumented builds compile 2.3x faster so, and stacks keep file:line.
  # Linked against MPICH where it is installed, so that the same build runs
  # the rank tests under MPICH (the main build's run OpenMPI's).
  mpi=$(command -v mpicxx || true)
  [ "$mpich" = 1 ] && mpi=/usr/bin/mpicxx.mpich
  mkdir -p build-asan
  # CMake keeps the MPI it found first: a build of the other MPI starts over.
  if [ -f build-asan/CMakeCache.txt ] && ! grep -q "^MPI_CXX_COMPILER:[A-Z]*=$mpi\$" build-asan/CMakeCache.txt; then
    rm -rf build-asan/CMakeCache.txt build-asan/CMakeFiles
  fi
  # Its own process group, so that a failing main pass stops it too.
  setsid bash -c 'BUILD_DIR=build-asan TARGET="chatty_tests chatty" nice -n 19 ./scripts/build.sh \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHATTY_SANITIZE=ON -DCHATTY_CUDA=OFF ${1:+-DMPI_CXX_COMPILER=$1} \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" > build-asan/build.log 2>&1' _ "$mpi" &
  asan_build=$!
  trap 'kill -- -"$asan_build" 2>/dev/null || true' EXIT
fi
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j 2)
took "main tests"
if [ "$sanitize" = 1 ]; then
  echo "== sanitizer pass (ASan + UBSan)"
  wait "$asan_build" || { tail -n 50 build-asan/build.log; echo "sanitizer build failed"; exit 1; }
  trap - EXIT
  took "sanitizer build"
  # The GoogleTest suites: they drive the loaders with bad and varied input,
  # the engine, every app and backend path that runs here. LeakSanitizer
  # does not work under every ptrace-restricted CI sandbox; leaks are not
  # what this pass is for.
  export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
  (cd build-asan && ctest --output-on-failure --no-tests=error -j 2 \
    -E '_end_to_end$|^output_vs_scipy_networkx$|^cli_usability$|^layers$')
  took "sanitizer pass"
  if [ "$mpich" = 1 ]; then
    # The cluster layer under MPICH too, on the sanitizer build: two ranks,
    # since MPICH busy-polls.
    echo "== MPICH portability (2 ranks, ASan + UBSan)"
    MPIRUN=mpirun.mpich python3 tests/mpi_test.py build-asan/chatty build-asan/tests/data/facebook_combined.txt \
      --portability
    took "MPICH pass"
  fi
  unset ASAN_OPTIONS UBSAN_OPTIONS
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
