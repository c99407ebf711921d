# cli_volpe.sh — command-line tests of La volpe e le oche, run by tests/cli/run.sh (uses its
# helpers: expect_ok, expect_error, ok, bad, $bin, $work, $top).

# Bad rulesets name their key.
expect_error "volpe fox off the cross" 2 "ruleset key 'fox': expected a point of the cross" \
    --game=volpe --set fox=A1
expect_error "volpe goose on the fox" 2 "ruleset key 'geese.1': D5 is taken already" \
    --game=volpe --set 'geese=["D5"]' --set fox_wins_at=1
expect_error "volpe diagonals choices" 2 "ruleset key 'diagonals'" --game=volpe \
    --set diagonals=some
expect_error "volpe fox_wins_at above the geese" 2 "ruleset key 'fox_wins_at'" --game=volpe \
    --set fox_wins_at=18

# Move-path counts of the default rules: 8, 69, 420 (the issue's figures), as text and JSON.
expect_ok "volpe perft" --game=volpe --perft=3 --quiet
if [ "$(tr '\n' ' ' <"$work/out")" = "1 8 2 69 3 420 " ]; then
    ok "volpe perft 8 69 420"
else
    bad "volpe perft 8 69 420" "$(cat "$work/out")"
fi
expect_ok "volpe perft alquerque json" --game=volpe --perft=4 --set diagonals=alquerque \
    --format=json --quiet
if tr -d ' \t\n' <"$work/out" | grep -q '{"depth":4,"nodes":2647}'; then
    ok "volpe perft alquerque depth 4"
else
    bad "volpe perft alquerque depth 4" "$(head -c 300 "$work/out")"
fi

# The trace names each move and the end; the heat map is in the JSON report.
expect_ok "volpe trace" --game=volpe --bots=greedy,greedy --trace=2 --seed=1
if grep -q '^fox D5-' "$work/out" && grep -q '^goose [A-G][1-7]-[A-G][1-7]$' "$work/out" &&
    grep -q '^end: ' "$work/out"; then
    ok "volpe trace shows the moves and the end"
else
    bad "volpe trace shows the moves and the end" "$(head -n 5 "$work/out")"
fi
expect_ok "volpe json" --game=volpe --bots=random,greedy --runs=300 --seed=1 --format=json --quiet
if tr -d ' \t\n' <"$work/out" | grep -q '"trapped_D7":{"value":'; then
    ok "volpe heat map per point"
else
    bad "volpe heat map per point" "no trapped_D7 in the report"
fi

# --perft counts moves at the table: in a position with thousands of jump chains (the one of
# tests/games/volpe/test_volpe.c, whose reference counts 8732 fox moves there) the pages of
# the fox's list are expanded, not counted as one "more moves" action each.
printf '%s\n' '{"fox": "C3", "fox_wins_at": 17, "geese": ["D1", "C2", "D2", "E2", "B3", "D3",' \
    '"F3", "A4", "B4", "C4", "D4", "E4", "F4", "B5", "D5", "C6", "D6"]}' >"$work/chains.json"
expect_ok "volpe perft many chains" --game=volpe --config="$work/chains.json" --perft=1 --quiet
if [ "$(cat "$work/out")" = "1 8732" ]; then
    ok "volpe perft counts every page's moves"
else
    bad "volpe perft counts every page's moves" "$(cat "$work/out")"
fi

# --replay in that position: a move of the third page played by number after two page turns,
# then by its name alone, the page turns left to the replay.
printf 'fox: more moves\nfox: more moves\n8\n' >"$work/pages.rec"
expect_ok "volpe replay page turns" --game=volpe --config="$work/chains.json" --replay="$work/pages.rec"
grep '^  > seat 1 (replay) fox: fox C3' "$work/out" | sed 's/   \[.*//; s/^.*fox: //' >"$work/move.txt"
grep -c 'more moves (page' "$work/out" | grep -qx 2 && [ -s "$work/move.txt" ] &&
    ok "volpe replay turns two pages" || bad "volpe replay turns two pages" "$(head -n 8 "$work/out")"
sed '1d;$d' "$work/out" >"$work/paged.txt" # without the header (the file's name) and the count
expect_ok "volpe replay a later page's move by name" --game=volpe --config="$work/chains.json" \
    --replay="$work/move.txt"
sed '1d;$d' "$work/out" >"$work/named.txt"
same "volpe replay by name turns the pages itself" "$work/paged.txt" "$work/named.txt"
