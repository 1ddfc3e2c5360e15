#!/bin/sh
# CLI behaviour of seed 002's DWT-CS, SWT and per-cache PRIC: bad controller
# parameters, warp-limit lists and polynomials exit 2 naming what is wrong;
# the designs run; DWT-CS on a thrashing kernel records a sampling round, the
# adopted limit and one dwt_kernel_limit per launch on the timeline; with
# across_launches=continue a short launch's round resumes in the next launch
# and mpki_sms=busy detects a small grid's thrashing (seed 002 GPU); `oracle
# swt` is labelled as a search, its best limit is one of those searched, and
# -j 1 and -j 2 print the same bytes.  Prints "cli_dwt: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

S="--workload micro/stream:n=4096"
expect bad_dwt_n 2 "option -controllers: dwt_cs: n=0" -- $W run $S -o controllers=dwt_cs:n=0
expect bad_dwt_unit 2 "unit=kc: must be cycles" -- $W run $S -o controllers=dwt_cs:unit=kc
expect bad_dwt_key 2 "unknown parameter 'speed'" -- $W run $S -o controllers=dwt_cs:speed=1
expect bad_dwt_mpki_sms 2 "mpki_sms=idle: must be all|busy" -- $W run $S -o controllers=dwt_cs:mpki_sms=idle
expect dwt_busy_needs_cycles 2 "mpki_sms=busy applies to unit=cycles only" -- $W run $S -o controllers=dwt_cs:mpki_sms=busy,unit=insts
expect dwt_busy_needs_cycles_config 2 "mpki_sms=busy applies to unit=cycles only" -- $W config -o controllers=dwt_cs:mpki_sms=busy,unit=insts
expect bad_dwt_across 2 "across_launches=carry: must be restart|continue" -- \
  $W run $S -o controllers=dwt_cs:across_launches=carry
expect bad_l2_poly 2 "option -l2_ipoly_poly: polynomial 37 has degree 5" -- \
  $W run $S -o 'gpgpu_cache:dl2=N:64:128:16,L:B:m:N:P,A:32:4,8' -o l2_ipoly_poly=37
expect l2_poly_runs 0 "" -- $W run -q $S -o 'gpgpu_cache:dl2=N:64:128:16,L:B:m:N:P,A:32:4,8' \
  -o l2_ipoly_poly=97
for d in dwt-cs dwt-pric dwt-cs-pric; do
  expect "design_$d" 0 "" -- $W run -q $S --design "$d"
done
expect listed 0 "dwt-pric" -- $W list designs

# kmeans (n=4096) thrashes the L1 from the start: 3 periods above 10 misses
# per kilo-cycle per SM, sampling at cycle 30000 (round 1), 3 periods later
# (60000) every SM adopts the winner; every kernel launch ends with one
# dwt_kernel_limit event (2 launches here: invert_mapping, kmeansPoint).
KM=rodinia/kmeans:n=4096
$W run -q --workload $KM --design dwt-cs --timeline-csv "$T/k.csv" >/dev/null 2>&1
samp=$(grep -c ',-1,dwt_sampling,' "$T/k.csv")
lim=$(awk -F, '$4 == "dwt_limit" {print $2 ":" $5}' "$T/k.csv" | head -1)
ends=$(grep -c ',-1,dwt_kernel_limit,' "$T/k.csv")
case "$lim" in
  60000:[1-9]|60000:1[0-9]|60000:2[0-4]) lim_ok=1 ;;
  *) lim_ok=0 ;;
esac
if grep -q "^$KM,30000,-1,dwt_sampling,1$" "$T/k.csv" && [ "$lim_ok" -eq 1 ] && [ "$ends" -ge 1 ]; then
  ok dwt_timeline
else
  bad dwt_timeline "sampling $samp, limit $lim, kernel ends $ends: $(head -5 "$T/k.csv")"
fi

# Timeline fields counted from the end: the workload name may be quoted with commas.
tl() { awk -F, -v k="$2" -v sm="$3" '$(NF-1) == k && $(NF-2) == sm {print $(NF-3) ":" $NF}' "$1"; }

