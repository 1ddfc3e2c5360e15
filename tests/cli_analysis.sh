#!/bin/sh
# CLI behaviour of -analysis (docs/analyses.md): bad names exit 2 naming the
# option; off adds nothing to the outputs; on, the counters appear in text,
# JSON and CSV and obey the identities that hold by definition for every L1
# organisation: the bounded locality classes sum to the L1's hits plus
# hit-reserved, and the contention classes (misses that evicted a line) are
# at most the evictions.  Prints "cli_analysis: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

S="--workload polybench/atax:scale=0.0625"
expect unknown_analysis 2 "option -analysis: unknown analysis 'nosuch' (known: contention, locality)" -- $W run $S -o analysis=nosuch
expect twice_analysis 2 "option -analysis: 'contention' is named twice" -- $W run $S -o analysis=contention,contention
expect list_analyses 0 "locality " -- $W list analyses

# Off: no analysis counter anywhere.
$W run -q $S --json "$T/off.json" --csv "$T/off.csv" >"$T/off.txt" 2>&1
if ! grep -q 'contention\|locality' "$T/off.json" "$T/off.csv" "$T/off.txt"; then ok off_nothing; else bad off_nothing "analysis counters without -analysis"; fi
$W run -q $S -o analysis=contention,locality --json "$T/on.json" >"$T/on.txt" 2>&1
if grep -q '"contention.intra_warp_mpki"' "$T/on.json" && grep -q '"locality.unbounded.inter_kernel"' "$T/on.json" &&
   grep -q '^  contention.xw_intra_block ' "$T/on.txt"; then ok on_text_json; else bad on_text_json "$(head -c 300 "$T/on.txt")"; fi

# The identities on the CSV total row, for several organisations and an
# allocate-on-fill L1 (whose victims leave when the fill arrives).
identities() { # NAME options...
  name=$1; shift
  $W run -q $S -o analysis=contention,locality "$@" --csv "$T/c.csv" >/dev/null 2>&1
  r=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i; next} $3=="total"{
        l=0; split("intra_thread inter_thread intra_block intra_core inter_core inter_kernel",f," ");
        for(j=1;j<=6;j++) l+=$c["extra.locality.l1." f[j]];
        h=$c["l1.hits"]+$c["l1.hit_reserved"];
        x=$c["extra.contention.intra_warp"]+$c["extra.contention.xw_intra_block"]+$c["extra.contention.xw_cross_block"];
        print (l==h && h>0 && x<=$c["l1.evictions"] && x>0) ? "ok" : "locality " l " hits " h " contention " x " evictions " $c["l1.evictions"]}' "$T/c.csv")
  if [ "$r" = ok ]; then ok "identities_$name"; else bad "identities_$name" "$r"; fi
}
identities base
identities alloc_on_fill -o 'gpgpu_cache:dl1=N:32:128:4,L:R:f:N:L,A:32:8,8'
identities sector --design sector
identities dsc4 --design dsc4
identities l1q --design l1q
identities tsc --design tsc
identities dl1d --design dl1d

expect compare_iw_mpki 0 "extra.contention.intra_warp_mpki" -- $W compare -q --designs base,base-48k $S -o analysis=contention --metric iw_mpki -j 1

echo "cli_analysis: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
