#!/bin/sh
# CLI behaviour of designs, `compare` and `sweep`: the order in which settings
# apply (file, design, -o), design lookup from any directory, bad names and
# values (exit 2), -j 1 vs -j 2 byte-identical output, and sweep resume after
# a torn last line or kill -9.  Prints "cli_experiments: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

expect list_designs 0 "paper: 004_0fcfedff3b0ef5ba.txt Table 1 (Base-L)" -- $W list designs
expect bad_design 2 "unknown design 'nosuch' (known: .*base-48k" -- $W run -w micro/stream:n=4096 --design nosuch
expect bad_design_compare 2 "unknown design 'nosuch'" -- $W compare --designs base,nosuch -w micro/stream:n=4096
# An empty element of --designs is a lost design, not one to skip (was: exit 0
# with base alone); an unknown --by-class seed made an empty "999:-" group.
expect designs_trailing_comma 2 "option --designs: 'base,' has an empty design name" -- $W compare --designs base, -w micro/stream:n=4096
expect designs_double_comma 2 "known designs: .*ball" -- $W compare --designs base,,ball -w micro/stream:n=4096
expect designs_leading_comma 2 "empty design name" -- $W sweep --designs ,base -w micro/stream:n=4096 --results "$T/never.jsonl"
expect by_class_unknown 2 "no workload has a class of seed '999' (seeds with classes: 000, 001, 002, 003, 004)" -- $W compare --designs base -w micro/stream:n=4096 --by-class 999
expect by_class_oracle 2 "seed '9'" -- $W oracle pdp-best -w micro/stream:n=4096 --by-class 9

# Order: the file sets the scheduler and a 2-way L1; the design replaces the
# L1 (64 sets x 6 ways) and sets 16 KB shared memory; -o then replaces the
# shared memory size.  Each layer wins over the one before, and only there.
printf -- '-gpgpu_scheduler lrr\n-gpgpu_cache:dl1 N:32:128:2,L:L:m:N:H,A:32:8,8\n-gpgpu_shmem_size 4096\n' >"$T/f.config"
$W config --config "$T/f.config" --design base-48k -o gpgpu_shmem_size=8192 >"$T/dump" 2>&1
if grep -q '^-gpgpu_scheduler *lrr' "$T/dump" && grep -q '^-gpgpu_cache:dl1 *N:64:128:6,' "$T/dump" &&
   grep -q '^-gpgpu_shmem_size *8192' "$T/dump"; then ok order_file_design_o
else bad order_file_design_o "$(grep -E 'scheduler|dl1|shmem' "$T/dump")"; fi
# -o also takes the geometry aliases: 4 ways -> 8 ways, sets kept
$W config -o l1_assoc=8 | grep -q '^-gpgpu_cache:dl1 *N:32:128:8,' && ok o_alias || bad o_alias "l1_assoc"

# Designs are found from any directory (beside the executable), and in $WARPCACHE_DESIGNS.
(cd / && $W config --design l1-20k) | grep -q 'N:32:128:5,' && ok design_any_cwd || bad design_any_cwd "l1-20k from /"
mkdir -p "$T/d"
printf '# mine\n# paper: none (baseline variant)\n-gpgpu_scheduler lrr\n' >"$T/d/mine.config"
WARPCACHE_DESIGNS="$T/d" $W list designs | grep -q '^mine ' && ok design_env_list || bad design_env_list "mine not listed"
(WARPCACHE_DESIGNS="$T/d" $W config --design mine) | grep -q '^-gpgpu_scheduler *lrr' && ok design_env || bad design_env "mine"
$W config --design "$T/d/mine.config" | grep -q '^-gpgpu_scheduler *lrr' && ok design_path || bad design_path "path"
printf '# typo\n-gpgpu_no_such_option 1\n' >"$T/d/typo.config"
expect design_unknown_option 2 "typo.config:2: unknown option -gpgpu_no_such_option" -- $W config --design "$T/d/typo.config"
# a GPGPU-Sim option a design sets is not modelled: refused too
printf '# unmodelled\n-gpgpu_ptx_sim_mode 0\n' >"$T/d/unmod.config"
expect design_unmodelled_option 2 "options not modelled: gpgpu_ptx_sim_mode" -- $W config --design "$T/d/unmod.config"

