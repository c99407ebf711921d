# cli_experiment.sh — command-line tests of experiments (--sweep, --baseline, --rotate-seats,
# --until, --sensitivity, --metric) and of provenance, run by tests/cli/run.sh (uses its
# helpers: expect_ok, expect_error, ok, bad, same, $bin, $work, $top).

# ---- a sweep's settings equal separate --set runs, byte for byte ---------------------------
"$bin" --game=oca --bots=greedy:max_bid=20 --sweep entry_fee=30,50 --runs=1500 --seed=4 \
    --format=csv -q >"$work/sw.csv"
head -n 1 "$work/sw.csv" | grep -qx 'entry_fee,game,metric,seat,bot,value,ci95_low,ci95_high,n,stat,bin_from,bin_to,bin_label' &&
    ok "sweep CSV header leads with the swept key" || bad "sweep CSV header" "$(head -n 1 "$work/sw.csv")"
python3 "$here/csv_import.py" --keys=1 "$work/sw.csv" 2>"$work/err" &&
    ok "sweep CSV: every row imports with the header's cells" || bad "sweep CSV: every row imports with the header's cells" "$(cat "$work/err")"
for fee in 30 50; do
    "$bin" --game=oca --bots=greedy:max_bid=20 --set entry_fee=$fee --runs=1500 --seed=4 \
        --format=csv -q | tail -n +2 >"$work/one.csv"
    grep "^$fee," "$work/sw.csv" | grep -Ev ',(diff(_unpaired)?|fairness),,,$' | cut -d, -f2- >"$work/part.csv"
    same "sweep setting entry_fee=$fee equals its --set run (CSV)" "$work/part.csv" "$work/one.csv"
done
if command -v jq >/dev/null 2>&1; then
    "$bin" --game=pig10 --sweep players=3,5 --sweep seat1.playout=0,1 --bots=mc:samples=2 \
        --runs=200 --seed=9 --format=json -q >"$work/grid.json"
    [ "$(jq '.settings | length' "$work/grid.json")" = 4 ] && ok "two sweeps make a grid of 4" ||
        bad "two sweeps make a grid of 4" "$(jq '.settings | length' "$work/grid.json")"
    i=0
    for p in 3 5; do
        for v in 0 1; do
            if [ $v = 0 ]; then b1=mc:samples=2:playout=0; else b1=mc:samples=2; fi
            bots=$b1$(for k in $(seq 2 $p); do printf ,mc:samples=2; done)
            "$bin" --game=pig10 --players=$p --bots=$bots --runs=200 --seed=9 --format=json -q |
                jq -c 'del(.run, .sets)' >"$work/sep.json"
            jq -c ".settings[$i].report" "$work/grid.json" >"$work/set.json"
            same "grid setting players=$p seat1.playout=$v equals its separate run (JSON)" \
                "$work/set.json" "$work/sep.json"
            i=$((i + 1))
        done
    done
    jq -e '.sweeps == ["players=3,5", "seat1.playout=0,1"] and (.run.command_line | index("--sweep"))' \
        "$work/grid.json" >/dev/null && ok "JSON records the sweeps and the command line" ||
        bad "JSON records the sweeps and the command line" "missing"
fi

# ---- pairing narrows a difference on the same dice ----------------------------------------
# A limit of 46 instead of 45 changes few games of the 45: the paired interval of the length
# difference must be far narrower than two independent runs' (and both hold the difference).
if command -v jq >/dev/null 2>&1; then
    "$bin" --game=45 --sweep limit=45,46 --runs=5000 --seed=1 --format=json -q >"$work/pair.json"
    jq -e '.settings[1].differences[] | select(.metric == "length")
           | (.ci95[1] - .ci95[0]) < (.ci95_unpaired[1] - .ci95_unpaired[0]) / 2
             and .value > 0 and .ci95[0] > 0 and .narrowing > 2' "$work/pair.json" >/dev/null &&
        ok "paired interval narrower than unpaired (45 limit 45 vs 46)" ||
        bad "paired interval narrower than unpaired (45 limit 45 vs 46)" \
            "$(jq -c '.settings[1].differences[] | select(.metric == "length")' "$work/pair.json")"
    jq -e '.settings[0].differences[] | select(.metric == "length") | .value == 0 and .ci95 == [0, 0]' \
        "$work/pair.json" >/dev/null && ok "the baseline differs from itself by exactly 0" ||
        bad "the baseline differs from itself by exactly 0" "$(jq -c '.settings[0].differences[0]' "$work/pair.json")"
