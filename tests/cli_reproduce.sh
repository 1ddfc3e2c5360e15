#!/bin/sh
# The cheap pieces of `make reproduce` (scripts/reproduce.py), without running the
# reproduction itself: the paper-values file parses and its quotes' numbers are in the
# papers, malformed values files are refused with file:line, the difference sentences on
# hand-made numbers, and the output check on hand-made folders (good, and each defect it
# must catch).  Prints "cli_reproduce: N passed, N failed".
. "$(dirname "$0")/clilib.sh"

R="python3 scripts/reproduce.py"
if ! command -v python3 >/dev/null 2>&1; then
  echo "cli_reproduce skipped: python3 missing (make deps installs it; not counted)"
  echo "cli_reproduce: $pass passed, $fail failed"
  exit 0
fi

# ---- the checked-in paper values ------------------------------------------------------
expect values_parse 0 "103 values" -- $R values scripts/reproduce/paper_values.tsv
# run's arguments are checked before anything runs: --help prints the usage, a typo or a
# missing value exits 2 (both used to start a whole reproduction)
expect run_help 0 "make reproduce" -- $R run --help
expect run_typo 2 "run: unknown argument '--qiuck'" -- $R run --qiuck --out "$T/never"
expect run_missing 2 "run: option --out needs a value" -- $R run --quick --out
# --seed runs one seed's section (to iterate on it): a seed that does not exist, or --seed
# with --docs (docs/reproduction.md needs every section), exits 2 before anything runs
expect run_seed_unknown 2 "run: --seed: seed '007' is not one of 000, 001, 002, 003, 004" -- \
  $R run --quick --seed 007 --out "$T/never"
expect run_seed_list 2 "seed '4' is not one of" -- $R run --seed 001,4 --out "$T/never"
expect run_seed_docs 2 "run: --seed with --docs" -- $R run --seed 001 --docs --out "$T/never"
expect run_seed_help 0 "--seed N" -- $R run --help
if [ ! -e "$T/never" ]; then ok run_typo_nothing_written; else bad run_typo_nothing_written "$T/never exists"; fi
# Every number a quote contains occurs in its paper (the quotes were copied from
# ../shared/papers/*.txt; a typo or an invented number fails here).
if [ -d ../shared/papers ]; then
  python3 - <<'EOF' >"$T/quotes" 2>&1 && ok quotes_in_papers || bad quotes_in_papers "$(head -c 400 "$T/quotes")"
import re, sys
bad = 0
for n, line in enumerate(open("scripts/reproduce/paper_values.tsv", encoding="utf-8"), 1):
    if line.startswith("#") or line.startswith("id\t") or not line.strip():
        continue
    vid, value, unit, paper, where, quote = line.rstrip("\n").split("\t")
    text = open("../shared/papers/" + paper, encoding="utf-8").read()
    for number in re.findall(r"[0-9]+\.[0-9]+", quote):
        if number not in text:
            print("line %d: %s not in %s" % (n, number, paper)); bad += 1
sys.exit(1 if bad else 0)
EOF
else
  echo "quotes_in_papers skipped: no ../shared/papers (not counted)"
fi

# ---- malformed values files: file:line and exit 2 -------------------------------------
H='id	value	unit	paper	where	quote'
P=000_746bcc542c65c503.txt
printf '%s\n' "$H" "s000.a	1.1	x	$P	Figure 1	q" "s000.a	1.2	x	$P	Figure 1	q" >"$T/dup.tsv"
expect values_dup 2 "dup.tsv:3: id 's000.a' given twice (line 2)" -- $R values "$T/dup.tsv"
printf '%s\n' "$H" "s000.a	1.1	x	$P	Figure 1" >"$T/short.tsv"
expect values_fields 2 "short.tsv:2: 5 tab-separated fields, expected 6" -- $R values "$T/short.tsv"
printf '%s\n' "$H" "s000.a	1.1	furlongs	$P	Figure 1	q" >"$T/unit.tsv"
expect values_unit 2 "unit.tsv:2: unit 'furlongs'" -- $R values "$T/unit.tsv"
printf '%s\n' "$H" "s000.a	about 2	x	$P	Figure 1	q" >"$T/num.tsv"
expect values_number 2 "num.tsv:2: value 'about 2' is not a number" -- $R values "$T/num.tsv"
printf '%s\n' "$H" "s001.a	1.1	x	$P	Figure 1	q" >"$T/paper.tsv"
expect values_paper 2 "paper.tsv:2: paper '$P' is not the seed file of s001.a" -- $R values "$T/paper.tsv"
printf '%s\n' "s000.a	1.1	x	$P	Figure 1	q" >"$T/nohead.tsv"
expect values_header 2 "nohead.tsv:1: expected the header" -- $R values "$T/nohead.tsv"
expect values_missing 2 "absent.tsv: cannot open" -- $R values "$T/absent.tsv"

