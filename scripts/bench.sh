#!/bin/sh
# make bench: the engine's throughput table, then every benchmark binary
# built from bench/.  The table (docs/design.md, "Performance") runs each
# case as its own `warpcache run` process, three times:
#   L1 req/CPU-s   L1 requests (coalesced accesses) per CPU second (user +
#                  sys, the median of the three runs)
#   cpu s          that median CPU time
#   instr/req      callgrind's instruction count per L1 request, with
#                  BENCH_CALLGRIND=1 and valgrind installed (slow), else "-"
#   peak MiB       the largest maximum resident set size of the three runs
# Cases: colcopy h=1024, atax scale 0.25, stream n=4M on configs/fermi-16k,
# and gesummv scale 0.125 on the GTX480 GPGPU-Sim file with its booksim
# crossbar (-icnt_model islip) and with the timestamped ports, whose CPU
# ratio is the crossbar's cost.
BUILD=${1:-build}
WC="$BUILD/warpcache"
GTX480=../shared/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config
TMP=${TMPDIR:-/tmp}/wc-bench.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

# case NAME ARGS...: one table row
bench_case() {
  name=$1
  shift
  : >"$TMP/cpu"
  peak=0
  for rep in 1 2 3; do
    /usr/bin/time -f '%U %S %M' -o "$TMP/time" "$WC" run "$@" --json "$TMP/out.json" \
      >/dev/null 2>"$TMP/err" || { echo "$name: run failed:"; cat "$TMP/err"; return 1; }
    read -r u s m <"$TMP/time"
    echo "$u $s" | awk '{print $1 + $2}' >>"$TMP/cpu"
    [ "$m" -gt "$peak" ] && peak=$m
  done
  cpu=$(sort -g "$TMP/cpu" | sed -n 2p)
  reqs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["l1"]["accesses"])' \
    "$TMP/out.json")
  ipr=-
  if [ "${BENCH_CALLGRIND:-0}" = 1 ] && command -v valgrind >/dev/null 2>&1; then
    ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WC" run "$@" 2>&1 >/dev/null |
      sed -n 's/.*refs: *//p' | tr -d ,)
    ipr=$(awk -v i="$ir" -v r="$reqs" 'BEGIN { printf "%.0f", i / r }')
  fi
  awk -v n="$name" -v r="$reqs" -v c="$cpu" -v i="$ipr" -v p="$peak" 'BEGIN {
    printf "%-34s %12d %9.3f %12.2f M %9s %8.1f\n", n, r, c, r / c / 1e6, i, p / 1024 }'
}

echo "== engine throughput (median CPU of 3 runs; BENCH_CALLGRIND=1 adds instr/req)"
printf "%-34s %12s %9s %14s %9s %8s\n" case "L1 requests" "cpu s" "L1 req/CPU-s" instr/req "peak MiB"
bench_case "colcopy h=1024" -w micro/colcopy:h=1024 || exit 1
bench_case "atax scale=0.25" -w polybench/atax:scale=0.25 || exit 1
bench_case "stream n=4194304" -w micro/stream:n=4194304 || exit 1
if [ -f "$GTX480" ]; then
  bench_case "GTX480 gesummv 0.125 islip" --config "$GTX480" -w polybench/gesummv:scale=0.125 \
    -o icnt_model=islip || exit 1
  bench_case "GTX480 gesummv 0.125 ports" --config "$GTX480" -w polybench/gesummv:scale=0.125 \
    -o icnt_model=ports || exit 1
else
  echo "($GTX480 not found: the crossbar rows are skipped)"
fi

for b in "$BUILD"/bench/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b" || exit 1
done
