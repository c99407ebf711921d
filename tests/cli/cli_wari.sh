# cli_wari.sh — command-line tests of Wari, sourced by tests/cli.sh (uses its helpers:
# expect_ok, expect_error, ok, bad, same, json_without_run, $bin, $work, $top).

# Move-path counts: the published 6, 36, 190, 1014 as "d COUNT" lines, and as JSON.
expect_ok "wari perft text" --game=wari --perft=4 --quiet
printf '1 6\n2 36\n3 190\n4 1014\n' >"$work/perft4"
same "wari perft text lines" "$work/out" "$work/perft4"
expect_ok "wari perft json" --game=wari --perft=4 --format=json --quiet
if tr -d ' \t\n' <"$work/out" | grep -q '"game":"wari".*"perft":\[{"depth":1,"nodes":6},{"depth":2,"nodes":36},{"depth":3,"nodes":190},{"depth":4,"nodes":1014}\]'; then
    ok "wari perft json rows"
else
    bad "wari perft json rows" "$(tr -d ' \t\n' <"$work/out" | head -c 300)"
fi
# the speed goes to stderr unless --quiet
"$bin" --game=wari --perft=3 >"$work/out" 2>"$work/err"
grep -q '^giochi-sim: perft 3: 232 nodes in .* nodes/s)$' "$work/err" && ok "wari perft speed on stderr" ||
    bad "wari perft speed on stderr" "$(cat "$work/err")"
# another ruleset counts other paths: without must feed the counts can only grow
expect_ok "wari perft other ruleset" --game=wari --perft=6 --set must_feed=false --set grand_slam=forbidden --quiet
tail -n 1 "$work/out" | grep -q '^6 [0-9][0-9]*$' && ok "wari perft other ruleset lines" ||
    bad "wari perft other ruleset lines" "$(cat "$work/out")"
expect_error "wari perft with bots" 2 "--perft counts move paths" --game=wari --perft=3 --bots=greedy

# Bad rulesets name their key.
expect_error "wari pits out of range" 2 "ruleset key 'pits': expected an integer in 2..8" \
    --game=wari --set pits=9
expect_error "wari too many seeds for the keys" 2 "ruleset key 'seeds': 7 seeds in each of 16 pits" \
    --game=wari --set pits=8 --set seeds=7
expect_error "wari grand_slam choices" 2 "ruleset key 'grand_slam'" --game=wari \
    --set grand_slam=sometimes
expect_error "wari move_cap at least 1" 2 "ruleset key 'move_cap'" --game=wari --set move_cap=0
expect_error "wari unknown key" 2 "ruleset key 'laps'" --game=wari --set laps=true
expect_error "wari two seats only" 2 "players" --game=wari --players=3

# The trace shows who moves first, the boards, the captures and the end.
expect_ok "wari trace" --game=wari --bots=greedy,random --trace=3 --seed=1
if grep -q '^6 pits of 4 seeds a side; seat 1 moves first$' "$work/out" &&
    grep -q '^seat [12] captures [0-9]' "$work/out" &&
    grep -q '^game over after [0-9]* moves ([a-z_]*): seat 1 [0-9]* seeds, seat 2 [0-9]* seeds' "$work/out"; then
    ok "wari trace shows the start, captures and the end"
else
    bad "wari trace shows the start, captures and the end" "$(head -n 3 "$work/out")"
fi

# first_player random draws the first mover: both seats move first in a batch.
expect_ok "wari random first player" --game=wari --set first_player=random --runs=400 --seed=2 \
    --format=csv --quiet
n1=$(grep '^wari,moved_first,1,' "$work/out" | cut -d, -f5)
if awk -v p="$n1" 'BEGIN { exit !(p > 0.3 && p < 0.7) }'; then
    ok "wari random first player shares"
else
    bad "wari random first player shares" "seat 1 moved first in a share of '$n1' of the games"
fi

# The search bots give the same report whatever the thread count.
for bots in alphabeta:depth=4,mcts:playouts=40 mcts:playouts=40:rollout=1,greedy; do
    "$bin" --game=wari --bots=$bots --runs=40 --seed=3 --threads=1 --format=json -q -o "$work/s1.json"
    "$bin" --game=wari --bots=$bots --runs=40 --seed=3 --threads=2 --format=json -q -o "$work/s2.json"
    json_without_run "$work/s1.json" >"$work/s1.norun"
    json_without_run "$work/s2.json" >"$work/s2.norun"
    same "wari $bots: JSON identical for 1 and 2 threads" "$work/s1.norun" "$work/s2.norun"
done
