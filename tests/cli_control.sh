#!/bin/sh
# CLI behaviour of the engine seams: -controllers, -mem_stage and scheduler
# parameters (bad values exit 2 naming the option), the shipped designs load,
# --timeline-csv writes what the JSON timeline holds, a warp limit of 1
# does not deadlock a workload with barriers, and ccws's parameters, counters
# and design.  Prints "cli_control: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

S="--workload micro/stream:n=4096"
expect unknown_controller 2 "option -controllers: unknown controller 'nosuch'" -- $W run $S -o controllers=nosuch
expect bad_controller_param 2 "option -controllers: swl: warp_limit=0" -- $W run $S -o controllers=swl:warp_limit=0
expect bad_level 2 "level=l3: must be l1|l2" -- $W run $S -o controllers=stream_bypass:level=l3
expect bad_ccws_param 2 "option -controllers: ccws: kthrottle=0: must be a whole number from 1 to 1000" -- $W run $S -o controllers=ccws:kthrottle=0
expect unknown_ccws_param 2 "ccws: unknown parameter 'size'" -- $W run $S -o controllers=ccws:size=4
expect unknown_stage 2 "option -mem_stage: unknown memory stage 'nosuch'" -- $W run $S -o mem_stage=nosuch
expect bad_two_level 2 "option -gpgpu_scheduler: two_level_active: inner=2: must be 0" -- $W run $S -o gpgpu_scheduler=two_level_active:4:2:1
expect two_level_runs 0 "" -- $W run -q $S -o gpgpu_scheduler=two_level_active:4:0:1
for d in configs/designs/stream-bypass.config configs/designs/stream-bypass-l2.config \
         configs/designs/swl-4.config configs/designs/two-level.config configs/designs/ccws.config; do
  expect "design_$(basename "$d" .config)" 0 "" -- $W run -q $S --config "$d"
done

# The L1 of micro/stream misses every time: streaming bypass switches on at
# the first 10K-cycle boundary in every SM that loaded something; the CSV
# has one row per JSON timeline event.
$W run -q --workload micro/stream --config configs/designs/stream-bypass.config \
  --json "$T/s.json" --timeline-csv "$T/s.csv" >/dev/null 2>&1
rows=$(($(wc -l <"$T/s.csv") - 1))
events=$(grep -o '"key": "l1_bypass"' "$T/s.json" | wc -l)
if [ "$rows" -gt 0 ] && [ "$rows" -eq "$events" ] && head -1 "$T/s.csv" | grep -q '^workload,cycle,sm,key,value$' &&
   sed -n 2p "$T/s.csv" | grep -q '^micro/stream,10000,0,l1_bypass,1$'; then
  ok timeline_csv
else
  bad timeline_csv "rows $rows, events $events: $(head -3 "$T/s.csv")"
fi
# Without controllers: no timeline in the JSON, only the header in the CSV.
$W run -q $S --json "$T/n.json" --timeline-csv "$T/n.csv" >/dev/null 2>&1
if ! grep -q timeline "$T/n.json" && [ "$(wc -l <"$T/n.csv")" -eq 1 ]; then ok no_timeline; else bad no_timeline "$(cat "$T/n.csv")"; fi

# CCWS on syrk (its warps lose their rows to each other): lost locality is
# detected and loads are held; the counters are in the JSON, per kernel and in
# total.
$W run -q --workload polybench/syrk:scale=0.0625 --design ccws --json "$T/c.json" >/dev/null 2>&1
if [ "$(grep -c '"ccws_vta_hits": [1-9]' "$T/c.json")" -eq 2 ] &&
   [ "$(grep -c '"ccws_blocked_loads": [1-9]' "$T/c.json")" -eq 2 ]; then
  ok ccws_extras
else
  bad ccws_extras "$(grep ccws_ "$T/c.json" | head -6)"
fi
# CCWS with barriers (backprop, to its end), two-level scheduling, the l1q stage and
# the instruction buffer.
expect ccws_barriers 0 "" -- $W run -q --workload rodinia/backprop --design ccws
expect ccws_two_level 0 "" -- $W run -q $S --design ccws -o gpgpu_scheduler=two_level_active:6:0:1
expect ccws_l1q 0 "" -- $W run -q $S --design ccws -o mem_stage=l1q -o mem_issue_ahead=4
expect ccws_ifetch 0 "" -- $W run -q $S --design ccws -o ifetch=1

# Barriers under a warp limit of 1 (rodinia/backprop deadlocked before the
# barrier rule): the run finishes or stops at -max_cycles, never deadlocks.
expect limit1_barriers 0 "" -- $W run -q --workload rodinia/backprop -o max_warp_limit=1 -o max_cycles=20000
expect swl1_barriers 0 "" -- $W run -q --workload parboil/sgemm -o controllers=swl:warp_limit=1 -o max_cycles=20000

echo "cli_control: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
