#!/bin/sh
# scripts/accelsim_compare.py's reading of Accel-Sim's L1 statistics, on a
# hand-made stdout (tests/data/accelsim/handmade-onfill-stats.txt; its
# counters are cumulative, per kernel they are differences).  By hand:
#   kern_a: HIT 600, HIT_RESERVED 0, MISS 300, SECTOR_MISS 100, MSHR_HIT 280
#     (allocation on fill: the 280 merges were probed MISS or SECTOR_MISS)
#     -> fetches 300 + 100 - 280 = 120 of 1000 lookups: 12 %
#        (MISS + SECTOR_MISS alone would say 40 %)
#   kern_b: HIT 100, HIT_RESERVED 50, MISS 40, SECTOR_MISS 10, MSHR_HIT 50
#     (allocation on miss: every merge was probed HIT_RESERVED)
#     -> fetches 40 + 10 - max(0, 50 - 50) = 50 of 200: 25 %
#   without MSHR_HIT lines (GPGPU-Sim versions that do not count it):
#     kern_a 400 of 1000: 40 %
# Prints "cli_accelsim_parse: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

FX=tests/data/accelsim/handmade-onfill-stats.txt
miss() { # FILE: each kernel's L1 load miss rate in percent, one per line
  python3 - "$1" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("ac", "scripts/accelsim_compare.py")
ac = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ac)
for k in ac.parse_accelsim(open(sys.argv[1]).read()):
    print("%s %.4f" % (k["name"], 100 * k["l1_load_miss"]))
PY
}
miss "$FX" >"$T/m.txt" 2>&1
grep -qx '_Z6kern_aPfS_ 12.0000' "$T/m.txt" && ok onfill_merges_are_hits || bad onfill_merges_are_hits "$(cat "$T/m.txt")"
grep -qx '_Z6kern_bPfS_ 25.0000' "$T/m.txt" && ok onmiss_unchanged || bad onmiss_unchanged "$(cat "$T/m.txt")"
grep -v MSHR_HIT "$FX" >"$T/old.txt"
miss "$T/old.txt" >"$T/o.txt" 2>&1
grep -qx '_Z6kern_aPfS_ 40.0000' "$T/o.txt" && ok no_mshr_hit_stat || bad no_mshr_hit_stat "$(cat "$T/o.txt")"

echo "cli_accelsim_parse: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
