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

# prepare_run_dir: the configuration's own trace.config when Accel-Sim's tree
# has one of its folder's name (else the TITAN X one), and a unified-L1 file
# without -gpgpu_shmem_option gets -gpgpu_adaptive_cache_config 0 (Accel-Sim
# 4.2 stops on an assertion otherwise); a fake tree with marked files.
TREE="$T/as/accel-sim-framework/gpu-simulator/configs/tested-cfgs"
mkdir -p "$TREE/SM6_TITANX" "$TREE/SM7_QV100" "$T/cfg/SM7_QV100" "$T/cfg/OTHER"
echo titanx >"$TREE/SM6_TITANX/trace.config"
echo qv100 >"$TREE/SM7_QV100/trace.config"
printf -- '-gpgpu_n_clusters 80\n-gpgpu_adaptive_cache_config 1\n' >"$T/cfg/SM7_QV100/gpgpusim.config"
printf -- '-gpgpu_adaptive_cache_config 1\n-gpgpu_shmem_option 0,8,16\n' >"$T/cfg/OTHER/gpgpusim.config"
prep() { # CONFIG RUNDIR
  python3 - "$1" "$2" "$T/as" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("ac", "scripts/accelsim_compare.py")
ac = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ac)
ac.prepare_run_dir(sys.argv[2], sys.argv[1], sys.argv[3])
PY
}
prep "$T/cfg/SM7_QV100/gpgpusim.config" "$T/r1" >"$T/p1.txt" 2>&1
[ "$(cat "$T/r1/trace.config" 2>/dev/null)" = qv100 ] && ok own_trace_config || bad own_trace_config "$(cat "$T/p1.txt")"
grep -qx -- '-gpgpu_adaptive_cache_config 0' "$T/r1/gpgpusim.config" && ok adaptive_off || bad adaptive_off "$(cat "$T/r1/gpgpusim.config")"
prep "$T/cfg/OTHER/gpgpusim.config" "$T/r2" >"$T/p2.txt" 2>&1
[ "$(cat "$T/r2/trace.config" 2>/dev/null)" = titanx ] && ok titanx_trace_config || bad titanx_trace_config "$(cat "$T/p2.txt")"
grep -qx -- '-gpgpu_adaptive_cache_config 1' "$T/r2/gpgpusim.config" && ok adaptive_kept || bad adaptive_kept "$(cat "$T/r2/gpgpusim.config")"

echo "cli_accelsim_parse: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
