#!/bin/sh
# accelsim_ablate.sh - what each GPGPU-Sim-agreement mechanism of the default
# contributes (docs/fidelity.md, "Where the default stands now"): the default,
# then each mechanism removed in turn, as "L1 load miss rate / cycles relative
# to Accel-Sim" per kernel, reusing the Accel-Sim runs that
# scripts/accelsim_compare.py left in its work folders (a developer's tool;
# needs those runs, never part of the tests).
#   sh scripts/accelsim_ablate.sh [WORK_POLYBENCH_COLCOPY] [WORK_KMEANS]
cd "$(dirname "$0")/.." || exit 1
W1=${1:-/tmp/accelsim-compare}
W2=${2:-/tmp/as-kmeans}
echo "| configuration | atax_kernel1 | atax_kernel2 | colcopy h=256 | gesummv | invert_mapping | kmeansPoint |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r label opts; do
  o=$opts; [ "$o" = ACCELSIM ] && o=
  a=$(scripts/accelsim_compare.py --reuse --work "$W1" $o polybench/atax:scale=0.125 \
        micro/colcopy:h=256 polybench/gesummv:scale=0.125 2>&1 | grep '^| [pm]')
  b=$(scripts/accelsim_compare.py --reuse --work "$W2" $o rodinia/kmeans:n=8192 2>&1 |
        grep '^| rodinia' | head -2)
  printf '%s\n%s\n' "$a" "$b" | awk -F'|' -v L="$label" -v AS="$opts" '
    BEGIN { printf "| %s |", L }
    { m = $5; r = $12; gsub(/ /, "", m); gsub(/ /, "", r)
      if (AS == "ACCELSIM") { m = $4; gsub(/ /, "", m); printf " %s |", m }
      else printf " %s / %s |", m, r }
    END { print "" }'
done <<ROWS
Accel-Sim (L1 load miss)|ACCELSIM
default (the GTX480 file: -icnt_model auto = islip)|
-icnt_model ports|-o icnt_model=ports
-sched_rotate 0|-o sched_rotate=0
-mem_stage inorder|-o mem_stage=inorder
-mem_issue_ahead 0|-o mem_issue_ahead=0
the old DRAM latencies (-dram_latency 76, no RCD/CL)|-o dram_latency=76 -o gpgpu_dram_timing_opt=RCD=0:CL=0
configs/gpgpusim3.config (-mem_stage inorder -sched_rotate 0)|-o mem_stage=inorder -o sched_rotate=0
ROWS