# compare: every output identical at -j 1 and -j 2.
CMP="--designs base,base-48k,full-assoc -w polybench/atax:scale=0.0625 -w polybench/mvt:scale=0.0625 -w micro/stream:n=16384 --by-class 004 -q"
$W compare $CMP -j 1 --json "$T/c1.json" --csv "$T/c1.csv" --wide-csv "$T/w1.csv" >"$T/c1.txt" 2>&1
$W compare $CMP -j 2 --json "$T/c2.json" --csv "$T/c2.csv" --wide-csv "$T/w2.csv" >"$T/c2.txt" 2>&1
if cmp -s "$T/c1.json" "$T/c2.json" && cmp -s "$T/c1.csv" "$T/c2.csv" && cmp -s "$T/w1.csv" "$T/w2.csv" &&
   cmp -s "$T/c1.txt" "$T/c2.txt" && [ -s "$T/c1.json" ]; then ok compare_j1_j2
else bad compare_j1_j2 "outputs differ"; fi
grep -q '"schema_version": 1' "$T/c1.json" && ok compare_schema || bad compare_schema "no schema_version"
grep -q '^geomean,004:IW,' "$T/c1.csv" && grep -q '^data,polybench/atax:scale=0.0625,,,004:IW,ipc,1,' "$T/c1.csv" &&
  ok compare_csv || bad compare_csv "$(head -3 "$T/c1.csv")"
# get_stats.py layout: a line of 100 dashes and one comma per design, the statistic, APPS + designs
if head -n 3 "$T/w1.csv" | sed -n 1p | grep -q '^-\{100\},,,$' && sed -n 2p "$T/w1.csv" | grep -q '^cycles,,,$' &&
   sed -n 3p "$T/w1.csv" | grep -q '^APPS,base,base-48k,full-assoc$' &&
   grep -q '^polybench/atax:scale=0.0625--atax_kernel1,' "$T/w1.csv"; then ok wide_csv
else bad wide_csv "$(head -4 "$T/w1.csv")"; fi
# The reference design's own column is 1.000 and the means of a design
# against itself are 1: compare a design with itself.
$W compare -q --designs base,base -w micro/stream:n=8192 -w micro/colcopy:h=64 >"$T/self.txt" 2>&1
grep -q '^geomean all (2) *1.000 *1.000$' "$T/self.txt" && ok compare_self || bad compare_self "$(cat "$T/self.txt")"
expect compare_bad_metric 2 "unknown metric 'bogus'" -- $W compare --designs base -w micro/stream --metric bogus
expect compare_metric_alias 0 "icnt.l2_to_l1_bytes" -- $W compare -q --designs base -w micro/stream:n=4096 --metric l2_to_l1_bytes
# A bad workload parameter is found before any simulation runs.
expect compare_bad_workload 2 "unknown parameter 'bogus'" -- $W compare --designs base -w polybench/atax:bogus=1
expect sweep_bad_workload 2 "unknown parameter 'bogus'" -- $W sweep --results "$T/bw.jsonl" -g l1_assoc=2 -w polybench/atax:bogus=1
[ ! -e "$T/bw.jsonl" ] && ok sweep_bad_workload_no_file || bad sweep_bad_workload_no_file "file created"
expect compare_per_kernel 0 "atax_kernel2" -- $W compare -q --designs base,lrr -w polybench/atax:scale=0.0625 --per-kernel

# sweep: bad grid values exit 2 before the results file is created.
expect sweep_bad_value 2 "l1_assoc=x" -- $W sweep --results "$T/bad.jsonl" -g l1_assoc=2,x -w micro/stream
[ ! -e "$T/bad.jsonl" ] && ok sweep_bad_no_file || bad sweep_bad_no_file "file created"
expect sweep_bad_name 2 "unknown option 'nosuch'" -- $W sweep --results "$T/bad.jsonl" -g nosuch=1 -w micro/stream
expect sweep_duplicate 2 "appears twice" -- $W sweep --results "$T/bad.jsonl" -g l1_assoc=2,2 -w micro/stream
expect sweep_bad_sets 2 "l1_sets=3" -- $W sweep --results "$T/bad.jsonl" -g l1_sets=3 -w micro/stream

