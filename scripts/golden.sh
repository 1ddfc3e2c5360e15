#!/bin/sh
# golden.sh - runs a fixed set of (workload, configuration) cases and writes
# each one's JSON statistics to OUTDIR/NN.json.  Refactors that must not change
# results (new seams, faster code) compare two such directories:
#
#   scripts/golden.sh /tmp/ref-warpcache /tmp/golden-before   # reference binary
#   scripts/golden.sh build/warpcache    /tmp/golden-after
#   diff -r /tmp/golden-before /tmp/golden-after && echo identical
#
# The cases cover both coalescing granularities, every replacement policy,
# write and allocation policies, set-index functions, both schedulers, the
# 48 KB L1, a real GPGPU-Sim file, traces, and regular and irregular kernels.
# About 7 s of CPU.  A case that fails is marked in its .cmd file
# ("exit N") and makes the script fail at the end (exit 1), after every case
# has run.  scripts/golden_net.sh folds these cases into the golden net that
# make check compares (tests/golden/designs.tsv).
set -e
BIN=${1:?usage: golden.sh WARPCACHE OUTDIR}
OUT=${2:?usage: golden.sh WARPCACHE OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
# The cases run from the checkout with paths relative to it, so the output
# names no checkout: two worktrees' outputs compare equal.
case $BIN in */*) BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN") ;; esac
OUT=$(cd "$OUT" && pwd)
cd "$ROOT"
SHARED=${SHARED:-../shared}
n=0
failed=""
case_() {
  n=$((n + 1))
  f=$(printf '%s/%02d.json' "$OUT" "$n")
  echo "$*" > "$f.cmd"
  "$BIN" run -q "$@" --json "$f" > /dev/null 2>&1 || {
    echo "exit $?" >> "$f.cmd"
    failed="$failed $(basename "$f")"
  }
}
WL="micro/stream:n=65536 micro/colcopy:h=256 micro/stride:n=65536,stride=8
polybench/atax:scale=0.125 polybench/syrk:scale=0.125 polybench/2dconv:scale=0.125
rodinia/bfs:nodes=8192 rodinia/hotspot seed/assoc:sv=4096 lonestar/sssp parboil/spmv"
for w in $WL; do
  case_ -w "$w" -o max_cycles=400000
done
for w in micro/colcopy:h=512 polybench/atax:scale=0.125 rodinia/bfs:nodes=8192; do
  case_ -w "$w" --config configs/fermi-48k.config -o max_cycles=400000
  case_ -w "$w" -o gpgpu_scheduler=lrr -o max_cycles=400000
  case_ -w "$w" -o coalesce_bytes=32 -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=N:32:128:4,L:R:f:N:L,A:32:8,8' -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=N:32:128:4,L:B:m:N:P,A:16:4,8' -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=N:64:128:2,F:T:m:N:H,A:32:8,8' -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=N:16:128:8,N:L:m:N:X,A:32:8,8' -o max_cycles=400000
  case_ -w "$w" -o max_warp_limit=4 -o max_cycles=400000
done
# Sectored L1s (type S) at both granularities, allocate-on-fill with
# write-back and write-through, NRU/SRRIP victims on sectored lines.
for w in micro/colcopy:h=256 polybench/atax:scale=0.125 rodinia/bfs:nodes=8192; do
  case_ -w "$w" -o 'gpgpu_cache:dl1=S:32:128:4,L:L:m:N:H,A:32:8,8' -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=S:32:128:4,L:L:m:N:H,A:32:8,8' -o coalesce_bytes=32 -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=N:32:128:4,L:B:f:W:L,A:32:8,8' -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=S:32:128:4,R:T:f:W:P,A:16:4,8' -o max_cycles=400000
  case_ -w "$w" -o 'gpgpu_cache:dl1=S:16:128:8,N:B:m:W:X,A:32:8,8' -o max_cycles=400000
done
case_ -w polybench/gemm:scale=0.125 --config "$SHARED/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config" -o max_cycles=400000
case_ -t "$SHARED/data/traces/accelsim/matrixmul-32-32/kernelslist.g"
case_ -t "$SHARED/data/traces/accelsim/vectoradd-100-32/kernelslist.g"
if [ -n "$failed" ]; then
  echo "golden: $n cases in $OUT; FAILED:$failed (see their .cmd files)" >&2
  exit 1
fi
echo "golden: $n cases in $OUT"