# ---- the sentences, on hand-made numbers ----------------------------------------------
# 1.0862 vs 1.54: shown to 3 decimals, 1.086; gap 1.54 - 1.0862 = 0.4538 -> 0.454;
# 0.4538 / 1.54 = 29.47 % -> 29.5 % below.
expect sent_lower 0 "A: ours 1.086x vs the paper's 1.54x: 0.454 lower (29.5 % below the paper's)." -- \
  $R sentence A 1.0862 1.54 x
# 1.2004 rounds to 1.200 = the paper's 1.2: equal at 3 decimals.
expect sent_equal 0 "B: ours 1.200x vs the paper's 1.2x: equal at this precision." -- $R sentence B 1.2004 1.2 x
# 2.5 vs 2.3: 0.2 higher; 0.2 / 2.3 = 8.70 %.
expect sent_higher 0 "C: ours 2.500x vs the paper's 2.3x: 0.200 higher (8.7 % above the paper's)." -- \
  $R sentence C 2.5 2.3 x
# claims: 0.991 is 0.009 below 1 (fails "at least 1"); 1.05 is 0.050 above 1 (holds "above 1");
# exactly 1 holds "at least 1".
expect sent_claim_no 0 "D: ours 0.991x; the paper: at least 1 - does not hold (0.009 below 1)." -- \
  $R sentence D 0.991 '>=1' x
expect sent_claim_yes 0 "E: ours 1.050x; the paper: above 1 - holds (0.050 above 1)." -- $R sentence E 1.05 '>1' x
expect sent_claim_at 0 "F: ours 1.000x; the paper: at least 1 - holds (exactly 1)." -- $R sentence F 1 '>=1' x
# percentages in points: 15.2 - 6.4 = 8.80 points
expect sent_pct 0 "G: ours 15.20 % vs the paper's 6.4 %: 8.80 points higher." -- $R sentence G 15.2 6.4 pct
# counts: 7 vs 1 -> 6 higher; 5 vs 5 -> equal
expect sent_count 0 "H: ours 7 vs the paper's 1: 6 higher." -- $R sentence H 7 1 n
expect sent_count_eq 0 "I: ours 5 vs the paper's 5: equal." -- $R sentence I 5 5 n
# ours not a number (DWT-CS never decided): shown as is, no arithmetic
expect sent_text 0 "J: ours - vs the paper's 7." -- $R sentence J - 7 n
expect sent_bad_unit 2 "unit 'm' is not one of" -- $R sentence K 1 2 m

# ---- the output check ------------------------------------------------------------------
good() {
  d=$1; mkdir -p "$d/figures"
  {
    echo "# Reproduction"
    for s in 000 001 002 003 004; do
      printf '## Seed %s: x\n\n```sh\nbuild/warpcache run\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n' "$s"
    done
  } >"$d/reproduction.md"
  echo '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>' >"$d/figures/f1.svg"
  echo '<html></html>' >"$d/report.html"
}
good "$T/ok"
expect check_good 0 "" -- $R check "$T/ok"
good "$T/nan"; sed -i 's/| 1 | 2 |/| nan | 2 |/' "$T/nan/reproduction.md"
expect check_nan 2 "nan or inf" -- $R check "$T/nan"
good "$T/inf"; sed -i 's/| 1 | 2 |/| 1 | -inf |/' "$T/inf/reproduction.md"
expect check_inf 2 "nan or inf" -- $R check "$T/inf"
good "$T/sec"; sed -i 's/^## Seed 003: x/## Seed 3/' "$T/sec/reproduction.md"
expect check_section 2 "no section for seed 003" -- $R check "$T/sec"
good "$T/empty"; sed -i 's|^build/warpcache run$||' "$T/empty/reproduction.md"
expect check_empty_block 2 "empty block" -- $R check "$T/empty"
good "$T/rows"; sed -i '/^| 1 | 2 |$/d' "$T/rows/reproduction.md"
expect check_table_rows 2 "table without rows" -- $R check "$T/rows"
good "$T/nosvg"; rm "$T/nosvg/figures/f1.svg"
expect check_no_svg 2 "no SVG figures" -- $R check "$T/nosvg"
if command -v xmllint >/dev/null 2>&1; then
  good "$T/xml"; echo '<svg><g></svg>' >"$T/xml/figures/f2.svg"
  expect check_svg_xml 2 "f2.svg: not well-formed XML" -- $R check "$T/xml"
