#!/bin/sh
# The golden net: every design on its workloads and GPUs, and scripts/golden.sh's
# baseline cases (scripts/golden_net.sh), compared exactly with the committed
# tests/golden/designs.tsv.  One check per design (the baseline cases count
# under "base"); a failure names the run and every number that moved.  After an
# intended change of results: make golden-update (docs/golden.md).
# Prints "cli_golden: N passed, N failed".
. "$(dirname "$0")/clilib.sh"
G=$(cd "$(dirname "$0")/golden" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)

start=$(date +%s)
if ! sh "$ROOT/scripts/golden_net.sh" "$W" "$T/now.tsv" >"$T/net.log" 2>&1; then
  bad golden_net_runs "$(tail -n 20 "$T/net.log")"
  echo "cli_golden: $pass passed, $fail failed"
  exit 1
fi
echo "golden net: $(grep -vc '^#' "$T/now.tsv") lines (header included) in $(($(date +%s) - start)) s"

# Lines "design<TAB>what moved", one per difference, keyed by config, workload
# and design; a number that moved is named with both values.
awk -F'\t' '
  /^#/ { next }
  $1 == "config" { for (i = 1; i <= NF; i++) col[i] = $i; next }
  FNR == NR { want[$1 "\t" $2 "\t" $3] = $0; next }
  {
    k = $1 "\t" $2 "\t" $3; seen[k] = 1
    if (!(k in want)) { print $3 "\tnew run (not in the committed file): " $1 ", " $2; next }
    if (want[k] == $0) next
    n = split(want[k], w, "\t"); moved = ""
    for (i = 4; i <= NF; i++)
      if (w[i] != $i)
        moved = moved (moved == "" ? "" : ", ") \
                (col[i] == "digest" ? "another statistic (digest " w[i] " -> " $i ")" : col[i] " " w[i] " -> " $i)
    print $3 "\t" $1 ", " $2 ": " moved
  }
  END { for (k in want) if (!(k in seen)) { split(k, p, "\t"); print p[3] "\trun missing: " p[1] ", " p[2] } }
' "$G/designs.tsv" "$T/now.tsv" | LC_ALL=C sort >"$T/moved"

for d in $(cut -f3 "$G/designs.tsv" "$T/now.tsv" | grep -v '^#' | grep -v '^design$' | LC_ALL=C sort -u); do
  if grep -q "^$d	" "$T/moved"; then
    bad "golden_$d" "results moved (expected: tests/golden/designs.tsv)
$(grep "^$d	" "$T/moved" | cut -f2- | sed 's/^/    /')"
  else
    ok "golden_$d"
  fi
done
if [ -s "$T/moved" ]; then
  echo "golden: $(wc -l <"$T/moved") runs differ from tests/golden/designs.tsv.  A number that moves"
  echo "  on purpose: make golden-update, then commit the file with the change (docs/golden.md);"
  echo "  one run in full: warpcache run --design DESIGN -w WORKLOAD [--config FILE] --json -"
fi

# The fingerprint other pages quote is the committed file's SHA-256.
sum=$(sha256sum "$G/designs.tsv" | cut -d' ' -f1)
[ "$(cat "$G/FINGERPRINT")" = "$sum" ] && ok fingerprint ||
  bad fingerprint "tests/golden/FINGERPRINT is not the SHA-256 of designs.tsv ($sum): make golden-update"

echo "cli_golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
