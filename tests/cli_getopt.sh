#!/bin/sh
# GNU option conventions for every command (issue 26, item 2): --opt=value,
# a flag never taken as a value, "did you mean" for options, workloads,
# designs, metrics, suites and oracles, `list WORKLOAD`, list cells that are
# never cut inside a word, suite:params for run, and one meaning of -q and
# -o.  Expected values are derived by hand in the comments.
# Prints "cli_getopt: N passed, N failed".
. "$(dirname "$0")/clilib.sh"
R=$(cd "$(dirname "$0")/.." && pwd)
# lines of stdout+stderr of the last `expect` matching a pattern
has() { grep -q -- "$2" "$T/out" && ok "$1" || bad "$1" "no '$2' in: $(head -c 300 "$T/out")"; }

# ---- --opt=value is the same as --opt value ----
printf -- '-gpgpu_n_clusters 3\n' >"$T/three.config"
expect config_eq 0 "^-gpgpu_n_clusters 3$" -- $W config --config="$T/three.config"
expect config_eq_short_o 0 "^-gpgpu_n_clusters 5$" -- $W config -o gpgpu_n_clusters=5
# -oVALUE (a short option's value attached) and -o -NAME=VALUE (a setting
# that starts with '-', as in configuration files)
expect o_attached 0 "^-gpgpu_n_clusters 6$" -- $W config -ogpgpu_n_clusters=6
expect o_dash_setting 0 "^-gpgpu_n_clusters 7$" -- $W config -o -gpgpu_n_clusters=7
expect seed_eq 0 "" -- $W run -q -w micro/stream:n=64 --seed=0x10
expect json_eq_stdout 0 '"workload": "micro/stream:n=64"' -- $W run -q -w micro/stream:n=64 --json=-
expect design_eq 0 "" -- $W config --design=base-48k
expect workload_eq 0 "^workload: micro/stream:n=64" -- $W run -q --workload=micro/stream:n=64

# ---- a flag is never taken as a value ----
# mrc --svg -q wrote the curve to a file named "-q" (and ran without -q)
(cd "$T" && "$W" mrc -w micro/stream:n=64 --svg -q) >"$T/out" 2>&1; st=$?
[ $st -eq 2 ] && ok svg_flag_status || bad svg_flag_status "exit $st"
has svg_flag_message "mrc: option --svg needs a file name (FILE), but '-q' is an option; if '-q' is meant, write --svg=-q"
[ -e "$T/-q" ] && bad svg_flag_no_file "a file named -q was written" || ok svg_flag_no_file
# ... --svg=-q says that it is meant
rm -f "$T/-q"
(cd "$T" && "$W" mrc -q -w micro/stream:n=64 --svg=-q) >"$T/out" 2>&1
[ -s "$T/-q" ] && grep -q "<svg" "$T/-q" && ok svg_eq_dash_name || bad svg_eq_dash_name "$(head -c 200 "$T/out")"
expect json_then_flag 2 "option --json needs a file name (FILE|-), but '--csv' is an option" -- $W run -w micro/stream:n=64 --json --csv x.csv
expect o_flag 2 "option -o needs a value (NAME=VALUE), but '-q' is an option" -- $W run -w micro/stream:n=64 -o -q
# (in $T: an old binary took --resume for the results file and wrote it)
expect results_flag 2 "sweep: option --results needs a file name (FILE), but '--resume' is an option" -- sh -c "cd '$T' && '$W' sweep --results --resume -g l1_assoc=4 -w micro/stream:n=64"
expect value_missing_end 2 "run: option --trace needs a value: a file name (PATH)" -- $W run --trace
# a negative number is a value (and then refused for what it is)
expect seed_negative 2 "option --seed: '-5' is not an unsigned integer" -- $W run -q -w micro/stream:n=64 --seed -5
# a flag given a value
expect flag_value 2 "run: option --quiet takes no value" -- $W run -w micro/stream:n=64 --quiet=yes
# "--" ends the options: what follows is an argument
expect dashdash 2 "run: unexpected argument '-q'" -- $W run -w micro/stream:n=64 -- -q

