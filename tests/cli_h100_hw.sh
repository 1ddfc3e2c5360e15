#!/bin/sh
# configs/h100.config against the real H100 counters of built-in workloads
# (../shared/data/hw/h100/ncu-colcopy-stream.csv, docs/h100.md) through
# `warpcache validate --hw`: each launch's L1 load miss rate must be within
# the tolerance stated below of the hardware's, which is read from the CSV
# itself (100 - l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct).
# Skips, counting nothing, when ../shared is absent.
# Prints "cli_h100_hw: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

HW=../shared/data/hw/h100/ncu-colcopy-stream.csv
if [ ! -f "$HW" ]; then
  echo "cli_h100_hw skipped: no $HW (not counted)"
  echo "cli_h100_hw: $pass passed, $fail failed"
  exit 0
fi

# The hardware's miss rate of launch ID $1, in percent, from the CSV.
hw_miss() {
  awk -F'","' -v id="$1" '
    substr($1, 2) == id && $13 == "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct" {
      v = $15; sub(/"$/, "", v); printf "%.4f\n", 100 - v }' "$HW"
}

# check ID TOLERANCE: launch ID's simulated miss rate (validate's CSV in
# $T/v.csv, matched by its hw_id column) within TOLERANCE points.
check() {
  want=$(hw_miss "$1")
  got=$(awk -F, -v id="$1" 'NR > 1 && $9 == id { printf "%.4f\n", 100 - $4 }' "$T/v.csv")
  if [ -z "$want" ] || [ -z "$got" ]; then bad "launch_$1" "hardware '$want' simulated '$got'"; return; fi
  awk -v a="$got" -v b="$want" -v t="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }' &&
    ok "launch_$1" || bad "launch_$1" "simulated $got % misses, hardware $want %, tolerance $2 points"
}

cc() { u=$1; shift; for h in "$@"; do printf -- " -w micro/colcopy:h=%s,w=1024,unroll=%s" "$h" "$u"; done; }

# 28 KB of L1 (the launches that reserved 228 KB of shared memory): 56 ways of 4 sets.
# shellcheck disable=SC2046
$W validate -q --hw "$HW" --config configs/h100.config -o l1_assoc=56 \
  $(cc 16 32 64 128 256 512 1024) $(cc 1 32 64 128 256 512 1024) \
  --launches 20-25,43-48 --csv "$T/v.csv" >"$T/v.txt" 2>&1 || bad validate_28k "$(head -c 300 "$T/v.txt")"
# Within 3 points: the 16x-unrolled colcopy keeps its 12.5 % up to h = 256;
# with one load in flight it thrashes from h = 256 on.
for id in 20 21 22 23 43 44 45 46 47 48; do check $id 3; done
# The known gap (docs/h100.md, "What still differs"): at h = 512 and 1024 the
# unrolled colcopy thrashes less than the hardware (81.1 % and 98.9 %).
# These bounds hold what is reached (62 % and 89 %) against a regression.
check 24 20
check 25 11

# 224 KB (the default carveout of 32 KB): no capacity pressure.
# shellcheck disable=SC2046
$W validate -q --hw "$HW" --config configs/h100.config -o l1_assoc=448 \
  $(cc 16 256) -w micro/stream:n=1048576 $(cc 1 256) \
  --launches 3,6,40 --csv "$T/v.csv" >"$T/v.txt" 2>&1 || bad validate_224k "$(head -c 300 "$T/v.txt")"
for id in 3 6 40; do check $id 1; done

echo "cli_h100_hw: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
