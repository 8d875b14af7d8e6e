#!/usr/bin/env bash
# Prepares the libraries the GPU check needs on a GPU machine without network:
#   scripts/fetch_gpu_deps.sh DIR     (here, with network; scripts/gpu_check.sh pack calls it)
# downloads the Debian packages (gflags, GoogleTest/GMock, libnuma, libgomp,
# libibverbs, zlib, zstd, bzip2, Open MPI's C++ bindings) and
# unpacks them under DIR, which the packed binaries find by their RUNPATH.
set -euo pipefail
DIR=${1:?usage: scripts/fetch_gpu_deps.sh DIR}
mkdir -p "$DIR/debs"
DIR=$(cd "$DIR" && pwd)
PKGS=(libgflags-dev libgflags2.2 libgomp1 libibverbs1 libnl-3-200 libnl-route-3-200 libgtest-dev libgmock-dev
      libnuma-dev libnuma1
      zlib1g-dev libzstd-dev libzstd1 libbz2-dev libbz2-1.0)
SUDO=""; [[ $(id -u) != 0 ]] && SUDO=sudo
[[ -d /var/lib/apt/lists && -n "$(ls -A /var/lib/apt/lists 2>/dev/null)" ]] || $SUDO apt-get update -qq
(cd "$DIR/debs" && apt-get download "${PKGS[@]}")
for deb in "$DIR"/debs/*.deb; do dpkg -x "$deb" "$DIR"; done
# The MPI C++ bindings chatty links, beside the GPU machine's own Open MPI
# 4.1 (same soname): only that library, not Debian's whole Open MPI.
(cd "$DIR/debs" && apt-get download libopenmpi3 && dpkg -x libopenmpi3_*.deb ompi)
cp -a "$DIR"/debs/ompi/usr/lib/x86_64-linux-gnu/libmpi_cxx.so.40* "$DIR/usr/lib/x86_64-linux-gnu/"
rm -rf "$DIR/debs" "$DIR/usr/share/doc"
echo "unpacked ${#PKGS[@]} packages under $DIR ($(du -sh "$DIR" | cut -f1))"