else
  echo "check_svg_xml skipped: no xmllint (make deps installs it; not counted)"
fi
# the words "information" and "infinite" are not inf
good "$T/words"; echo "infinite distances, information" >>"$T/words/reproduction.md"
expect check_words 0 "" -- $R check "$T/words"

# ---- the differences over 20 % and the causes map (scripts/reproduce/causes.tsv) ------
# The committed map parses (its ids exist, its statuses and anchors are well-formed).
expect causes_parse 0 " entries" -- $R causes scripts/reproduce/causes.tsv
# A run's folder: good()'s layout, seed 000 with two cause headings (GitHub's anchors, by hand:
# "Cause, by experiment: TSC's gap (found)" -> lower case, "'" "," "(" ")" ":" dropped, blanks
# to '-' -> cause-by-experiment-tscs-gap-found), seed 001 with one, and a values.tsv.
run_dir() {
  good "$1"
  awk '{ print } /^## Seed 000: x$/ { print "\n### Cause, by experiment: TSC'"'"'s gap (found)\n\ntext\n\n### Cause, by experiment: Other\n" }
       /^## Seed 001: x$/ { print "\n### Cause, by experiment: Seed one'"'"'s\n" }' "$1/reproduction.md" >"$1/r.md"
  mv "$1/r.md" "$1/reproduction.md"
  # Hand-derived differences from the papers' values (paper_values.tsv):
  #   s000.tsc   1.40 vs 1.156: 0.244 / 1.156 = 21.1 % above: over 20 %
  #   s000.tscp  1.40 vs 1.172: 0.228 / 1.172 = 19.5 %: under
  #   s001.dl1d_cf_min  0.75 vs >=1: 0.25 below the bound = 25 %: over
  #   s004.ci_min       0.85 vs >=1: 15 %: under
  #   s004.fig4.syrk    IW vs the paper's XW: a class differs: over
  #   s004.fig4.syr2k   XW vs XW: none
  #   s004.fig4.classes "9 of 12 agree": 3 / 12 = 25 % disagree: over
  #   s001.classes      "15 of 18 agree": 3 / 18 = 16.7 %: under
  #   s002.dwt.BFS      '-' (never decided) vs 7: not one number: over
  {
    printf '# seed\tid\tquantity\tours\tours on fermi-16k\n'
    printf '000\ts000.tsc\tTSC mean\t1.4\t-\n000\ts000.tscp\tTSC+ mean\t1.4\t-\n'
    printf '001\ts001.dl1d_cf_min\tCF min\t0.75\t-\n001\ts001.classes\tclasses\t15 of 18 agree; outside: X\t-\n'
    printf "002\ts002.dwt.BFS\tBFS limit\t'-' (never decided)\t-\n"
    printf '004\ts004.ci_min\tCI min\t0.85\t-\n004\ts004.fig4.syrk\tsyrk class\tIW (3 / 1 / 0)\t-\n'
    printf '004\ts004.fig4.syr2k\tsyr2k class\tXW (1 / 3 / 0)\t-\n004\ts004.fig4.classes\tclasses\t9 of 12 agree\t-\n'
  } >"$1/values.tsv"
}
CH='id	rows	status	anchors	note'
run_dir "$T/cz"
printf '%s\n' "$CH" >"$T/empty.tsv"
# With no entries, exactly the five rows over 20 % are named, each once, and nothing else
$R check "$T/cz" --causes "$T/empty.tsv" >"$T/cz.out" 2>&1; st=$?
n=$(grep -c 'differs by over 20 %' "$T/cz.out")
if [ "$st" -eq 2 ] && [ "$n" -eq 5 ] && [ "$(wc -l <"$T/cz.out")" -eq 5 ] &&
   grep -q "seed 000: row 'TSC mean' (s000.tsc) differs by over 20 % (21.1 % above the paper's) and has no entry" "$T/cz.out" &&
   grep -q "(s001.dl1d_cf_min) differs by over 20 % (25.0 % below the bound)" "$T/cz.out" &&
   grep -q "(s004.fig4.syrk) differs by over 20 % (IW, the paper's XW)" "$T/cz.out" &&
   grep -q "(s004.fig4.classes) differs by over 20 % (9 of 12 agree)" "$T/cz.out" &&
   grep -q "(s002.dwt.BFS) differs by over 20 % (ours '-' (never decided), not one number)" "$T/cz.out"; then
  ok causes_over_20
