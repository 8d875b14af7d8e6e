#!/usr/bin/env bash
# Fuzzes the graph loaders with libFuzzer + ASan for SECONDS (default 120).
# Seeds: small valid files of every format. Not part of test.sh (time).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-120}
CC=clang CXX=clang++ BUILD_DIR=build-fuzz TARGET=chatty_load_fuzz ./scripts/build.sh \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHATTY_FUZZ=ON -DCHATTY_SANITIZE=ON -DCHATTY_WERROR=OFF -DCMAKE_CUDA_COMPILER=NOTFOUND
corpus=build-fuzz/corpus
mkdir -p "$corpus"
printf '\x00# c\n0 1\n1 2\n' > "$corpus/el"
printf '\x01%s\n' '0 1 5' '1 2 7' > "$corpus/wel"
printf '\x02p sp 3 2\na 1 2 4\na 2 3 1\n' > "$corpus/gr"
printf '\x03%%%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1.5\n3 2 2\n' > "$corpus/mtx"
printf 'CHATTYGR' > build-fuzz/g.cgr  # a truncated .cgr is as good a seed as a whole one
[ -x build/chatty ] && build/chatty generate grid:3x2 build-fuzz/g.cgr >/dev/null
{ printf '\x04'; cat build-fuzz/g.cgr; } > "$corpus/cgr"
OMP_NUM_THREADS=2 build-fuzz/tests/chatty_load_fuzz "$corpus" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=8192 -malloc_limit_mb=8192
