#!/bin/sh
# cli_params.sh - plug-in parameters (params.h) on the command line: every
# family's bad value is refused when the configuration is read (`config`
# refuses what `run` refuses, exit 2, blaming the -o option or FILE:LINE), and
# the listings hold every registered plug-in with every declared parameter.
# The registry is read from the plug-in sources (each ops table's .name and
# its schema's .key lines), not from the program's output.
cd "$(dirname "$0")/.." || exit 1
. tests/clilib.sh
S="-q -w micro/stream:n=64"

# ---- config -o refuses what run refuses, naming the -o -------------------------
check_both() { # NAME OPTION=VALUE MESSAGE
  expect "config_$1" 2 "^warpcache: -o $2: $3" -- $W config -o "$2"
  expect "run_$1" 2 "^warpcache: -o $2: $3" -- $W run $S -o "$2"
}
check_both ctl_unknown controllers=nosuch "option -controllers: unknown controller 'nosuch'"
check_both ctl_name controllers=swll:warp_limit=2 "option -controllers: unknown controller 'swll' (did you mean 'swl'?"
check_both stage_name mem_stage=mrbp "option -mem_stage: unknown memory stage 'mrbp' (did you mean 'mrpb'?"
check_both sched_name gpgpu_scheduler=gt0 "option -gpgpu_scheduler: scheduler \"gt0\" is not supported (did you mean 'gto'?"
check_both ctl_key controllers=swl:warp_limt=4 "option -controllers: swl: unknown parameter 'warp_limt' (did you mean 'warp_limit'?"
check_both ctl_range controllers=swl:warp_limit=0 "option -controllers: swl: warp_limit=0: must be a whole number from 1 to 65536"
check_both ctl_required controllers=swl "option -controllers: swl: give warp_limit=N"
check_both ctl_enum controllers=dwt_cs:unit=kc "option -controllers: dwt_cs: unit=kc: must be cycles|insts"
check_both ctl_double controllers=stream_bypass:threshold=101 "option -controllers: stream_bypass: threshold=101: must be a number from 0 to 100"
check_both ctl_l1_mode controllers=sm_dueling "option -controllers: sm_dueling switches the L1 organisation's mode"
check_both stage_range mem_stage=mrpb:latency=1001 "option -mem_stage: mrpb: latency=1001: must be a whole number from 0 to 1000"
check_both stage_bool mem_stage=mrpb:flush=2 "option -mem_stage: mrpb: flush=2: must be 0 or 1"
check_both stage_hex mem_stage=l1q:depth=0x8 "option -mem_stage: l1q: depth=0x8: numbers are plain decimal"
check_both stage_none mem_stage=inorder:depth=4 "option -mem_stage: inorder: takes no parameters"
check_both sched_positional gpgpu_scheduler=two_level_active:0:0:1 "option -gpgpu_scheduler: two_level_active: active=0: must be a whole number from 1 to 65535"
check_both sched_none gpgpu_scheduler=gto:6:0:1 "option -gpgpu_scheduler: gto: takes no parameters"
check_both sched_key gpgpu_scheduler=two_level_active:actve=4 "option -gpgpu_scheduler: two_level_active: unknown parameter 'actve' (did you mean 'active'?"
check_both icnt_range icnt_model=islip:buf=0 "option -icnt_model: islip: buf=0: must be a whole number from 1 to 65536 flits"
check_both icnt_twice icnt_model=islip:speedup=2,internal_speedup=3 "option -icnt_model: islip: parameter 'speedup' is given twice"
check_both pow2 tsc_chunk_bytes=24 "option -tsc_chunk_bytes: 24 is not a power of two"
# good values of each family pass config
expect config_good 0 "" -- $W config -o controllers=swl:warp_limit=2+stream_bypass:level=l2,threshold=85.5 \
  -o mem_stage=mrpb:sig=block,len=16 -o gpgpu_scheduler=two_level_active:4:0:1 -o icnt_model=islip:vc_buf_size=8
expect run_alias 0 "" -- $W run $S -o icnt_model=islip:internal_speedup=1.5,vc_buf_size=8

# ---- a file's bad line is named with its line ----------------------------------
printf -- '# a design\n-controllers swl:warp_limit=4\n-mem_stage mrpb:len=0\n' >"$T/bad-stage.config"
expect design_line 2 "^warpcache: .*bad-stage.config:3: option -mem_stage: mrpb: len=0: must be a whole number" -- \
  $W config --design "$T/bad-stage.config"
expect design_line_run 2 "^warpcache: .*bad-stage.config:3: option -mem_stage: mrpb: len=0" -- \
  $W run $S --design "$T/bad-stage.config"
