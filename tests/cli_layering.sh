#!/bin/sh
# cli_layering.sh - plug-ins include only public headers (issue 27): no file
# under a plug-in folder reaches an engine-private header such as core/gpu.h,
# directly or through another header (scripts/plugin_headers.py holds both
# lists).  The real tree must pass; copies with a planted include must fail,
# naming the file and line.
cd "$(dirname "$0")/.." || exit 1
. tests/clilib.sh
if ! command -v python3 >/dev/null 2>&1; then
  echo "cli_layering: python3 missing (make deps installs it)"; echo "cli_layering: 0 passed, 1 failed"; exit 1
fi
P="python3 scripts/plugin_headers.py"

expect tree_clean 0 "plug-in files include only public headers" -- $P .

# a copy of the tree to break on purpose
mkdir -p "$T/r" && cp -R src include "$T/r/"
stage="$T/r/src/core/stages/memstage_l1q.c"
cp "$stage" "$T/l1q.c"
# a stage that includes the engine's records directly (after its first line)
sed '1a\
#include "core/gpu.h"' "$T/l1q.c" >"$stage"
expect direct_include 1 "src/core/stages/memstage_l1q.c:2: includes the engine-private header core/gpu.h" -- $P "$T/r"
expect names_count 1 "1 engine-private include(s) in plug-ins" -- $P "$T/r"
cp "$T/l1q.c" "$stage"
expect restored 0 "include only public headers" -- $P "$T/r"

# through a helper header of the plug-in's own folder, two levels down
printf '#include "mem/mem.h"\n' >"$T/r/src/analysis/deep.h"
printf '#include "analysis/deep.h"\n' >"$T/r/src/analysis/helper.h"
printf '#include "warpcache/analysis.h"\n#include "analysis/helper.h"\n' >"$T/r/src/analysis/planted.c"
expect through_header 1 \
  "src/analysis/planted.c:2: includes the engine-private header mem/mem.h (via analysis/helper.h -> analysis/deep.h -> mem/mem.h)" \
  -- $P "$T/r"
rm "$T/r/src/analysis/planted.c" "$T/r/src/analysis/helper.h" "$T/r/src/analysis/deep.h"

# each family is checked: a controller, a scheduler, an L1 organisation,
# a replacement policy, an index function (the event heap, the issue ring,
# the stage registry, the option parser's internals)
i=0
for pair in core/controllers:core/events.h core/schedulers:core/mem_issue.h cache/org:core/memstage.h \
             cache/repl:config/config_internal.h cache/index:core/rdhist.h; do
  dir=${pair%%:*}; hdr=${pair#*:}; i=$((i + 1))
  printf '#include "%s"\n' "$hdr" >"$T/r/src/$dir/planted$i.c"
  expect "family_$i" 1 "src/$dir/planted$i.c:1: includes the engine-private header $hdr" -- $P "$T/r"
  rm "$T/r/src/$dir/planted$i.c"
done

# public headers and a family's seam header are fine
printf '#include "warpcache/stage.h"\n#include "warpcache/smview.h"\n#include "core/sched.h"\n' \
  >"$T/r/src/core/stages/public_only.c"
expect public_ok 0 "include only public headers" -- $P "$T/r"

echo "cli_layering: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
