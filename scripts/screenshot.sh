#!/bin/sh
# screenshot.sh - `make screenshot`: a real report of small real runs,
# rendered by the headless browser into docs/img/report.png (the README's
# tour shows it).  Inputs, about a minute on 2 cores:
#   compare   base, base-48k, full-assoc on PolyBench at scale 0.0625, by
#             seed 004's classes
#   mrc       polybench/syrk:scale=0.125, with 32-set curve
#   run       micro/stream with per-SM L1 streaming bypass every 1000 cycles
# The page and its inputs stay in build/screenshot/ (report.html, *.svg).
set -e
W=${1:-build/warpcache}
OUT=${2:-docs/img/report.png}
D=build/screenshot
mkdir -p "$D" "$(dirname "$OUT")"
BROWSER=""
for b in chromium-headless-shell chromium; do
  command -v $b >/dev/null 2>&1 && { BROWSER=$b; break; }
done
if [ -z "$BROWSER" ]; then
  echo "screenshot: no chromium-headless-shell or chromium (make deps installs it)" >&2
  exit 1
fi
"$W" compare -q --designs base,base-48k,full-assoc -w polybench:scale=0.0625 --by-class 004 \
  --json "$D/compare.json" >/dev/null
"$W" mrc -q -w polybench/syrk:scale=0.125 --sets 32 --json "$D/mrc.json" >/dev/null
"$W" run -q -w micro/stream:n=262144 \
  -o controllers=stream_bypass:level=l1,period=1000,threshold=90 --json "$D/run.json" >/dev/null
(cd "$D" && "../../$W" report compare.json mrc.json run.json --output report.html --svg-dir svg \
  --title "warpcache report: PolyBench at 1/16 size")
$BROWSER --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$D/profile" \
  --window-size=900,1500 --screenshot="$OUT" "file://$(pwd)/$D/report.html" >/dev/null 2>&1
echo "screenshot: $OUT from $D/report.html"
