# cli_population.sh — populations of players (issue 39): --population and pop:P seats in
# every mode, bad populations refused in one line, figures by type in JSON, CSV, text and
# HTML, the same bytes across threads, shards and the built-in file. Run by tests/cli/run.sh
# (helpers of tests/cli/lib.sh).

pop=oca-mixed
args="--game=oca --runs=1500 --seed=3 -q"

# ---- bad populations: one line, exit 2 ---------------------------------------------------
printf '{"members": [{"type": "a", "weight": 0, "bot": "greedy"}]}' >"$work/w0.json"
printf '{"members": [{"type": "a", "bot": "greedy", "knobs": {"max_bid": 5000}}]}' >"$work/range.json"
printf '{"members": [{"type": "a", "bot": "nosuch"}]}' >"$work/bot.json"
printf '{"members": [{"type": "a", "bot": "greedy", "knobs": {"gamble": {"normal": {"mean": 3, "sd": -1}}}}]}' >"$work/sd.json"
printf '{"members": [{"type": "a", "bot": "greedy"}' >"$work/cut.json"
printf '{"game": "wari", "members": [{"type": "a", "bot": "greedy"}]}' >"$work/wari.json"
expect_error "population: weight 0" 2 "population '.*w0.json': member 1 \\('a'\\): weight must be a positive number" \
    $args --population="$work/w0.json"
expect_error "population: knob out of range" 2 "knob 'max_bid': 5000 is not a whole number in 0..1000" \
    $args --population="$work/range.json"
expect_error "population: unknown bot" 2 "member 1 \\('a'\\): unknown bot 'nosuch' for game oca" \
    $args --population="$work/bot.json"
expect_error "population: sd not positive" 2 "normal sd -1 must be positive" \
    $args --population="$work/sd.json"
expect_error "population: cut JSON" 2 "population '.*cut.json': " $args --population="$work/cut.json"
expect_error "population: another game's" 2 "population for game 'wari', not oca" \
    $args --population="$work/wari.json"
expect_error "population: no such built-in" 2 "no such built-in population for oca \\(built in: oca-mixed" \
    $args --population=mixed
expect_error "population: no such file" 2 "cannot read '$work/none.json'" \
    $args --population="$work/none.json"
expect_error "population: with --bots" 2 "--population and --bots: give one" \
    $args --population=$pop --bots=greedy
expect_error "population: pop: alone" 2 "pop: needs a population name or file" $args --bots=pop:
expect_error "population: oca's for wari" 2 "population for game 'oca', not wari" \
    --game=wari --runs=10 --bots=pop:oca-mixed

# ---- a population run: figures by type in every format ------------------------------------
expect_ok "population: JSON" $args --population=$pop --format=json
cp "$work/out" "$work/pop.json"
python3 - "$work/pop.json" <<'EOF' && ok "population: JSON types" || bad "population: JSON types" "see above"
import json, sys
r = json.load(open(sys.argv[1]))
types = r["types"]
assert [t["type"] for t in types] == ["cautious", "ordinary", "gambler", "shrewd"], types
assert abs(sum(t["weight"] for t in types) - 1) < 1e-12
assert sum(t["seat_games"] for t in types) == 1500 * 4
wins = sum(t["wins"] for t in types)
assert abs(wins - sum(s["wins"] for s in r["seats"])) < 1e-9
for t in types:
    assert set(t["metrics"]) >= {"bankrupt", "auction_winner", "bank_net", "net"}
    assert 0 <= t["win_share"]["value"] <= 1
# the auction's shares by type add up to every auction
assert abs(sum(t["shares"]["auction_winner"]["value"] for t in types) - 1) < 1e-12
# the cautious never bid: no share of the auctions
assert types[0]["shares"]["auction_winner"]["hits"] == 0
# the winner's net by winning bid: a row per bin, the auctions in all
rows = r["tables"][0]["rows"]
assert r["tables"][0]["name"] == "auction_net_by_bid"
assert sum(x["estimate"]["n"] for x in rows) == r["metrics"]["winning_bid"]["n"]
EOF
expect_ok "population: CSV" $args --population=$pop --format=csv
python3 - "$work/out" <<'EOF' && ok "population: CSV tidy, a type column" || bad "population: CSV tidy, a type column" "see above"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][-1] == "type" and len(set(map(len, rows))) == 1, rows[0]
typed = [x for x in rows[1:] if x[-1]]
assert {x[-1] for x in typed} == {"cautious", "ordinary", "gambler", "shrewd"}
assert any(x[1] == "share.auction_winner" for x in typed)
assert any(x[1] == "table.auction_net_by_bid" for x in rows)
EOF
expect_ok "population: text" $args --population=$pop
grep -q "^Types of player (population oca-mixed" "$work/out" && grep -q "^Who wins, by type of player" "$work/out" &&
    grep -q "^Figures by type of player" "$work/out" && grep -q "^    gambler  .*%.*\[" "$work/out" &&
    grep -q "^Auction winner's net" "$work/out" && ok "population: text sections" ||
    bad "population: text sections" "$(head -c 400 "$work/out")"
