#!/bin/sh
# make demo: a short, meaningful comparison on built-in workloads.  Seed 003's
# column-major copy (one block of H threads, each reading its own 1024-element
# row) shows how L1 misses grow once the threads' working set (H lines) outgrows
# the 128 lines of a 16 KB L1, and what the 48 KB L1 of the second baseline buys.
W=${1:-build/warpcache}
set -e
echo "warpcache demo: seed 003's column-major copy on the seeds' two Fermi L1 configurations"
echo
printf '%-22s %-10s %12s %10s %10s %12s\n' workload L1 cycles IPC "L1 miss" "res.fails"
for h in 64 128 256 512; do
  for cfg in fermi-16k fermi-48k; do
    "$W" run -q --workload micro/colcopy:h=$h --config configs/$cfg.config --csv - |
      awk -F, -v h=$h -v c=$cfg 'NR==1{for(i=1;i<=NF;i++)col[$i]=i; next}
        $2=="total"{printf "%-22s %-10s %12d %10.3f %9.2f%% %12d\n", "colcopy h=" h, c,
          $col["cycles"], $col["ipc"], 100*$col["l1.miss_rate"], $col["l1.reservation_fails.total"]}'
  done
done
echo
echo "A whole report:  $W run --workload micro/colcopy:h=256 --config configs/fermi-16k.config"
echo "All workloads:   $W list"
