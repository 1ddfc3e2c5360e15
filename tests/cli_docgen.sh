#!/bin/sh
# cli_docgen.sh - scripts/docgen.py: the tables in docs/ are the output of the
# command above them (docs/design.md, "Generated tables").  The tool on pages
# made here, then the check over the real pages: a table edited by hand, a
# command changed without re-running it, or a table printed by a simulator whose
# golden results differ from today's fails `make check`.
cd "$(dirname "$0")/.." || exit 1
. tests/clilib.sh
# the tool's own cases stand in a fixed results fingerprint (DOCGEN_RESULTS); the
# last case checks the real pages against the real net of simulations
D="env DOCGEN_RESULTS=00000000000000aa python3 scripts/docgen.py"
if ! command -v python3 >/dev/null 2>&1; then
  echo "cli_docgen: python3 missing (make deps installs it)"; echo "cli_docgen: 0 passed, 1 failed"; exit 1
fi

cat >"$T/p.md" <<'PAGE'
# page

```sh docgen
X=41
echo "x=$((X + 1))"; echo data > $OUT/f
```

prose between

```sh docgen
echo "again $X"; cat $OUT/f
```
end
PAGE
expect no_output 1 "p.md:3: no output under this command" -- $D check "$T/p.md"
expect run 0 "" -- $D run "$T/p.md"
# the output went under each command, after a stamp; variables and $OUT carry over
if grep -q '^x=42$' "$T/p.md" && grep -q '^again 41$' "$T/p.md" && grep -q '^data$' "$T/p.md" &&
   [ "$(grep -c '^<!-- docgen: output of the command above; sha=' "$T/p.md")" = 2 ] &&
   grep -q '^prose between$' "$T/p.md" && tail -n 1 "$T/p.md" | grep -q '^end$'; then ok written
else bad written "$(cat "$T/p.md")"; fi
expect check_clean 0 "2 generated tables in 1 pages, 0 stale" -- $D check "$T/p.md"
cp "$T/p.md" "$T/p1.md"
expect rerun 0 "" -- $D run "$T/p.md"
if cmp -s "$T/p.md" "$T/p1.md"; then ok rerun_identical; else bad rerun_identical "$(diff "$T/p1.md" "$T/p.md")"; fi

# a table edited by hand
sed 's/^x=42$/x=43/' "$T/p1.md" >"$T/p.md"
expect hand_edit 1 "p.md:3: the output under this command is not what docgen wrote" -- $D check "$T/p.md"
# a command changed without re-running it
sed 's/^echo "again \$X"/echo "AGAIN $X"/' "$T/p1.md" >"$T/p.md"
expect command_edit 1 "p.md:15: the output under this command is not what docgen wrote" -- $D check "$T/p.md"
# printed by a simulator with other golden results: the stamp's fingerprint differs
sed -E 's/results=[^ ]+ -->/results=0123456789abcdef -->/' "$T/p1.md" >"$T/p.md"
expect stale_results 1 "printed by a simulator whose results differ" -- $D check "$T/p.md"
expect stale_count 1 "2 stale" -- $D check "$T/p.md"
# regenerating brings it back
expect regenerate 0 "" -- $D run "$T/p.md"
expect regenerated_clean 0 ", 0 stale" -- $D check "$T/p.md"

# only whole-line assignments carry over: `VAR=x command \` (an environment for one
# command, continued on the next line) is not run again before later blocks
cat >"$T/v.md" <<'PAGE'
```sh docgen
V=1
ENVONLY=2 echo "one \
two"
```

