#!/bin/sh
# same_runs.sh - byte comparison of `warpcache run` between two builds on the
# option settings the golden net leaves out (it runs the defaults, which have
# the fetch unit, its instruction cache and bank conflicts on): the front end
# without the cache (-ifetch 1 -icache 0), none at all (-icache 0), the
# conflict-free shared memory and the kernel ends of before.  An engine change
# that must not move results runs this with the binary before and after it.
#
#   sh scripts/same_runs.sh OLD_WARPCACHE NEW_WARPCACHE
#
# Each case is one workload at a small size under each option set, on the
# built-in Fermi baseline and on GPGPU-Sim's GTX480 file (iSLIP crossbar).
# Prints one line per differing case and exits 1 if any differs.
set -e
OLD=${1:?usage: same_runs.sh OLD_WARPCACHE NEW_WARPCACHE}
NEW=${2:?usage: same_runs.sh OLD_WARPCACHE NEW_WARPCACHE}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/wc-same.XXXXXX)
trap 'rm -rf "$T"' EXIT
SHARED=${SHARED:-$ROOT/../shared}
GTX480=$SHARED/data/gpgpusim-configs/GPGPU-Sim-3.2.2_GTX480/gpgpusim.config
WORKLOADS="micro/colcopy:h=256 micro/stream:n=262144 polybench/atax:scale=0.125
polybench/gesummv:scale=0.125 polybench/2dconv:scale=0.0625 rodinia/hotspot:size=128
rodinia/bfs:nodes=20000 seed/mshr"
OPTSETS="icache=0 icache=0,ifetch=1 shmem_bank_conflicts=0,exit_store_acks=0,block_rr_carry=0"
n=0
bad=0
for w in $WORKLOADS; do
    for o in $OPTSETS; do
        for cfg in base gtx480; do
            args="-w $w"
            for kv in $(echo "$o" | tr ',' ' '); do args="$args -o $kv"; done
            [ "$cfg" = gtx480 ] && args="$args --config $GTX480"
            n=$((n + 1))
            # shellcheck disable=SC2086
            if ! "$OLD" run $args >"$T/old" 2>&1; then
                echo "fails with the old build: run $args" >&2
                exit 2
            fi
            # shellcheck disable=SC2086
            "$NEW" run $args >"$T/new" 2>&1 || true
            if ! cmp -s "$T/old" "$T/new"; then
                echo "differs: run $args"
                bad=$((bad + 1))
            fi
        done
    done
done
echo "same_runs: $n runs, $bad differ"
[ "$bad" -eq 0 ]
