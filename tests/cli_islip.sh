#!/bin/sh
# The iSLIP crossbar (-icnt_model islip, src/mem/xbar.c) pinned run by run:
# its arbitration order, round-robin pointers and flit timing reach every
# statistic, and the golden net has only GPGPU-Sim 3.2.2's file (speedup 1,
# 8-flit buffers, a line-based L2) with it.  These runs add GPGPU-Sim 4.x's
# GTX480 file (a sectored L2: four one-flit packets a line, speedup 2, 64
# flits) with its defaults and with a fractional speedup and small buffers,
# the TITAN X file and the built-in Fermi, each compared with
# tests/golden/islip.tsv: the cycles, the packets down and a digest of every
# statistic of every kernel.
#   sh tests/cli_islip.sh build/warpcache            check
#   sh tests/cli_islip.sh build/warpcache --update   rewrite islip.tsv (only
#                                                    after an intended change)
# Prints "cli_islip: N passed, N failed".
[ -n "$1" ] && BUILD=$(dirname "$1")
. "$(dirname "$0")/clilib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
C=$ROOT/../shared/data/gpgpusim-configs
GOLD=$ROOT/tests/golden/islip.tsv

cases() {
  for w in polybench/gesummv:scale=0.0625 polybench/atax:scale=0.0625 micro/colcopy:h=256 \
    rodinia/bfs:nodes=4096; do
    echo "SM2_GTX480 $w islip"
    echo "SM2_GTX480 $w islip:speedup=1.5,buf=4"
  done
  echo "SM2_GTX480 polybench/syrk:scale=0.0625 islip:speedup=0.7,buf=2"
  echo "SM6_TITANX polybench/gesummv:scale=0.0625 islip:speedup=3,buf=16"
  echo "- polybench/atax:scale=0.0625 islip:speedup=1.25,buf=1"
}

# one line per case: the case, cycles, L2 -> L1 packets, digest of the
# per-kernel and total statistics (not the config path)
cases | while read -r cfg w model; do
  if [ "$cfg" = - ]; then set -- ; else set -- --config "$C/$cfg/gpgpusim.config"; fi
  if [ "$cfg" != - ] && [ ! -f "$C/$cfg/gpgpusim.config" ]; then
    echo "$cfg $w $model	missing"
    continue
  fi
  "$W" run "$@" -w "$w" -o icnt_model="$model" --json "$T/r.json" >/dev/null 2>"$T/err" ||
    { echo "$cfg $w $model	failed: $(head -c 200 "$T/err")"; continue; }
  python3 - "$T/r.json" "$cfg $w $model" <<'PY'
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
t = d["totals"]
dig = hashlib.sha256(json.dumps([d["kernels"], t], sort_keys=True).encode()).hexdigest()[:16]
print("%s\t%s\t%s\t%s" % (sys.argv[2], t["cycles"], t["icnt"]["l2_to_l1_packets"], dig))
PY
done >"$T/now.tsv"

if [ "$2" = --update ]; then
  { echo "# tests/golden/islip.tsv - tests/cli_islip.sh's runs: case, cycles, L2->L1 packets,"
    echo "# digest of every statistic.  Rewrite only after an intended change of results."
    cat "$T/now.tsv"; } >"$GOLD"
  echo "cli_islip: wrote $GOLD"
  exit 0
fi

grep -v '^#' "$GOLD" >"$T/want.tsv"
while IFS='	' read -r key rest; do
  got=$(grep -F -- "$key	" "$T/now.tsv" | cut -f2-)
  [ "$got" = "$rest" ] && ok "$key" || bad "$key" "expected $rest, got ${got:-nothing}"
done <"$T/want.tsv"
[ "$(wc -l <"$T/now.tsv")" -eq "$(wc -l <"$T/want.tsv")" ] && ok case_count ||
  bad case_count "$(wc -l <"$T/now.tsv") runs, islip.tsv has $(wc -l <"$T/want.tsv")"
echo "cli_islip: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