# across_launches=continue on seed 002's SPMV, whose launches are shorter than
# detection plus sampling (60K cycles): launch 1 (from cycle 0, ending at E)
# detects in its periods 1-3, samples in its full periods 4..floor(E/10000)
# and ends undecided (dwt_kernel_limit 0); launch 2 resumes the round at E
# (SM 0 back on limit 1, no second dwt_sampling) and decides after the
# 6 - floor(E/10000) periods the round still lacks; its end reports that limit.
C2=configs/seeds/002.config
SP=parboil/spmv:rows=16384,launches=5
$W run -q --config $C2 -w $SP -o controllers=dwt_cs:across_launches=continue --timeline-csv "$T/sp.csv" >/dev/null 2>&1
e1=$(tl "$T/sp.csv" dwt_kernel_limit -1 | head -1)
res=$(tl "$T/sp.csv" dwt_sample_limit 0 | sed -n 2p)
lim=$(tl "$T/sp.csv" dwt_limit -1 | head -1)
k2=$(tl "$T/sp.csv" dwt_kernel_limit -1 | sed -n 2p)
E=${e1%:*}
want=$((E + (6 - E / 10000) * 10000))
if [ "$(tl "$T/sp.csv" dwt_sampling -1)" = "30000:1" ] && [ "${e1#*:}" = 0 ] && [ "$res" = "$E:1" ] &&
   [ "${lim%:*}" = "$want" ] && [ "${k2#*:}" = "${lim#*:}" ] && [ $((E / 10000)) -ge 4 ] && [ $((E / 10000)) -le 5 ]; then
  ok dwt_continue_resumes
else
  bad dwt_continue_resumes "end $e1, resumed $res, limit $lim (want cycle $want), launch 2 $k2"
fi
# restart (the default): each launch starts a new round, so launch 1
# (E < 60K cycles, shorter than detection plus sampling) ends undecided, and
# the first decision comes exactly 60K cycles after launch 2 starts at E
# (3 periods of detection, 3 of sampling, from scratch)
$W run -q --config $C2 -w $SP -o controllers=dwt_cs --timeline-csv "$T/sp0.csv" >/dev/null 2>&1
first=$(tl "$T/sp0.csv" dwt_kernel_limit -1 | head -1)
dec=$(tl "$T/sp0.csv" dwt_limit -1 | head -1)
if [ "${first#*:}" = 0 ] && [ "${first%:*}" -lt 60000 ] && [ "${dec%:*}" = $((${first%:*} + 60000)) ]; then
  ok dwt_restart_rounds_per_launch
else
  bad dwt_restart_rounds_per_launch "launch 1 ends $first, first decision $dec"
fi

# mpki_sms=busy on GESUMMV n=1024 (4 blocks on 15 SMs): over the busy SMs its
# MPKI exceeds 10 from the start, so sampling starts at 30000 and the limit is
# adopted at 60000; over every SM (default) it is never detected.
GE="-w polybench/gesummv:n=1024 -o max_cycles=100000"
$W run -q --config $C2 $GE -o controllers=dwt_cs:mpki_sms=busy --timeline-csv "$T/ge.csv" >/dev/null 2>&1
$W run -q --config $C2 $GE -o controllers=dwt_cs --timeline-csv "$T/ge0.csv" >/dev/null 2>&1
lim=$(tl "$T/ge.csv" dwt_limit -1)
if [ "$(tl "$T/ge.csv" dwt_sampling -1)" = "30000:1" ] && [ "${lim%:*}" = 60000 ] &&
   [ -z "$(tl "$T/ge0.csv" dwt_sampling -1)" ]; then
  ok dwt_busy_sms_detects
else
  bad dwt_busy_sms_detects "busy: sampling $(tl "$T/ge.csv" dwt_sampling -1), limit $lim; all: $(tl "$T/ge0.csv" dwt_sampling -1)"
fi

expect swt_bad_limits 2 "option --limits" -- $W oracle swt -w $KM --limits 0-3
expect swt_no_distances 2 "option --distances applies to oracle pdp-best only" -- \
  $W oracle swt -w $KM --distances 1-3
expect swt_labelled 0 "exhaustive search (not a design) over limits 2,4" -- \
  $W oracle swt -w micro/stream:n=4096 --limits 2,4 -q
