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
expect design_unknown_option 2 "not modelled" -- $W config --design "$T/d/typo.config"

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

echo "cli_experiments: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