printf -- '-gpgpu_n_mem 6\n-controllers ccws:vta_ways=65\n' >"$T/bad-ctl.config"
expect config_file_line 2 "^warpcache: .*bad-ctl.config:2: option -controllers: ccws: vta_ways=65: must be a whole number from 1 to 64" -- \
  $W config --config "$T/bad-ctl.config"

# ---- listings: every registered plug-in with every declared parameter ----------
# The registry from the sources: the names of the ops tables of a family's folder
# and, per file, the keys its schema declares.
names_of() { # FILE OPS_TYPE: the .name of the file's ops table
  awk -v t="$2" '$0 ~ "^(static )?const " t " " { inops = 1 } inops && /\.name = "/ { sub(/.*\.name = "/, ""); sub(/".*/, ""); print; exit }' "$1"
}
keys_of() { # FILE: the keys of the schema its ops table points at (.params = SYMBOL),
  # which may be defined in another file of the folder (ccws.c for ctl_ccws.c)
  sym=$(grep -o '\.params = [A-Za-z_0-9]*' "$1" | head -n 1 | sed 's/.* //')
  [ -n "$sym" ] || return 0
  def=$(grep -l "wc_param_desc $sym\[\] = {" "$(dirname "$1")"/*.c | head -n 1)
  awk -v s="$sym" '$0 ~ "wc_param_desc " s "\\[\\] = \\{" { on = 1 } on && /^};/ { exit } on' "$def" |
    grep -o '\.key = "[a-z_0-9]*"' | sed 's/.*"\(.*\)"/\1/'
}
check_family() { # LIST_CATEGORY OPS_TYPE OPTION FILES...
  cat=$1 ops=$2 opt=$3; shift 3
  "$W" list "$cat" >"$T/list.txt" 2>&1 || bad "list_$cat" "exit $?"
  "$W" config --options >"$T/options.txt" 2>&1
  for f in "$@"; do
    name=$(names_of "$f" "$ops")
    [ -n "$name" ] || continue
    if grep -q "^$name " "$T/list.txt"; then ok "list_${cat}_$name"; else bad "list_${cat}_$name" "$name missing: $(cat "$T/list.txt")"; fi
    for k in $(keys_of "$f"); do
      if grep -q "^ *$k=" "$T/list.txt"; then ok "list_${name}_$k"; else bad "list_${name}_$k" "no '$k=' under $name"; fi
      if grep -q -- "^-$opt $name:$k=" "$T/options.txt"; then ok "options_${name}_$k"; else bad "options_${name}_$k" "config --options lacks -$opt $name:$k="; fi
    done
  done
}
check_family controllers wc_controller_ops controllers src/core/controllers/ctl_*.c
check_family stages wc_mstage_ops mem_stage src/core/stages/memstage_*.c
check_family schedulers wc_sched_ops gpgpu_scheduler src/core/schedulers/sched_*.c
# the count: as many controllers listed as the sources define
want=$(for f in src/core/controllers/ctl_*.c; do names_of "$f" wc_controller_ops; done | grep -c .)
got=$("$W" list controllers | grep -c '^[a-z]')
if [ "$want" -eq "$got" ] && [ "$want" -ge 5 ]; then ok list_controllers_count; else bad list_controllers_count "sources $want, listed $got"; fi
expect list_tsv 0 "^stages	-mem_stage	mrpb	len	unsigned	8	1	1024	entries	0" -- $W list parameters --tsv
expect list_tsv_only 2 "--tsv applies to 'list parameters' only" -- $W list controllers --tsv
expect list_unknown 2 "categories: workloads, designs, controllers, knobs, stats, stages" -- $W list controlers
# the knobs from their declarations (knob.h): the warp limit's range is -max_warp_limit's
expect list_knobs 0 "^warp_limit  *0\.\.65536  *warp schedulers" -- $W list knobs
expect list_knobs_bool 0 "^l2_bypass  *0\.\.1  *memory side" -- $W list knobs

# ---- parsed once, by the layer that owns the value ------------------------------
# The engine and the memory side read option text with their own parsers
# (issue_ahead.c, dram.c, xbar.c, the plug-in schemas), which the configuration
# calls to check it; they never call back into src/config/ to re-parse.
up=$(grep -rlE 'wc_config_(dram_access_cycles|mem_issue_ahead)|config/config_internal\.h' src/core src/mem src/cache)
if [ -z "$up" ]; then ok no_calls_into_config; else bad no_calls_into_config "$up"; fi

echo "cli_params: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
