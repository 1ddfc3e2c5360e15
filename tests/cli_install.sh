# The installed tree (`make install`, which `make test` runs into $BUILD/prefix):
# its layout, a warpcache.pc naming the libraries the build linked, a static
# library with no LTO bytecode that links a small program in seconds, and
# examples/hello.c compiled against it with pkg-config: the library run
# through the public API must give the statistics the installed binary gives
# for the same workload.
. "$(dirname "$0")/clilib.sh"
P=$(cd "${BUILD:-build}" && pwd)/prefix
if [ ! -d "$P" ]; then
  bad installed_tree "no $P (make test runs make install PREFIX=$P first)"
  echo "cli_install: $pass passed, $fail failed"; exit 1
fi

for f in bin/warpcache lib/libwarpcache.a lib/pkgconfig/warpcache.pc include/warpcache/experiment.h \
  include/warpcache/sim.h share/warpcache/designs/base-48k.config share/warpcache/fermi-48k.config; do
  [ -f "$P/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok layout || bad layout "missing:$missing"
# every public header is installed (what a program may include)
n_src=$(ls include/warpcache/*.h | wc -l); n_inst=$(ls "$P"/include/warpcache/*.h | wc -l)
[ "$n_src" -eq "$n_inst" ] && ok headers || bad headers "$n_inst of $n_src headers"

# Libs.private: the optional codec libraries exactly when their headers are on
# this machine (what the Makefile detects), then libm and pthreads.
want=""
for hl in zlib.h:-lz lzma.h:-llzma zstd.h:-lzstd; do
  [ -f "/usr/include/${hl%%:*}" ] && want="$want ${hl#*:}"
done
want="${want# } -lm -lpthread"; want=${want# }
got=$(sed -n 's/^Libs.private: //p' "$P/lib/pkgconfig/warpcache.pc")
[ "$got" = "$want" ] && ok pc_libs_private || bad pc_libs_private "'$got', expected '$want'"
PC="env PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config"
if command -v pkg-config >/dev/null 2>&1; then
  expect pc_cflags 0 "-I$P/include" -- $PC --cflags warpcache
  expect pc_static_libs 0 "-lwarpcache" -- $PC --static --libs warpcache
else
  bad pkg_config "pkg-config not installed (make check installs it)"
fi

# No LTO bytecode in the installed library: a program links the ordinary code
# (a fat-LTO archive made every link a whole-library LTO step, over a minute).
if objdump -h "$P/lib/libwarpcache.a" | grep -q '\.gnu\.lto_'; then
  bad lib_no_lto "LTO sections in libwarpcache.a"
else ok lib_no_lto; fi

# examples/hello.c against the installed tree, the way docs/library.md says
t0=$(date +%s)
# (EXTRA_CFLAGS: make asan's library needs the sanitizer runtime too)
# shellcheck disable=SC2046,SC2086
if ${CC:-cc} $EXTRA_CFLAGS -o "$T/hello" examples/hello.c $($PC --cflags --static --libs warpcache) \
  2>"$T/cc.err"; then
  ok hello_builds
else
  bad hello_builds "$(head -c 400 "$T/cc.err")"
fi
secs=$(($(date +%s) - t0))
# a link that is not an LTO step takes about a second; 30 s allows a loaded machine
[ "$secs" -le 30 ] && ok hello_links_fast || bad hello_links_fast "compile+link took ${secs}s"

# Its numbers are the installed binary's for the same workload and option.
WL=micro/colcopy:h=64
"$T/hello" "$WL" 8 >"$T/hello.out" 2>&1 && ok hello_runs || bad hello_runs "$(head -c 300 "$T/hello.out")"
"$P/bin/warpcache" run -q --workload "$WL" -o l1_assoc=8 --json "$T/run.json" >/dev/null 2>&1
field() { # SECTION KEY: the first "KEY": number after "SECTION": { inside the JSON "totals"
  awk -v s="\"$1\": {" -v k="\"$2\":" '/"totals": \{/ {t=1} t && index($0, s) {u=1}
    t && u && $1==k {gsub(/,/,"",$2); print $2; exit}' "$T/run.json"
}
for kv in cycles:totals:cycles l2_accesses:l2:accesses; do
  mine=$(awk -v k="${kv%%:*}" '$1==k {print $2}' "$T/hello.out")
  sk=${kv#*:}
  theirs=$(field "${sk%%:*}" "${sk#*:}")
  [ -n "$mine" ] && [ "$mine" = "$theirs" ] && ok "hello_${kv%%:*}" ||
    bad "hello_${kv%%:*}" "hello '$mine', warpcache run '$theirs'"
done
expect hello_bad_workload 2 "hello: " -- "$T/hello" no/such-workload
expect hello_bad_option 2 "l1_assoc" -- "$T/hello" "$WL" x

# The installed binary finds the installed designs (share/warpcache/designs).
expect installed_designs 0 "base-48k" -- sh -c "cd / && '$P/bin/warpcache' list designs"

echo "cli_install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