fi

# ---- the same bytes for any thread count ----------------------------------------------------
for args in "--game=45 --sweep limit=40:50:5 --players=3" "--game=pig10 --rotate-seats --bots=greedy,count,random" \
    "--game=oca --sensitivity=dote,max_chain --metric=bankruptcy_any" "--game=pig10 --until=win_share@1:0.02" \
    "--game=pig10 --sweep=players=3,5 --metric=seat_spread,first_seat --until=seat_spread:0.02"; do
    # shellcheck disable=SC2086
    "$bin" $args --runs=2000 --seed=3 --threads=1 --format=csv -q >"$work/x1.csv"
    # shellcheck disable=SC2086
    "$bin" $args --runs=2000 --seed=3 --threads=2 --format=csv -q >"$work/x2.csv"
    same "identical for 1 and 2 threads: $args" "$work/x1.csv" "$work/x2.csv"
done

# ---- --until: the same game count at 1 and 2 threads, and it says so -----------------------
for t in 1 2; do
    "$bin" --game=oca --until=bankruptcy_any:0.01 --runs=100000 --seed=5 --threads=$t \
        --format=json -q >"$work/u$t.json"
done
g1=$(sed -n 's/^\t\t"games":[[:space:]]*\([0-9]*\).*/\1/p' "$work/u1.json")
g2=$(sed -n 's/^\t\t"games":[[:space:]]*\([0-9]*\).*/\1/p' "$work/u2.json")
[ -n "$g1" ] && [ "$g1" = "$g2" ] && ok "--until stops at the same game count for 1 and 2 threads ($g1)" ||
    bad "--until stops at the same game count for 1 and 2 threads" "'$g1' and '$g2'"
expect_ok "--until text says how many games" --game=pig10 --until=win_share@1:0.02 --runs=100000 --seed=1 -q
grep -q -- '--until win_share@1:0.02: reached after [0-9]* games' "$work/out" &&
    ok "--until text line" || bad "--until text line" "$(tail -n 1 "$work/out")"
expect_ok "--until capped by --runs" --game=pig10 --until=win_share@1:0.0001 --runs=1500 --seed=1 -q
grep -q 'NOT reached (cap)' "$work/out" && ok "--until reports the cap" || bad "--until reports the cap" "$(tail -n 1 "$work/out")"

# ---- sensitivity: a key with a known large effect comes first ------------------------------
# The Oca's dote (points each player starts with) drives bankruptcy; max_chain and bid_step
# hardly touch it when the bots bid the bank's worth (greedy-2026; today's greedy bids the
# cash cap, which bid_step rounds).
expect_ok "oca sensitivity" --game=oca --bots=greedy-2026 --sensitivity=max_chain,bid_step,dote --metric=bankruptcy_any \
    --runs=3000 --seed=2 --format=csv -q
sed -n 3p "$work/out" | grep -q '^dote,' && ok "sensitivity ranks dote first" ||
    bad "sensitivity ranks dote first" "$(sed -n 3p "$work/out")"
expect_ok "45 sensitivity of every key" --game=45 --sensitivity --metric=length --runs=1000 --seed=2 -q
grep -qE '^(tiles|limit) ' "$work/out" && ok "45 sensitivity lists the numeric keys" ||
    bad "45 sensitivity lists the numeric keys" "$(cat "$work/out")"

# ---- rotation ------------------------------------------------------------------------------
expect_ok "rotation text" --game=pig10 --rotate-seats --bots=greedy,random --runs=500 --seed=1 -q
grep -q 'seat advantage' "$work/out" && grep -q 'by bot' "$work/out" && ok "rotation reports bots and seat advantage" ||
    bad "rotation reports bots and seat advantage" "$(head -c 300 "$work/out")"