expect_ok "population: html" $args --population=$pop --html="$work/pop.html"
grep -q "Who wins, by type of player" "$work/pop.html" && ok "population: html section" || bad "population: html section" "missing"
# a run without populations has no types, and its CSV keeps its columns
expect_ok "no population: no types" $args --format=json
python3 -c 'import json,sys; sys.exit("types" in json.load(open(sys.argv[1])))' "$work/out" &&
    ok "no population: no types key" || bad "no population: no types key" "present"

# ---- the same bytes: threads, shards, the built-in and its file --------------------------
"$bin" $args --population=$pop --format=json --threads=1 >"$work/t1.json" 2>/dev/null
"$bin" $args --population=$pop --format=json --threads=3 >"$work/t3.json" 2>/dev/null
json_without_run "$work/t1.json" >"$work/t1"
json_without_run "$work/t3.json" >"$work/t3"
same "population: threads 1 and 3" "$work/t1" "$work/t3"
for i in 0 1 2; do
    "$bin" $args --population=$pop --shard=$i/3 -o "$work/s$i.part" 2>"$work/err" ||
        bad "population: shard $i" "$(cat "$work/err")"
done
"$bin" --merge "$work/s0.part" "$work/s1.part" "$work/s2.part" --format=json >"$work/m.json" 2>"$work/err"
json_without_run "$work/m.json" >"$work/m"
same "population: shards merged" "$work/t1" "$work/m"
"$bin" $args --population="$top/configs/populations/$pop.json" --format=json >"$work/f.json" 2>/dev/null
python3 - "$work/t1.json" "$work/f.json" <<'EOF' && ok "population: the file plays as the built-in" || bad "population: the file plays as the built-in" "differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
key = lambda r: [(t["type"], t["wins"], t["points"]["value"], t["metrics"]) for t in r["types"]]
assert key(a) == key(b) and a["metrics"] == b["metrics"]
EOF

# ---- every mode takes a population -------------------------------------------------------
expect_ok "population: sweep" --game=oca --population=$pop --sweep entry_fee=30:70:20 \
    --metric=bankruptcy_any --runs=600 --seed=1 -q
expect_ok "population: rotation" --game=oca --bots=greedy,pop:$pop,pop:$pop,pop:$pop \
    --rotate-seats --runs=300 --seed=1 -q
expect_ok "population: until" --game=oca --population=$pop --until=bankruptcy_any:0.02 \
    --runs=3000 --seed=1 -q
expect_ok "population: sensitivity" --game=oca --population=$pop --sensitivity \
    --metric=bankruptcy_any --runs=200 --seed=1 -q
expect_ok "population: goal seek" --game=oca --population=$pop --target=bankruptcy_any=0.10 \
    --over=entry_fee=0:200 --runs=400 --seed=1 -q
expect_ok "population: tune against a population" --game=oca \
    --bots=greedy,pop:$pop,pop:$pop,pop:$pop --tune=seat1.max_bid=20:80 \
    --maximize=win_share@1 --runs=200 --seed=1 -q
expect_ok "population: tournament entrant" --game=oca \
    --tournament=greedy,cautious,aggressive,pop:$pop --runs=60 --seed=1 -q --format=json
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert "pop:oca-mixed" in json.dumps(r["bots"])' "$work/out" && ok "population: tournament names it" ||
    bad "population: tournament names it" "$(head -c 300 "$work/out")"
printf '{"members": [{"type": "greedy", "weight": 2, "bot": "greedy"}, {"type": "counter", "bot": "count"}]}' >"$work/pig.json"
expect_ok "population: pig10 file" --game=pig10 --runs=300 --seed=1 -q --bots="pop:$work/pig.json"
grep -q "counter" "$work/out" && ok "population: pig10 types" || bad "population: pig10 types" "$(head -c 300 "$work/out")"
printf '{"members": [{"type": "outsider", "bot": "rnd"}, {"type": "local", "bot": "greedy"}]}' >"$work/prog.json"
expect_ok "population: a program as a member" --game=oca --runs=20 --seed=1 -q \
    --bot-program="rnd=python3 $top/examples/bots/random_bot.py" --population="$work/prog.json"
grep -q "^  outsider  50%    rnd" "$work/out" && ok "population: program type row" || bad "population: program type row" "$(head -c 300 "$work/out")"

# ---- a population file edited between the shards and the merge is another run --------------
cp "$top/configs/populations/$pop.json" "$work/mine.json"
for i in 0 1; do
    "$bin" --game=oca --population="$work/mine.json" --runs=300 --seed=2 --shard=$i/2 -q \
        -o "$work/e$i.part" 2>"$work/err" || bad "population: edited, shard $i" "$(cat "$work/err")"
done
expect_ok "population: shards of a file merge" --merge "$work/e0.part" "$work/e1.part" -q
sed 's/"weight": 3/"weight": 2/' "$top/configs/populations/$pop.json" >"$work/mine.json"
expect_error "population: edited before the merge" 2 "a population it drew from is not what it was when the shards were played" \
    --merge "$work/e0.part" "$work/e1.part"

