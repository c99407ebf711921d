#!/bin/sh
# corpus.sh BINARY DIR — writes into DIR the output of a corpus of small runs covering every
# mode of every game (plain runs in text, JSON and CSV, the games CSV, sweeps, seat rotation,
# --until, sensitivity, goal seek, tuning, tournaments, the SPRT, shards and --merge, --exact,
# --replay, --perft, --check, volpe's solver, program bots), one file per command, with what
# varies from run to run taken out (the "run" objects of JSON, the time and speed of text and
# CSV). A restructure that should change no behaviour is checked by running it on the binary
# before and after, into two folders, and comparing them: `diff -r OLD NEW` prints nothing.
# DIR/commands lists each file's command line. Exits 0 once every command has run (a command
# that fails leaves its exit status and standard error in its file, which the diff compares
# too). Takes about a minute.
set -u
[ $# -eq 2 ] || { echo "usage: corpus.sh BINARY DIR" >&2; exit 2; }
bin=$1 dir=$2
command -v jq >/dev/null 2>&1 || { echo "corpus.sh: jq not found (tools/deps.sh plot)" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
: >"$dir/commands"
export SOURCE_DATE_EPOCH=1796169600
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0

# mask: what varies from run to run, out of a report of any format
mask() {
    if jq -e . "$1" >/dev/null 2>&1; then
        jq -S 'walk(if type == "object" then del(.run, .wall_seconds, .games_per_second, .threads, .command_line) else . end)' "$1"
    else
        sed -E -e 's#[0-9.]+ s \([0-9.]+[kM]? (games|plays|positions|nodes)/s[^)]*\)#T#g' \
            -e 's#in [0-9.]+ s#in T#g' -e 's#[0-9]+ threads?#N threads#g' \
            -e 's#(wall_seconds|games_per_second|threads),[^,]*#\1,X#g' "$1"
    fi
}

# one ARGS...: runs BINARY with ARGS (no progress), its masked standard output, exit status and
# standard error into DIR/NNN
one() {
    n=$((n + 1))
    f=$(printf '%s/%03d' "$dir" "$n")
    echo "$(printf '%03d' "$n") $*" | sed "s#$work#WORK#g" >>"$dir/commands"
    "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    {
        mask "$work/out" | sed "s#$work#WORK#g"
        echo "--- exit $rc"
        grep -v -E '^[0-9]+ games in|games/s' "$work/err" | sed -E 's#in [0-9.]+ s \([0-9]+ [a-z]+/s\)#in T#'
    } >"$f"
}

for g in oca 45 pig10 wari cinesi volpe; do
    one --game="$g" --runs=300 --seed=1 -q
    one --game="$g" --runs=300 --seed=2 -q --format=json
    one --game="$g" --runs=300 --seed=3 -q --format=csv
    one --game="$g" --runs=40 --seed=4 -q --games-csv=/dev/stdout --output=/dev/null
    one --game="$g" --runs=200 --seed=5 -q --check
    one --game="$g" --list
    one --game="$g" --print-ruleset
    one --game="$g" --runs=20 --seed=6 -q --bots=random --format=json
done
one --game=oca --runs=500 --seed=1 -q --exact
one --game=45 --runs=500 --seed=1 -q --exact --bots=optimal-shut,random
one --game=oca --sweep entry_fee=30:70:20 --sweep dote=150,200 --metric=bankruptcy_any,banker_net,win_share@1,length --runs=300 --seed=1 -q
one --game=oca --sweep entry_fee=30,50 --runs=300 --seed=1 -q --format=json
one --game=oca --sweep entry_fee=30,50 --runs=300 --seed=1 -q --format=csv
one --game=pig10 --sweep players=3,5 --rotate-seats --metric=seat_advantage@1,seat_spread,first_seat --runs=200 --seed=1 -q
one --game=wari --bots=random,greedy --rotate-seats --runs=300 --seed=1 -q --format=json
one --game=45 --until=win_share@1:0.03 --runs=20000 --seed=1 -q
one --game=oca --sensitivity --metric=bankruptcy_any --runs=200 --seed=1 -q
one --game=oca --sensitivity --metric=bankruptcy_any --runs=200 --seed=1 -q --format=json
one --game=oca --bots=greedy:max_bid=20 --target=bankruptcy_any=0.10 --over=entry_fee=0:200 --runs=1000 --seed=1 -q
one --game=oca --bots=greedy:max_bid=20 --target=bankruptcy_any=0.10 --over=entry_fee=0:200 --runs=1000 --seed=1 -q --format=json
one --game=oca --bots=greedy-2026 --tune=seat1.sit_out=0:1 --maximize=win_share@1 --runs=300 --seed=1 -q
one --game=oca --bots=greedy-2026 --tune=seat1.sit_out=0:1 --maximize=win_share@1 --runs=300 --seed=1 -q --format=csv
one --game=wari --tournament=random,greedy,alphabeta:depth=2 --runs=30 --seed=1 -q
one --game=wari --tournament=random,greedy,alphabeta:depth=2 --runs=30 --seed=1 -q --format=json
one --game=wari --tournament=alphabeta:depth=2,greedy --sprt=0,50 --runs=600 --seed=1 -q
one --game=volpe --perft=4
one --game=wari --perft=5
one --game=volpe --solve="$work/db" --solve-geese=4 -q
one --game=pig10 --players=5 --bots=ismcts:iterations=30,count,count,count,count --runs=40 --seed=1 -q
one --game=wari --bots=mcts:playouts=30,alphabeta:depth=3 --runs=40 --seed=1 -q
one --game=oca --set entry_fee=40 --set auction=sealed --runs=300 --seed=1 -q
one --game=oca --players=6 --runs=300 --seed=1 -q --format=json
one --game=45 --players=3 --bots=greedy,random,optimal-shut --runs=300 --seed=1 -q --format=csv
one --game=oca --depends --runs=300 --seed=1 -q
# errors: their one line and exit status
one --game=oca --set entry_fee=-5
one --game=wari --bots=nosuchbot
one --game=nosuch
one --game=45 --sweep tiles=13

# shards and --merge, of a run and of an experiment
"$bin" --game=oca --runs=400 --seed=1 -q --shard=0/2 --output="$work/p1" 2>/dev/null
"$bin" --game=oca --runs=400 --seed=1 -q --shard=1/2 --output="$work/p2" 2>/dev/null
one --merge "$work/p1" "$work/p2" -q
"$bin" --game=oca --sweep entry_fee=30,50 --runs=400 --seed=1 -q --shard=0/2 --output="$work/e1" 2>/dev/null
"$bin" --game=oca --sweep entry_fee=30,50 --runs=400 --seed=1 -q --shard=1/2 --output="$work/e2" 2>/dev/null
one --merge "$work/e1" "$work/e2" -q --format=json

# traces of one game, program bots
for g in oca 45 pig10 wari cinesi volpe; do
    one --game="$g" --trace=3 --seed=7
done
one --game=wari --runs=20 --seed=1 -q --threads=1 --bot-program="r=python3 $top/examples/bots/random_bot.py" --bots=r,greedy
echo "corpus.sh: $n outputs in $dir"