SW="-g l1_assoc=2,4 --designs base,lrr -w polybench/atax:scale=0.0625 -w micro/stream:n=16384 -q"
$W sweep $SW --results "$T/full1.jsonl" -j 1 >/dev/null 2>&1
$W sweep $SW --results "$T/full2.jsonl" -j 2 --csv "$T/full2.csv" >/dev/null 2>&1
[ "$(wc -l <"$T/full1.jsonl")" -eq 8 ] && cmp -s "$T/full1.jsonl" "$T/full2.jsonl" && ok sweep_j1_j2 ||
  bad sweep_j1_j2 "results differ or not 8 lines"
[ "$(wc -l <"$T/full2.csv")" -eq 9 ] && head -1 "$T/full2.csv" | grep -q '^point,key,design,workload,l1_assoc,cycles' &&
  ok sweep_csv || bad sweep_csv "$(head -c 200 "$T/full2.csv")"
expect sweep_exists 2 "give --resume" -- $W sweep $SW --results "$T/full1.jsonl"
# A crash mid-line: cut the file inside line 4, resume, get the same bytes.
size=$(head -n 3 "$T/full1.jsonl" | wc -c)
head -c $((size + 100)) "$T/full1.jsonl" >"$T/cut.jsonl"
$W sweep $SW --results "$T/cut.jsonl" --resume -j 2 >/dev/null 2>&1
cmp -s "$T/cut.jsonl" "$T/full1.jsonl" && ok sweep_resume_torn || bad sweep_resume_torn "resumed file differs"
# Resuming a complete file runs nothing and changes nothing.
cp "$T/full1.jsonl" "$T/again.jsonl"
$W sweep $SW --results "$T/again.jsonl" --resume >/dev/null 2>&1
cmp -s "$T/again.jsonl" "$T/full1.jsonl" && ok sweep_resume_complete || bad sweep_resume_complete "changed"
# A corrupt complete line is bad input, not silently kept.
printf '{"schema_version": 1, "key": "x"\n' >"$T/corrupt.jsonl"
expect sweep_corrupt 2 "corrupt.jsonl:1: not a sweep result line" -- $W sweep $SW --results "$T/corrupt.jsonl" --resume
# kill -9 while running: every line left is complete; resuming gives the full result.
KW="-g l1_assoc=1,2,4,8 -w polybench/atax:scale=0.25 -w polybench/bicg:scale=0.25 -q -j 2"
$W sweep $KW --results "$T/kfull.jsonl" >/dev/null 2>&1
$W sweep $KW --results "$T/k.jsonl" >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
if [ -s "$T/k.jsonl" ] && [ "$(tail -c 1 "$T/k.jsonl" | od -An -c | tr -d ' ')" != '\n' ]; then
  bad sweep_kill_lines "torn line left by kill -9 (a single write per line should prevent it)"
else ok sweep_kill_lines; fi
$W sweep $KW --results "$T/k.jsonl" --resume >/dev/null 2>&1
cmp -s "$T/k.jsonl" "$T/kfull.jsonl" && ok sweep_kill_resume || bad sweep_kill_resume "differs after resume"

# The sweep identity: every line of one sweep carries the same sweep_id (16
# hex digits); -j does not change it (sweep_j1_j2 compares the bytes).
[ "$(grep -c '^{"schema_version": 1, "sweep_id": "[0-9a-f]\{16\}", "point": ' "$T/full1.jsonl")" -eq 8 ] &&
  [ "$(sed 's/.*"sweep_id": "\([0-9a-f]*\)".*/\1/' "$T/full1.jsonl" | sort -u | wc -l)" -eq 1 ] &&
  ok sweep_id_lines || bad sweep_id_lines "$(cut -c 1-80 "$T/full1.jsonl" | head -2)"