# the text shows per bot what the JSON has: win share, score, rank, the game's headline seat
# metrics (45: shut_rate, mean_turn_score, eliminated), and the seat figures --metric names
expect_ok "45 rotation text" --game=45 --rotate-seats --bots=greedy,random --runs=400 --seed=3 -q
awk '/^by bot/ {on = 1; next} on && /^$/ {exit} on {print $1}' "$work/out" | tr '\n' ' ' >"$work/rows"
[ "$(cat "$work/rows")" = "greedy win_share total rank shut_rate mean_turn_score eliminated " ] &&
    ok "45 rotation text: a row per headline figure, a column per bot" ||
    bad "45 rotation text: a row per headline figure, a column per bot" "$(cat "$work/rows")"
if command -v jq >/dev/null 2>&1; then
    "$bin" --game=45 --rotate-seats --bots=greedy,random --runs=400 --seed=3 -q --format=json >"$work/rot.json"
    want=$(jq -r '.bots[1].metrics.eliminated.value * 10000 | round / 100 | tostring' "$work/rot.json")
    got=$(awk '$1 == "eliminated" {print $5}' "$work/out" | tr -d '%')
    [ -n "$got" ] && awk -v a="$want" -v b="$got" 'BEGIN {exit !(a + 0 == b + 0)}' &&
        ok "45 rotation text: random's eliminated share as in the JSON ($got%)" ||
        bad "45 rotation text: random's eliminated share as in the JSON" "text '$got', JSON '$want'"
fi
expect_ok "rotation text with --metric" --game=pig10 --rotate-seats --bots=greedy,random --runs=300 --seed=1 \
    --metric=frogs@1,length -q
awk '/^by bot/ {on = 1; next} on && /^$/ {exit} on {print $1}' "$work/out" | tr '\n' ' ' >"$work/rows"
[ "$(cat "$work/rows")" = "greedy win_share cards rank frogs " ] && ok "rotation text: --metric's seat figures per bot" ||
    bad "rotation text: --metric's seat figures per bot" "$(cat "$work/rows")"

# ---- progress: as a plain run's, on a terminal or (--progress) in a log --------------------
# Settings x rotations x games: what the experiment plays, counted in the start and end lines.
expect_ok "sweep --progress to a log" --game=45 --sweep limit=40,45 --runs=300 --seed=1 --progress --threads=1
grep -qx 'giochi-sim: progress: 45: 2 settings, 600 games on 1 thread' "$work/err" &&
    grep -qE '^giochi-sim: progress: 45: 2 settings, 600 games in [0-9.]+ s$' "$work/err" &&
    [ "$(wc -l <"$work/err")" -eq 2 ] && ok "sweep --progress: start and end lines in the log" ||
    bad "sweep --progress: start and end lines in the log" "$(cat "$work/err")"
expect_ok "rotation --progress to a log" --game=pig10 --rotate-seats --bots=greedy,random,count --runs=100 \
    --seed=1 --progress --threads=2
grep -qx 'giochi-sim: progress: pig10: 1 setting, 300 games on 2 threads' "$work/err" &&
    grep -qE '^giochi-sim: progress: pig10: 1 setting, 300 games in [0-9.]+ s$' "$work/err" &&
    ok "rotation --progress counts every rotation" || bad "rotation --progress counts every rotation" "$(cat "$work/err")"
expect_ok "--until --progress to a log" --game=pig10 --until=win_share@1:0.05 --runs=5000 --seed=1 --progress
grep -qE '^giochi-sim: progress: pig10: 1 setting, at most 5000 games on [0-9]+ threads?$' "$work/err" &&
    grep -qE '^giochi-sim: progress: pig10: 1 setting, [0-9]+ games in [0-9.]+ s$' "$work/err" &&
    ok "--until --progress says at most" || bad "--until --progress says at most" "$(cat "$work/err")"
expect_ok "sensitivity --progress to a log" --game=45 --sensitivity=limit --metric=length --runs=200 --seed=1 --progress
grep -qE '^giochi-sim: progress: 45: 3 settings, 600 games on [0-9]+ threads?$' "$work/err" &&
    ok "sensitivity --progress counts its settings" || bad "sensitivity --progress counts its settings" "$(cat "$work/err")"
for args in "--sweep limit=40,45" "--rotate-seats" "--until=length:0.5" "--sensitivity=limit --metric=length"; do
    # shellcheck disable=SC2086
    "$bin" --game=45 $args --runs=3000 --seed=1 >/dev/null 2>"$work/err" </dev/null
    [ -s "$work/err" ] && bad "no progress when stderr is not a terminal: $args" "$(cat "$work/err")" ||
        ok "no progress when stderr is not a terminal: $args"
