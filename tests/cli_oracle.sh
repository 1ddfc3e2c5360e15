#!/bin/sh
# CLI behaviour of `warpcache oracle pdp-best` and `oracle profiled-bypass`
# (seed 001's per-workload oracles): bad input exits 2, the output is
# labelled as a search, the best distance / threshold is one of those
# searched, and -j 1 and -j 2 print the same bytes.
# Prints "cli_oracle: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

WL=micro/stream:n=4096
expect bad_oracle 2 "unknown oracle 'nosuch'" -- $W oracle nosuch -w $WL
expect bad_distances 2 "option --distances" -- $W oracle pdp-best -w $WL --distances 0-3
expect bad_distances_list 2 "option --distances" -- $W oracle pdp-best -w $WL --distances 1,x
expect no_workload 2 "at least one --workload" -- $W oracle pdp-best
expect no_json 2 "not supported" -- $W oracle pdp-best -w $WL --json -
expect bad_workload 2 "nosuch" -- $W oracle pdp-best -w micro/nosuch
expect labelled 0 "exhaustive search (not a design) over distances 2,4" -- \
  $W oracle pdp-best -w $WL --distances 2,4 -q

# The best distance printed is one of those searched (column 4 of the row).
$W oracle pdp-best -w $WL -w micro/colcopy:h=64 --distances 3-5 -j 1 -q >"$T/j1" 2>&1
$W oracle pdp-best -w $WL -w micro/colcopy:h=64 --distances 3-5 -j 2 -q >"$T/j2" 2>&1
pd=$(awk '$1 == "micro/colcopy:h=64" {print $4}' "$T/j1")
case "$pd" in 3|4|5) ok best_in_range ;; *) bad best_in_range "best PD '$pd'" ;; esac
cmp -s "$T/j1" "$T/j2" && ok j1_j2_identical || bad j1_j2_identical "$(diff "$T/j1" "$T/j2" | head -5)"

# profiled-bypass: labelled, its options checked, the organisation refused
# outside the oracle (it needs the profiling run's counts).
expect bad_thresholds 2 "option --thresholds" -- $W oracle profiled-bypass -w $WL --thresholds 0
expect bad_filters 2 "option --filters" -- $W oracle profiled-bypass -w $WL --filters near
expect pb_labelled 0 "exhaustive search (not a design) over 1,3" -- \
  $W oracle profiled-bypass -w $WL --thresholds 1,3 -q
expect pb_org_refused 2 "oracle profiled-bypass" -- $W run -w $WL -o l1_org=profiled-bypass
expect pb_org_refused_oracle 2 "oracle profiled-bypass" -- \
  $W oracle profiled-bypass -w $WL -o l1_org=profiled-bypass
# Both oracles and a design in one table: base IPC (col 3), ball, best PD (col 5),
# then per filter local, global, local+global the best t: cols 8, 11, 14.
$W oracle pdp-best,profiled-bypass --designs ball -w micro/colcopy:h=64 --distances 2-3 \
  --thresholds 2-4 --filters all -j 1 -q >"$T/pb1" 2>&1
$W oracle pdp-best,profiled-bypass --designs ball -w micro/colcopy:h=64 --distances 2-3 \
  --thresholds 2-4 --filters all -j 2 -q >"$T/pb2" 2>&1
t=$(awk '$1 == "micro/colcopy:h=64" {print $14}' "$T/pb1")
case "$t" in 2|3|4) ok pb_best_in_range ;; *) bad pb_best_in_range "best t '$t'" ;; esac
cmp -s "$T/pb1" "$T/pb2" && ok pb_j1_j2_identical || bad pb_j1_j2_identical "$(diff "$T/pb1" "$T/pb2" | head -5)"

echo "cli_oracle: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
