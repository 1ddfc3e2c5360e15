#!/bin/sh
# CLI behaviour of `warpcache validate --hw` (the simulator against Nsight
# Compute counters): both ncu page shapes give the same comparison, the
# simulated side equals `run`'s numbers, the errors and their means follow
# from the fixture's hand-made hardware numbers, traces pair with mangled
# names, and bad input exits 2.  Prints "cli_validate_hw: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

FX=tests/data/ncu
WL=polybench/atax:scale=0.125
expect hw_help 0 "ncu --csv" -- $W validate --hw --help
expect no_file 2 "option --hw needs a value" -- $W validate -w $WL --hw
expect missing 2 "absent.csv: cannot open" -- $W validate --hw $FX/absent.csv -w $WL
expect not_ncu 2 "no Nsight Compute CSV header" -- $W validate --hw $FX/README.md -w $WL
expect both 2 "exactly one of --workload and --trace" -- \
  $W validate --hw $FX/handmade-atax-raw.csv -w $WL -t x.wct
expect twice 2 "given twice" -- $W validate --hw $FX/handmade-atax-raw.csv --hw $FX/handmade-atax-raw.csv -w $WL
expect unmatched 2 "none of its 2 launches is a simulated kernel" -- \
  $W validate --hw $FX/handmade-atax-raw.csv -w micro/stream:n=4096
expect bad_workload 2 "nosuch" -- $W validate --hw $FX/handmade-atax-raw.csv -w micro/nosuch

# The details and the raw page hold the same numbers: same comparison.
$W validate --hw $FX/handmade-atax-details.csv -w $WL --json "$T/d.json" >"$T/d.txt" 2>&1
$W validate --hw $FX/handmade-atax-raw.csv -w $WL --json "$T/r.json" >/dev/null 2>&1
strip() { sed -e '/hardware_file/d' -e 's/"hw_line": [0-9]*, //' "$1"; }
strip "$T/d.json" >"$T/d.s"; strip "$T/r.json" >"$T/r.s"
cmp -s "$T/d.s" "$T/r.s" && ok pages_agree || bad pages_agree "$(diff "$T/d.s" "$T/r.s" | head -4)"
grep -q "mean absolute error: L1 hit rate" "$T/d.txt" && ok text_table || bad text_table "$(head -c 300 "$T/d.txt")"

# The simulated side is exactly what `run` reports for the same workload.
$W run -q --workload $WL --json "$T/run.json" >/dev/null 2>&1
run_cycles=$(grep -E '^      "cycles"' "$T/run.json" | sed 's/[^0-9]//g' | tr '\n' ' ')
hw_cycles=$(grep -o '"sim_cycles": [0-9]*' "$T/d.json" | sed 's/.*: //' | tr '\n' ' ')
[ "$run_cycles" = "$hw_cycles" ] && ok sim_cycles_are_run || bad sim_cycles_are_run "run '$run_cycles' validate '$hw_cycles'"
run_rb=$(awk '/"l2": \{/{l2=1} l2 && /"read_bytes"/{gsub(/[^0-9]/,""); print $0/32; l2=0}' "$T/run.json" | head -2 | tr '\n' ' ')
hw_rb=$(grep -o '"sim_l2_read_sectors": [0-9]*' "$T/d.json" | sed 's/.*: //' | tr '\n' ' ')
[ "$run_rb" = "$hw_rb" ] && ok sim_l2_is_run || bad sim_l2_is_run "run '$run_rb' validate '$hw_rb'"

# The means, recomputed from the simulated values and the fixture's hardware
# numbers (20 % / 30 % hits, 200000 / 100000 sectors, 500000 / 150000 cycles).
awk '
  /"sim_l1_hit_pct"/ { n++; match($0, /"sim_l1_hit_pct": [0-9.e+-]+/); l1[n] = substr($0, RSTART + 18, RLENGTH - 18) + 0
                       match($0, /"sim_l2_read_sectors": [0-9.e+-]+/); l2[n] = substr($0, RSTART + 23, RLENGTH - 23) + 0
                       match($0, /"sim_cycles": [0-9.e+-]+/); cy[n] = substr($0, RSTART + 14, RLENGTH - 14) + 0 }
  /"mean_absolute_error"/ { match($0, /"l1_hit_points": [0-9.e+-]+/); got_l1 = substr($0, RSTART + 17, RLENGTH - 17) + 0
                       match($0, /"cycles_rel": [0-9.e+-]+/); got_cy = substr($0, RSTART + 14, RLENGTH - 14) + 0
                       match($0, /"l2_read_sectors_rel": [0-9.e+-]+/); got_l2 = substr($0, RSTART + 23, RLENGTH - 23) + 0 }
  function abs(x) { return x < 0 ? -x : x }
  END {
    want_l1 = (abs(l1[1] - 20) + abs(l1[2] - 30)) / 2
    want_l2 = (abs(l2[1] - 200000) / 200000 + abs(l2[2] - 100000) / 100000) / 2
    want_cy = (abs(cy[1] - 500000) / 500000 + abs(cy[2] - 150000) / 150000) / 2
    ok = n == 2 && abs(got_l1 - want_l1) < 1e-6 && abs(got_l2 - want_l2) < 1e-6 && abs(got_cy - want_cy) < 1e-6
    if (!ok) printf "n=%d l1 %g/%g l2 %g/%g cy %g/%g\n", n, got_l1, want_l1, got_l2, want_l2, got_cy, want_cy
    exit ok ? 0 : 1
  }' "$T/d.json" >"$T/m.txt" && ok means_by_hand || bad means_by_hand "$(cat "$T/m.txt")"