done

# ---- provenance ----------------------------------------------------------------------------
"$bin" --game=45 --runs=100 >/dev/null 2>"$work/err"
[ "$(wc -l <"$work/err")" -eq 1 ] && grep -qE '^giochi-sim: seed [0-9]+ \(repeat with --seed=[0-9]+\)$' "$work/err" &&
    ok "chosen seed on stderr, one line" || bad "chosen seed on stderr, one line" "$(cat "$work/err")"
"$bin" --game=45 --runs=100 --seed=1 >/dev/null 2>"$work/err"
[ -s "$work/err" ] && bad "no seed line when --seed is given" "$(cat "$work/err")" || ok "no seed line when --seed is given"
expect_ok "text header shows ruleset changes" --game=45 --runs=50 --seed=1 --set limit=40 --set tiles=8 -q
sed -n 2p "$work/out" | grep -qx '50 games, 2 players, seed 1, ruleset: tiles=8, limit=40' && ok "ruleset changes line" ||
    bad "ruleset changes line" "$(sed -n 2p "$work/out")"
expect_ok "JSON records --set" --game=45 --runs=50 --seed=1 --set limit=40 --format=json -q
grep -q '"limit=40"' "$work/out" && grep -q '"command_line"' "$work/out" &&
    ok "JSON has the --set and the command line" || bad "JSON has the --set and the command line" "missing"

# ---- bad input -----------------------------------------------------------------------------
expect_error "sweep without a list" 2 "--sweep 'limit': expected KEY=V1,V2" --game=45 --sweep limit
expect_error "sweep unknown ruleset key" 2 "ruleset key 'nope': unknown key" --game=45 --sweep nope=1,2
expect_error "sweep bad range" 2 "--sweep 'limit': STEP must be non-zero" --game=45 --sweep limit=50:40:5
expect_error "sweep value out of range" 2 "setting limit=0: ruleset key 'limit': expected an integer" --game=45 --sweep limit=45,0
expect_error "sweep players out of range" 2 "--sweep 'players': '9' is not 2..8" --game=pig10 --sweep players=3,9
expect_error "sweep seat beyond the players" 2 "--sweep 'seat5.samples': the game has 4 players" \
    --game=pig10 --bots=mc --sweep seat5.samples=1,2
expect_error "sweep unknown bot parameter" 2 "bot 'greedy' takes no parameters" --game=pig10 --sweep seat1.x=1,2
expect_error "sweep twice" 2 "--sweep 'limit' is given twice" --game=45 --sweep limit=40 --sweep limit=50
expect_error "baseline not in the sweep" 2 "--baseline '7': no setting has these values" --game=45 --sweep limit=40,50 --baseline=7
expect_error "baseline without sweep" 2 "--baseline needs --sweep" --game=45 --baseline=7
expect_error "metric without experiment" 2 "--metric needs --sweep or --sensitivity" --game=45 --metric=length
expect_error "until without half-width" 2 "--until 'length': expected FIGURE:HALFWIDTH" --game=45 --until=length
expect_error "until zero half-width" 2 "the half-width must be a number above 0" --game=45 --until=length:0
expect_error "until unknown figure" 2 "--until: no figure 'speed' \\(figures: length" --game=45 --until=speed:0.1
expect_error "until seat out of range" 2 "--until 'win_share@5': seat must be 1..2" --game=45 --until=win_share@5:0.1
expect_error "sensitivity without metric" 2 "--sensitivity needs --metric" --game=45 --sensitivity
expect_error "sensitivity of an array key" 2 "--sensitivity: 'weights' is not a number, a boolean or an enum" \
    --game=45 --sensitivity=weights --metric=length
expect_error "sensitivity with sweep" 2 "--sensitivity cannot be combined with --sweep" --game=45 --sensitivity --metric=length --sweep limit=40
expect_error "experiment with trace" 2 "--trace plays one game" --game=45 --sweep limit=40 --trace=1
expect_error "search with games CSV" 2 "--games-csv goes with a run, --sweep" --game=wari --tournament=random,greedy --runs=10 --games-csv="$work/g.csv"