# --resume keeps only this sweep's points, each once: a duplicated line, the
# file of another grid, of another configuration (-o), of an older warpcache
# (no sweep_id) and of another shard are refused, naming the line.
(cat "$T/full1.jsonl"; sed -n 2p "$T/full1.jsonl") >"$T/dup.jsonl"
expect sweep_resume_duplicate 2 "dup.jsonl:9: point 1 (.*) appears twice (also line 2)" -- $W sweep $SW --results "$T/dup.jsonl" --resume
$W sweep -q -g l1_assoc=8 -w micro/stream:n=16384 --results "$T/foreign.jsonl" >/dev/null 2>&1
expect sweep_resume_foreign 2 "foreign.jsonl:1: a point of another sweep" -- $W sweep $SW --results "$T/foreign.jsonl" --resume
[ "$(wc -l <"$T/foreign.jsonl")" -eq 1 ] && ok sweep_resume_foreign_kept || bad sweep_resume_foreign_kept "file extended"
head -n 3 "$T/full1.jsonl" >"$T/otherconf.jsonl"
expect sweep_resume_other_config 2 "otherconf.jsonl:1: a point of another sweep" -- $W sweep $SW -o gpgpu_scheduler=lrr --results "$T/otherconf.jsonl" --resume
sed 's/"sweep_id": "[0-9a-f]*", //' "$T/full1.jsonl" >"$T/oldformat.jsonl"
expect sweep_resume_old_format 2 "oldformat.jsonl:1: a line without sweep_id, written by an older warpcache.*run the sweep again" -- $W sweep $SW --results "$T/oldformat.jsonl" --resume
head -n 2 "$T/full1.jsonl" >"$T/shard0.jsonl" # points 0-1: shard 0/4
expect sweep_resume_other_shard 2 "shard0.jsonl:1: point 0 is not in shard 1/4 (points 2 to 3)" -- $W sweep $SW --results "$T/shard0.jsonl" --shard 1/4 --resume

# One results file, one sweep at a time: a second sweep on a file in use is
# refused (exit 2) and the first ends with every point once.
LK="-g l1_assoc=1,2,4,8 -w polybench/atax:scale=0.25 -w polybench/bicg:scale=0.25 -q -j 1"
$W sweep $LK --results "$T/lk.jsonl" >/dev/null 2>&1 &
lpid=$!
i=0
while [ $i -lt 300 ] && [ ! -s "$T/lk.jsonl" ] && kill -0 $lpid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
expect sweep_lock_second 2 "lk.jsonl: in use by another sweep (process $lpid)" -- $W sweep $LK --results "$T/lk.jsonl" --resume
expect sweep_lock_second_new 2 "in use by another sweep" -- $W sweep $LK --results "$T/lk.jsonl"
wait $lpid
lrc=$?
[ $lrc -eq 0 ] && cmp -s "$T/lk.jsonl" "$T/kfull.jsonl" && ok sweep_lock_first_whole ||
  bad sweep_lock_first_whole "exit $lrc, $(wc -l <"$T/lk.jsonl") lines (8 expected, once each)"
# ... and once it has ended, the file is free again
expect sweep_lock_released 0 "8 points already done, 0 to run" -- $W sweep $(echo "$LK" | sed 's/-q//') --results "$T/lk.jsonl" --resume

# Every grid value is checked before the first simulation: a bad third value
# of a -g list (here 'latency=2', split off 'mrpb:len=4,latency=2' at its
# comma) exits 2 before any point runs or the results file is created.
expect sweep_grid_checked_first 2 "-g mem_stage=latency=2: option -mem_stage: unknown memory stage 'latency=2'" -- \
  $W sweep --results "$T/gv.jsonl" -g mem_stage=inorder,mrpb:len=4,latency=2 -w micro/stream:n=4096
[ ! -e "$T/gv.jsonl" ] && ok sweep_grid_checked_no_file || bad sweep_grid_checked_no_file "points were run: $(wc -l <"$T/gv.jsonl") lines"
expect sweep_grid_bad_param 2 "-g mem_stage=mrpb:bogus=1: option -mem_stage: mrpb: unknown parameter 'bogus'" -- \
  $W sweep --results "$T/gv.jsonl" -g mem_stage=inorder,mrpb:bogus=1 -w micro/stream:n=4096
