#!/bin/sh
# scripts/xbar_replay/run.sh - is warpcache's reply crossbar (-icnt_model islip)
# booksim's router?  Dumps the reply stream of one warpcache run (a scratch
# build with dump.patch), replays it open-loop through GPGPU-Sim 4.2's own
# intersim2 objects and through src/mem/xbar.c, and prints both.
# Usage: sh scripts/xbar_replay/run.sh [WORKLOAD] (from the repository root;
# needs the Accel-Sim build of ../shared/tools/build-accelsim.sh at $ACCELSIM,
# default /work/accelsim).  Writes only under $OUT (default /tmp/xbar-replay).
set -eu
W=${1:-polybench/gemm:ni=128,nj=128,nk=128}
ACCELSIM=${ACCELSIM:-/work/accelsim}
OUT=${OUT:-/tmp/xbar-replay}
ROOT=$(pwd)
HERE=$ROOT/scripts/xbar_replay
G=$ACCELSIM/accel-sim-framework/gpu-simulator/gpgpu-sim
I=$G/src/intersim2
B=$(dirname "$(find "$G/build" -name iq_router.o | head -1)")
CFG=$ROOT/../shared/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config
ICNT=$G/configs/tested-cfgs/SM2_GTX480/config_fermi_islip.icnt
mkdir -p "$OUT"
rm -rf "$OUT/wc" && mkdir -p "$OUT/wc" && git archive HEAD | tar -x -C "$OUT/wc"
(cd "$OUT/wc" && patch -p1 -s <"$HERE/dump.patch" && make -j2 LTO= build/warpcache build/libwarpcache.a >/dev/null)
WC_XBAR_DUMP=$OUT/stream.raw "$OUT/wc/build/warpcache" run -q -w "$W" --config "$CFG" >/dev/null
sort -n -s -k1,1 "$OUT/stream.raw" >"$OUT/stream.txt"
# booksim without back-pressure into the L2 (warpcache's inputs are unbounded)
{ cat "$ICNT"; echo "input_buffer_size = 100000;"; } >"$OUT/fermi.icnt"
INC="-I$HERE/stub -I$I -I$I/routers -I$I/networks -I$I/allocators -I$I/arbiters -I$I/power -I$B"
g++ -O2 $INC -c "$I/interconnect_interface.cpp" -o "$OUT/ii.o"
g++ -O2 $INC -c "$HERE/booksim_replay.cpp" -o "$OUT/d.o"
g++ -o "$OUT/booksim_replay" "$OUT/d.o" "$OUT/ii.o" \
    $(ls "$B"/*.o | grep -v '/main.o$\|/interconnect_interface.o$')
cc -O2 -std=c11 -I"$OUT/wc/include" -I"$OUT/wc/src" "$HERE/xbar_replay.c" \
    "$OUT/wc/build/libwarpcache.a" -lm -lz -llzma -lzstd -o "$OUT/xbar_replay"
(cd "$OUT" && ./booksim_replay fermi.icnt stream.txt | tail -1)
"$OUT/xbar_replay" "$OUT/stream.txt" 200
