# cli_search.sh — command-line tests of the generic search bots (mcts, alphabeta), sourced by
# tests/cli.sh (uses the helpers of tests/cli/lib.sh: expect_ok, expect_error, same, json_without_run, $work).

# A generic bot that cannot play a game says so (not "unknown").
expect_error "alphabeta refuses a chance game" 2 \
    "bot 'alphabeta' does not play 45 \\(bots: random" --game=45 --bots=alphabeta,random
expect_error "mcts refuses hidden information" 2 \
    "bot 'mcts' does not play pig10 \\(bots: " --game=pig10 --bots=mcts,random
expect_error "mcts rollout=1 without a policy bot" 2 \
    "bot 'mcts': rollout=1 needs a policy bot, and 45 has none" \
    --game=45 --bots=mcts:rollout=1,random
expect_error "mcts playouts out of range" 2 "playouts" --game=45 --bots=mcts:playouts=0,random

# mcts gives the same report whatever the thread count (its tree and dice are its own).
mcts_bots=mcts:playouts=40,random,mcts:c=0.5:playouts=20
expect_ok "mcts 45 one thread" --game=45 --players=3 --bots=$mcts_bots --runs=60 --seed=5 \
    --threads=1 --format=json --quiet
json_without_run "$work/out" >"$work/mcts1.json"
expect_ok "mcts 45 two threads" --game=45 --players=3 --bots=$mcts_bots --runs=60 --seed=5 \
    --threads=2 --format=json --quiet
json_without_run "$work/out" >"$work/mcts2.json"
same "mcts report is thread-independent" "$work/mcts1.json" "$work/mcts2.json"