# -G NAME=VALUE takes a value whole, commas included; the point simulates
# what run -o gives for the same setting.
expect sweep_G_commas 0 "" -- $W sweep -q --results "$T/gc.jsonl" -G mem_stage=mrpb:len=4,latency=2 -G mem_stage=inorder -w micro/stream:n=4096
$W run -q -w micro/stream:n=4096 -o mem_stage=mrpb:len=4,latency=2 --json "$T/gc_run.json" >/dev/null 2>&1
cyc=$(sed -n '/"totals"/,$s/^ *"cycles": \([0-9]*\),$/\1/p' "$T/gc_run.json")
[ "$(wc -l <"$T/gc.jsonl")" -eq 2 ] &&
  sed -n 1p "$T/gc.jsonl" | grep -q '"params": {"mem_stage": "mrpb:len=4,latency=2"}, .*"totals": {"cycles": '"$cyc"',' &&
  sed -n 2p "$T/gc.jsonl" | grep -q '"params": {"mem_stage": "inorder"}' && [ -n "$cyc" ] &&
  ok sweep_G_value_whole || bad sweep_G_value_whole "run: $cyc cycles; $(cut -c 1-300 "$T/gc.jsonl")"
expect sweep_G_geometry 0 "" -- $W sweep -q --results "$T/gg.jsonl" -w micro/stream:n=4096 \
  -G gpgpu_cache:dl1=N:32:128:4,L:L:m:N,A:32:8,8 -G gpgpu_cache:dl1=N:64:128:4,L:L:m:N,A:32:8,8
[ "$(grep -c '"params": {"gpgpu_cache:dl1": "N:[36][24]:128:4,L:L:m:N,A:32:8,8"}' "$T/gg.jsonl")" -eq 2 ] &&
  ok sweep_G_geometry_lines || bad sweep_G_geometry_lines "$(cut -c 1-200 "$T/gg.jsonl")"
# -g and -G of one NAME make one dimension: the same sweep, the same bytes
$W sweep -q --results "$T/gm1.jsonl" -g l1_assoc=2,4 -w micro/stream:n=4096 >/dev/null 2>&1
$W sweep -q --results "$T/gm2.jsonl" -g l1_assoc=2 -G l1_assoc=4 -w micro/stream:n=4096 >/dev/null 2>&1
[ -s "$T/gm1.jsonl" ] && cmp -s "$T/gm1.jsonl" "$T/gm2.jsonl" && ok sweep_g_G_one_dim || bad sweep_g_G_one_dim "differ"
# An empty value is a typo, not a value.
expect sweep_empty_value 2 "option -g l1_assoc=1,,2: an empty value" -- $W sweep --results "$T/ev.jsonl" -g l1_assoc=1,,2 -w micro/stream:n=4096
expect sweep_empty_last 2 "an empty value (after the last comma)" -- $W sweep --results "$T/ev.jsonl" -g l1_assoc=1,2, -w micro/stream:n=4096
expect sweep_empty_G 2 "option -G l1_assoc=: an empty value" -- $W sweep --results "$T/ev.jsonl" -G l1_assoc= -w micro/stream:n=4096
[ ! -e "$T/ev.jsonl" ] && ok sweep_empty_no_file || bad sweep_empty_no_file "file created"

# A results file is a regular file of lines of at most 1 MiB, at most 4 GiB:
# anything else is refused before it is read (/dev/zero would never end).
expect sweep_results_device 2 "/dev/zero: a device, not a results file" -- timeout 20 $W sweep $SW --results /dev/zero --resume
expect sweep_results_folder 2 "a folder, not a results file" -- timeout 20 $W sweep $SW --results "$T" --resume
mkfifo "$T/fifo.jsonl"
expect sweep_results_fifo 2 "fifo.jsonl: a pipe, not a results file" -- timeout 20 $W sweep $SW --results "$T/fifo.jsonl" --resume
head -c 1100000 /dev/zero | tr '\0' ' ' >"$T/longline.jsonl"
expect sweep_results_long_line 2 "longline.jsonl:1: a line longer than 1 MiB" -- timeout 20 $W sweep $SW --results "$T/longline.jsonl" --resume
truncate -s 5G "$T/huge.jsonl" # sparse: no disk space used
expect sweep_results_huge 2 "huge.jsonl: 5368709120 bytes, more than a results file holds (4 GiB)" -- timeout 20 $W sweep $SW --results "$T/huge.jsonl" --resume
rm -f "$T/huge.jsonl"

