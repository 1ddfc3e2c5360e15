#!/bin/sh
# CLI behaviour of seed 001's designs: dl1d-static, ball, pdp and dl1d are
# listed with their paper, run, and report BYPASSED as an outcome; dl1d's SM
# dueling writes its decisions to the timeline; bad parameters exit 2 naming
# the option.  Prints "cli_dl1d: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

$W list designs >"$T/designs" 2>&1
for d in dl1d dl1d-static ball pdp; do
  grep -q "^$d " "$T/designs" && ok "listed_$d" || bad "listed_$d" "not in list designs"
done
grep -A1 '^dl1d ' "$T/designs" | grep -q 'paper: 001_94c1440347ca7d61.txt section 4.3' && ok dl1d_paper ||
  bad dl1d_paper "no paper line"

WL=micro/colcopy:h=64
# BALL: every read is a bypass, none hits (colcopy h=64: 65536 read requests).
$W run -w $WL --design ball --json "$T/ball.json" -q >/dev/null 2>&1
l1hits=$(awk '/"l1": \{/ {f = 1} f && /"hits"/ {print $2; exit}' "$T/ball.json")
l1byp=$(awk '/"l1": \{/ {f = 1} f && /"bypasses"/ {print $2; exit}' "$T/ball.json")
[ "$l1hits" = "0," ] && [ "$l1byp" = "65536," ] && ok ball_json ||
  bad ball_json "$(grep -o '"l1": {[^}]*' "$T/ball.json" | head -c 300)"
expect dl1d_static_runs 0 "L1 bypasses" -- $W run -w $WL --design dl1d-static
expect pdp_runs 0 "pdp_bypasses" -- $W run -w $WL --design pdp

# dl1d: the first decision (baseline, 1) at cycle 0, as a timeline event.
$W run -w $WL --design dl1d --timeline-csv "$T/tl.csv" -q >/dev/null 2>&1
grep -q '^micro/colcopy:h=64,0,-1,sm_dueling,1$' "$T/tl.csv" && ok dueling_timeline ||
  bad dueling_timeline "$(head -3 "$T/tl.csv")"

expect bad_threshold 2 "threshold=200" -- $W run -w $WL --design dl1d -o controllers=sm_dueling:threshold=200
expect bad_interval 2 "interval" -- $W run -w $WL -o controllers=sm_dueling:interval=0
expect bad_rc_bits 2 "dl1d_rc_bits" -- $W run -w $WL --design dl1d-static -o dl1d_rc_bits=9
expect dl1d_on_fill 2 "allocate-on-miss" -- $W run -w $WL --design dl1d-static \
  -o gpgpu_cache:dl1=N:32:128:4,L:L:f:N:H,A:32:8,8
expect bad_pdp 2 "pdp_distance" -- $W run -w $WL --design pdp -o pdp_distance=0

echo "cli_dl1d: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
