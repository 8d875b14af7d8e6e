#!/usr/bin/env bash
# Installs what a fresh Debian machine needs to build and test ChattyGraph.
# Idempotent: packages already present are skipped, so re-running is cheap.
set -euo pipefail

debs=(build-essential cmake ninja-build pkg-config libgflags-dev libgtest-dev
      libgmock-dev libomp-dev libnuma-dev python3 python3-pip clang
      zlib1g-dev libzstd-dev libbz2-dev gzip zstd bzip2
      libopenmpi-dev openmpi-bin mpich libmpich-dev libibverbs-dev ibverbs-providers)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python side: references for the end-to-end tests, the sweep's plots, and the
# NetworKit baseline.
py=${PYTHON:-python3}
if ! "$py" -c "import numpy, scipy, networkx, matplotlib" 2>/dev/null; then
  echo "setup: installing numpy scipy networkx matplotlib"
  "$py" -m pip install -q numpy scipy networkx matplotlib 2>/dev/null ||
    "$py" -m pip install -q --break-system-packages numpy scipy networkx matplotlib
fi
# The Python package's build (nanobind, scikit-build-core) and its tests (pytest).
if ! "$py" -c "import nanobind, scikit_build_core, pytest" 2>/dev/null; then
  echo "setup: installing nanobind scikit-build-core pytest"
  "$py" -m pip install -q nanobind scikit-build-core pytest 2>/dev/null ||
    "$py" -m pip install -q --break-system-packages nanobind scikit-build-core pytest
fi
if [ "${CHATTY_SETUP_BENCH:-0}" = 1 ] && ! "$py" -c "import networkit" 2>/dev/null; then
  echo "setup: installing networkit"
  "$py" -m pip install -q networkit 2>/dev/null ||
    "$py" -m pip install -q --break-system-packages networkit
fi
echo "setup: ok"
