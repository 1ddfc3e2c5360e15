#!/bin/sh
# reproduce.sh - `make reproduce` and `make reproduce-quick`: each seed paper's headline
# comparison regenerated from built-in workloads (docs/reproduction.md).  The work is
# done by scripts/reproduce.py (Debian's python3, standard library only, no network);
# this wrapper only finds python3 and runs it from the repository root.
#   sh scripts/reproduce.sh [--quick] [--docs] [--bin build/warpcache] [-j N] [--out DIR]
cd "$(dirname "$0")/.." || exit 1
if ! command -v python3 >/dev/null 2>&1; then
  echo "reproduce: needs python3 (make deps installs it: apt-get install python3)" >&2
  exit 2
fi
exec python3 scripts/reproduce.py run "$@"
