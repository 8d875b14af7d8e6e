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
# NetworkX's run in ctest) and the CUDA code. The CUDA code is built for the
# GPU the machine has, whose tests then run it; without a GPU it is compiled
# to be checked only (unoptimised PTX for sm_90, the lent GPUs' H100 and
# H200), in 0.6x the time, since nothing runs it. The GoogleTest suites are
# built once, in the sanitizer build below, and run there.
cuda=(-DCHATTY_CUDA_CHECK_ONLY=ON)
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  cuda=(-DCHATTY_CUDA_CHECK_ONLY=OFF -DCMAKE_CUDA_ARCHITECTURES=native)
fi
./scripts/build.sh -DCHATTY_PYTHON=ON -DCHATTY_CUDA=ON "${cuda[@]}" -DCHATTY_GTESTS=$gtests
took "main build"
# The ThreadSanitizer build, of the runtime's tests only, with clang:
# OpenMP needs clang's libomp plus the Archer tool to be understood by TSan.
# No MPI layer: none of its tests runs ranks (8 % of the build's compile).
tsan=0
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | head -n 1)
if [ "${TSAN:-1}" = 1 ] && command -v clang++ >/dev/null; then
  if [ -n "$archer" ]; then tsan=1; else
    echo "thread sanitizer pass skipped: no libarcher.so (OpenMP would report false races without it)"
  fi
fi
build_tsan() {
  mkdir -p build-tsan
  CC=clang CXX=clang++ BUILD_DIR=build-tsan TARGET=chatty_runtime_tests nice -n "$1" ./scripts/build.sh \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHATTY_TSAN=ON -DCHATTY_WERROR=OFF -DCHATTY_CUDA=OFF -DCHATTY_MPI=OFF \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" > build-tsan/build.log 2>&1
}
# The ASan + UBSan build: no CUDA objects (the GPU paths cannot run here,
# and ASan does not see into them); -Og and line tables only: stacks keep
# file:line, and it compiles in two thirds of -O1's time (405 CPU-s against
# 605 here, before the precompiled headers) with the tests as fast. Linked against MPICH where it is
# installed, so that the same build runs the rank tests under MPICH (the
# main build's run OpenMPI's).
build_asan() {
  BUILD_DIR=build-asan TARGET="chatty_tests chatty" nice -n 19 ./scripts/build.sh \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHATTY_SANITIZE=ON -DCHATTY_CUDA=OFF ${1:+-DMPI_CXX_COMPILER=$1} \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG" > build-asan/build.log 2>&1
}
if [ "$sanitize" = 1 ]; then
  mpi=$(command -v mpicxx || true)
  [ "$mpich" = 1 ] && mpi=/usr/bin/mpicxx.mpich
  mkdir -p build-asan
  rm -f build-asan/status
  # CMake keeps the MPI it found first: a build of the other MPI starts over.
  if [ -f build-asan/CMakeCache.txt ] && ! grep -q "^MPI_CXX_COMPILER:[A-Z]*=$mpi\$" build-asan/CMakeCache.txt; then
    rm -rf build-asan/CMakeCache.txt build-asan/CMakeFiles
  fi
  # Both sanitizer builds, one after the other, compile beside the main
  # tests at the lowest priority: the ranks' tests mostly wait (launches,
  # deadlines, stalls) and leave cores idle. Their own process group, so
  # that a failing main pass stops them too.
  export -f build_asan build_tsan
  setsid bash -c 'build_asan "$1"; echo $? > build-asan/status; [ "$2" = 0 ] || build_tsan 19' _ "$mpi" "$tsan" &
  sanitizer_builds=$!
  trap 'kill -- -"$sanitizer_builds" 2>/dev/null || true' EXIT
fi
# The answers against SciPy and NetworkX and the loaders' command-line
# tests run once, where the sanitizers watch them; the other command-line
# tests here too, on the binary with the CUDA backend.
once=()
[ "$sanitize" = 1 ] && once=(-E '^output_vs_scipy_networkx$|^inputs_end_to_end$|^datasets_end_to_end$')
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j 2 "${once[@]}")
took "main tests"
if [ "$sanitize" = 1 ]; then
  echo "== sanitizer pass (ASan + UBSan)"
  while [ ! -s build-asan/status ] && jobs -rp | grep -qx "$sanitizer_builds"; do sleep 1; done
  [ "$(cat build-asan/status 2>/dev/null)" = 0 ] || { tail -n 50 build-asan/build.log; echo "sanitizer build failed"; exit 1; }
  took "sanitizer build"
  # The GoogleTest suites (the loaders with bad and varied input, the
  # engine, every app and backend path that runs here), and the command
  # line's own tests on this build's chatty: its flags, inputs, outputs and
  # error paths, and its answers against SciPy and NetworkX. Not the ranks'
  # (MPICH's pass below runs them on this build) nor the sweeps' (Python
  # driving the same runs), nor the installed library's (the main pass
  # installs and links it; this build makes only what its tests run).
  # LeakSanitizer does not work under every
  # ptrace-restricted CI sandbox; leaks are not what this pass is for.
  export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
  (cd build-asan && ctest --output-on-failure --no-tests=error -j 2 -E '^mpi_|^sweep_end_to_end$|^layers$|^api_install_example$')
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
  # process keeps about one core busy. Not the GPU steps that the suites
  # run on a serial stand-in device (one thread: nothing for TSan to see;
  # the same apps' host runs are in the other cases): a fifth of the pass.
  shards=()
  for i in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i KMP_HOT_TEAMS_MAX_LEVEL=2 OMP_TOOL_LIBRARIES="$archer" \
      TSAN_OPTIONS="halt_on_error=1 report_thread_leaks=0 suppressions=$PWD/tests/tsan.supp" \
      build-tsan/tests/chatty_runtime_tests --gtest_filter='*Multi*:Engine.*:Partition.*:Frontier.*:Reorder.*:Operators.*:Bc.*:Tc.*:Scc.*:Lpa.*:Louvain.*:Leiden.*:Hits.*:Similarity.*:Ktruss.*:ConcurrentRuns.*:Wave.*:SpinBarrier.*:UnionFind.*-*.DeviceSteps*:*.GpuSteps*:*.GpuTopKSteps*' \
      --gtest_brief=1 &
    shards+=($!)
  done
  failed=0
  for pid in "${shards[@]}"; do wait "$pid" || failed=1; done
  [ "$failed" = 0 ] || { echo "thread sanitizer pass failed"; exit 1; }
  took "thread sanitizer pass"
fi
echo "== all tests passed"
