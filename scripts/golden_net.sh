#!/bin/sh
# golden_net.sh - the golden net: every design of configs/designs/ on a few
# small built-in workloads chosen to exercise its mechanism, on three GPUs
# (the built-in Fermi baseline, a seed paper's own GPU, a GPGPU-Sim file with
# the booksim iSLIP crossbar), plus the baseline cases of scripts/golden.sh
# (replacement, write and index policies, schedulers, sectored L1s, traces).
# Each run becomes one line: its key numbers and a digest of every other
# statistic, sorted, nothing that depends on the machine or the time.
#
#   sh scripts/golden_net.sh WARPCACHE OUT.tsv [JOBS]
#
# make check (tests/cli_golden.sh) writes it to a temporary file and compares
# it with the committed tests/golden/designs.tsv number by number; after an
# intended change of results `make golden-update` rewrites that file and
# tests/golden/FINGERPRINT (docs/golden.md).  JOBS: simulations in parallel
# (sweep -j; default every CPU; the results do not depend on it).
set -e
BIN=${1:?usage: golden_net.sh WARPCACHE OUT.tsv [JOBS]}
OUT=${2:?usage: golden_net.sh WARPCACHE OUT.tsv [JOBS]}
JOBS=${3:-0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
T=$(mktemp -d /tmp/wc-golden.XXXXXX)
trap 'rm -rf "$T"' EXIT
JOBS_ARG=
[ "$JOBS" -gt 0 ] && JOBS_ARG="-j $JOBS"

DESIGNS=$(cd "$ROOT/configs/designs" && ls *.config | sed 's/\.config$//' | LC_ALL=C sort | paste -sd, -)

# One sweep of every design over the workloads, on one GPU.  LABEL names the
# GPU in the committed file; the rest are sweep arguments.
gpu() {
  label=$1
  shift
  echo "$label" >"$T/$label.label"
  # shellcheck disable=SC2086
  "$BIN" sweep -q $JOBS_ARG --designs "$DESIGNS" --results "$T/$label.jsonl" "$@" >"$T/$label.log" 2>&1 ||
    { cat "$T/$label.log" >&2; echo "golden_net: the sweep on $label failed" >&2; exit 1; }
}

# The workloads, each for its mechanisms (docs/golden.md):
#   polybench/atax     column-wise conflicts and thrashing (MRPB, PDP, DL1D, TSC,
#                      set-index functions, the warp limits), two kernels
#   micro/stream       a pure stream (BALL, the warp limits, the memory stages)
#   micro/colcopy      a stream through the L2 with re-use after it: more than a
#                      10K-cycle period above 90 % L2 misses (L2 streaming bypass)
#   sdk/blackscholes   streaming, the kernel launched twice: the L1 streaming
#                      bypass turns on and the relaunch starts in that mode
#   rodinia/bfs        irregular, data-dependent, Kernel/Kernel2 relaunched
#                      (per-kernel state of the controllers)
#   polybench/gesummv  seed 002's thrashing and conflict class (DWT-CS, PRIC)
#   rodinia/hotspot    shared memory, barriers, calculate_temp relaunched
gpu fermi-16k -w polybench/atax:scale=0.0625 -w micro/stream:n=262144 \
  -w micro/colcopy:h=128,w=256 -w sdk/blackscholes:options=131072,iterations=2 \
  -w rodinia/bfs:nodes=4096 -w polybench/gesummv:n=256 -w rodinia/hotspot:size=64
gpu seed002 --config "$ROOT/configs/seeds/002.config" -w polybench/gesummv:n=256
gpu gtx480-islip --config "$SHARED/data/gpgpusim-configs/GPGPU-Sim-3.2.2_GTX480/gpgpusim.config" \
  -o icnt_model=islip -w polybench/atax:scale=0.0625

# scripts/golden.sh's baseline cases; it fails when one of them does.
sh "$ROOT/scripts/golden.sh" "$BIN" "$T/base" >"$T/base.log" 2>&1 ||
  { cat "$T/base.log" >&2; echo "golden_net: scripts/golden.sh failed" >&2; exit 1; }

# Every run as "config <TAB> workload <TAB> design" in $T/runs/N.key and its
# statistics, one "name=value" a line, in $T/runs/N (the digest's input).
# Rates and IPC are left out: they are quotients of the counts kept.
mkdir "$T/runs"
awk -v dir="$T/runs" -v root="$ROOT/" -v shared="$SHARED/" '
function rel(s) {
  if (index(s, root) == 1) s = substr(s, length(root) + 1)
  if (index(s, shared) == 1) s = "../shared/" substr(s, length(shared) + 1)
  return s
}
function derived(k) {
  return k == "ipc" || k == "warp_ipc" || k ~ /miss_rate$/ || k == "l1.mpki"
}
function str(line, key,   p) {
  if (!match(line, "\"" key "\": \"[^\"]*\"")) return ""
  p = substr(line, RSTART, RLENGTH)
  sub("^\"" key "\": \"", "", p)
  return substr(p, 1, length(p) - 1)
}
function emit(key,   f) { n++; f = dir "/" n; print key > (f ".key"); close(f ".key"); return f }
# sweep results: one flat JSON object a line, the statistics under "totals"
FILENAME ~ /\.jsonl$/ {
  label = FILENAME; sub(/^.*\//, "", label); sub(/\.jsonl$/, "", label)
  f = emit(label "\t" rel(str($0, "workload")) "\t" str($0, "design"))
  t = $0; sub(/^.*"totals": \{/, "", t); sub(/\}\}[ \t]*$/, "", t)
  m = split(t, kv, ", ")
  match($0, /"truncated": [a-z]+/); print "truncated=" substr($0, RSTART + 13, RLENGTH - 13) > f
  match($0, /"kernels": [0-9]+/); print "kernels=" substr($0, RSTART + 11, RLENGTH - 11) > f
  for (i = 1; i <= m; i++) {
    split(kv[i], p, "\": ")
    k = substr(p[1], 2)
    if (!derived(k)) print k "=" p[2] > f
  }
  close(f)
  next
}
# golden.sh: its command line (.cmd) and run --json output (pretty-printed)
FILENAME ~ /\.cmd$/ {
  cmd = ""
  for (i = 1; i <= NF; i++) cmd = cmd (i > 1 ? " " : "") rel($i)
  wl = cmd; sub(/^-[wt] /, "", wl); sub(/ .*/, "", wl)
  opts = cmd; sub(/^-[wt] [^ ]*/, "", opts)
  case_no = FILENAME; sub(/^.*\//, "", case_no); sub(/\.json\.cmd$/, "", case_no)
  cur = emit("golden.sh#" case_no opts "\t" wl "\tbase")
  next
}
FILENAME ~ /\.json$/ {
  if ($0 ~ /^  "truncated": /) { v = $2; sub(/,$/, "", v); print "truncated=" v > cur }
  if ($0 ~ /^  "totals": \{/) { depth = 1; path[1] = ""; next }
  if (!depth) next
  line = $0; sub(/^ */, "", line); sub(/,$/, "", line)
  if (line ~ /^\}/) { if (--depth == 0) close(cur); next }
  split(line, p, "\": ")
  k = path[depth] substr(p[1], 2)
  if (p[2] == "{") { depth++; path[depth] = k "."; next }
  if (k != "name" && k != "id" && !derived(k)) print k "=" p[2] > cur
}
' "$T"/*.jsonl $(for c in "$T"/base/*.json; do echo "$c.cmd $c"; done)

# One line per run: the key numbers, then the first 16 hex digits of the
# SHA-256 of all its statistics.
cols="cycles warp_insts l1.hits l1.misses l1.reservation_fails.total l1.bypasses l2.accesses l2.misses icnt.l1_to_l2_bytes icnt.l2_to_l1_bytes dram.reads dram.writes"
(cd "$T/runs" && ls | grep -v '\.key$' | LC_ALL=C sort -n | xargs sha256sum) >"$T/digests"
{
  echo "# tests/golden/designs.tsv - the golden net (scripts/golden_net.sh, docs/golden.md):"
  echo "# every design x workload x GPU and scripts/golden.sh's baseline cases, key numbers and"
  echo "# a digest of every statistic.  Compared exactly by make check; after an intended change"
  echo "# of results: make golden-update.  Do not edit by hand."
  printf 'config\tworkload\tdesign'
  for c in $cols; do printf '\t%s' "$c"; done
  printf '\tdigest\n'
  awk -v dir="$T/runs" -v cols="$cols" '
    { d[$2] = substr($1, 1, 16) }
    END {
      nc = split(cols, c, " ")
      for (f in d) {
        getline key < (dir "/" f ".key")
        delete v
        while ((getline l < (dir "/" f)) > 0) { eq = index(l, "="); v[substr(l, 1, eq - 1)] = substr(l, eq + 1) }
        close(dir "/" f)
        row = key
        for (i = 1; i <= nc; i++) row = row "\t" ((c[i] in v) ? v[c[i]] : "NA")
        print row "\t" d[f]
      }
    }' "$T/digests" | LC_ALL=C sort
} >"$T/out.tsv"
mv "$T/out.tsv" "$OUT"
