#!/bin/sh
# warp_limit_check.sh - runs every built-in workload (default size) with a
# warp limit of 1 for a bounded number of cycles and reports which ones fail
# (a limit that ignored barriers deadlocked blocks whose oldest warps wait at
# a barrier for younger ones).  A run stopped by -max_cycles is a pass.
#
#   scripts/warp_limit_check.sh build/warpcache [max_cycles] [extra -o options...]
BIN=${1:?usage: warp_limit_check.sh WARPCACHE [MAX_CYCLES] [-o ...]}
MAXC=${2:-20000}
shift 2 2>/dev/null || shift $#
fails=0
total=0
for w in $("$BIN" list | awk 'NF && $1 ~ /\//{print $1}'); do
  total=$((total + 1))
  if ! out=$("$BIN" run -q -w "$w" -o max_warp_limit=1 -o max_cycles="$MAXC" "$@" --json /dev/null 2>&1); then
    fails=$((fails + 1))
    echo "FAIL $w: $(echo "$out" | tail -1)"
  fi
done
echo "warp limit 1: $fails of $total workloads failed"
[ "$fails" -eq 0 ]
