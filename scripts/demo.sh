#!/bin/sh
# make demo: a short comparison on built-in workloads.  Each workload runs on the
# seeds' two Fermi baselines - a 16 KB 4-way and a 48 KB 6-way L1 per SM, same GPU
# otherwise - and the table shows what the bigger L1 buys: fewer L1 load misses,
# fewer cycles.  Workload sizes are scaled down so the whole demo takes seconds.
W=${1:-build/warpcache}
set -e
WORKLOADS="micro/colcopy:h=256 polybench/atax:scale=0.125 polybench/gemm:scale=0.25
polybench/syrk:scale=0.125 polybench/2dconv:scale=0.125 rodinia/bfs:nodes=65536 rodinia/hotspot"
echo "warpcache demo: the seeds' 16 KB and 48 KB Fermi L1s on seven built-in workloads"
echo "(15 SMs, GTO schedulers, 768 KB L2; configs/fermi-16k.config and fermi-48k.config)"
echo
printf '%-28s %12s %9s %12s %9s %9s\n' "" "16 KB L1" "" "48 KB L1" "" ""
printf '%-28s %12s %9s %12s %9s %9s\n' workload cycles "load miss" cycles "load miss" speedup
for w in $WORKLOADS; do
  a=$("$W" run -q --workload "$w" --config configs/fermi-16k.config --csv - | awk -F, '
      NR==1{for(i=1;i<=NF;i++)c[$i]=i; next} $3=="total"{print $c["cycles"], $c["l1.read_miss_rate"]}')
  b=$("$W" run -q --workload "$w" --config configs/fermi-48k.config --csv - | awk -F, '
      NR==1{for(i=1;i<=NF;i++)c[$i]=i; next} $3=="total"{print $c["cycles"], $c["l1.read_miss_rate"]}')
  echo "$w $a $b" | awk '{printf "%-28s %12d %8.1f%% %12d %8.1f%% %8.2fx\n", $1, $2, 100*$3, $4, 100*$5, $2/$4}'
done
echo
echo "load miss = L1 misses / L1 load lookups; speedup = 16 KB cycles / 48 KB cycles."
echo "One workload in full:  $W run --workload polybench/atax:scale=0.125"
echo "Every workload:        $W list"