$W oracle swt -w $KM -w micro/stream:n=4096 --limits 1-3 -j 1 -q >"$T/j1" 2>&1
$W oracle swt -w $KM -w micro/stream:n=4096 --limits 1-3 -j 2 -q >"$T/j2" 2>&1
wl=$(awk -v w="$KM" '$1 == w {print $4}' "$T/j1")
case "$wl" in 1|2|3) ok swt_best_in_range ;; *) bad swt_best_in_range "best WL '$wl': $(cat "$T/j1")" ;; esac
grep -q "DWT-CS WL" "$T/j1" && ok swt_dwt_column || bad swt_dwt_column "$(head -3 "$T/j1")"
cmp -s "$T/j1" "$T/j2" && ok swt_j1_j2_identical || bad swt_j1_j2_identical "$(diff "$T/j1" "$T/j2" | head -5)"

# scripts/seed002_tables.py (the Figure 9-11 views in docs/techniques/dwt-pric.md).
if command -v python3 >/dev/null 2>&1; then
  S2=$(dirname "$0")/../scripts/seed002_tables.py
  # contention: dwt-pric / reference per row, harmonic means by hand:
  #   conflict row (ratios to base, ccws, mrpb) 4 2 1; thrashing row 2 4 2; both 8 8 8
  #   all three: base 3/(1/4+1/2+1/8) = 3.429, ccws 3/(1/2+1/4+1/8) = 3.429,
  #   mrpb 3/(1+1/2+1/8) = 1.846; the friendly row counts nowhere.
  {
    echo 'row,workload,kernel_id,kernel,classes,metric,base,ccws,mrpb,dwt-pric,base:value,ccws:value,mrpb:value,dwt-pric:value'
    echo 'data,a,,,002:conflict,ipc,1,2,4,4,1,2,4,4'
    echo 'data,"b:x=1,y=2",,,002:thrashing,ipc,1,0.5,1,2,2,1,2,4'
    echo 'data,c,,,002:thrashing 002:conflict,ipc,1,1,1,8,1,1,1,8'
    echo 'data,d,,,002:friendly,ipc,1,1,1,1,5,5,5,5'
    echo 'mean,all,,,,ipc,1,1,1,1,,,,'
  } >"$T/m.csv"
  python3 "$S2" contention "$T/m.csv" >"$T/c.txt" 2>&1
  if grep -Eq '^contention \(conflict or thrashing\) +3 +3\.429 +3\.429 +1\.846$' "$T/c.txt" &&
     grep -Eq '^conflict only +1 +4\.000 +2\.000 +1\.000$' "$T/c.txt" &&
     grep -Eq '^thrashing only +1 +2\.000 +4\.000 +2\.000$' "$T/c.txt" &&
     grep -Eq '^thrashing and conflict +1 +8\.000 +8\.000 +8\.000$' "$T/c.txt"; then
    ok tables_contention_hmeans
  else
    bad tables_contention_hmeans "$(cat "$T/c.txt")"
  fi
  # rates: summed over a workload's kernels (kmeans: two), the same numbers as
  # compare's own metrics l1_miss_rate and res_fails_pki on the same runs.
  $W compare -q -j 2 --designs base,pric -w $KM --wide-csv "$T/w.csv" >/dev/null 2>&1
  python3 "$S2" rates "$T/w.csv" >"$T/r.txt" 2>&1
  for m in l1_miss_rate res_fails_pki; do
    want=$($W compare -q -j 2 --designs base,pric -w $KM --metric $m 2>&1 | awk -v w="$KM" '$1 == w {print $2, $4}')
    got=$(awk -v m="$m" -v w="$KM" '$1 == "metric:" {cur = ($2 == m ",")} cur && $1 == w {print $2, $4}' "$T/r.txt")
    if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "tables_rates_$m"; else bad "tables_rates_$m" "compare '$want', script '$got'"; fi
  done
  expect tables_not_wide 2 "no statistics blocks" -- python3 "$S2" rates "$T/m.csv"
  expect tables_no_column 2 "no column 'base:value'" -- sh -c "cut -d, -f1-8 '$T/m.csv' > '$T/n.csv'; python3 '$S2' contention '$T/n.csv'"
else
  echo "seed002_tables skipped: python3 missing (not counted)"
fi

echo "cli_dwt: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