# --results and --csv are checked against the sweep's inputs as every other
# command's outputs are (was: --csv replaced the trace or configuration with
# the CSV, exit 0): the --config file, the file of a design, a trace, a file
# of an Accel-Sim trace read, and each other.
SS="-g l1_assoc=2 -w micro/stream:n=4096 -q"
cp "$(dirname "$0")/../configs/fermi-16k.config" "$T/sc.config"; cp "$T/sc.config" "$T/sc.ref"
expect sweep_csv_onto_config 2 "option --csv would overwrite the input $T/sc.config" -- timeout 20 $W sweep $SS --config "$T/sc.config" --results "$T/oc.jsonl" --csv "$T/sc.config"
expect sweep_results_onto_config 2 "option --results would overwrite the input $T/sc.config" -- timeout 20 $W sweep $SS --config "$T/sc.config" --results "$T/sc.config" --resume
expect sweep_csv_onto_design 2 "option --csv would overwrite the input" -- timeout 20 $W sweep $SS --design "$T/sc.config" --results "$T/oc.jsonl" --csv "$T/sc.config"
expect sweep_results_onto_designs 2 "option --results would overwrite the input" -- timeout 20 $W sweep -g l1_assoc=2 -w micro/stream:n=4096 -q --designs "base,$T/sc.config" --results "$T/sc.config" --resume
cmp -s "$T/sc.config" "$T/sc.ref" && ok sweep_config_intact || bad sweep_config_intact "sc.config changed"
$W trace convert micro/stream:n=4096 "$T/st.wct" >/dev/null 2>&1
cp "$T/st.wct" "$T/st.ref"
expect sweep_csv_onto_trace 2 "option --csv would overwrite the input $T/st.wct" -- timeout 20 $W sweep -g l1_assoc=2 -t "$T/st.wct" -q --results "$T/oc.jsonl" --csv "$T/st.wct"
expect sweep_results_onto_trace 2 "option --results would overwrite the input" -- timeout 20 $W sweep -g l1_assoc=2 -t "$T/st.wct" -q --results "$T/st.wct" --resume
cmp -s "$T/st.wct" "$T/st.ref" && ok sweep_trace_intact || bad sweep_trace_intact "st.wct changed"
$W trace convert micro/stream:n=4096 "$T/sacc" >/dev/null 2>&1
expect sweep_csv_onto_kernel_file 2 "would overwrite the input" -- timeout 20 $W sweep -g l1_assoc=2 -t "$T/sacc" -q --results "$T/oc.jsonl" --csv "$T/sacc/kernel-1.traceg"
expect sweep_csv_is_results 2 "options --csv and --results both write" -- timeout 20 $W sweep $SS --results "$T/oc.jsonl" --csv "$T/./oc.jsonl"
[ ! -e "$T/oc.jsonl" ] && ok sweep_onto_input_no_results || bad sweep_onto_input_no_results "oc.jsonl created"
# A results file or CSV on a full disk ends with its documented status (a
# device is not a results file: 2; a CSV that cannot be written once open: 1),
# it does not hang.
if [ -w /dev/full ]; then
  expect sweep_results_full 2 "/dev/full: a device, not a results file" -- timeout 20 $W sweep $SS --results /dev/full
  expect sweep_csv_full 1 "cannot write /dev/full" -- timeout 20 $W sweep $SS --results "$T/full-csv.jsonl" --csv /dev/full
  [ -s "$T/full-csv.jsonl" ] && ok sweep_csv_full_keeps_results || bad sweep_csv_full_keeps_results "results lost"
else
  echo "sweep_*_full skipped: no writable /dev/full (not counted)"
fi

echo "cli_experiments: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
