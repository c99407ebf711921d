# cli_wari.sh — command-line tests of Wari, run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh:
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

# Repetition at any distance since the last capture, through --replay from a start position
# given as data (ruleset key start): three stretches of random games (the data of
# tests/games/wari/test_wari.c, far_stretch, whose own list of boards shows that each first
# repeats its start on its last move) end by repetition on that move: 48, 50 and 100 moves.
for stretch in \
    "48 0,0,1,0,0,2,0,0,0,0,0,1 24,20 1 6 1 3 2 4 3 5 4 6 6 2 5 3 1 1 2 2 6 1 3 2 4 4 5 5 6 6 1 3 2 1 3 5 4 6 5 2 1 3 2 4 6 5 3 1 4 2 5" \
    "50 0,0,1,1,0,1,0,0,0,0,1,0 20,24 2 5 3 6 6 1 1 2 4 3 2 4 6 5 5 1 6 1 3 6 4 2 1 4 5 3 6 1 2 2 3 3 4 5 5 6 1 4 2 5 6 6 2 1 1 2 3 3 5 4 2" \
    "100 0,0,1,0,0,0,1,0,0,0,0,2 20,24 2 1 3 6 1 2 4 3 5 4 6 5 2 1 3 2 4 6 5 3 6 1 1 4 2 2 3 3 4 4 5 5 6 6 2 1 3 2 1 3 4 4 2 5 5 6 6 1 3 2 5 3 6 1 1 2 2 3 3 4 4 6 6 1 1 2 2 3 3 5 4 6 1 4 2 5 3 6 5 1 1 2 4 3 5 4 2 5 6 1 3 2 4 3 5 6 6 4 1 5 2"; do
    set -- $stretch
    n=$1 pits=$2 stores=$3 turn=$4
    shift 4
    { echo "# a stretch of $n moves without capture back to its start"
      for p in "$@"; do echo "pit $p"; done; } >"$work/far.rec"
    start="start={\"pits\": [$pits], \"stores\": [$stores], \"turn\": $turn}"
    expect_ok "wari replay far repetition $n" --game=wari --set "$start" --replay="$work/far.rec"
    grep -qx "end: repetition after $n moves; winner: seat [12]" "$work/out" &&
        ok "wari repetition $n moves back ends the game" ||
        bad "wari repetition $n moves back ends the game" "$(grep '^end\|^not over' "$work/out")"
    # one move short of it the game goes on
    sed '$d' "$work/far.rec" >"$work/short.rec"
    expect_ok "wari replay far repetition $n, one move short" --game=wari --set "$start" \
        --replay="$work/short.rec"
    tail -n 1 "$work/out" | grep -q "^not over: the record stops after $((n - 1)) actions" &&
        ok "wari no repetition before move $n" || bad "wari no repetition before move $n" "$(tail -n 1 "$work/out")"
    # and a move after it is refused with the line's number
    { cat "$work/far.rec"; echo "pit 1"; } >"$work/long.rec"
    expect_error "wari replay after the end" 2 "long.rec:$((n + 2)): the game is over \(repetition after $n moves\)" \
        --game=wari --set "$start" --replay="$work/long.rec"
done
expect_error "wari start seeds counted" 2 "ruleset key 'start.pits': pits and stores hold 49 seeds" \
    --game=wari --set 'start={"pits": [0,0,1,0,0,2,0,0,0,0,0,1], "stores": [24,21], "turn": 1}'
expect_error "wari start turn" 2 "ruleset key 'start.turn'" \
    --game=wari --set 'start={"pits": [0,0,1,0,0,2,0,0,0,0,0,1], "stores": [24,20], "turn": 3}'
expect_error "wari repetition bounds the move cap" 2 "ruleset key 'move_cap': must be 1..1024 while repetition is on" \
    --game=wari --set move_cap=5000
