# cli_oca.sh — command-line tests of the Gioco dell'Oca, sourced by tests/cli.sh (uses its
# helpers: expect_ok, expect_error, ok, bad, $bin, $work, $top).

# Bad boards name their key, read alone or against the seat count.
expect_error "oca board amount out of range" 2 \
    "ruleset key 'board\[12\]\.amount': expected an integer in 0\.\.10000" \
    --game=oca --set board.12.amount=-1
printf '{"board": [{"name": "x"}]}' >"$work/oca-short.json"
expect_error "oca board too short" 2 "ruleset key 'board'" --game=oca --config="$work/oca-short.json"
expect_error "oca deal larger than the deck" 2 "ruleset key 'cards_per_player_many'" \
    --game=oca --players=8 --set cards_per_player_many=3

# Another board, loaded without recompiling: ten squares, four postcards, one card each.
sq() { printf '{"name": "%s", "effect": "%s", "amount": %s, "to": %s, "pulcinella": %s, "card": "%s"}' "$@"; }
{
    printf '{"cards_per_player": 1, "cards_per_player_many": 0, "board": ['
    sq start none 0 0 0 none; printf ','
    sq tax pay_bank 20 0 0 negative; printf ','
    sq gift receive_bank 20 0 0 positive; printf ','
    sq pulcinella none 0 0 1 jolly; printf ','
    sq party collect_all 10 0 0 neutral; printf ','
    sq back move 0 2 0 none; printf ','
    sq goose again 0 0 0 none; printf ','
    sq inn wait 1 0 0 none; printf ','
    sq storm distribute_all 10 0 0 none; printf ','
    sq goal none 0 0 0 none
    printf ']}'
} >"$work/oca-board.json"
expect_ok "oca other board" --game=oca --config="$work/oca-board.json" --runs=2000 --seed=1 \
    --bots=random,greedy,aggressive,cautious --format=json --quiet
grep -q '"turn_cap"' "$work/out" && ok "oca other board reports" ||
    bad "oca other board reports" "no oca metrics"
# --check holds the other board to the conservation of points too
expect_ok "oca --check with another board" --game=oca --config="$work/oca-board.json" --runs=500 \
    --seed=1 --bots=random,greedy,aggressive,cautious --check --quiet

# The trace shows every transfer with its reason, and the end.
expect_ok "oca trace" --game=oca --bots=aggressive,random,greedy,cautious --trace=2 --seed=1
if grep -q '^  ledger: [0-9]* from .* to .* (entry fee) ' "$work/out" &&
    grep -q '^game over after [0-9]* turns: ' "$work/out"; then
    ok "oca trace shows transfers with reasons"
else
    bad "oca trace shows transfers with reasons" "$(head -c 300 "$work/out")"
fi
