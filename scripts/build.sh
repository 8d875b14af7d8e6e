#!/usr/bin/env bash
# Configures and builds ChattyGraph into BUILD_DIR (default build/).
# Extra arguments go to CMake, e.g. -DCHATTY_SANITIZE=ON; TARGET names the
# targets to build (several, space-separated), else all.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
else
  cmake -S . -B "$build" "$@" >/dev/null
fi
targets=()
for t in ${TARGET:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
