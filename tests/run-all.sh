#!/bin/sh
# run-all.sh UNIT_TESTS BINARY — runs the unit tests, the command-line tests and the check of
# the manuals' figures (tests/docs) and prints the combined closing line "N passed, N failed".
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
dp=0; df=0
if [ -x "$here/docs/check_figures.sh" ]; then # every figure in the manuals re-run
    CHECK_FIGURES_QUIET=1 "$here/docs/check_figures.sh" "$bin" | tee "$out"
    dp=$(sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out")
    df=$(sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out")
    [ -n "$dp" ] || { dp=0; df=1; echo "documentation figure checks crashed" >&2; }
fi
echo "$((up + cp + dp)) passed, $((uf + cf + df)) failed"
[ $((uf + cf + df)) -eq 0 ]
