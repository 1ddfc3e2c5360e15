#!/bin/sh
# warpcache report: a page from small real results of run (with a timeline),
# compare, sweep, model, mrc and validate.  Every SVG must be well-formed XML
# (xmllint), the page must render in a real headless browser without a
# console message and show every expected figure (its inline script counts
# the SVGs with a non-empty box), the bytes must not depend on the run, and
# bad input is file:line: reason with exit 2 and no output left behind.
#
# The browser part needs chromium-headless-shell (or chromium) and xmllint,
# which `make check` installs through scripts/deps.sh.  Missing, the test
# FAILS - unless WC_REPORT_BROWSER=optional (set by `make asan`, whose binary
# is checked by the rest of this script; `make check` runs the browser part).
# Prints "cli_report: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

# ---- small real inputs ----
$W run -q -w micro/stream:n=262144 -o controllers=stream_bypass:level=l1,period=1000,threshold=90 \
  --json "$T/run.json" >/dev/null || bad inputs "run failed"
$W compare -q --designs base,base-48k -w micro/colcopy:h=64 -w micro/stream:n=4096 \
  --by-class 004 -j 1 --json "$T/cmp.json" >/dev/null || bad inputs "compare failed"
$W sweep -q --results "$T/sw.jsonl" -g l1_assoc=2,4 -w micro/colcopy:h=64 -w micro/stream:n=4096 \
  -j 1 >/dev/null || bad inputs "sweep failed"
$W model -q -w micro/colcopy:h=64 --json "$T/model.json" >/dev/null || bad inputs "model failed"
$W mrc -q -w micro/colcopy:h=64 --sets 32 --json "$T/mrc.json" --svg "$T/mrc.svg" >/dev/null ||
  bad inputs "mrc failed"
$W validate -q -w micro/colcopy:h=32 -w micro/colcopy:h=64 --json "$T/val.json" >/dev/null ||
  bad inputs "validate failed"

# the figures these inputs make, in order (docs/report.md)
FIGS="f1-line-use f1-timeline f2-compare f3-sweep-ipc f3-sweep-l1miss f3-sweep-lines f4-reuse-hist \
f4-miss-classes f5-mrc f6-validate"
NFIGS=$(echo $FIGS | wc -w)

expect report_ok 0 "" -- $W report "$T/run.json" "$T/cmp.json" "$T/sw.jsonl" "$T/model.json" \
  "$T/mrc.json" "$T/val.json" -o "$T/r.html" --svg-dir "$T/svg"
got=$(cd "$T/svg" 2>/dev/null && ls | sed 's/\.svg$//' | LC_ALL=C sort | tr '\n' ' ')
want=$(printf '%s\n' $FIGS | LC_ALL=C sort | tr '\n' ' ')
[ "$got" = "$want" ] && ok svg_files || bad svg_files "got '$got', want '$want'"
missing=""
for f in $FIGS; do
  grep -q "<figure id=\"fig-$f\">" "$T/r.html" 2>/dev/null || missing="$missing $f"
done
[ -z "$missing" ] && ok html_figures || bad html_figures "not in the page:$missing"

# compare --by-class: workloads ordered by class, the class named above the bars
# (neither workload has a seed-004 label: one band "004:-")
grep -q 'class="band">004:-</text>' "$T/svg/f2-compare.svg" 2>/dev/null && ok compare_bands ||
  bad compare_bands "no class band in f2-compare.svg"

# self-contained: no script, style, image or link from outside the page
if grep -Eq '(src|href)="(https?:|//|file:)|url\((https?:|//)|<link |@import' "$T/r.html"; then
  bad self_contained "$(grep -Eo '(src|href)="[^"]*"|url\([^)]*\)|<link [^>]*>' "$T/r.html" | head -3)"
else
  ok self_contained
fi

# the same inputs give the same bytes (no time, host or address in the page)
(cd "$T" && $W report run.json cmp.json sw.jsonl model.json mrc.json val.json -o r2.html --svg-dir s2 &&
  $W report run.json cmp.json sw.jsonl model.json mrc.json val.json -o r3.html --svg-dir s3) >/dev/null 2>&1
cmp -s "$T/r2.html" "$T/r3.html" && diff -r "$T/s2" "$T/s3" >/dev/null && ok deterministic ||
  bad deterministic "two reports of the same inputs differ"