# ---- memory: a worker's does not grow with the number of settings ---------------------------
# A 1,000-setting sweep of the oca at 8 threads stays under 1 GB of resident memory, and each
# thread beyond the first adds less than 16 MB (a worker keeps one part for the baseline and
# one for the setting it plays, whatever the number of settings; before, a worker kept a
# part of every setting: 1.9 GB at 8 threads, 180 MB a thread). Maximum RSS as /usr/bin/time
# reports it; not under the sanitizers, whose shadow memory would be counted.
if [ -n "${GIOCHI_SANITIZE:-}" ]; then
    :
elif ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    echo "cli_experiment.sh: memory test skipped: no /usr/bin/time (Debian package time)" >&2
else
    for t in 1 8; do
        /usr/bin/time -o "$work/rss$t" -f %M "$bin" --game=oca --sweep entry_fee=0:999:1 --runs=8 \
            --threads=$t --seed=1 -q -o "$work/sweep$t.txt" 2>"$work/err"
        echo $? >"$work/rc$t"
    done
    rss1=$(tail -n 1 "$work/rss1") rss8=$(tail -n 1 "$work/rss8")
    if [ "$(cat "$work/rc1")" -ne 0 ] || [ "$(cat "$work/rc8")" -ne 0 ] ||
        [ "$(grep -c 'entry_fee=' "$work/sweep8.txt")" -lt 1000 ]; then
        bad "1000-setting sweep" "exit $(cat "$work/rc1")/$(cat "$work/rc8"): $(head -c 200 "$work/err")"
    else
        [ "$rss8" -lt 1048576 ] && ok "1000-setting sweep at 8 threads under 1 GB" ||
            bad "1000-setting sweep at 8 threads under 1 GB" "maximum RSS $rss8 KB"
        [ $(((rss8 - rss1) / 7)) -lt 16384 ] && ok "1000-setting sweep: under 16 MB a thread" ||
            bad "1000-setting sweep: under 16 MB a thread" "$rss1 KB at 1 thread, $rss8 KB at 8"
    fi
fi

# ---- fairness: seat_spread and first_seat against cinesi's exact shares ---------------------
# cinesi's --exact analysis gives every seat's win share at 2, 3 and 4 players by another
# method (negative-binomial progress, no simulation); the simulated seat_spread and first_seat
# of a sweep over players must hold the figures those shares make, and be away from 0 (the
# seat advantage is 0.8 points, the intervals about +-0.35 at 100 000 games).
if command -v jq >/dev/null 2>&1; then
    "$bin" --game=cinesi --sweep=players=2,3,4 --runs=100000 --seed=3 --format=json -q \
        >"$work/fair.json"
    i=0
    for p in 2 3 4; do
        "$bin" --game=cinesi --players=$p --exact --runs=2 --format=json -q >"$work/exact.json"
        spread=$(jq "[.exact.seats[].win_share - 1/$p | if . < 0 then -. else . end] | max" \
            "$work/exact.json")
        first=$(jq ".exact.seats[0].win_share - 1/$p" "$work/exact.json")
        if jq -e --argjson s "$spread" --argjson f "$first" ".settings[$i].fairness
               | .seat_spread.ci95[0] <= \$s and \$s <= .seat_spread.ci95[1]
                 and .seat_spread.ci95[0] > 0
                 and .first_seat.ci95[0] <= \$f and \$f <= .first_seat.ci95[1]" \
            "$work/fair.json" >/dev/null; then
            ok "cinesi $p players: seat_spread and first_seat hold the exact $spread, $first"
        else
            bad "cinesi $p players: seat_spread and first_seat hold the exact $spread, $first" \
                "$(jq -c ".settings[$i].fairness" "$work/fair.json")"
        fi
        i=$((i + 1))
    done
    # the difference rows are there, for every setting against the baseline
    [ "$(jq '[.settings[].differences[] | select(.metric == "seat_spread")] | length' \
        "$work/fair.json")" = 3 ] && ok "seat_spread difference rows" ||
        bad "seat_spread difference rows" "$(jq -c '.settings[1].differences[-2:]' "$work/fair.json")"
fi
# "Is PIG 10 fairer with 3 or 5 players?": a sweep over players of a figure defined for every N
expect_ok "pig10 seat_spread sweep over players" --game=pig10 --sweep=players=3,5 \
    --metric=seat_spread,first_seat --runs=500 --seed=1 -q
