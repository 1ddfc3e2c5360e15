#!/bin/sh
# callgraph.sh - the cross-file calls of the engine, its plug-ins and the
# analyses, from the objects' symbol tables: "A -> B  (symbol)" when A.o
# uses a function or an ops table B.o defines.  Static inline code counts
# where it is compiled in; calls through ops tables and the stage
# environment's pointers are not link edges and do not show.  Used to draw
# the call graph in docs/design.md ("Who calls whom"); -s prints file pairs
# only.
#
#   sh scripts/callgraph.sh [-s] [BUILD]      (after make; default build)
short=0
[ "$1" = -s ] && { short=1; shift; }
B=${1:-build}
objs=$(find "$B/obj/src/core" "$B/obj/src/analysis" -name '*.o' | LC_ALL=C sort)
[ -n "$objs" ] || { echo "callgraph: no objects under $B/obj/src (run make first)" >&2; exit 2; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
for o in $objs; do nm --defined-only "$o" | awk -v f="$o" '$2 ~ /^[TDRB]$/ {print $3, f}'; done |
  LC_ALL=C sort >"$t/defs"
for o in $objs; do nm -u "$o" | awk -v f="$o" '{print $2, f}'; done | LC_ALL=C sort >"$t/uses"
LC_ALL=C join "$t/uses" "$t/defs" |
  awk -v b="$B/obj/src/" '{a = $2; d = $3; sub(b, "", a); sub(b, "", d); sub(/\.o$/, "", a);
                          sub(/\.o$/, "", d); if (a != d) print a " -> " d "  (" $1 ")"}' |
  LC_ALL=C sort >"$t/edges"
if [ $short = 1 ]; then sed 's/  (.*//' "$t/edges" | uniq -c | awk '{print $2, $3, $4 "  (" $1 ")"}'
else cat "$t/edges"; fi
