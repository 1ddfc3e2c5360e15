#!/bin/sh
# CLI behaviour of `warpcache oracle pdp-best` (seed 001's per-workload PDP
# oracle): bad input exits 2, the output is labelled as a search, the best
# distance is one of those searched, and -j 1 and -j 2 print the same bytes.
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

echo "cli_oracle: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
