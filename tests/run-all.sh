#!/bin/sh
# run-all.sh UNIT_TESTS BINARY — runs the unit tests and the command-line tests and prints
# the combined closing line "N passed, N failed".
set -u
unit=$1
bin=$2
here=$(dirname "$0")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$unit" | tee "$out"
up=$(sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out")
uf=$(sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out")
[ -n "$up" ] || { up=0; uf=1; echo "unit tests crashed" >&2; }
cp=0; cf=0
if [ -x "$here/cli/cli.sh" ]; then
    "$here/cli/cli.sh" "$bin" | tee "$out"
    cp=$(sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out")
    cf=$(sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out")
    [ -n "$cp" ] || { cp=0; cf=1; echo "command-line tests crashed" >&2; }
fi
echo "$((up + cp)) passed, $((uf + cf)) failed"
[ $((uf + cf)) -eq 0 ]
