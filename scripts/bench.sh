#!/bin/sh
# Runs every benchmark binary built from bench/ (make bench).
BUILD=${1:-build}
for b in "$BUILD"/bench/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b" || exit 1
done
