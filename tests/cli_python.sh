# The Python package python/warpcache (docs/python.md): its unittest suite
# (python/tests/test_warpcache.py) against this build's binary; the pandas
# parts are skipped, saying so, when pandas is not installed.  Prints the
# suite's own closing line.
W=${BUILD:-build}/warpcache
W=$(cd "$(dirname "$W")" && pwd)/warpcache
PY=python3
# Debian's python3-pandas serves /usr/bin/python3 (a python3 earlier on PATH may lack it)
if ! python3 -c 'import pandas' >/dev/null 2>&1 && /usr/bin/python3 -c 'import pandas' >/dev/null 2>&1; then
  PY=/usr/bin/python3
fi
if ! command -v $PY >/dev/null 2>&1; then
  echo "no python3 (make check installs it)"
  echo "cli_python: 0 passed, 1 failed"
  exit 1
fi
WARPCACHE=$W $PY python/tests/test_warpcache.py 2>&1
