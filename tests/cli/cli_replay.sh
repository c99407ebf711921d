# cli_replay.sh — --replay, run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh: expect_ok,
# expect_error, ok, bad, same, $bin, $work): a game record made from a --trace of every game
# replays to the same trace and outcome; bad records fail with one line naming the line.

# record_of TRACE — the record of a traced game: its chance seed, then its decision lines.
record_of() {
    sed -n '1s/.*(chance seed \([0-9]*\)).*/seed \1/p' "$1"
    grep '^  > seat ' "$1"
}

# the trace without its header (bots named in it) and its csv lines, bots renamed "replay"
normalised() {
    sed -e '1d' -e '/^  seat [0-9]*: [a-z0-9:=._-]*$/d' -e '/^csv: /d' \
        -e 's/^\(  > seat [0-9]*\) ([^)]*)/\1 (replay)/' "$1"
}

for spec in "45 random 3" "oca greedy 5" "pig10 count 2" "wari greedy,random 4" \
    "cinesi random 1" "volpe greedy 6"; do
    set -- $spec
    "$bin" --game=$1 --bots=$2 --trace=$3 --seed=7 >"$work/trace.txt" 2>/dev/null
    record_of "$work/trace.txt" >"$work/game.rec"
    # cinesi has no decisions (chance alone plays it): its record is the seed alone
    if [ "$1" != cinesi ] && [ "$(grep -c '^  > ' "$work/game.rec")" -lt 2 ]; then
        bad "$1 replay record" "the traced game has fewer than 2 decisions"
        continue
    fi
    grep -q '^end: ' "$work/trace.txt" || bad "$1 traced game" "no end line"
    expect_ok "$1 replay plays" --game=$1 --replay="$work/game.rec"
    normalised "$work/trace.txt" >"$work/want.txt"
    normalised "$work/out" >"$work/got.txt"
    same "$1 replay gives the traced game's moves and outcome" "$work/want.txt" "$work/got.txt"
    # the same game by option numbers: each decision's choice as its place among the options
    awk '/^seed /{print; next}
         /^  > /{ line = $0; sub(/^  > seat [0-9]+ \([^)]*\) [^:]*: /, "", line)
                  name = line; sub(/   \[.*$/, "", name)
                  n = 1
                  if (line ~ /\[options: /) {
                      opts = line; sub(/^.*\[options: /, "", opts); sub(/\]$/, "", opts)
                      k = split(opts, o, / \| /)
                      for (i = 1; i <= k; i++) if (o[i] == name) { n = i; break }
                      print n
                  } else print name }' "$work/game.rec" >"$work/numbers.rec"
    expect_ok "$1 replay by numbers plays" --game=$1 --replay="$work/numbers.rec"
    normalised "$work/out" >"$work/got.txt"
    same "$1 replay by numbers gives the same game" "$work/want.txt" "$work/got.txt"
done

# Bad records: one line naming the file and line, exit 2, no trace on stdout.
printf '# a comment\nseed 1\npit 6\n\npit 9\n' >"$work/bad.rec"
expect_error "replay unknown action" 2 "^giochi-sim: --replay: .*bad.rec:5: 'pit 9' is not an action of seat 2 here \(options: pit 1" \
    --game=wari --replay="$work/bad.rec"
printf 'seed x\n' >"$work/bad.rec"
expect_error "replay bad seed" 2 "bad.rec:1: bad seed 'x'" --game=wari --replay="$work/bad.rec"
printf 'pit 1\nseed 3\n' >"$work/bad.rec"
expect_error "replay seed after an action" 2 "bad.rec:2: the seed comes before the first action" \
    --game=wari --replay="$work/bad.rec"
printf '7\n' >"$work/bad.rec"
expect_error "replay option number out of range" 2 "bad.rec:1: seat 1 has 6 options here, not 7" \
    --game=wari --replay="$work/bad.rec"
printf '  > seat 2 (greedy) sow: pit 1 (4 seeds)\n' >"$work/bad.rec"
expect_error "replay trace line of the wrong seat" 2 "bad.rec:1: the line is seat 2's, seat 1 is to move" \
    --game=wari --replay="$work/bad.rec"
expect_error "replay missing file" 2 "^giochi-sim: --replay: cannot open '$work/none.rec'" \
    --game=wari --replay="$work/none.rec"
expect_error "replay with --runs" 2 "--replay plays one recorded game" --game=wari \
    --replay="$work/bad.rec" --runs=3
# a record that stops early says so
printf 'pit 1\n' >"$work/short.rec"
expect_ok "replay stops early" --game=wari --replay="$work/short.rec"
tail -n 1 "$work/out" | grep -qx 'not over: the record stops after 1 actions; seat 2 to move' &&
    ok "replay says the game is not over" || bad "replay says the game is not over" "$(tail -n 1 "$work/out")"
