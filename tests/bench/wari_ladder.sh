#!/bin/sh
# wari_ladder.sh BINARY [GAMES [SEED]] — the Wari strength ladder: every pair of the bots below
# (or of $LADDER_BOTS) plays GAMES games with each seating (A as seat 1, then A as seat 2, same
# seed), and one line per pair gives A's wins, draws and losses over both seatings with A's
# score (a draw counts half) and its 95% Wilson interval (the score taken as a share of the
# 2*GAMES games). Not a test.
set -eu
bin=$1
games=${2:-200}
seed=${3:-1}
# mcts:playouts=80 costs about what alphabeta depth 8 costs per move (about 0.45 ms here; with the
# greedy playout policy, rollout=1, 12 playouts cost 0.7 ms); mcts:playouts=1000 is 12 times.
bots=${LADDER_BOTS:-"alphabeta:depth=8 mcts:playouts=1000 greedy mcts:playouts=80 random"}
# seat_counts A B — "wins draws" of seat 1 when A is seat 1 and B seat 2
seat_counts() {
    "$bin" --game=wari --bots="$1,$2" --runs="$games" --seed="$seed" --format=json --quiet \
        >"$tmp"
    # seat 1 comes first in the report's "seats"
    w=$(grep -m1 '"wins_alone"' "$tmp" | tr -dc 0-9)
    d=$(grep -m1 '"wins_shared"' "$tmp" | tr -dc 0-9)
    echo "$w $d"
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
printf '%-28s %-28s %6s %6s %6s  %s\n' A B wins draws losses "A's score [95% CI]"
set -- $bots
while [ $# -gt 1 ]; do
    a=$1
    shift
    for b in "$@"; do
        first=$(seat_counts "$a" "$b")
        second=$(seat_counts "$b" "$a") # seat 1 is B here: A's losses are B's wins
        echo "$a $b $games $first $second" | awk '{
            n = 2 * $3; w = $4 + ($3 - $6 - $7); d = $5 + $7; l = n - w - d;
            s = (w + d / 2) / n; z = 1.96; c = (s + z * z / (2 * n)) / (1 + z * z / n);
            h = z * sqrt(s * (1 - s) / n + z * z / (4 * n * n)) / (1 + z * z / n);
            printf "%-28s %-28s %6d %6d %6d  %.3f [%.3f, %.3f]\n", $1, $2, w, d, l, s, c - h, c + h }'
    done
done