# ---- who sat where: the games CSV's types, the trace, a person as a member --------------------
expect_ok "population: games CSV" $args --population=$pop --games-csv="$work/g.csv"
python3 - "$work/g.csv" "$work/pop.json" <<'EOF2' && ok "population: games CSV types add up to the report's" || bad "population: games CSV types add up to the report's" "see above"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = json.load(open(sys.argv[2]))
seats = [f"type_{k}" for k in range(1, 5)]
count = {}
for row in rows:
    for s in seats:
        count[row[s]] = count.get(row[s], 0) + 1
assert count == {t["type"]: t["seat_games"] for t in r["types"]}, (count, r["types"])
# a type's bankruptcies, counted again from the rows
bust = {}
for row in rows:
    for k, s in enumerate(seats, 1):
        bust[row[s]] = bust.get(row[s], 0) + int(row[f"bankrupt_{k}"])
assert bust == {t["type"]: t["metrics"]["bankrupt"]["hits"] for t in r["types"]}
EOF2
expect_ok "population: trace" $args --population=$pop --trace=5
grep -qE '^  seat 4 drew from oca-mixed: (cautious|ordinary|gambler|shrewd)$' "$work/out" &&
    ok "population: the trace names the types drawn" || bad "population: the trace names the types drawn" "$(tail -n 8 "$work/out")"
t5=$(sed -n 's/^  seat 4 drew from oca-mixed: //p' "$work/out")
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "type_4") c = i } $1 == "5" { print $c }' "$work/g.csv" >"$work/t5"
[ "$(cat "$work/t5")" = "$t5" ] && ok "population: trace and games CSV agree" || bad "population: trace and games CSV agree" "$t5 / $(cat "$work/t5")"
printf '{"members": [{"type": "you", "bot": "human"}, {"type": "machine", "bot": "greedy"}]}' >"$work/hum.json"
python3 "$here/bots/pty_play.py" "$work/tty" first -- "$bin" --game=wari --bots="pop:$work/hum.json,greedy" \
    --runs=4 --seed=1 -o "$work/hum.txt" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'your turn' "$work/tty" && grep -qE '^  you +50% +human' "$work/hum.txt"; then
    ok "population: a person at the terminal as a member"
else
    bad "population: a person at the terminal as a member" "exit $rc: $(tail -c 300 "$work/tty")"
fi
# no progress line over the prompts of a person who plays as a member: --progress on a
# standard error that is no terminal (a pipe to the terminal) would log one at the start
python3 "$here/bots/pty_play.py" "$work/tty2" first -- sh -c "'$bin' --game=wari --bots='pop:$work/hum.json,greedy' \
    --runs=2 --seed=1 --progress -o '$work/hum2.txt' 2>&1 >/dev/null | cat" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'your turn' "$work/tty2" && ! grep -q 'progress:' "$work/tty2"; then
    ok "population: no progress line when a person plays as a member"
else
    bad "population: no progress line when a person plays as a member" "exit $rc: $(grep 'progress:' "$work/tty2" | head -n 2)"
fi

# ---- an experiment's figures by type: the same bytes in shards and under MPI ------------------
sw="--game=oca --population=$pop --sweep entry_fee=40:60:20 --metric=net@cautious --runs=600 --seed=1 -q"
# shellcheck disable=SC2086
"$bin" $sw --format=json >"$work/sw.json" 2>"$work/err" || bad "population: sweep JSON" "$(cat "$work/err")"
json_without_run "$work/sw.json" >"$work/sw"
for i in 0 1; do
    # shellcheck disable=SC2086
    "$bin" $sw --shard=$i/2 -o "$work/sw$i.part" 2>"$work/err" || bad "population: sweep shard $i" "$(cat "$work/err")"
done
"$bin" --merge "$work/sw0.part" "$work/sw1.part" --format=json >"$work/swm.json" 2>"$work/err"
json_without_run "$work/swm.json" >"$work/swm"
same "population: a sweep's shards merged" "$work/sw" "$work/swm"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
d = [x for x in r["settings"][1]["differences"] if x.get("type") == "cautious" and x["metric"] == "net"]
assert len(d) == 1 and d[0]["ci95"][0] < d[0]["value"] < d[0]["ci95"][1], d' "$work/sw.json" &&
    ok "population: a type's paired difference" || bad "population: a type's paired difference" "see $work/sw.json"
if [ -n "${GIOCHI_MPI_BIN:-}" ] && [ -x "${GIOCHI_MPI_BIN:-}" ] && command -v mpirun >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    mpirun --allow-run-as-root --oversubscribe -q -n 2 "$GIOCHI_MPI_BIN" $sw --format=json >"$work/swp.json" 2>"$work/err"
    json_without_run "$work/swp.json" >"$work/swp"
    same "population: a sweep under MPI" "$work/sw" "$work/swp"
    # shellcheck disable=SC2086
    mpirun --allow-run-as-root --oversubscribe -q -n 3 "$GIOCHI_MPI_BIN" $args --population=$pop --format=json >"$work/mp.json" 2>"$work/err"
    json_without_run "$work/mp.json" >"$work/mp"
    same "population: a run under MPI" "$work/t1" "$work/mp"
fi