# ---- "did you mean" ----
expect opt_typo 2 "run: unknown option '--confg' (did you mean --config?" -- $W run -w micro/stream:n=64 --confg x
expect opt_typo_eq 2 "unknown option '--confg=x' (did you mean --config?" -- $W run -w micro/stream:n=64 --confg=x
expect opt_one_dash 2 "unknown option '-quiet' (did you mean --quiet?" -- $W run -w micro/stream:n=64 -quiet
expect opt_typo_compare 2 "compare: unknown option '--metrc' (did you mean --metric?" -- $W compare --designs base -w micro/stream:n=64 --metrc ipc
expect opt_typo_sweep 2 "sweep: unknown option '--keep-goin' (did you mean --keep-going?" -- $W sweep --results "$T/s.jsonl" -g l1_assoc=4 -w micro/stream:n=64 --keep-goin
expect opt_typo_report 2 "report: unknown option '--svgdir' (did you mean --svg-dir?" -- $W report x.json --output "$T/r.html" --svgdir d
expect opt_typo_list 2 "list: unknown option '--suit' (did you mean --suite?" -- $W list --suit micro
expect opt_typo_trace 2 "trace: unknown option '--codex' (did you mean --codec?" -- $W trace info x --codex zstd
expect opt_typo_merge 2 "merge: unknown option '--point' (did you mean --points?" -- $W merge out a --point 3
expect opt_typo_model 2 "model: unknown option '--no-clasify' (did you mean --no-classify?" -- $W model -w micro/stream:n=64 --no-clasify
expect opt_typo_mrc 2 "mrc: unknown option '--max-line' (did you mean --max-lines?" -- $W mrc -w micro/stream:n=64 --max-line 3
expect opt_typo_validate 2 "validate: unknown option '--workloads' (did you mean --workload?" -- $W validate --workloads micro/stream
expect opt_typo_oracle 2 "oracle: unknown option '--limit' (did you mean --limits?" -- $W oracle swt -w micro/stream:n=64 --limit 2
expect opt_typo_config 2 "config: unknown option '--option' (did you mean --options?" -- $W config --option
# an option of another command (or nothing near) gets the pointer to --help
expect opt_unknown_far 2 "run: unknown option '--zzzzzz' ('warpcache run --help' lists them)" -- $W run --zzzzzz
# names: polybench/atx is one deletion from polybench/atax; atx one from
# atax (a short name stands for polybench/atax); base-48 one from base-48k;
# l1_mis_rate one from l1_miss_rate (an alias of l1.miss_rate); polybnch
# one from polybench; swtt one from swt
expect wl_typo 2 "unknown workload 'polybench/atx' (did you mean 'polybench/atax'?" -- $W run -q -w polybench/atx
expect wl_typo_short 2 "unknown workload 'atx' (did you mean 'polybench/atax'?" -- $W run -q -w atx
expect wl_typo_compare 2 "unknown workload or suite 'polybench/atx' (did you mean 'polybench/atax'?" -- $W compare --designs base -w polybench/atx
expect suite_typo_compare 2 "unknown workload or suite 'polybnch' (did you mean 'polybench'?" -- $W compare --designs base -w polybnch:scale=0.5
expect suite_typo_list 2 "unknown suite 'polybnch' (did you mean 'polybench'?" -- $W list --suite polybnch
expect design_typo 2 "unknown design 'base-48' (did you mean 'base-48k'?" -- $W config --design base-48
expect design_typo_compare 2 "unknown design 'base-48' (did you mean 'base-48k'?" -- $W compare --designs base,base-48 -w micro/stream:n=64
expect metric_typo 2 "unknown metric 'l1_mis_rate' (did you mean 'l1_miss_rate'?" -- $W compare --designs base -w micro/stream:n=64 --metric l1_mis_rate
expect oracle_typo 2 "unknown oracle 'swtt' (did you mean 'swt'?" -- $W oracle swtt -w micro/stream:n=64
expect list_typo 2 "unknown category, workload or suite 'desings' (did you mean 'designs'?" -- $W list desings
expect list_typo_wl 2 "unknown category, workload or suite 'polybench/atx' (did you mean 'polybench/atax'?" -- $W list polybench/atx
# far from everything: no guess
expect wl_far 2 "unknown workload 'nosuch' (warpcache list shows them)" -- $W run -q -w nosuch
# a suite where one workload is wanted: said so, not "unknown workload"
expect suite_model 2 "'polybench' is a suite, not one workload: name one of its members (e.g. polybench/atax)" -- \
  $W model -q -w polybench:scale=0.0625
