#!/bin/sh
# CLI behaviour of `warpcache`: exit statuses, error messages (file, line,
# reason), output formats and determinism.  Prints "cli_run: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

expect help 0 "usage: warpcache COMMAND" -- $W --help
expect run_help 0 "workload NAME" -- $W run --help
expect no_command 2 "usage" -- $W
expect unknown_command 2 "unknown command 'frobnicate'" -- $W frobnicate
expect unknown_workload 2 "unknown workload 'nosuch'" -- $W run --workload nosuch
expect bad_param 2 "unknown parameter 'bogus'" -- $W run --workload micro/stream:bogus=1
expect bad_param_value 2 "stride=abc is not an unsigned integer" -- $W run --workload micro/stride:stride=abc
expect both_inputs 2 "exactly one" -- $W run --workload micro/stream --trace x
expect missing_config 2 "nosuch.config" -- $W run --workload micro/stream --config "$T/nosuch.config"
printf -- '-gpgpu_n_clusters 15\n-gpgpu_cache:dl1 N:0:128:4,L:L:m:N:H,A:32:8,8\n' >"$T/zero.config"
expect zero_sets 2 "zero.config:2" -- $W run --workload micro/stream --config "$T/zero.config"
expect bad_override 2 "gpgpu_n_clusters" -- $W run --workload micro/stream -o gpgpu_n_clusters=abc
expect unknown_override 2 "unknown option 'no_such_option'" -- $W run --workload micro/stream -o no_such_option=1
expect bad_l1_org 2 "l1_org" -- $W run --workload micro/stream:n=1024 -o l1_org=nosuch
# Plug-in parameters (declared in the plug-in's file): listed, checked, exit 2 naming them.
expect plugin_option_listed 0 "ship_sig_bits" -- $W config --options
expect plugin_bad_value 2 "option -ship_sig_bits: 99 is out of range" -- $W run --workload micro/stream:n=1024 -o ship_sig_bits=99
printf -- '-ship_ctr_bits 9\n' >"$T/plugin.config"
expect plugin_bad_in_file 2 "plugin.config:1: option -ship_ctr_bits" -- $W run --workload micro/stream:n=1024 --config "$T/plugin.config"
expect plugin_set 0 "" -- $W run -q --workload micro/stream:n=1024 -o ship_sig_bits=8 -o 'gpgpu_cache:dl1=N:32:128:4,S:L:m:N:H,A:32:8,8'
# Transfer geometry: a coalescing size larger than the L1 line is refused.
expect coalesce_above_line 2 "option -coalesce_bytes: 256 is not allowed with 128-byte L1 lines" -- $W run --workload micro/stream:n=1024 -o coalesce_bytes=256
expect list 0 "micro/colcopy" -- $W list
expect config_dump 0 "gpgpu_cache:dl1" -- $W config
expect real_config 0 "ignored" -- $W run --workload micro/stream:n=4096 --config ../shared/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config

# JSON has the documented names; CSV has a header and a total row.
$W run -q --workload micro/stride:n=32768,stride=4 --json "$T/a.json" --csv "$T/a.csv" >"$T/a.txt" 2>&1
missing=""
for key in '"totals"' '"cycles"' '"ipc"' '"accesses"' '"misses"' '"miss_rate"' '"line_alloc"' \
           '"read_bytes"' '"write_bytes"' '"l1_to_l2_bytes"' '"l2_to_l1_bytes"'; do
  grep -q "$key" "$T/a.json" || missing="$missing $key"
done
[ -z "$missing" ] && ok json_keys || bad json_keys "missing$missing"
if command -v python3 >/dev/null 2>&1; then
  python3 -c "import json,sys; d=json.load(open('$T/a.json')); assert d['totals']['l1']['accesses']>0; assert 'line_alloc' in d['totals']['l1']['reservation_fails']" \
    && ok json_parses || bad json_parses "python3 could not parse or find totals.l1"
fi
head -n 1 "$T/a.csv" | grep -q '^workload,kernel,id,cycles' && grep -q ',total,' "$T/a.csv" && ok csv || bad csv "header or total row"
grep -q "L1 miss rate" "$T/a.txt" && ok text_table || bad text_table "no table"

# Same inputs and seed -> identical bytes.
$W run -q --workload micro/stride:n=32768,stride=4 --json "$T/b.json" >/dev/null 2>&1
cmp -s "$T/a.json" "$T/b.json" && ok deterministic || bad deterministic "JSON differs between runs"

# Progress goes to stderr only when it is a terminal: nothing here.
$W run --workload micro/stream:n=4096 >/dev/null 2>"$T/err"
[ ! -s "$T/err" ] && ok silent_stderr || bad silent_stderr "$(head -c 200 "$T/err")"

expect max_cycles 0 "stopped after -max_cycles=2000" -- $W run --workload micro/colcopy:h=256 -o max_cycles=2000

# validate: one warp of colcopy reads 32 rows of 1024 floats, 32 lines, each
# line read 32 times: 1/32 = 3.125 % load misses in both simulator and model.
expect validate_needs_workload 2 "at least one --workload" -- $W validate
if ! command -v python3 >/dev/null 2>&1; then
  echo "validate skipped: python3 missing (not counted)"
elif $W validate -q -w micro/colcopy:h=32 --json "$T/v.json" >"$T/v.txt" 2>&1 &&
   grep -q "mean absolute error" "$T/v.txt" &&
   python3 -c "import json; d=json.load(open('$T/v.json')); k=d['kernels'][0]; assert abs(k['simulator_miss_rate']-1/32)<1e-9, k; assert abs(k['model_miss_rate']-1/32)<0.002, k"; then
  ok validate
else
  bad validate "$(head -c 300 "$T/v.txt")"
fi
# The model reads a .trc once (re-encoded as a temporary .wct for its four
# classification passes) and must give what it gives on the workload itself.
if ! command -v python3 >/dev/null 2>&1; then
  echo "model_trc_same skipped: python3 missing (not counted)"
elif $W trace convert micro/colcopy:h=64 "$T/cc.trc" >/dev/null 2>&1 &&
   $W model -q --workload micro/colcopy:h=64 --json "$T/m1.json" >/dev/null 2>&1 &&
   $W model -q --trace "$T/cc_00.trc" --json "$T/m2.json" >/dev/null 2>&1 &&
   python3 -c "
import json
a = json.load(open('$T/m1.json')); b = json.load(open('$T/m2.json'))
ka, kb = a['kernels'][0], b['kernels'][0]
strip = lambda k: {x: y for x, y in k.items() if x not in ('name', 'id')}
assert strip(ka) == strip(kb), (ka, kb)
" && [ -z "$(ls /tmp/warpcache-model-* 2>/dev/null)" ]; then
  ok model_trc_same
else
  bad model_trc_same "model on .trc differs from the workload, or a temporary file was left"
fi
expect model_runs 0 "compulsory" -- $W model -w micro/colcopy:h=64
expect mrc_runs 0 "" -- $W mrc -w micro/stride:n=8192,stride=2
expect trace_info 0 "warp instructions" -- $W trace info ../shared/data/traces/accelsim/matrixmul-32-32/kernelslist.g
expect run_trace 0 "_Z8mult_gpu" -- $W run -q --trace ../shared/data/traces/accelsim/matrixmul-32-32/kernelslist.g
expect run_missing_trace 2 "nosuch" -- $W run --trace "$T/nosuch/kernelslist.g"

echo "cli_run: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