# A trace of the same program, with Accel-Sim's mangled kernel names, pairs too.
$W trace convert $WL "$T/atax" --format accelsim >/dev/null 2>&1
$W validate --hw $FX/handmade-atax-raw.csv -t "$T/atax/kernelslist.g" --json "$T/t.json" >/dev/null 2>"$T/t.err"
grep -q '"kernel": "atax_kernel2"' "$T/t.json" 2>/dev/null && ok trace_pairs || bad trace_pairs "$(head -c 300 "$T/t.err")"

# CSV output: a header and one line per kernel.
$W validate --hw $FX/handmade-atax-raw.csv -w $WL --csv - >"$T/c.csv" 2>/dev/null
[ "$(wc -l <"$T/c.csv")" -eq 3 ] && head -1 "$T/c.csv" | grep -q '^id,kernel,hw_l1_hit_pct' && ok csv || bad csv "$(head -3 "$T/c.csv")"

# --launches pairs by position, whatever the names: launch 3 (colcopy_u1 in the
# file) with the first workload's colcopy, 4 with the second's.  Each hardware
# hit rate is the fixture's (10 % and 50 %), and with two carveouts (228 KB and
# 32 KB) simulated on one L1 the launches are named on stderr.
CV=$FX/handmade-carveout-raw.csv
C1=micro/colcopy:h=32,w=64
C2=micro/colcopy:h=32,w=64,unroll=16
$W validate --hw $CV -w $C1 -w $C2 --launches 3-4 --json "$T/l.json" >"$T/l.txt" 2>"$T/l.err"
grep -q '"hw_id": "3", "hw_kernel": "colcopy_u1", "hw_l1_hit_pct": 10,' "$T/l.json" &&
  grep -q '"hw_id": "4", "hw_kernel": "colcopy", "hw_l1_hit_pct": 50,' "$T/l.json" &&
  ok launches_by_position || bad launches_by_position "$(head -c 400 "$T/l.json")"
grep -q '(hw: colcopy_u1)' "$T/l.txt" && ok launches_name_shown || bad launches_name_shown "$(cat "$T/l.txt")"
grep -q 'different shared-memory carveouts.* 3:228KB 4:32KB' "$T/l.err" && ok carveout_note ||
  bad carveout_note "$(cat "$T/l.err")"
grep -q '"hw_shared_mem_config_bytes": 233472' "$T/l.json" && ok carveout_json || bad carveout_json "$(head -c 400 "$T/l.json")"
# One carveout: no note.  Without --launches the names pair: only launch 4 (colcopy).
$W validate --hw $CV -w $C1 --launches 4 >/dev/null 2>"$T/l1.err"
grep -q carveouts "$T/l1.err" && bad one_carveout_silent "$(cat "$T/l1.err")" || ok one_carveout_silent
$W validate --hw $CV -w $C1 --json "$T/n.json" >/dev/null 2>&1
grep -q '"hw_id": "4"' "$T/n.json" && ok names_pair || bad names_pair "$(head -c 400 "$T/n.json")"
expect launches_count 2 "lists 1 launches, the simulation has 2 kernels" -- \
  $W validate --hw $CV -w $C1 -w $C2 --launches 3
expect launches_absent 2 "no launch with ID '5'" -- $W validate --hw $CV -w $C1 --launches 3-5
expect launches_range 2 "not a range" -- $W validate --hw $CV -w $C1 --launches 4-3
expect launches_empty 2 "expected IDs or ranges" -- $W validate --hw $CV -w $C1 --launches 3,,4

echo "cli_validate_hw: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
