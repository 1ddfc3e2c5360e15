# The progress report (--progress, --progress-interval; src/cli/progress.c):
# it moves inside a kernel before any block finished; it counts kernels,
# simulations and workloads; `lines` writes whole lines (what a log or a batch
# system keeps), `bar` redraws one line, `auto` is lines when stderr is not a
# terminal, `none` and -q write nothing; the interval bounds how often it
# prints; and it changes nothing on stdout or in an output file.  What is
# printed when is made independent of the machine's speed with
# --progress-interval=0 (a report at every call of the simulator: each
# finished block and every 4096 simulated cycles).
. "$(dirname "$0")/clilib.sh"
# polybench/atax has two kernels (y = A^T (A x): tmp = A x, then y = A^T tmp)
# of a few long thread blocks each at this size: kernel 1 runs for several
# reports before its first block finishes.
WL=polybench/atax:scale=0.125
FAST="--progress-interval=0"

$W run --workload $WL --progress=lines $FAST --json "$T/lines.json" >"$T/lines.out" 2>"$T/lines.err"
# a kernel at 0 % reported (more than once): the simulator called back between blocks
n0=$(grep -c "^$WL: kernel 1/2 atax_kernel1: *0\.0% of [0-9]* blocks" "$T/lines.err")
[ "$n0" -ge 2 ] && ok lines_timer_inside_kernel || bad lines_timer_inside_kernel "$n0 reports at 0 %: $(head -c 300 "$T/lines.err")"
grep -q "^$WL: kernel 2/2 atax_kernel2" "$T/lines.err" && ok lines_kernel_k_of_n ||
  bad lines_kernel_k_of_n "no 'kernel 2/2': $(tail -c 300 "$T/lines.err")"
grep -q "ETA " "$T/lines.err" && ok lines_eta || bad lines_eta "no ETA: $(tail -c 300 "$T/lines.err")"
tail -n 1 "$T/lines.err" | grep -q "^$WL: finished in " && ok lines_last_line ||
  bad lines_last_line "$(tail -n 1 "$T/lines.err")"
if grep -q "$(printf '\r')" "$T/lines.err"; then bad lines_no_cr "a carriage return"; else ok lines_no_cr; fi

# the same run without a report: identical stdout and JSON
$W run --workload $WL --progress=none --json "$T/none.json" >"$T/none.out" 2>"$T/none.err"
cmp -s "$T/lines.out" "$T/none.out" && cmp -s "$T/lines.json" "$T/none.json" && ok same_results ||
  bad same_results "stdout or JSON differ with and without progress"
[ ! -s "$T/none.err" ] && ok none_silent || bad none_silent "$(head -c 300 "$T/none.err")"
$W run -q --workload $WL --progress=lines $FAST >/dev/null 2>"$T/q.err"
[ ! -s "$T/q.err" ] && ok quiet_wins || bad quiet_wins "$(head -c 300 "$T/q.err")"

# auto: stderr is a file here, so lines
$W run --workload $WL $FAST >/dev/null 2>"$T/auto.err"
grep -q "^$WL: kernel 1/2" "$T/auto.err" && ! grep -q "$(printf '\r')" "$T/auto.err" && ok auto_lines ||
  bad auto_lines "$(head -c 300 "$T/auto.err")"
# the interval bounds the rate: at most one report per 0.2 s of the run (and
# the closing line), however often the simulator calls back
t0=$(date +%s.%N)
$W run --workload polybench/atax:scale=0.25 --progress=lines --progress-interval=0.2 >/dev/null 2>"$T/rate.err"
t1=$(date +%s.%N)
n=$(grep -c ": kernel " "$T/rate.err")
max=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%d", (b - a) / 0.2 + 1}')
[ "$n" -le "$max" ] && ok interval_bounds_rate || bad interval_bounds_rate "$n reports in $max intervals"
# auto's default interval for lines is 10 s: nothing in a second-long run
$W run --workload $WL >/dev/null 2>"$T/auto10.err"
[ ! -s "$T/auto10.err" ] && ok auto_interval_10s || bad auto_interval_10s "$(head -c 300 "$T/auto10.err")"
# bar: one line redrawn (carriage return, erase to the end of the line)
$W run --workload $WL --progress=bar $FAST >/dev/null 2>"$T/bar.err"
grep -q "$(printf '\r\033')\[K$WL: kernel 1/2" "$T/bar.err" && ok bar_redraws || bad bar_redraws "$(head -c 200 "$T/bar.err" | od -c | head -3)"

# compare: simulation and workload counts, and reports while the first
# simulation runs (the line does not wait for a simulation to finish)
$W compare --designs base,base-48k -w $WL -w micro/colcopy:h=256 -j 1 --progress=lines $FAST \
  >"$T/cmp.out" 2>"$T/cmp.err"
grep -q "^compare: 0/4 simulations done, 1 running; $WL (workload 1/2): kernel 1/2" "$T/cmp.err" &&
  ok compare_inside_first || bad compare_inside_first "$(head -c 300 "$T/cmp.err")"
grep -q "^compare: [23]/4 simulations done, 1 running; micro/colcopy:h=256 (workload 2/2): kernel 1/1" "$T/cmp.err" &&
  ok compare_workload_i_of_m || bad compare_workload_i_of_m "$(tail -c 400 "$T/cmp.err")"
$W compare --designs base,base-48k -w $WL -w micro/colcopy:h=256 -j 1 -q >"$T/cmpq.out" 2>&1
cmp -s "$T/cmp.out" "$T/cmpq.out" && ok compare_same_table || bad compare_same_table "table differs"

# sweep
$W sweep -g l1_assoc=2,4 -w $WL --results "$T/sw.jsonl" -j 1 --progress=lines $FAST >/dev/null 2>"$T/sw.err"
grep -q "^sweep: 1/2 simulations done, 1 running; $WL (workload 1/1): kernel" "$T/sw.err" &&
  ok sweep_counts || bad sweep_counts "$(head -c 400 "$T/sw.err")"
$W sweep -g l1_assoc=2,4 -w $WL --results "$T/swq.jsonl" -j 1 -q >/dev/null 2>&1
cmp -s "$T/sw.jsonl" "$T/swq.jsonl" && ok sweep_same_results || bad sweep_same_results "results differ"

# bad values: exit 2, saying what is accepted
expect bad_mode 2 "option --progress: 'sometimes' is not one of auto, bar, lines, none" -- \
  $W run --workload $WL --progress=sometimes
expect bad_interval 2 "option --progress-interval: '-1' is not a number of seconds" -- \
  $W run --workload $WL --progress-interval -1
expect bad_interval_text 2 "option --progress-interval: '1s' is not a number of seconds" -- \
  $W run --workload $WL --progress-interval=1s
expect missing_mode 2 "option --progress" -- $W run --workload $WL --progress
expect separate_value 0 "" -- $W run --workload micro/colcopy:h=64 --progress none
# a command without a progress report refuses the option instead of ignoring it
expect validate_refuses 2 "progress=none" -- $W validate -w micro/colcopy:h=64 --progress=none

echo "cli_progress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