# mrc --svg uses the same module: ticks at powers of two, in lines and bytes
if grep -q '>64</text>' "$T/mrc.svg" && grep -q '>8 KB</text>' "$T/mrc.svg" &&
   ! grep -q '>3</text>' "$T/mrc.svg"; then ok mrc_svg_ticks; else bad mrc_svg_ticks "$(grep -o '>[0-9. KB]*</text>' "$T/mrc.svg" | head -20 | tr '\n' ' ')"; fi

# ---- every SVG well-formed ----
if command -v xmllint >/dev/null 2>&1; then
  badxml=""
  for f in "$T"/svg/*.svg "$T/mrc.svg"; do
    xmllint --noout "$f" 2>>"$T/xml.err" || badxml="$badxml $(basename "$f")"
  done
  [ -z "$badxml" ] && ok svg_xml || bad svg_xml "$badxml: $(head -c 300 "$T/xml.err")"
elif [ "$WC_REPORT_BROWSER" = optional ]; then
  echo "svg_xml skipped: no xmllint (WC_REPORT_BROWSER=optional; not counted)"
else
  bad svg_xml "xmllint not installed (scripts/deps.sh installs libxml2-utils)"
fi

# ---- the page in a real browser ----
BROWSER=""
for b in chromium-headless-shell chromium; do
  command -v $b >/dev/null 2>&1 && { BROWSER=$b; break; }
done
browse() { # ARGS... : the browser, headless, on its own profile, no sandbox (root in CI)
  $BROWSER --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" \
    --enable-logging=stderr --v=0 "$@"
}
if [ -n "$BROWSER" ]; then
  browse --dump-dom "file://$T/r.html" >"$T/dom.html" 2>"$T/browser.err"
  if grep -q "rendered $NFIGS of $NFIGS figures" "$T/dom.html"; then
    ok browser_rendered
  else
    bad browser_rendered "$(grep -o 'id="wc-status">[^<]*' "$T/dom.html"): $(tail -c 300 "$T/browser.err")"
  fi
  missing=""
  for f in $FIGS; do
    grep -q "<svg [^>]*id=\"$f\"" "$T/dom.html" || missing="$missing $f"
  done
  [ -z "$missing" ] && ok browser_figures || bad browser_figures "not in the DOM:$missing"
  if grep -q ':CONSOLE' "$T/browser.err"; then
    bad browser_console "$(grep ':CONSOLE' "$T/browser.err" | head -3)"
  else
    ok browser_console
  fi
  # the check itself: a page with a script error must be caught
  printf '<html><body><p id="x">x</p><script>nosuchfn();</script></body></html>' >"$T/err.html"
  browse --dump-dom "file://$T/err.html" >/dev/null 2>"$T/browser2.err"
  grep -q ':CONSOLE.*nosuchfn' "$T/browser2.err" && ok browser_console_detects ||
    bad browser_console_detects "a script error was not seen on stderr"
  browse --hide-scrollbars --window-size=900,1200 --screenshot="$T/shot.png" "file://$T/r.html" \
    >/dev/null 2>&1
  # a PNG starts with \211PNG
  [ "$(head -c 4 "$T/shot.png" 2>/dev/null | tail -c 3)" = PNG ] && ok browser_screenshot ||
    bad browser_screenshot "no PNG written"
elif [ "$WC_REPORT_BROWSER" = optional ]; then
  echo "browser_* skipped: no headless browser (WC_REPORT_BROWSER=optional; not counted)"
else
  bad browser "no chromium-headless-shell or chromium (scripts/deps.sh installs it; make check runs it)"
fi

# ---- --svg-dir: never over the page or an input; all figures or none ----
# A figure file that is the page (was: exit 0, the page replaced by the
# figure): refused before anything is written.
mkdir "$T/same"
fig=$(ls "$T/svg" | head -1)
expect svg_dir_over_page 2 "options -o and --svg-dir both write $T/same/$fig" -- $W report "$T/run.json" "$T/cmp.json" -o "$T/same/$fig" --svg-dir "$T/same"
[ -z "$(ls -A "$T/same")" ] && ok svg_dir_over_page_nothing || bad svg_dir_over_page_nothing "left: $(ls -A "$T/same")"
expect svg_dir_is_page 2 "options -o and --svg-dir both write" -- $W report "$T/run.json" -o "$T/same/p" --svg-dir "$T/same/p"
cp "$T/run.json" "$T/same/$fig"
expect svg_dir_over_input 2 "option --svg-dir would overwrite the input $T/same/$fig" -- $W report "$T/same/$fig" "$T/cmp.json" -o "$T/same.html" --svg-dir "$T/same"
cmp -s "$T/same/$fig" "$T/run.json" && ok svg_dir_input_intact || bad svg_dir_input_intact "input replaced"
# A write that fails (file size limit: EFBIG, as a full disk) is exit 1 and
# leaves neither the folder nor a temporary one (was: the folder, with the
# figures written so far).
mkdir "$T/fs"
(cd "$T/fs" && ulimit -f 8 && trap '' XFSZ && exec $W report "$T/run.json" "$T/cmp.json" "$T/sw.jsonl" "$T/model.json" "$T/mrc.json" "$T/val.json" -o r.html --svg-dir figs) >"$T/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "cannot write" "$T/out" && [ -z "$(ls -A "$T/fs")" ] && ok svg_dir_efbig_nothing_left || bad svg_dir_efbig_nothing_left "exit $st, left: $(ls -A "$T/fs"): $(head -c 200 "$T/out")"
# An interrupted report (SIGTERM at the figures' first write, by a preloaded
# fopen) leaves no folder.
if command -v cc >/dev/null 2>&1 && ! grep -q __asan_init "$W" 2>/dev/null; then
  cat >"$T/raise.c" <<'EOF2'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
FILE *fopen(const char *p, const char *m)
{
    FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    if (strstr(p, ".svg")) raise(SIGTERM);
    return real(p, m);
}
EOF2
  if cc -shared -fPIC -o "$T/raise.so" "$T/raise.c" -ldl 2>/dev/null; then
    rm -rf "$T/fs"/* "$T/fs"/.[!.]*
    (cd "$T/fs" && LD_PRELOAD="$T/raise.so" exec $W report "$T/run.json" -o r.html --svg-dir figs) >/dev/null 2>&1
    st=$?
    [ $st -eq 143 ] && [ -z "$(ls -A "$T/fs")" ] && ok svg_dir_sigterm_nothing_left || bad svg_dir_sigterm_nothing_left "exit $st, left: $(ls -A "$T/fs")"
  fi
fi

# ---- bad input: file:line: reason, exit 2, nothing written ----
printf '{\n  "a": 1,\n  "b": \n}\n' >"$T/bad.json"
expect bad_json 2 "bad.json:4: expected a value" -- $W report "$T/bad.json" -o "$T/x.html"
printf '{\n  "hello": 1\n}\n' >"$T/other.json"
expect bad_kind 2 "other.json:1: not the JSON of warpcache run, compare, sweep, model, mrc, validate or validate --hw" -- \
  $W report "$T/other.json" -o "$T/x.html"
: >"$T/empty.json"
expect bad_empty 2 "empty.json:1: empty file" -- $W report "$T/empty.json" -o "$T/x.html"
# a compare row with one value too few: the row's line
sed '0,/"normalised": \[[^]]*\]/s//"normalised": [1]/' "$T/cmp.json" >"$T/cmp_bad.json"
line=$(grep -n '"normalised": \[1\]' "$T/cmp_bad.json" | head -1 | cut -d: -f1)
expect bad_compare_row 2 "cmp_bad.json:$line: 'normalised' must be an array of 2 numbers" -- \
  $W report "$T/cmp_bad.json" -o "$T/x.html"
# a sweep file cut in the middle of its last line
head -c $(($(wc -c <"$T/sw.jsonl") - 40)) "$T/sw.jsonl" >"$T/torn.jsonl"
n=$(wc -l <"$T/torn.jsonl"); n=$((n + 1))
expect bad_torn_sweep 2 "torn.jsonl:$n:" -- $W report "$T/torn.jsonl" -o "$T/x.html"
# sweep results of one sweep, each point once: a point given twice, lines of
# two sweeps (a file two sweeps appended to) and lines without the sweep
# identity (an older warpcache's) are refused, naming the line
(cat "$T/sw.jsonl"; sed -n 3p "$T/sw.jsonl") >"$T/swdup.jsonl"
n=$(wc -l <"$T/swdup.jsonl")
expect bad_sweep_duplicate 2 "swdup.jsonl:$n: point 'l1_assoc=4;workload=micro/colcopy:h=64' appears twice (also line 3)" -- \
  $W report "$T/swdup.jsonl" -o "$T/x.html"
$W sweep -q --results "$T/sw8.jsonl" -g l1_assoc=8 -w micro/colcopy:h=64 -w micro/stream:n=4096 -j 1 >/dev/null 2>&1
cat "$T/sw.jsonl" "$T/sw8.jsonl" >"$T/swmix.jsonl"
n=$(($(wc -l <"$T/sw.jsonl") + 1))
expect bad_sweep_mixed 2 "swmix.jsonl:$n: a point of sweep [0-9a-f]*, but line 1 is of sweep [0-9a-f]*: results of different sweeps" -- \
  $W report "$T/swmix.jsonl" -o "$T/x.html"
sed 's/"sweep_id": "[0-9a-f]*", //' "$T/sw.jsonl" >"$T/swold.jsonl"
expect bad_sweep_old 2 "swold.jsonl:1: a sweep point without 'sweep_id', written by an older warpcache" -- \
  $W report "$T/swold.jsonl" -o "$T/x.html"
# a results file is a regular file: /dev/zero, a folder, a pipe are refused unread
expect bad_device 2 "/dev/zero: a device or special file, not a results file" -- timeout 20 $W report /dev/zero -o "$T/x.html"
expect bad_folder 2 "a folder, not a results file" -- timeout 20 $W report "$T" -o "$T/x.html"
mkfifo "$T/fifo.json"
expect bad_fifo 2 "fifo.json: a pipe, not a results file" -- timeout 20 $W report "$T/fifo.json" -o "$T/x.html"
rm -f "$T/fifo.json"
[ ! -e "$T/x.html" ] && [ -z "$(ls -A "$T" | grep '\.tmp\.')" ] && ok bad_leaves_nothing ||
  bad bad_leaves_nothing "$(ls -A "$T" | grep 'x.html\|\.tmp\.')"
# absurd values draw, and end: a normalised 1.7e308 once overflowed the axis
# to infinity and the tick loop never ended
sed '0,/"normalised": \[1, [0-9.e+-]*\]/s//"normalised": [1, 1.7e308]/' "$T/cmp.json" >"$T/huge.json"
grep -q 1.7e308 "$T/huge.json" || bad huge_setup "no value replaced"
expect huge_value 0 "" -- timeout 20 $W report "$T/huge.json" -o "$T/huge.html"
# every prefix of every input (a torn file) is a figure or a file:line error,
# never a crash or a hang
crashes=""
for f in run.json cmp.json sw.jsonl model.json mrc.json val.json; do
  size=$(wc -c <"$T/$f")
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    head -c $((size * i / 13)) "$T/$f" >"$T/cut.json"
    timeout 20 $W report "$T/cut.json" -o "$T/cut.html" >/dev/null 2>"$T/cut.err"
    st=$?
    [ $st -eq 0 ] || [ $st -eq 2 ] || crashes="$crashes $f@$i:$st"
  done
done
[ -z "$crashes" ] && ok prefixes_handled || bad prefixes_handled "$crashes: $(head -c 300 "$T/cut.err")"
# ---- validate --hw results: hardware beside simulator L1 hit rate per launch ----
HW=tests/data/ncu/handmade-atax-details.csv
$W validate -q --hw $HW -w polybench/atax:scale=0.125 --json "$T/hw.json" >/dev/null ||
  bad inputs "validate --hw failed"
expect hw_report 0 "" -- $W report "$T/hw.json" -o "$T/hw.html" --svg-dir "$T/hwsvg"
[ -f "$T/hwsvg/f1-validate-hw.svg" ] && grep -q '<figure id="fig-f1-validate-hw">' "$T/hw.html" &&
  ok hw_figure || bad hw_figure "no f1-validate-hw figure"
# Bars are proportional to the values: in each launch's group the simulator bar
# over the hardware bar is sim_l1_hit_pct / hw_l1_hit_pct of the JSON (the
# fixture's hand-made 20 % and 30 % against what the simulator measured).
python3 - "$T/hw.json" "$T/hwsvg/f1-validate-hw.svg" <<'PY' >"$T/hw.chk" 2>&1 && ok hw_bar_heights ||
import json, re, sys
ks = json.load(open(sys.argv[1]))["kernels"]
groups = re.findall(r'<g class="group">(.*?)</g>', open(sys.argv[2]).read(), re.S)
assert len(groups) == len(ks) == 2, (len(groups), len(ks))
for k, g in zip(ks, groups):
    hw, sim = [float(h) for h in re.findall(r'height="([0-9.]+)"', g)]
    want = k["sim_l1_hit_pct"] / k["hw_l1_hit_pct"]
    assert abs(sim / hw - want) < 0.01 * want, (k["kernel"], sim / hw, want)
PY
  bad hw_bar_heights "$(head -c 300 "$T/hw.chk")"
# a launch without a hardware value (null) keeps only its simulator bar
sed '0,/"hw_l1_hit_pct": 20,/s//"hw_l1_hit_pct": null,/' "$T/hw.json" >"$T/hw_null.json"
expect hw_null 0 "" -- $W report "$T/hw_null.json" -o "$T/hwn.html" --svg-dir "$T/hwnsvg"
n=$(sed -n '/<g class="group"><title>1 /,/<\/g>/p' "$T/hwnsvg/f1-validate-hw.svg" 2>/dev/null | grep -c '<rect')
[ "$n" = 1 ] && ok hw_null_one_bar || bad hw_null_one_bar "$n bars in launch 1's group"
sed '0,/"sim_l1_hit_pct": [0-9.e+-]*,/s//"sim_l1_hit_pct": "x",/' "$T/hw.json" >"$T/hw_bad.json"
line=$(grep -n '"sim_l1_hit_pct": "x"' "$T/hw_bad.json" | head -1 | cut -d: -f1)
expect hw_bad 2 "hw_bad.json:$line: a kernel needs 'id', 'kernel', and 'hw_l1_hit_pct'" -- \
  $W report "$T/hw_bad.json" -o "$T/x.html"
expect no_inputs 2 "no results files" -- $W report -o "$T/x.html"
expect no_output 2 "option --output FILE.html is required" -- $W report "$T/run.json"
expect missing_input 2 "nosuch.json: cannot read" -- $W report "$T/nosuch.json" -o "$T/x.html"
cp "$T/run.json" "$T/run.copy"
expect output_is_input 2 "" -- $W report "$T/run.json" -o "$T/run.json"
cmp -s "$T/run.json" "$T/run.copy" && ok input_kept || bad input_kept "the input was overwritten"
: >"$T/afile"
expect svg_dir_file 2 "option --svg-dir: cannot create $T/afile: it is not a folder" -- \
  $W report "$T/run.json" -o "$T/x.html" --svg-dir "$T/afile"
expect unknown_option 2 "unknown option '--bogus'" -- $W report --bogus "$T/run.json" -o "$T/x.html"
expect help 0 "usage: warpcache report" -- $W report --help

# ---- long category labels: short labels and a key of full names ----
# Eight compare rows whose names share neither suite nor parameters (so the
# compare figure cannot shorten them to a common pattern): 40-odd characters
# each, once drawn vertically and cut at 34.  Each must be drawn whole
# nowhere cut ("..."), with a short label of at most 20 characters, and the
# key below the plot must hold every full name.
python3 - "$T/longcmp.json" <<'PY'
import json, sys
names = ["polybench/atax:scale=0.125,variant=tiled", "polybench/bicg:scale=0.125,variant=naive",
         "rodinia/backprop:scale=0.125,variant=tiled", "rodinia/hotspot:scale=0.125,variant=naive",
         "polybench/gesummv:scale=0.25,variant=tiled", "rodinia/nw:scale=0.125,variant=naive",
         "polybench/mvt:scale=0.125,variant=tiled", "rodinia/srad:scale=0.125,variant=naive"]
rows = [{"workload": n, "classes": "", "values": [1, 1.1], "normalised": [1, 1.1]} for n in names]
json.dump({"schema_version": 1, "metric": "ipc", "reference": "base", "designs": ["base", "other"],
           "rows": rows, "means": [{"group": "all", "geomean": [1, 1.1], "rows": [8, 8]}]},
          open(sys.argv[1], "w"))
open(sys.argv[1] + ".names", "w").write("\n".join(names) + "\n")
PY
expect long_labels_report 0 "" -- $W report "$T/longcmp.json" --output "$T/long.html" --svg-dir "$T/longsvg"
python3 - "$T/longsvg/f1-compare.svg" "$T/longcmp.json.names" <<'PY' >"$T/long.chk" 2>&1 && ok long_labels_key ||
import re, sys
svg = open(sys.argv[1]).read()
names = open(sys.argv[2]).read().split("\n")[:-1]
key = re.search(r'<g class="key">(.*?)</g>', svg, re.S)
assert key, "no key"
entries = dict(re.findall(r'<tspan font-weight="bold">([^<]*)</tspan> ([^<]*)</text>', key.group(1)))
assert sorted(entries.values()) == sorted(names), entries
# the category labels: text elements outside the key, title and legend whose
# text is a short label
body = svg[:key.start()]
shown = [s for s in entries if re.search(r'>%s</text>' % re.escape(s), body)]
assert len(shown) == len(names), ("short labels drawn", shown)
assert all(len(s) <= 20 for s in entries), entries
assert "..." not in svg, "a cut label"
PY
  bad long_labels_key "$(head -c 400 "$T/long.chk")"
# validate: two kernels of one long-named workload once both drew as the same
# cut "polybench/gramschmidt:scale=0.1..."; the kernel names tell them apart
python3 - "$T/longval.json" <<'PY'
import json, sys
w = "polybench/gramschmidt:scale=0.125,n=512,m=512,layout=row-major"
ks = [{"workload": w, "kernel": "gramschmidt_kernel%d" % i, "id": i, "simulator_miss_rate": 0.1 * i,
       "model_miss_rate": 0.1 * i} for i in (1, 2)]
json.dump({"schema_version": 1, "kernels": ks, "mean_absolute_error": 0}, open(sys.argv[1], "w"))
PY
expect long_validate_report 0 "" -- $W report "$T/longval.json" --output "$T/lv.html" --svg-dir "$T/lvsvg"
if grep -q '>gramschmidt_kernel1</text>' "$T/lvsvg/f1-validate.svg" 2>/dev/null &&
   grep -q '>gramschmidt_kernel2</text>' "$T/lvsvg/f1-validate.svg" &&
   grep -q 'gramschmidt:scale=0.125,n=512,m=512,layout=row-major \[gramschmidt_kernel2\]</text>' "$T/lvsvg/f1-validate.svg"; then
  ok long_validate_kernels
else
  bad long_validate_kernels "$(grep -o '>[^<>]*</text>' "$T/lvsvg/f1-validate.svg" | tail -8 | tr '\n' ' ')"
fi
# the same long inputs give the same bytes
$W report "$T/longcmp.json" "$T/longval.json" --output "$T/l1.html" >/dev/null 2>&1
$W report "$T/longcmp.json" "$T/longval.json" --output "$T/l2.html" >/dev/null 2>&1
cmp -s "$T/l1.html" "$T/l2.html" && ok long_labels_deterministic || bad long_labels_deterministic "two reports differ"

# ---- figure size: --width, --height, --font-size on every figure ----
expect size_report 0 "" -- $W report "$T/run.json" "$T/cmp.json" "$T/sw.jsonl" "$T/model.json" \
  "$T/mrc.json" "$T/val.json" "$T/longcmp.json" --output "$T/size.html" --svg-dir "$T/sizesvg" \
  --width 1000 --height=520 --font-size 14
wrong=""
for f in "$T"/sizesvg/*.svg; do
  head -1 "$f" | grep -q ' width="1000" height="520" viewBox="0 0 1000 520"[^>]* font-size="14"' ||
    wrong="$wrong $(basename "$f")"
done
[ -z "$wrong" ] && [ -n "$(ls "$T/sizesvg")" ] && ok size_every_figure || bad size_every_figure "not 1000x520, font 14:$wrong"
[ "$(grep -c '<svg [^>]*width="1000" height="520"' "$T/size.html")" = "$(ls "$T/sizesvg" | wc -l)" ] &&
  ok size_in_page || bad size_in_page "the page's figures are not all 1000x520"
# without the options: 800 wide, font 12 (today's figures)
head -1 "$T/svg/f2-compare.svg" | grep -q ' width="800" .* font-size="12"' && ok size_default ||
  bad size_default "$(head -1 "$T/svg/f2-compare.svg")"
for v in 0 -5 abc 12px 99999999999999999999999 299 5001 ""; do
  expect "bad_width_'$v'" 2 "option --width: .*(300 to 5000)" -- $W report "$T/cmp.json" --output "$T/x.html" --width="$v"
done
for v in 0 149 5001 1e3; do
  expect "bad_height_'$v'" 2 "option --height: .*(150 to 5000)" -- $W report "$T/cmp.json" --output "$T/x.html" --height "$v"
done
for v in 0 5 49 -12 big; do
  expect "bad_font_'$v'" 2 "option --font-size: .*(6 to 48)" -- $W report "$T/cmp.json" --output "$T/x.html" --font-size "$v"
done
[ ! -e "$T/x.html" ] && ok bad_size_nothing_written || bad bad_size_nothing_written "x.html written"

echo "cli_report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