grep -q '^players=5 .*%.*\[' "$work/out" && ok "the sweep shows seat_spread at 5 players" ||
    bad "the sweep shows seat_spread at 5 players" "$(cat "$work/out")"
expect_error "win_share@5 at 3 players still refused" 2 "seat must be 1..3" --game=pig10 \
    --sweep=players=3,5 --metric=win_share@5 --runs=10
expect_ok "pig10 --until on seat_spread" --game=pig10 --players=3 --until=seat_spread:0.02 \
    --runs=100000 --seed=1 -q
grep -q '^--until seat_spread:0.02: reached after' "$work/out" && grep -q '^seat_spread [0-9.]*%' "$work/out" &&
    ok "--until seat_spread stops and shows the figure" ||
    bad "--until seat_spread stops and shows the figure" "$(tail -n 3 "$work/out")"
expect_ok "seat_spread in the CSV" --game=pig10 --sweep=players=3,5 --runs=300 --seed=1 \
    --format=csv -q
[ "$(grep -c ',seat_spread,.*,fairness,,,$' "$work/out")" = 2 ] && ok "a fairness row per setting" ||
    bad "a fairness row per setting" "$(grep seat_spread "$work/out")"
# ---- every interval inside its support: a share in [0, 1] (rotation, a sweep of two games, a
# tournament), a mean of counts never below 0 (oca at 20 games), in text and JSON --------------
support_check() { # NAME FILE: every "ci95" of the JSON report inside its figure's range
    if python3 - "$2" 2>"$work/err" <<'PY'; then ok "$1"; else bad "$1" "$(tail -n 1 "$work/err")"; fi
import json, sys
signed = ("net", "edge", "advantage", "first_seat", "difference", "diff", "bankruptcy_square", "elo",
          "rating", "points")
def walk(o, path):
    if isinstance(o, dict):
        if isinstance(o.get("metric"), str):  # a table's row names its metric
            path += "/" + o["metric"]
        c = o.get("ci95")
        if isinstance(c, list) and len(c) == 2 and None not in c:
            lo, hi = c
            share = "hits" in o or "share" in path or path.endswith("score")
            if not any(s in path for s in signed):
                assert lo >= 0, (path, o.get("value"), c)
            if share and not any(s in path for s in signed):
                assert hi <= 1, (path, o.get("value"), c)
        for k, v in o.items():
            walk(v, path + "/" + k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            walk(v, path + "/" + str(i))
walk(json.load(open(sys.argv[1])), "")
PY
}
expect_ok "support: rotation near 0 and 1" --game=wari --bots=random,greedy --rotate-seats \
    --runs=500 --seed=1 -q --format=json
support_check "support: rotation's shares inside [0, 1]" "$work/out"
expect_ok "support: rotation text" --game=wari --bots=random,greedy --rotate-seats --runs=500 \
    --seed=1 -q
grep -q 'win_share *0\.[0-9]*% \[0\.00, ' "$work/out" && ! grep -q '\[-0\.' "$work/out" &&
    ok "support: the text's rotation shares start at 0.00, not below" ||
    bad "support: the text's rotation shares start at 0.00, not below" "$(grep win_share "$work/out")"
expect_ok "support: a sweep of two games" --game=oca --sweep=players=3,4 --runs=2 --seed=1 -q \
    --format=json
support_check "support: a two-game sweep's intervals inside their range" "$work/out"
expect_ok "support: oca at 20 games" --game=oca --runs=20 --seed=1 -q --format=json
support_check "support: oca's counts never below 0 at 20 games" "$work/out"
python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["metrics"]["mutual_aid_attempts"]
assert e["ci95"][0] == 0 and e["value"] > 0 and e.get("small_sample") is True, e
' "$work/out" 2>"$work/err" && ok "support: a rare count at 20 games: [0, ...] and a small-sample flag" ||
    bad "support: a rare count at 20 games: [0, ...] and a small-sample flag" "$(tail -n 1 "$work/err")"
expect_ok "support: tournament tables" --game=wari --tournament=random,greedy --runs=200 \
    --seed=1 -q --format=json
support_check "support: tournament scores inside [0, 1]" "$work/out"