else
  bad causes_over_20 "exit $st, $n rows: $(head -c 600 "$T/cz.out")"
fi
# every row over 20 % mapped: the check passes (an open entry needs a note, a cause an anchor;
# another docs/ page's heading is an anchor too)
printf '%s\n' "$CH" "s000.tsc		cause	cause-by-experiment-tscs-gap-found	" \
  "s001.dl1d_cf_min		open	-	nothing ruled out" "s002.dwt.*		cause	fidelity.md#where-the-rest-differs	" \
  "s004.fig4.syrk	syrk	cause	cause-by-experiment-tscs-gap-found	wrong seed" \
  "s004.fig4.classes		context	-	another quantity" >"$T/c_good.tsv"
sed 's/^s004.fig4.syrk.*/s004.fig4.sy*		open	-	both/' "$T/c_good.tsv" >"$T/c_good2.tsv"
expect causes_all_mapped 0 "" -- $R check "$T/cz" --causes "$T/c_good2.tsv"
# an anchor must be a cause heading of the row's own seed (seed 000's heading, cited for seed 004)
expect causes_other_seed 2 "c_good.tsv:5: s004.fig4.syrk: anchor 'cause-by-experiment-tscs-gap-found' is not a 'Cause, by experiment' heading of seed 004" -- \
  $R check "$T/cz" --causes "$T/c_good.tsv"
sed 's/tscs-gap-found/tsc-gap-found/' "$T/c_good2.tsv" >"$T/c_anchor.tsv"
expect causes_missing_anchor 2 "c_anchor.tsv:2: s000.tsc: anchor 'cause-by-experiment-tsc-gap-found' is not" -- \
  $R check "$T/cz" --causes "$T/c_anchor.tsv"
sed 's/fidelity.md#where-the-rest-differs/fidelity.md#nowhere/' "$T/c_good2.tsv" >"$T/c_page.tsv"
expect causes_page_anchor 2 "anchor 'fidelity.md#nowhere' is not a heading of docs/fidelity.md" -- \
  $R check "$T/cz" --causes "$T/c_page.tsv"