```sh docgen
echo "V=$V ENVONLY=${ENVONLY:-unset}"
```
PAGE
expect env_assignment 0 "" -- $D run "$T/v.md"
if grep -q '^V=1 ENVONLY=unset$' "$T/v.md"; then ok env_assignment_not_carried; else bad env_assignment_not_carried "$(cat "$T/v.md")"; fi
# --from N: the blocks at or after line N only
sed 's/^V=1 ENVONLY=unset$/hand edit/; s/^one two$/kept as it was/' "$T/v.md" >"$T/v2.md"
expect from_line 0 "" -- $D run --from 8 "$T/v2.md"
if grep -q '^kept as it was$' "$T/v2.md" && grep -q '^V=1 ENVONLY=unset$' "$T/v2.md"; then ok from_line_only_later
else bad from_line_only_later "$(cat "$T/v2.md")"; fi

# a command that fails: page:line and its status; the tables before it are kept
cat >"$T/f.md" <<'PAGE'
```sh docgen
echo first
```

```sh docgen
echo oops >&2; exit 3
```
PAGE
expect failing_block 1 "f.md:5: the command exited with status 3" -- $D run "$T/f.md"
if grep -q '^first$' "$T/f.md"; then ok failing_keeps_earlier; else bad failing_keeps_earlier "$(cat "$T/f.md")"; fi
printf '```sh docgen\necho open\n' >"$T/u.md"
expect unclosed 1 "u.md:1: code block not closed" -- $D check "$T/u.md"
expect usage 2 "usage" -- $D frob
expect no_page 2 "no such page" -- $D check "$T/none.md"
expect bad_line 2 "--line needs a line number" -- $D run --line x "$T/p.md"

# DOCGEN_BIN replaces the pages' build/warpcache (make docs BUILD=...)
printf '```sh docgen\nbuild/warpcache --version | head -c 9\n```\n' >"$T/b.md"
mkdir -p "$T/bin"; printf '#!/bin/sh\necho otherbinary\n' >"$T/bin/wc"; chmod +x "$T/bin/wc"
expect docgen_bin 0 "" -- env DOCGEN_BIN="$T/bin/wc" $D run "$T/b.md"
if grep -q '^otherbina' "$T/b.md"; then ok docgen_bin_used; else bad docgen_bin_used "$(cat "$T/b.md")"; fi

# the real pages: every generated table matches its command and today's results
# a fingerprint the pages were not printed with is stale
expect other_fingerprint 1 "printed by a simulator whose results differ" -- env DOCGEN_RESULTS=00000000000000bb \
  python3 scripts/docgen.py check "$T/p.md"
expect docs_current 0 ", 0 stale" -- env DOCGEN_BIN="$W" python3 scripts/docgen.py check docs/techniques/*.md docs/experiments.md docs/h100.md docs/parameters.md docs/stats.md
# the parameter tables take no simulation: the page shows what the schemas say today
# (a parameter added or changed without re-running docgen on the page fails here)
"$W" list parameters >"$T/params.txt" 2>&1
sed -n '/^build\/warpcache list parameters$/,$p' docs/parameters.md | sed '1,/^```text$/d' | sed '/^```$/,$d' >"$T/params.md.txt"
if cmp -s "$T/params.txt" "$T/params.md.txt"; then ok parameters_page_current
else bad parameters_page_current "run: python3 scripts/docgen.py run docs/parameters.md"; fi
# the registered counters likewise (statreg.h: a counter registered or changed
# without re-running docgen on docs/stats.md fails here)
"$W" list stats >"$T/stats.txt" 2>&1
sed -n '/^build\/warpcache list stats$/,$p' docs/stats.md | sed '1,/^```text$/d' | sed '/^```$/,$d' >"$T/stats.md.txt"
if cmp -s "$T/stats.txt" "$T/stats.md.txt"; then ok stats_page_current
else bad stats_page_current "run: python3 scripts/docgen.py run --line N docs/stats.md"; fi
# and every technique page has generated tables (none is left hand-made)
for p in docs/techniques/*.md docs/experiments.md docs/parameters.md; do
  n=$(grep -c '^```sh docgen$' "$p")
  if [ "$n" -gt 0 ]; then ok "generated_$(basename "$p" .md)"; else bad "generated_$(basename "$p" .md)" "no sh docgen block"; fi
done

echo "cli_docgen: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
