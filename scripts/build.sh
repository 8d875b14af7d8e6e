#!/usr/bin/env bash
# Configures and builds ChattyGraph into BUILD_DIR (default build/).
# Extra arguments go to CMake, e.g. -DCHATTY_SANITIZE=ON.
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
cmake --build "$build" -j "$(nproc)" ${TARGET:+--target "$TARGET"}