sed 's/fidelity.md#where-the-rest-differs/nosuch.md#x/' "$T/c_good2.tsv" >"$T/c_nopage.tsv"
expect causes_no_page 2 "anchor 'nosuch.md#x': no page docs/nosuch.md" -- $R check "$T/cz" --causes "$T/c_nopage.tsv"
# an entry of a seed in the run that matches none of its rows is stale (here: rows 'syrk' of an
# id whose one row is 'syr2k class')
printf '%s\n' "s004.fig4.syr2k	syrk	open	-	x" >>"$T/c_good2.tsv"
expect causes_stale 2 "s004.fig4.syr2k (rows 'syrk'): matches no row of the run" -- $R check "$T/cz" --causes "$T/c_good2.tsv"
# The quick run checks the entries only: rows over 20 % without one pass, a wrong anchor does not
run_dir "$T/cq"; sed -i '1s/$/ (QUICK RUN)/' "$T/cq/reproduction.md"
expect causes_quick_unmapped 0 "" -- $R check "$T/cq" --causes "$T/empty.tsv"
expect causes_quick_anchor 2 "anchor 'cause-by-experiment-tsc-gap-found' is not" -- $R check "$T/cq" --causes "$T/c_anchor.tsv"
# a folder without values.tsv (not a run's) has no differences to check
expect causes_no_values 0 "" -- $R check "$T/ok" --causes "$T/empty.tsv"
# malformed maps: file:line and exit 2
printf '%s\n' "id	rows	status	anchors" >"$T/c1.tsv"
expect causes_header 2 "c1.tsv:1: expected the header id, rows, status, anchors, note" -- $R causes "$T/c1.tsv"
printf '%s\n' "$CH" "s000.tsc	cause	a	b" >"$T/c2.tsv"
expect causes_fields 2 "c2.tsv:2: 4 tab-separated fields, expected 5" -- $R causes "$T/c2.tsv"
printf '%s\n' "$CH" "s000.nothing		cause	a	" >"$T/c3.tsv"
expect causes_unknown_id 2 "c3.tsv:2: id 's000.nothing' matches no value" -- $R causes "$T/c3.tsv"
printf '%s\n' "$CH" "s000.tsc		maybe	a	" >"$T/c4.tsv"
expect causes_status 2 "c4.tsv:2: status 'maybe' is not one of cause, open, context" -- $R causes "$T/c4.tsv"
printf '%s\n' "$CH" "s000.tsc		cause	-	" >"$T/c5.tsv"
expect causes_cause_anchor 2 "c5.tsv:2: status cause needs the anchor" -- $R causes "$T/c5.tsv"
printf '%s\n' "$CH" "s000.tsc		open	-	" >"$T/c6.tsv"
expect causes_open_note 2 "c6.tsv:2: status open needs a note" -- $R causes "$T/c6.tsv"
printf '%s\n' "$CH" "s000.tsc		cause	Cause By	" >"$T/c7.tsv"
expect causes_anchor_form 2 "c7.tsv:2: anchor 'Cause' is not ANCHOR or PAGE.md#ANCHOR" -- $R causes "$T/c7.tsv"
printf '%s\n' "$CH" "s000.tsc		cause	a	" "s000.tsc		open	-	x" >"$T/c8.tsv"
expect causes_dup 2 "c8.tsv:3: id 's000.tsc' given twice (line 2)" -- $R causes "$T/c8.tsv"
expect causes_missing 2 "absent.tsv: cannot open" -- $R causes "$T/absent.tsv"
# The list each seed's "Beside the paper" gets (differences_md), on hand-made rows: the row over
# 20 % with its section's link (the question as the link's text), an open one with its note,
# one with no entry (full run: said in bold; quick run: not required); a seed with none: "none."
cat >"$T/list.py" <<'EOF'
import importlib.util
spec = importlib.util.spec_from_file_location("rp", "scripts/reproduce.py")
rp = importlib.util.module_from_spec(spec); spec.loader.exec_module(rp)
values = rp.load_values(rp.VALUES)
causes = [dict(id="s000.tsc", rows="", status="cause", anchors=["cause-by-experiment-q"], note="", line=1),
          dict(id="s000.dsc4", rows="", status="open", anchors=[], note="nothing ruled out", line=2)]
own = {rp.slug(rp.CAUSE_PREFIX + "Q"): "Q"}
table = [("TSC", "s000.tsc", 1.40), ("TSC+", "s000.tscp", 1.172), ("DSC-4", "s000.dsc4", 0.5),
         ("MRPB", "s000.mrpb", 2.14)]
full = "\n".join(rp.differences_md(table, values, causes, own, False))
quick = "\n".join(rp.differences_md(table, values, causes, own, True))
none = "\n".join(rp.differences_md(table[1:2], values, causes, own, False))
want = ["(3 of 4 rows;",
        "- TSC (`s000.tsc`, 21.1 % above the paper's): cause: [Q](#cause-by-experiment-q).",
        "- DSC-4 (`s000.dsc4`, 55.2 % below the paper's): **open**: nothing ruled out.",
        "- MRPB (`s000.mrpb`, 100.0 % above the paper's): **no entry in causes.tsv**."]
