# cli_cinesi.sh — command-line tests of the Gioco dei Cinesi, run by tests/cli/run.sh (uses its
# helpers: expect_ok, expect_error, ok, bad, $bin, $work, $top).

# Bad rulesets name their key, whether read alone or against the seat count.
expect_error "cinesi side must be odd" 2 "ruleset key 'side': must be odd" \
    --game=cinesi --set side=8
expect_error "cinesi a played colour needs a face" 2 "ruleset key 'faces.green': must be at least 1" \
    --game=cinesi --players=3 --set faces.green=0
expect_error "cinesi one colour per seat" 2 "ruleset key 'seat_colours': has 2 entries" \
    --game=cinesi --players=4 --set 'seat_colours=["red","blue"]'
expect_error "cinesi opening choices" 2 "ruleset key 'opening'" --game=cinesi --set opening=dice
expect_error "cinesi at most four players" 2 "" --game=cinesi --players=5
expect_error "cinesi has no rollout bot" 2 "random" --game=cinesi --bots=rollout

# --exact puts the exact win share beside the simulated one, in JSON and in CSV.
expect_ok "cinesi exact json" --game=cinesi --players=2 --exact --runs=2000 --seed=1 \
    --format=json --quiet
if grep -q '"exact":[[:space:]]*0.50794856499141' "$work/out"; then
    ok "cinesi exact win share of seat 1 (2 players)"
else
    bad "cinesi exact win share of seat 1 (2 players)" "0.50794856499141... not in the report"
fi
# ... and in the text summary's "Who wins", a column beside the simulated share.
expect_ok "cinesi exact text" --game=cinesi --players=2 --exact --runs=2000 --seed=1 --quiet
if grep -qE '^  seat  bot .*win share  95% CI +exact  mean steps$' "$work/out" &&
    grep -qE '^     1  random .* 50\.7949%  ' "$work/out"; then
    ok "cinesi exact win share in the text summary"
else
    bad "cinesi exact win share in the text summary" "$(sed -n 4,7p "$work/out")"
fi
expect_ok "cinesi exact csv" --game=cinesi --exact --runs=2000 --seed=1 --format=csv --quiet
if grep -qE '^cinesi,win_share,1,random,0.2578515446965[0-9]*,,,,exact,,,$' "$work/out" &&
    grep -qE '^cinesi,length,,,255.27372409862[0-9]*,,,,exact,,,$' "$work/out"; then
    ok "cinesi exact rows in CSV"
else
    bad "cinesi exact rows in CSV" "$(grep exact "$work/out" | head -n 3)"
fi

# The same bytes whatever the thread count.
expect_ok "cinesi threads=1" --game=cinesi --runs=3000 --seed=7 --threads=1 --format=json \
    --exact --quiet
sed '/"run":/,$d' "$work/out" >"$work/cinesi1"
expect_ok "cinesi threads=2" --game=cinesi --runs=3000 --seed=7 --threads=2 --format=json \
    --exact --quiet
sed '/"run":/,$d' "$work/out" >"$work/cinesi2"
if cmp -s "$work/cinesi1" "$work/cinesi2"; then
    ok "cinesi report does not depend on the thread count"
else
    bad "cinesi report does not depend on the thread count" "reports differ"
fi

# The trace ends with the winner; a traced game is the game the batch played.
expect_ok "cinesi trace" --game=cinesi --trace=5 --seed=3
if grep -q '^seat [1-4] ([a-z]*) wins after [0-9]* turns and [0-9]* rolls$' "$work/out"; then
    ok "cinesi trace ends with the winner"
else
    bad "cinesi trace ends with the winner" "$(tail -n 2 "$work/out")"
fi

# --list shows the game with its one bot, and says nobody decides.
expect_ok "cinesi list" --list --game=cinesi
if grep -q '^    random ' "$work/out" && ! grep -q 'rollout' "$work/out" &&
    grep -q '^  decisions: none' "$work/out"; then
    ok "cinesi lists only the random bot"
else
    bad "cinesi lists only the random bot" "$(grep -A3 bots: "$work/out")"
fi
