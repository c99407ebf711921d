#!/bin/sh
# slowest.sh [TIMES] [N] — the N (default 10) costliest jobs of the last make check and its N
# slowest unit tests, in CPU seconds, from the times that tests/run-all.sh keeps (TIMES,
# default build/test-times.txt; build-san/test-times.txt after make sanitize).
set -u
f=${1:-build/test-times.txt}
n=${2:-10}
[ -r "$f" ] || { echo "slowest.sh: no '$f': run make check first" >&2; exit 2; }
echo "the $n costliest jobs (CPU s, wall s):"
awk '$2 == "job" { printf "  %7.1f %7.1f  %s\n", $1, $4, $3 }' "$f" | head -n "$n"
echo "the $n slowest unit tests (CPU s):"
awk '$2 == "unit" { printf "  %7.2f  %s\n", $1, $3 }' "$f" | head -n "$n"
