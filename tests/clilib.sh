# clilib.sh - what every tests/cli_*.sh shares; sourced, not run.
#
# W     the warpcache binary, absolute ($BUILD/warpcache; some cases run in
#       other folders)
# T     a temporary folder, removed on exit
# ok NAME / bad NAME WHY      count a passed / failed check
# expect NAME STATUS PATTERN -- command...
#       runs the command; passes if it exits with STATUS and its stdout+stderr
#       contain PATTERN (empty: anything).  Every output is also appended to
#       $T/all, for checks over a whole group of commands.
# Each script ends with: echo "NAME: $pass passed, $fail failed"; [ "$fail" -eq 0 ]
W=${BUILD:-build}/warpcache
W=$(cd "$(dirname "$W")" && pwd)/warpcache
T=$(mktemp -d /tmp/wc-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "$1 ok"; }
bad() { fail=$((fail + 1)); echo "$1 FAILED: $2"; }
expect() {
  name=$1; want=$2; pat=$3; shift 4
  "$@" >"$T/out" 2>&1; got=$?
  cat "$T/out" >>"$T/all"
  if [ "$got" -ne "$want" ]; then bad "$name" "exit $got, expected $want: $(head -c 300 "$T/out")"; return; fi
  if [ -n "$pat" ] && ! grep -q -- "$pat" "$T/out"; then bad "$name" "no '$pat' in: $(head -c 300 "$T/out")"; return; fi
  ok "$name"
}
