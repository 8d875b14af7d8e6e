#!/usr/bin/env bash
# Prepares the libraries the build needs for a GPU machine without network:
#   scripts/fetch_gpu_deps.sh DIR     (here, with network)
# downloads the Debian packages (gflags, GoogleTest/GMock, libnuma,
# nlohmann-json, zlib, zstd, bzip2) and unpacks them under DIR; carry DIR
# to the GPU machine and run the steps `scripts/gpu_check.sh plan` lists:
#   CHATTY_DEPS=/absolute/DIR scripts/gpu_check.sh STEP OUT
set -euo pipefail
DIR=${1:?usage: scripts/fetch_gpu_deps.sh DIR}
mkdir -p "$DIR/debs"
DIR=$(cd "$DIR" && pwd)
PKGS=(libgflags-dev libgflags2.2 libgomp1 libgtest-dev libgmock-dev libnuma-dev libnuma1 nlohmann-json3-dev
      zlib1g-dev libzstd-dev libzstd1 libbz2-dev libbz2-1.0)
SUDO=""; [[ $(id -u) != 0 ]] && SUDO=sudo
[[ -d /var/lib/apt/lists && -n "$(ls -A /var/lib/apt/lists 2>/dev/null)" ]] || $SUDO apt-get update -qq
(cd "$DIR/debs" && apt-get download "${PKGS[@]}")
for deb in "$DIR"/debs/*.deb; do dpkg -x "$deb" "$DIR"; done
rm -rf "$DIR/debs" "$DIR/usr/share/doc"
echo "unpacked ${#PKGS[@]} packages under $DIR ($(du -sh "$DIR" | cut -f1))"
