# Plug-ins are one file each (include/warpcache/plugin.h): `make plugins-test`
# (part of make test) builds warpcache with PLUGINS=tests/plugins/*.c into
# $BUILD/plugins, and here each test plug-in must be listed by its family and
# do what its file says, with expectations derived by hand:
#
#   evict0 (replacement, letter Z: the victim is always way 0)
#     seed/assoc_stride:n=5,stride=128 makes one warp load lines A B C D E
#     A B C D E, each load waiting for the one before (they write the same
#     register), into a 1-set 4-way L1.  Pass 1: 5 misses, E evicts way 0
#     (A).  Pass 2: A misses (evicts E from way 0), B C D hit, E misses:
#     7 misses and 3 hits (LRU: all 10 miss).
#   plug_dm (L1 organisation: the conventional L1 direct-mapped)
#     A B C A B C in 1 set: with one way every access misses, 6 misses
#     (the 4-way LRU original: 3 misses, 3 hits).
#   plug_delay (memory stage: inorder, each instruction 100 cycles later)
#     the 10 loads above form one dependent chain: exactly 10 x 100 cycles
#     more than the inorder stage.
#   plug_limit (controller: warp_limit 2 at kernel start, on the timeline)
#     the same run as swl:warp_limit=2, and one timeline event
#     (cycle 0, sm -1, plug_limit, 2) for the one kernel of micro/stream.
#   plug_oldest (scheduler: the oldest ready warp)
#     under -max_warp_limit 1 a scheduler sees one warp at a time, so it must
#     give lrr's and gto's cycles.
# The normal build must contain none of them.  The generator orders each
# family by the order key, then the symbol, and names file and line of a bad
# declaration.
. "$(dirname "$0")/clilib.sh"
B=$(cd "${BUILD:-build}" && pwd)
P=$B/plugins/warpcache
if [ ! -x "$P" ]; then
  bad plugins_build "no $P (make test runs make plugins-test first)"
  echo "cli_plugins: $pass passed, $fail failed"; exit 1
fi

# ---- registered: listed by their families --------------------------------
listed() { # NAME CATEGORY PLUGIN
  "$P" list "$2" >"$T/list" 2>&1 && grep -q "^$3 " "$T/list" && ok "$1" || bad "$1" "$(cat "$T/list")"
}
listed list_l1 l1 plug_dm
listed list_replacement replacement evict0
listed list_schedulers schedulers plug_oldest
expect known_controllers 2 'known: .*plug_limit' -- "$P" run -q -w micro/stream:n=1024 -o controllers=nosuch
expect stage_selectable 0 '' -- "$P" run -q -w micro/stream:n=1024 -o mem_stage=plug_delay

# ---- not in the normal build ----------------------------------------------
for c in l1 replacement schedulers; do "$W" list $c; done >"$T/plain" 2>&1
if grep -qE '^(plug_dm|evict0|plug_oldest) ' "$T/plain"; then bad plain_lists "$(cat "$T/plain")"
else ok plain_lists; fi
expect plain_no_controller 2 'unknown controller' -- "$W" run -q -w micro/stream:n=1024 -o controllers=plug_limit
expect plain_no_stage 2 'plug_delay' -- "$W" run -q -w micro/stream:n=1024 -o mem_stage=plug_delay
if nm "$B/libwarpcache.a" 2>/dev/null | grep -q ' plug_'; then bad plain_library "plug_ symbols in $B/libwarpcache.a"
else ok plain_library; fi

# ---- the generator (scripts/gen_registry.sh) --------------------------------
H=include/warpcache/plugin.h
gen() { sh scripts/gen_registry.sh "$H" "$@"; }
printf 'WC_PLUGIN(repl, b_sym, 20);\nWC_PLUGIN(repl, a_sym, 20);\n' >"$T/g1.c"
printf 'WC_PLUGIN(repl, c_sym, 5); /* first: smaller order */\n' >"$T/g2.c"
gen "$T/g1.c" "$T/g2.c" >"$T/gen12.c" 2>&1
gen "$T/g2.c" "$T/g1.c" >"$T/gen21.c" 2>&1
# order key first, then the symbol; the file order does not matter
if [ "$(sed -n '/wc_plugins_repl\[\]/,/NULL/p' "$T/gen12.c" | tr -d ' \n')" = \
     'constWC_PLUGIN_TYPE_repl*constwc_plugins_repl[]={&c_sym,&a_sym,&b_sym,NULL,' ] &&
   grep -q '^const size_t wc_plugins_repl_n = 3;$' "$T/gen12.c" &&
   grep -q '^const size_t wc_plugins_controller_n = 0;$' "$T/gen12.c" &&
   cmp -s "$T/gen12.c" "$T/gen21.c"; then ok gen_order
