#!/bin/sh
# cli.sh BINARY [SCRIPT...] — the command-line tests one after another (each script of
# tests/cli/cli_*.sh, or those named, through tests/cli/run.sh), ending with the combined line
# "cli: N passed, N failed". make check runs the same scripts side by side (tests/run-all.sh);
# this is the way to run a few by hand: tests/cli/cli.sh ./giochi-sim cli_oca cli_wari.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$1
shift
[ $# -gt 0 ] || set -- $(cd "$here" && ls cli_*.sh)
passed=0
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for s in "$@"; do
    s=${s%.sh}.sh
    echo "cli: $s ..."
    sh "$here/run.sh" "$bin" "$s" | tee "$out"
    line=$(sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$out" | tail -n 1)
    [ -n "$line" ] || line="0 1"
    passed=$((passed + ${line% *}))
    failed=$((failed + ${line#* }))
done
echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
