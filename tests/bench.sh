#!/bin/sh
# bench.sh BINARY — games per second for each case of tests/bench.list, on one thread and on
# every online core. A benchmark, never a test: it asserts nothing about speed.
set -eu
bin=$1
list=$(dirname "$0")/bench.list
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
printf '%-8s %-7s %-28s %10s %14s %14s %8s\n' game players bots runs "games/s 1 thr" \
    "games/s $cores thr" scaling
grep -v '^#' "$list" | while read -r game players bots runs; do
    [ -n "$game" ] || continue
    rate() { # rate THREADS
        "$bin" --game="$game" --players="$players" --bots="$bots" --runs="$runs" --seed=1 \
            --threads="$1" --format=json --quiet |
            sed -n 's/.*"games_per_second":[[:space:]]*\([0-9.eE+-]*\).*/\1/p'
    }
    one=$(rate 1)
    all=$(rate "$cores")
    printf '%-8s %-7s %-28s %10s %14.0f %14.0f %7.2fx\n' "$game" "$players" "$bots" "$runs" \
        "$one" "$all" "$(echo "$all $one" | awk '{print $1 / $2}')"
done
# The generic search bots (alphabeta nodes/s, mcts iterations/s), one thread, CPU time.
if [ -x "${SEARCH_BENCH:-}" ]; then
    "$SEARCH_BENCH"
fi