else bad gen_order "$(cat "$T/gen12.c")"; fi
printf '/* x */\nWC_PLUGIN(repl, a_sym);\n' >"$T/bad1.c"
expect gen_malformed 2 "bad1.c:2: malformed" -- gen "$T/bad1.c"
printf 'WC_PLUGIN(nosuch, a_sym, 1);\n' >"$T/bad2.c"
expect gen_family 2 'bad2.c:1: unknown plug-in family "nosuch"' -- gen "$T/bad2.c"
expect gen_twice 2 "a_sym is registered twice (first at $T/g1.c:2)" -- gen "$T/g1.c" "$T/g1.c"

# ---- behaviour -------------------------------------------------------------
stat() { # STAT BINARY ARGS... -> the value of the totals line STAT
  name=$1; bin=$2; shift 2
  "$bin" run -q "$@" 2>&1 | sed -n "s/^  $name  *\([0-9][0-9]*\)\$/\1/p"
}
G1="N:1:128:4,L:L:m:N:L,A:32:8,8"
GZ="N:1:128:4,Z:L:m:N:L,A:32:8,8"
AS5="seed/assoc_stride:n=5,stride=128"
AS3="seed/assoc_stride:n=3,stride=128"

m=$(stat 'L1 read misses' "$P" -w $AS5 -o "gpgpu_cache:dl1=$GZ"); h=$(stat 'L1 hits' "$P" -w $AS5 -o "gpgpu_cache:dl1=$GZ")
[ "$m" = 7 ] && [ "$h" = 3 ] && ok evict0_misses || bad evict0_misses "misses $m hits $h, expected 7 and 3"
m=$(stat 'L1 read misses' "$P" -w $AS5 -o "gpgpu_cache:dl1=$G1")
[ "$m" = 10 ] && ok lru_misses || bad lru_misses "LRU: $m misses, expected 10"

m=$(stat 'L1 read misses' "$P" -w $AS3 -o "gpgpu_cache:dl1=$G1" -o l1_org=plug_dm)
[ "$m" = 6 ] && ok dm_misses || bad dm_misses "$m misses, expected 6"
m=$(stat 'L1 read misses' "$P" -w $AS3 -o "gpgpu_cache:dl1=$G1")
[ "$m" = 3 ] && ok conventional_misses || bad conventional_misses "$m misses, expected 3"

# (with GPGPU-Sim's fetch unit and instruction cache off: with them on the
# front end's own timing moves with the delay and the difference is 993)
NF="-o icache=0"
c0=$(stat cycles "$P" -w $AS5 -o "gpgpu_cache:dl1=$G1" $NF -o mem_stage=inorder)
c1=$(stat cycles "$P" -w $AS5 -o "gpgpu_cache:dl1=$G1" $NF -o mem_stage=plug_delay)
[ -n "$c0" ] && [ "$((c1 - c0))" -eq 1000 ] && ok delay_cycles \
  || bad delay_cycles "inorder $c0, plug_delay $c1 cycles: expected 1000 more"

ST="micro/stream:n=16384"
c0=$(stat cycles "$P" -w $ST)
c1=$(stat cycles "$P" -w $ST -o controllers=plug_limit --timeline-csv "$T/tl.csv")
c2=$(stat cycles "$P" -w $ST -o controllers=swl:warp_limit=2)
[ -n "$c1" ] && [ "$c1" = "$c2" ] && [ "$c1" != "$c0" ] && ok limit_is_swl2 \
  || bad limit_is_swl2 "plug_limit $c1, swl:warp_limit=2 $c2, none $c0 cycles"
[ "$(grep -c ',plug_limit,' "$T/tl.csv")" = 1 ] && grep -q "^$ST,0,-1,plug_limit,2\$" "$T/tl.csv" \
  && ok limit_timeline || bad limit_timeline "$(cat "$T/tl.csv")"

c0=$(stat cycles "$P" -w $ST -o gpgpu_scheduler=plug_oldest -o max_warp_limit=1)
c1=$(stat cycles "$P" -w $ST -o gpgpu_scheduler=lrr -o max_warp_limit=1)
c2=$(stat cycles "$P" -w $ST -o gpgpu_scheduler=gto -o max_warp_limit=1)
[ -n "$c0" ] && [ "$c0" = "$c1" ] && [ "$c0" = "$c2" ] && ok oldest_one_warp \
  || bad oldest_one_warp "plug_oldest $c0, lrr $c1, gto $c2 cycles"

# A PLUGINS file without its WC_PLUGIN line would be built in and never
# registered: make refuses it when it reads the Makefile (nothing is built).
printf '/* no registration line */\nint plug_nothing;\n' >"$T/noreg.c"
expect plugins_unregistered_refused 2 "noreg.c: no WC_PLUGIN line" -- make -n PLUGINS="$T/noreg.c"

echo "cli_plugins: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