ok = all(w in full for w in want) and "TSC+" not in full and "not required here" in quick
ok = ok and none.endswith(": none.") and "(0 of 1 rows;" in none
print("ok" if ok else "bad:\n" + full + "\n" + none)
EOF
# (DSC-4: |0.5 - 1.117| / 1.117 = 55.2 %; MRPB: (2.14 - 1.07) / 1.07 = 100.0 %)
expect causes_list 0 "^ok$" -- python3 "$T/list.py"

# ---- row.py: a table row from a JSON on stdin (the cause experiments' commands)
echo '{"totals": {"ipc": 2.5, "l1": {"misses": 7}}, "kernels": [{"x": 0.25}]}' >"$T/row.json"
expect row_keys 0 "totals.ipc" -- sh -c "python3 scripts/reproduce/row.py lbl totals.ipc totals.l1.misses kernels.0.x <'$T/row.json' | grep -q '^lbl  *ipc 2.5000  misses 7  x 0.2500\$' && echo totals.ipc"
# NAME=KEY names a value itself (two keys ending alike would give one name twice)
echo '{"kernels": [{"cycles": 10, "l1": {"misses": 3}}, {"cycles": 20}], "totals": {"l2": {"misses": 5}}}' >"$T/alias.json"
expect row_alias 0 "ok" -- sh -c "python3 scripts/reproduce/row.py lbl k0=kernels.0.cycles k1=kernels.1.cycles l2misses=totals.l2.misses kernels.0.l1.misses <'$T/alias.json' | grep -q '^lbl  *k0 10  k1 20  l2misses 5  misses 3\$' && echo ok"
expect row_alias_missing 2 "no key 'kernels.2.cycles'" -- sh -c "python3 scripts/reproduce/row.py lbl k2=kernels.2.cycles <'$T/alias.json'"
expect row_missing 2 "no key 'totals.l2'" -- sh -c "python3 scripts/reproduce/row.py lbl totals.l2 <'$T/row.json'"
# a key with dots inside one JSON key (totals.extra holds contention.intra_warp_mpki), and the
# values of timeline events by key ('/'-joined; '-' when there are none or no timeline)
echo '{"totals": {"extra": {"contention.iw_mpki": 12.5}}, "timeline": [{"cycle": 1, "key": "dwt_limit", "value": 3},
  {"cycle": 2, "key": "other", "value": 9}, {"cycle": 3, "key": "dwt_limit", "value": 2}]}' >"$T/tl.json"
expect row_dotted_key 0 "ok" -- sh -c "python3 scripts/reproduce/row.py a totals.extra.contention.iw_mpki timeline:dwt_limit timeline:none <'$T/tl.json' | grep -q '^a  *iw_mpki 12.5000  dwt_limit 3/2  none -\$' && echo ok"
expect row_no_timeline 0 "ok" -- sh -c "python3 scripts/reproduce/row.py a timeline:dwt_limit <'$T/row.json' | grep -q '^a  *dwt_limit -\$' && echo ok"
expect row_label_blank 2 "has blanks" -- sh -c "python3 scripts/reproduce/row.py 'a b' totals.ipc <'$T/row.json'"

# ---- reading the rows back (the cause experiments' numbers) ----------------------------
printf 'pric+swl:warp_limit=2   ipc 64.5573  misses 668404  dwt_limit -
base  ipc 2.5
' >"$T/rows.txt"
expect rows_parse 0 '{"base": {"ipc": 2.5}, "pric+swl:warp_limit=2": {"dwt_limit": "-", "ipc": 64.5573, "misses": 668404}}' -- \
  sh -c "$R rows <'$T/rows.txt'"
printf 'base  ipc
' >"$T/rows_odd.txt"
expect rows_odd 2 "row 1: 'base  ipc' is not LABEL NAME VALUE" -- sh -c "$R rows <'$T/rows_odd.txt'"
printf 'a ipc 1
a ipc 2
' >"$T/rows_dup.txt"
expect rows_dup 2 "row 2: label 'a' given twice" -- sh -c "$R rows <'$T/rows_dup.txt'"

