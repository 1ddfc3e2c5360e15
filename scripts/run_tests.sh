#!/bin/sh
# Runs every unit-test binary and the CLI tests; prints one closing line
# "N passed, N failed" (test cases, summed over binaries).
BUILD=${1:-build}
pass=0; fail=0; broken=""
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  out=$("$t" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^[a-z_0-9]+: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    printf '%s\n' "$out" | tail -n 20
    echo "$(basename "$t"): crashed or printed no summary (exit $rc)"
    fail=$((fail + 1)); broken="$broken $(basename "$t")"; continue
  fi
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
  [ "$f" -gt 0 ] || [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v ' ok$' | tail -n 40
  echo "$line"
  pass=$((pass + p)); fail=$((fail + f))
  [ $rc -ne 0 ] && [ "$f" -eq 0 ] && { fail=$((fail + 1)); broken="$broken $(basename "$t")"; }
done
for s in tests/cli_*.sh; do
  [ -f "$s" ] || continue
  out=$(BUILD="$BUILD" sh "$s" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^[a-z_0-9]+: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    printf '%s\n' "$out" | tail -n 20; fail=$((fail + 1)); continue
  fi
  [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v ' ok$' | tail -n 40
  echo "$line"
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
  pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
