# cli_pig10.sh — command-line tests of PIG 10, run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh:
# expect_ok, expect_error, ok, bad, $bin, $work, $top).

# Bad rulesets name their key, whether read alone or against the seat count.
# the deck's elements are numbered by card value, from 0 (deck.10: the tens)
expect_error "pig10 deck value out of range" 2 "ruleset key 'deck\\.10': expected an integer in 0..40" \
    --game=pig10 --set deck.10=50
expect_error "pig10 deck has no value 11" 2 "--set 'deck\\.11': no element 11 in that array \\(its elements are 0 to 10\\)" \
    --game=pig10 --set deck.11=5
expect_error "pig10 deck too small for the seats" 2 "ruleset key 'deck': 22 cards cannot deal 3 to each of 8 players" \
    --game=pig10 --players=8 --set 'deck=[2,2,2,2,2,2,2,2,2,2,2]'
expect_error "pig10 table_at_end choices" 2 "ruleset key 'table_at_end'" --game=pig10 \
    --set table_at_end=burn

# Every card is played: the length is the deck size, also for another deck.
expect_ok "pig10 other deck" --game=pig10 --set deck.10=8 --runs=200 --seed=1 --format=json --quiet
if tr -d ' \t\n' <"$work/out" | grep -q '"length":{"value":84,"ci95":\[84,84\],"n":200,"sd":0,"min":84,"max":84'; then
    ok "pig10 length is the deck size"
else
    bad "pig10 length is the deck size" "no max of 84 plays in the report"
fi

# The trace tells the deal, the plays and the end.
expect_ok "pig10 trace" --game=pig10 --players=3 --bots=count,greedy,random --trace=3 --seed=1
if grep -q '^seat 1 is dealt' "$work/out" && grep -q '^game over: ' "$work/out"; then
    ok "pig10 trace shows the deal and the end"
else
    bad "pig10 trace shows the deal and the end" "$(head -n 3 "$work/out")"
fi

# The search bots give the same report whatever the thread count: each seat's stream is a
# function of the seed and the game alone.
expect_ok "pig10 search bots, 1 thread" --game=pig10 --bots=ismcts:iterations=30,mc:samples=2,count,random \
    --runs=24 --seed=5 --threads=1 --format=csv --quiet
cp "$work/out" "$work/one.csv"
expect_ok "pig10 search bots, 3 threads" --game=pig10 --bots=ismcts:iterations=30,mc:samples=2,count,random \
    --runs=24 --seed=5 --threads=3 --format=csv --quiet
if cmp -s "$work/out" "$work/one.csv"; then
    ok "pig10 ismcts and mc: --threads=1 equals --threads=3"
else
    bad "pig10 ismcts and mc: --threads=1 equals --threads=3" "the reports differ"
fi
expect_error "pig10 ismcts parameter range" 2 "iterations" --game=pig10 --bots=ismcts:iterations=0