expect suite_mrc 2 "'rodinia' is a suite, not one workload" -- $W mrc -q -w rodinia

# ---- list WORKLOAD: every parameter, default, range, meaning ----
# rodinia/nw reads size (default 2048, 16..65536 = 1<<16, "multiple of 16,
# matrix is size+1 square" in its description) and shared (default 1, 0..1)
expect list_nw 0 "^size  *2048  *16\.\.65536  *multiple of 16, matrix is size+1 square$" -- $W list rodinia/nw
has list_nw_shared "^shared  *1  *0\.\.1  *0: seed 004's unshared NW/U"
has list_nw_kernels "kernels: *needle_cuda_shared_1 x size/16, needle_cuda_shared_2 x size/16-1"
# polybench/atax: scale is a number (default 1, 1/4096 = 0.000244141 to 64),
# nx and ny default 4096 ("nx=4096 ny=4096")
expect list_atax 0 "^scale  *1  *0\.000244141\.\.64  *scale=f multiplies every dimension" -- $W list polybench/atax
has list_atax_nx "^nx  *4096 "
has list_atax_ny "^ny  *4096 "
# the short name and "--" work too
expect list_short 0 "^polybench/atax (suite polybench)" -- $W list -- atax
# a suite name lists its workloads, as --suite does
$W list --suite micro >"$T/a" 2>&1
expect list_suite_name 0 "^micro/colcopy" -- $W list micro
cmp -s "$T/a" "$T/out" && ok list_suite_same || bad list_suite_same "list micro differs from list --suite micro"

# ---- list never cuts a word ----
# polybench/fdtd2d's kernels are "(fdtd_step1_kernel fdtd_step2_kernel
# fdtd_step3_kernel) x tmax": 62 characters, more than the 30-wide column,
# which printed "(fdtd_step1_kernel fdtd_step2_" and dropped the rest.
$W list >"$T/list" 2>&1
for k in fdtd_step2_kernel fdtd_step3_kernel; do
  grep -qw "$k" "$T/list" && ok "list_whole_$k" || bad "list_whole_$k" "not in list"
done
# every word of every workload's kernels field is in the listing whole
words_ok=1
for w in $(awk '/^[a-z0-9]+\/[^ ]+ / { print $1 }' "$T/list"); do
  $W list "$w" >"$T/one" 2>&1 || echo "list $w failed"
  sed -n 's/^  kernels: *//p' "$T/one" | tr ' ' '\n' | while read -r word; do
    [ -z "$word" ] && continue
    grep -qF -- "$word" "$T/list" || { echo "$w: $word"; }
  done
done >"$T/missing"
[ -s "$T/missing" ] && bad list_no_cut "$(head -3 "$T/missing")" || ok list_no_cut

