#!/usr/bin/env bash
# Prepares the libraries the build needs for a GPU machine without network:
#   scripts/fetch_gpu_deps.sh DIR     (here, with network)
# downloads the Debian packages (gflags, GoogleTest/GMock, libnuma,
# nlohmann-json) and unpacks them under DIR; carry DIR to the GPU machine and
#   CHATTY_DEPS=DIR scripts/gpu_check.sh OUT
set -euo pipefail
DIR=${1:?usage: scripts/fetch_gpu_deps.sh DIR}
mkdir -p "$DIR/debs"
DIR=$(cd "$DIR" && pwd)
PKGS=(libgflags-dev libgflags2.2 libgtest-dev libgmock-dev libnuma-dev libnuma1 nlohmann-json3-dev)
SUDO=""; [[ $(id -u) != 0 ]] && SUDO=sudo
[[ -d /var/lib/apt/lists && -n "$(ls -A /var/lib/apt/lists 2>/dev/null)" ]] || $SUDO apt-get update -qq
(cd "$DIR/debs" && apt-get download "${PKGS[@]}")
for deb in "$DIR"/debs/*.deb; do dpkg -x "$deb" "$DIR"; done
rm -rf "$DIR/debs" "$DIR/usr/share/doc"
echo "unpacked ${#PKGS[@]} packages under $DIR ($(du -sh "$DIR" | cut -f1))"
