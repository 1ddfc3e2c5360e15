#!/bin/sh
# Builds the libFuzzer targets fuzz/fuzz_{accelsim,trc,wct,config,ncu,booksim,results}.c into build-fuzz/
# (clang, -fsanitize=fuzzer,address,undefined, compiled with the library
# sources) and runs each for FUZZ_SECONDS (default 30).  Seeds: the saved
# regression inputs in tests/fuzz_corpus/<reader>/ plus small valid traces.
# A crashing input is left in build-fuzz/crashes/<reader>/ and copied to
# tests/fuzz_corpus/<reader>/ so tests/test_trace_corpus.c replays it once fixed.
# The build defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, which makes the
# .wct reader skip its chunk checksum so the fuzzer reaches the decoder.
set -e
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
OUT=build-fuzz
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: clang not installed, skipped"; exit 0
fi
mkdir -p $OUT
DEFS="-D_GNU_SOURCE"
LIBS=""
for l in zlib.h:-lz:ZLIB lzma.h:-llzma:LZMA zstd.h:-lzstd:ZSTD; do
  h=${l%%:*}; rest=${l#*:}; flag=${rest%%:*}; name=${rest#*:}
  if [ -f /usr/include/$h ]; then DEFS="$DEFS -DWC_HAVE_$name=1"; LIBS="$LIBS $flag"; fi
done
SRCS=$(find src -name '*.c' ! -path 'src/cli/*' ! -path 'src/mpi/*' | LC_ALL=C sort)  # the MPI driver needs mpicc
# the plug-in registry the Makefile generates (include/warpcache/plugin.h)
mkdir -p $OUT/gen
sh scripts/gen_registry.sh include/warpcache/plugin.h $SRCS > $OUT/gen/registry.c || exit 2
SRCS="$SRCS $OUT/gen/registry.c"
CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Isrc -Ifuzz $DEFS -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"

# Seeds: small valid inputs of each format.
mkdir -p $OUT/seeds/accelsim $OUT/seeds/trc $OUT/seeds/wct
cp ../shared/data/traces/accelsim/vectoradd-100-32/kernel-1.traceg $OUT/seeds/accelsim/vectoradd 2>/dev/null || true
if [ -x build/warpcache ] && build/warpcache trace --help 2>/dev/null | grep -q usage; then
  build/warpcache trace convert micro/stream:n=300,block=64 $OUT/seeds/s.wct >/dev/null &&
    cp $OUT/seeds/s.wct $OUT/seeds/wct/stream || true
  build/warpcache trace convert micro/colcopy:h=40,w=3 $OUT/seeds/c.trc >/dev/null &&
    cp $OUT/seeds/c_00.trc $OUT/seeds/trc/colcopy || true
fi

rc=0
mkdir -p $OUT/seeds/config
cp configs/*.config ../shared/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config $OUT/seeds/config/ 2>/dev/null || true
mkdir -p $OUT/seeds/ncu
cp tests/data/ncu/*.csv $OUT/seeds/ncu/ 2>/dev/null || true
mkdir -p $OUT/seeds/booksim
cp tests/data/booksim/*.icnt $OUT/seeds/booksim/ 2>/dev/null || true

mkdir -p $OUT/seeds/results
if [ -x build/warpcache ]; then
  build/warpcache sweep -q -g l1_assoc=2,4 -w micro/stream:n=256 --results $OUT/seeds/r.jsonl >/dev/null 2>&1 &&
    mv $OUT/seeds/r.jsonl $OUT/seeds/results/sweep || true
fi

for r in accelsim trc wct config ncu booksim results; do
  echo "fuzz: building $r"
  CLI=""  # the sweep results reader is the one CLI part fuzzed
  [ $r = results ] && CLI="src/cli/jsonscan.c src/cli/results.c"
  clang $CFLAGS -o $OUT/fuzz_$r fuzz/fuzz_$r.c $SRCS $CLI $LIBS -lm
  mkdir -p $OUT/corpus/$r $OUT/crashes/$r tests/fuzz_corpus/$r
  cp tests/fuzz_corpus/$r/* $OUT/seeds/$r/* $OUT/corpus/$r/ 2>/dev/null || true
  echo "fuzz: running $r for ${FUZZ_SECONDS}s"
  if ! ./$OUT/fuzz_$r $OUT/corpus/$r -max_total_time=$FUZZ_SECONDS -max_len=65536 \
       -rss_limit_mb=2048 -timeout=10 -artifact_prefix=$OUT/crashes/$r/ -print_final_stats=1 \
       >$OUT/fuzz_$r.log 2>&1; then
    echo "fuzz: $r FOUND A PROBLEM (log: $OUT/fuzz_$r.log)"
    tail -n 30 $OUT/fuzz_$r.log
    for c in $OUT/crashes/$r/*; do [ -f "$c" ] && cp "$c" tests/fuzz_corpus/$r/; done
    rc=1
  else
    grep -E "stat::number_of_executed_units|DONE" $OUT/fuzz_$r.log | tail -n 2
  fi
done
exit $rc
