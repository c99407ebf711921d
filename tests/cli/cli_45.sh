# cli_45.sh — command-line tests of the Gioco del 45, run by tests/cli/run.sh (uses its
# helpers: expect_ok, expect_error, ok, bad, $bin, $work, $top).

# Bad rulesets name their key, whether read alone or against the seat count.
printf '{"tiles": 13}' >"$work/t13.json"
expect_error "45 tiles out of range" 2 "ruleset key 'tiles': expected an integer in 2..12" \
    --game=45 --config="$work/t13.json"
printf '{"weights": [70, 70]}' >"$work/w2.json"
expect_error "45 one weight per seat" 2 "ruleset key 'weights': has 2 entries" \
    --game=45 --players=3 --config="$work/w2.json"
printf '{"shut_ties": "coin"}' >"$work/st.json"
expect_error "45 shut_ties choices" 2 "ruleset key 'shut_ties'" --game=45 --config="$work/st.json"

# --exact puts the known best shut chance beside optimal-shut's shut_rate (seats from 1).
expect_ok "45 exact json" --game=45 --bots=optimal-shut,random --exact --runs=2000 --seed=1 \
    --format=json --quiet
if grep -q '"exact":[[:space:]]*0.05348828919893' "$work/out"; then
    ok "45 exact shut_rate of optimal-shut"
else
    bad "45 exact shut_rate of optimal-shut" "0.0534882891989... not in the report"
fi

# The trace ends with the game's end and its winner.
expect_ok "45 trace" --game=45 --bots=greedy,optimal-score --trace=3 --seed=1
if grep -q '^game over after [0-9]* rounds\{0,1\} ([a-z_]*): ' "$work/out"; then
    ok "45 trace ends with the winner"
else
    bad "45 trace ends with the winner" "$(tail -n 2 "$work/out")"
fi

# --exact shows the exact one-turn figures in the text summary too, beside the pooled rows of
# each bot (before, only the JSON and --detail had them): optimal-score, the default bot,
# shuts the box in 4.9507% of turns and scores 11.964 on average (man page's table).
expect_ok "45 exact text" --game=45 --exact --runs=2000 --seed=1 --quiet
# (the note is on the row's line, or on the next when the row would pass 80 columns)
if grep -A1 '^  turns that shut the box ' "$work/out" | tr '\n' ' ' | grep -q 'exact 4\.9507% ' &&
    grep -A1 '^  score of a turn (open tiles) ' "$work/out" | tr '\n' ' ' | grep -q 'exact 11\.964 '; then
    ok "45 exact figures in the text summary"
else
    bad "45 exact figures in the text summary" "$(grep 'turn' "$work/out")"
fi