# ---- drift and the expected file after a run of one seed (run --quick --seed N) --------
# want: seeds 001 and 002; got: a run of seed 001 alone.  Its lines equal want's: no drift
# for --seed 001, but the whole files differ (002's line is missing from got).
TAB=$(printf '\t')
printf '# seed\tid\tquantity\tours\tmodern\n001\ts001.a\tA\t1\t-\n002\ts002.a\tB\t2\t-\n' >"$T/want.tsv"
printf '# seed\tid\tquantity\tours\tmodern\n001\ts001.a\tA\t1\t-\n' >"$T/got.tsv"
expect drift_seed_same 0 "" -- $R drift "$T/got.tsv" "$T/want.tsv" --seed 001
expect drift_whole_differs 2 "^-002${TAB}s002.a" -- $R drift "$T/got.tsv" "$T/want.tsv"
printf '# seed\tid\tquantity\tours\tmodern\n001\ts001.a\tA\t1.5\t-\n' >"$T/got2.tsv"
expect drift_seed_differs 2 "^+001${TAB}s001.a${TAB}A${TAB}1.5" -- $R drift "$T/got2.tsv" "$T/want.tsv" --seed 001
expect drift_seed_bad 2 "drift: --seed: seed '9'" -- $R drift "$T/got2.tsv" "$T/want.tsv" --seed 9
# --update-expected with --seed 001 replaces 001's lines only: the header, the new 001 line,
# then 002's line as it was; a seed absent from want is added in its place, and a seed run
# that gave no lines leaves none
printf '# seed\tid\tquantity\tours\tmodern\n002\ts002.a\tB\t2\t-\n' >"$T/want2.tsv"
cat >"$T/merge.py" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("rp", "scripts/reproduce.py")
rp = importlib.util.module_from_spec(spec); spec.loader.exec_module(rp)
got, want, want2 = (open(p).read() for p in sys.argv[1:])
h = "# seed\tid\tquantity\tours\tmodern\n"
a = rp.merge_values(got, want, ["001"])
b = rp.merge_values(got, want2, ["001"])
c = rp.merge_values(got, want, ["002"])
ok = (a == h + "001\ts001.a\tA\t1.5\t-\n002\ts002.a\tB\t2\t-\n" and a == b
      and c == h + "001\ts001.a\tA\t1\t-\n")
print("ok" if ok else "bad: %r %r %r" % (a, b, c))
EOF
expect merge_seed 0 "^ok$" -- python3 "$T/merge.py" "$T/got2.tsv" "$T/want.tsv" "$T/want2.tsv"

# ---- seed 004 Figure 4's class: CI below the threshold, XW when cross-warp is more than half
# 1+1+1 = 3 < 5: CI; 1+5+5: cross-warp 10 of 11: XW; 10+5+5: cross-warp 10 of 20, not more than
# half: IW; 10+0+0 at threshold 10: not below it, IW.
expect fig4_ci 0 "CI" -- $R fig4-class 1 1 1 5
expect fig4_xw 0 "XW" -- $R fig4-class 1 5 5 5
expect fig4_half 0 "IW" -- $R fig4-class 10 5 5 5
expect fig4_at_threshold 0 "IW" -- $R fig4-class 10 0 0 10
expect fig4_bad 2 "must be numbers" -- $R fig4-class 1 x 1 5

# ---- the drift check of the quick run's numbers ----------------------------------------
printf '# h\n004\ts004.poly_s\tMRPB\t4.11251\t1.16914\n' >"$T/want.tsv"
cp "$T/want.tsv" "$T/same.tsv"
expect drift_same 0 "" -- $R drift "$T/same.tsv" "$T/want.tsv"
sed 's/4.11251/4.11252/' "$T/want.tsv" >"$T/moved.tsv"
expect drift_moved 2 "+004	s004.poly_s	MRPB	4.11252" -- $R drift "$T/moved.tsv" "$T/want.tsv"
head -n 1 "$T/want.tsv" >"$T/lost.tsv"
expect drift_lost_row 2 "-004	s004.poly_s" -- $R drift "$T/lost.tsv" "$T/want.tsv"
expect drift_no_expected 2 "cannot open" -- $R drift "$T/same.tsv" "$T/nosuch.tsv"

echo "cli_reproduce: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