# ---- run accepts suite:params as compare does ----
# polybench:scale=0.015625 runs every member of the polybench suite (as many
# as `list --suite polybench` has rows) with the parameter
n=$($W list --suite polybench | grep -c '^polybench/')
got=$($W run -q -w polybench:scale=0.015625 | grep -c '^workload: polybench/.*:scale=0.015625$')
[ "$n" -gt 0 ] && [ "$got" = "$n" ] && ok run_suite_params || bad run_suite_params "$got runs, expected $n"
expect run_suite_params_bad 2 "parameter 'nosuch'" -- $W run -q -w polybench:nosuch=1
# ... and validate (every polybench workload's kernels, each with the parameter)
got=$($W validate -q -w polybench:scale=0.015625 --json - | grep -o '"workload": "polybench/[^"]*:scale=0.015625"' | sort -u | wc -l)
[ "$got" -eq "$n" ] && ok validate_suite_params || bad validate_suite_params "$got workloads, expected $n"
# micro has three members (stream, stride, colcopy) but only stream and
# stride read n: colcopy refuses it, naming itself
expect validate_suite_params_each 2 "workload micro/colcopy: unknown parameter 'n'" -- $W validate -q -w micro:n=64

# ---- -q and -o mean the same everywhere ----
$W run -q -w micro/stream:n=4096 --json "$T/run.json" >/dev/null 2>&1
# report: --output is the page; -o still works but says it is deprecated
# (everywhere else -o is NAME=VALUE); -q silences that note
expect report_output 0 "" -- $W report "$T/run.json" --output "$T/r1.html"
[ -s "$T/r1.html" ] && ok report_output_written || bad report_output_written "no page"
expect report_output_eq 0 "" -- $W report "$T/run.json" --output="$T/r2.html"
cmp -s "$T/r1.html" "$T/r2.html" && ok report_output_eq_same || bad report_output_eq_same "pages differ"
expect report_o_deprecated 0 "report: -o FILE is deprecated (elsewhere -o sets NAME=VALUE); write --output FILE" -- $W report "$T/run.json" -o "$T/r3.html"
cmp -s "$T/r1.html" "$T/r3.html" && ok report_o_same || bad report_o_same "pages differ"
expect report_q 0 "" -- $W report -q "$T/run.json" -o "$T/r4.html"
[ -s "$T/out" ] && bad report_q_silent "$(cat "$T/out")" || ok report_q_silent
expect report_no_output 2 "report: option --output FILE.html is required" -- $W report "$T/run.json"
mkdir "$T/same"
expect report_overwrite_named 2 "options --output and --svg-dir both write" -- $W report "$T/run.json" --output "$T/same/p" --svg-dir "$T/same/p"
for c in run config model mrc validate compare sweep merge oracle trace report list; do
  $W $c --help >"$T/help" 2>&1
  grep -q -- "-q, --quiet" "$T/help" && ok "help_q_$c" || bad "help_q_$c" "no -q, --quiet in $c --help"
done
# trace convert -q: no "wrote" line
expect trace_q 0 "" -- $W trace convert -q micro/stream:n=64 "$T/s.wct"
[ -s "$T/out" ] && bad trace_q_silent "$(cat "$T/out")" || ok trace_q_silent

# ---- help comes from the option tables ----
expect help_run 0 "^  --timeline-csv FILE  the timeline controllers recorded" -- $W run --help
has help_run_common "^  -c, --config FILE"
has help_run_eq "^  --lenient-config"
# sweep words --csv its own way: listed once
expect help_sweep 0 "also write every point of FILE as CSV" -- $W sweep --help
[ "$(grep -c -- '--csv FILE' "$T/out")" = 1 ] && ok help_sweep_csv_once || bad help_sweep_csv_once "--csv listed $(grep -c -- '--csv FILE' "$T/out") times"
# model's own -o options come before the exit status, not after it
$W model --help >"$T/out" 2>&1
a=$(grep -n "^Model options" "$T/out" | cut -d: -f1); b=$(grep -n "^Exit status" "$T/out" | cut -d: -f1)
[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && [ "$(tail -n 1 "$T/out" | cut -c1-6)" = "failur" ] && ok help_model_order || bad help_model_order "Model options at line $a, exit status at $b"
# an option of another oracle says whose it is
expect oracle_other 2 "oracle swt: option --distances applies to oracle pdp-best only" -- $W oracle swt -w micro/stream:n=64 --distances=1-3

echo "cli_getopt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
