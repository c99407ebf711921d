# cli_bots.sh — bots outside the process (giochi-sim-bots(7)), run by tests/cli/run.sh (uses
# its helpers: expect_ok, expect_error, ok, bad, same, json_without_run, $bin, $work, $top):
# the example bots in every game, the C client, the cross-check of the Python port of PIG 10's
# greedy, parameters, experiments, reproducibility over threads, shards and MPI ranks, every
# fault a bot can make (its error, exit status 6, no output, no process left), signals, and
# the human seat on a pseudo-terminal.

ex=$top/examples/bots
mpi_bin=${GIOCHI_MPI_BIN:-$(dirname "$bin")/giochi-sim-mpi}
case $mpi_bin in /*) ;; *) mpi_bin=$(pwd)/$mpi_bin ;; esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fault=$here/bots/fault_bot.py
games=$("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p')
cc=${CC:-cc}
if $cc -O2 -o "$work/cbot" "$ex/c/random_bot.c" 2>"$work/err"; then
    ok "the C client builds"
else
    bad "the C client builds" "$(head -c 300 "$work/err")"
fi

# ---- the example bots play every game, through full runs -------------------------------------
for game in $games; do
    expect_ok "python random bot plays $game" --game="$game" --runs=20 --seed=1 -q \
        --bot-program="rnd=python3 $ex/random_bot.py" --bots=rnd
    grep -q '^20 games' "$work/out" && ok "python random bot: $game report" ||
        bad "python random bot: $game report" "$(head -c 200 "$work/out")"
    expect_ok "C client plays $game" --game="$game" --runs=200 --seed=1 -q \
        --bot-program="c=$work/cbot" --bots=c
done
# the heuristics play against the built-in bots and beat the random example
for pair in "wari wari_capture.py h,r" "pig10 pig10_counter.py h,r,r,r"; do
    set -- $pair
    "$bin" --game="$1" --runs=200 --seed=2 -q --format=json \
        --bot-program="h=python3 $ex/$2" --bot-program="r=python3 $ex/random_bot.py" \
        --bots="$3" >"$work/h.json" 2>"$work/err"
    if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
share = {b["bot"]: b["win_share"]["value"] for b in d["bots"]}
sys.exit(0 if share["h"] > share["r"] + 0.1 else 1)' "$work/h.json"; then
        ok "$2 beats the random example"
    else
        bad "$2 beats the random example" "$(head -c 300 "$work/err")"
    fi
done

# ---- a port of PIG 10's greedy makes the built-in greedy's choices, game after game -----------
"$bin" --game=pig10 --players=4 --runs=2000 --seed=11 -q --bots=greedy \
    --games-csv="$work/builtin.csv" >/dev/null
"$bin" --game=pig10 --runs=2000 --seed=11 -q --bot-program="pyg=python3 $ex/pig10_greedy.py" \
    --bots=pyg,greedy,pyg,greedy --games-csv="$work/port.csv" >/dev/null 2>"$work/err"
same "pig10 greedy port: 2000 games alike" "$work/builtin.csv" "$work/port.csv"
[ "$(wc -l <"$work/port.csv")" -eq 2001 ] && ok "pig10 greedy port: every row" ||
    bad "pig10 greedy port: every row" "$(wc -l <"$work/port.csv") lines"

# ... and a port of Wari's greedy, which breaks ties from the start message's seed with the
# generator of rng.h, plays the built-in greedy's games in either seat: the seed it is sent is
# the one the built-in bot's stream gets
"$bin" --game=wari --runs=1500 --seed=5 -q --bots=greedy --games-csv="$work/builtin.csv" >/dev/null
for bots in pyg,greedy greedy,pyg; do
    "$bin" --game=wari --runs=1500 --seed=5 -q --bot-program="pyg=python3 $ex/wari_greedy.py" \
        --bots=$bots --games-csv="$work/port.csv" >/dev/null 2>"$work/err"
    same "wari greedy port ($bots): 1500 games alike" "$work/builtin.csv" "$work/port.csv"
done

# ---- what the bot is told ---------------------------------------------------------------------
rm -f "$work/log"
FAULT_LOG=$work/log "$bin" --game=pig10 --runs=3 --seed=4 -q --set hand_size=4 \
    --bot-program="e=python3 $fault echo" --bots=e:depth=3:width=0.5,greedy,e,greedy \
    --threads=1 >/dev/null 2>"$work/err"
python3 - "$work/log" <<'EOF' && ok "messages: handshake, games, decisions, views" || bad "messages: handshake, games, decisions, views" "see above"
import json, sys
msgs = [json.loads(l) for l in open(sys.argv[1])]
hello = [m for m in msgs if m["type"] == "hello"]
assert len(hello) == 2, len(hello)  # one process per seat
by_seat = {m["seat"]: m for m in hello}
assert by_seat[0]["params"] == {"depth": 3, "width": 0.5}, by_seat[0]["params"]
assert by_seat[2]["params"] == {}, by_seat[2]["params"]
for m in hello:
    assert m["protocol"] == 1 and m["game"] == "pig10" and m["seats"] == 4
    assert m["ruleset"]["hand_size"] == 4  # the effective ruleset
assert by_seat[0]["seed"] != by_seat[2]["seed"]
starts = [m for m in msgs if m["type"] == "start"]
ends = [m for m in msgs if m["type"] == "end"]
assert [m["game"] for m in starts] == [0, 1, 2, 0, 1, 2] or sorted(m["game"] for m in starts) == [0, 0, 1, 1, 2, 2]
assert len(ends) == 6 and all(len(m["scores"]) == 4 and m["end"] == "hands_played_out" for m in ends)
keys = {"seat", "turn", "hand", "value", "table_cards", "top_card", "top_seat", "table",
        "played", "deck", "pile_left", "hand_sizes", "collected", "siren_below_zero", "history"}
decide = [m for m in msgs if m["type"] == "decide"]
assert decide
for m in decide:
    v = m["view"]
    assert set(v) == keys, set(v) ^ keys
    assert sum(v["hand"]) == v["hand_sizes"][v["seat"]]  # its own hand, whole
    assert m["kind"] == "play" and all(a["name"].startswith("play ") for a in m["actions"])
EOF

# ---- parameters in experiments: a sweep and rotated seats --------------------------------------
rm -f "$work/log"
FAULT_LOG=$work/log "$bin" --game=wari --runs=4 --seed=1 -q --threads=1 \
    --bot-program="e=python3 $fault echo" --bots=e,greedy --sweep seat1.depth=1,2 \
    >"$work/out" 2>"$work/err"
grep -q '"depth":1' "$work/log" && grep -q '"depth":2' "$work/log" &&
    ok "a sweep of a program's parameter reaches it" || bad "a sweep of a program's parameter reaches it" "$(cat "$work/err")"
expect_ok "rotated seats with a program bot" --game=wari --runs=40 --seed=1 -q --rotate-seats \
    --bot-program="c=$work/cbot" --bots=c,greedy
expect_ok "--list names the declared programs" --game=wari --list --bot-program="mine=./mine.py"
grep -q '^    mine  *program: ./mine.py$' "$work/out" && grep -q '^    human ' "$work/out" &&
    ok "--list shows mine and human" || bad "--list shows mine and human" "$(grep -A3 outside "$work/out")"
expect_error "unknown program" 2 "unknown bot 'mine'" --game=wari --bots=mine
expect_error "bad --bot-program" 2 "expected NAME=COMMAND" --game=wari --bot-program=mine
expect_error "bad --bot-timeout" 2 "--bot-timeout '0'" --game=wari --bot-timeout=0
expect_error "program declared twice" 2 "declared twice" --game=wari --bot-program=a=x --bot-program=a=y

# ---- the same bytes at any thread count, shard count and MPI rank count ------------------------
for game in wari pig10; do
    "$bin" --game="$game" --runs=600 --seed=8 -q --format=json --threads=1 \
        --bot-program="c=$work/cbot" --bots=c >"$work/t1.json"
    json_without_run "$work/t1.json" >"$work/t1.norun"
    "$bin" --game="$game" --runs=600 --seed=8 -q --format=json --threads=3 \
        --bot-program="c=$work/cbot" --bots=c >"$work/t3.json"
    json_without_run "$work/t3.json" >"$work/t3.norun"
    same "$game program bot: 1 and 3 threads" "$work/t1.norun" "$work/t3.norun"
    parts=""
    for i in 0 1 2; do
        "$bin" --game="$game" --runs=600 --seed=8 -q --shard="$i/3" --output="$work/part$i" \
            --bot-program="c=$work/cbot" --bots=c
        parts="$parts $work/part$i"
    done
    # the merge plays nothing, but knows the bot by its declaration
    "$bin" --merge $parts --format=json -q --bot-program="c=$work/cbot" >"$work/m.json" 2>"$work/err"
    json_without_run "$work/m.json" >"$work/m.norun"
    same "$game program bot: 3 shards merged" "$work/t1.norun" "$work/m.norun"
    if [ -x "$mpi_bin" ] && command -v mpirun >/dev/null 2>&1; then
        mpirun --oversubscribe -q -n 2 "$mpi_bin" --game="$game" --runs=600 --seed=8 -q --format=json --threads=1 \
            --bot-program="c=$work/cbot" --bots=c >"$work/mpi.json" 2>"$work/err"
        json_without_run "$work/mpi.json" >"$work/mpi.norun"
        same "$game program bot: 2 MPI ranks" "$work/t1.norun" "$work/mpi.norun"
    else
        bad "$game program bot: 2 MPI ranks" "giochi-sim-mpi or mpirun missing"
    fi
done
# a Python bot that draws from its seeds: threads change nothing
"$bin" --game=pig10 --runs=60 --seed=9 -q --format=json --threads=1 \
    --bot-program="r=python3 $ex/random_bot.py" --bots=r,greedy,r >"$work/p1.json"
"$bin" --game=pig10 --runs=60 --seed=9 -q --format=json --threads=2 \
    --bot-program="r=python3 $ex/random_bot.py" --bots=r,greedy,r >"$work/p2.json"
json_without_run "$work/p1.json" >"$work/p1.norun"
json_without_run "$work/p2.json" >"$work/p2.norun"
same "python random bot: 1 and 2 threads" "$work/p1.norun" "$work/p2.norun"

# ---- faults: one line naming the bot, game and seed, exit 6, no output, no process left -------
# expect_fault NAME MODE PATTERN [OPTIONS...]: the run of wari (fault bot in seat 1) fails with
# exit 6; the last line on stderr is giochi-sim's, matching PATTERN; no report file and no
# temporary file appear; no process the bot started is left. Run $fault_reps times (a race
# shows in some runs only). The run's standard error is read through a pipe by
# `timeout 60 cat`, which returns as soon as no process holds the pipe: a bot process left
# running (or a child of it) holds it, and cat's timeout (exit 124) fails the test instead of
# a wait of 300 s, as for a caller that captures giochi-sim's output. The bot and its children
# name themselves in $work/pids (FAULT_PIDDIR): none may be alive once giochi-sim returns.
# The run has $fault_threads worker threads. GIOCHI_FAULT_REPS sets the runs of each: 3 by
# default, 1 under the sanitizers (make sanitize: the same paths, each run some ten times
# dearer); the races (a time limit of a millisecond) run $race_reps times, 10 (3).
fault_reps=${GIOCHI_FAULT_REPS:-3} race_reps=10 fault_threads=2
[ -z "${GIOCHI_SANITIZE:-}" ] || { fault_reps=${GIOCHI_FAULT_REPS:-1}; race_reps=3; }

# pids_left: the processes named in $work/pids that are still alive (each is then killed).
pids_left() {
    left=
    for p in $(ls "$work/pids"); do
        kill -0 "$p" 2>/dev/null && left="$left $p"
    done
    [ -z "$left" ] || kill -KILL $left 2>/dev/null
    echo "$left"
}

expect_fault() {
    name=$1 mode=$2 pattern=$3
    shift 3
    rep=0 why=
    while [ "$rep" -lt "$fault_reps" ] && [ -z "$why" ]; do
        rep=$((rep + 1))
        rm -rf "$work/fault" "$work/pids"
        mkdir -p "$work/fault" "$work/pids"
        {
            FAULT_PIDDIR=$work/pids "$bin" --game=wari --runs=50 --seed=3 --threads=$fault_threads \
                --bot-program="f=python3 $fault $mode" --bots=f,greedy --output="$work/fault/report" \
                --games-csv="$work/fault/games.csv" "$@" 2>&1 >"$work/out" </dev/null
            echo $? >"$work/rc"
        } | timeout 60 cat >"$work/err"
        held=$?
        rc=$(cat "$work/rc")
        last=$(tail -n 1 "$work/err")
        left=$(pids_left)
        if [ "$held" -ne 0 ]; then
            why="run $rep: its standard error was held open after it returned (a process left)"
        elif [ "$rc" -ne 6 ]; then
            why="run $rep: exit $rc, expected 6: $(tail -c 300 "$work/err")"
        elif ! echo "$last" | grep -qE -- "^giochi-sim: bot 'f' \(seat 1\) $pattern"; then
            why="run $rep: last line '$(echo "$last" | head -c 300)' does not match '$pattern'"
        elif [ -n "$(ls -A "$work/fault")" ]; then
            why="run $rep: left files: $(ls -A "$work/fault")"
        fi
        [ -z "$left" ] || why="${why:+$why; }run $rep: processes left:$left"
    done
    if [ -z "$why" ]; then ok "$name"; else bad "$name" "$why"; fi
}
expect_fault "fault: exits at once" exit "exited with status 3 at game"
expect_fault "fault: garbage" garbage "answered 'I think the second one' \(expected an action index 0\.\.[0-9] or an action's name\) at game [0-9]+ of --seed=3 \(last sent: \{\"type\":\"decide\""
expect_fault "fault: illegal index" illegal "answered the action index 99, not one of 0\.\.[0-9] at game [0-9]+ of --seed=3"
expect_fault "fault: unknown name" badname "answered \"no such move\", which names none of the [0-9] legal actions"
# the shell that runs COMMAND exits with 128 + the signal that killed the command
expect_fault "fault: crash at the third decision" crash3 "exited with status 139 \(128 \+ 11: killed by signal 11, Segmentation fault\) at game [0-9]+ of --seed=3"
expect_fault "fault: past the time limit" sleep "gave no answer within the time limit of 0\.3 s \(--bot-timeout\) at game [0-9]+" --bot-timeout=0.3
expect_fault "fault: closes its output" closeout "closed its output at game [0-9]+ of --seed=3"
expect_fault "fault: floods stderr" flood "answered the action index 99"
[ "$(wc -c <"$work/err")" -gt 600000 ] && ok "fault: the flood was shown" || bad "fault: the flood was shown" "$(wc -c <"$work/err") bytes"
# issue 41: children left behind, exits, input closed, unasked lines, lines without a newline
expect_fault "fault: forks a child and exits: the exit, at once; the child ended" "exit+child" \
    "exited with status 3 at game [0-9]+ of --seed=3"
expect_fault "fault: past the time limit with a child: both ended" "sleep+child" \
    "gave no answer within the time limit of 0\.3 s" --bot-timeout=0.3
expect_fault "fault: a child left at a fault is ended" "garbage+child" "answered 'I think the second one'"
# (whether it closed it before the next message was sent, or after)
expect_fault "fault: closes its input and runs on" closein \
    "closed its input before (reading its message|answering) at game [0-9]+ of --seed=3"
expect_fault "fault: an extra answer" extra \
    "wrote '0', which no request asked for, after its answer to decision 1 \(sow\) of the game at game [0-9]+ of --seed=3"
expect_fault "fault: an answer before the request" early \
    "wrote '0', which no request asked for, after its answer to the handshake at game [0-9]+"
expect_fault "fault: an answer without a newline, running on" nonl \
    "gave no answer within the time limit of 5 s \(--bot-timeout\) at game [0-9]+ of --seed=3 \(last sent: \{\"type\":\"decide\"" \
    --bot-timeout=5
expect_fault "fault: an answer without a newline, then the exit" nonlexit \
    "exited with status 0 at game [0-9]+ of --seed=3 \(last sent: \{\"type\":\"decide\""
expect_fault "fault: a line longer than 4095 bytes" longline "answered a line longer than 4095 bytes at game"
# a time limit of a millisecond (the handshake is missed) at 1, 2 and 8 threads: every bot
# started, and every child, ends with the run (a bot being started as the run stopped escaped)
reps_kept=$fault_reps fault_reps=$race_reps
for fault_threads in 1 2 8; do
    expect_fault "fault: --bot-timeout=0.001 at $fault_threads threads" "play+child" \
        "gave no answer within the time limit of 0\.001 s" --bot-timeout=0.001
done
fault_threads=2 fault_reps=$reps_kept
# a shell script that never answers and runs `sleep 300`: the sleep is ended with it
cat >"$work/slow.sh" <<'SH'
: >"$FAULT_PIDDIR/$$"
sleep 300 &
: >"$FAULT_PIDDIR/$!"
wait
SH
rep=0 why=
while [ "$rep" -lt "$fault_reps" ] && [ -z "$why" ]; do
    rep=$((rep + 1))
    rm -rf "$work/pids" && mkdir "$work/pids"
    {
        FAULT_PIDDIR=$work/pids "$bin" --game=wari --runs=5 --seed=3 --bot-timeout=0.5 \
            --bot-program="s=sh $work/slow.sh" --bots=s,greedy 2>&1 >/dev/null </dev/null
        echo $? >"$work/rc"
    } | timeout 60 cat >"$work/err"
    held=$?
    left=$(pids_left)
    if [ "$held" -ne 0 ] || [ -n "$left" ]; then
        why="run $rep: output held (cat's exit $held), processes left:$left"
    elif [ "$(cat "$work/rc")" -ne 6 ] || ! grep -q "^giochi-sim: bot 's' (seat 1) gave no answer within the time limit of 0.5 s" "$work/err"; then
        why="run $rep: exit $(cat "$work/rc"): $(tail -c 300 "$work/err")"
    fi
done
[ -z "$why" ] && ok "fault: a shell script running sleep 300 ends whole" ||
    bad "fault: a shell script running sleep 300 ends whole" "$why"
# a bot that leaves a child at a run's normal end: the run returns at once, the child is ended
rm -rf "$work/pids" && mkdir "$work/pids"
{
    FAULT_PIDDIR=$work/pids "$bin" --game=wari --runs=20 --seed=3 --threads=2 \
        --bot-program="f=python3 $fault play+child" --bots=f,greedy 2>&1 >"$work/out" </dev/null
    echo $? >"$work/rc"
} | timeout 60 cat >"$work/err"
held=$?
npids=$(ls "$work/pids" | wc -l)
left=$(pids_left)
[ "$held" -eq 0 ] && [ -z "$left" ] && [ "$(cat "$work/rc")" -eq 0 ] && [ "$npids" -eq 4 ] &&
    grep -q '^20 games' "$work/out" && ok "a bot's child ends with the run" ||
    bad "a bot's child ends with the run" "exit $(cat "$work/rc"), output held ($held), left:$left, $npids pids"

# ---- COMMAND is a shell line: a directory change, a variable, a pipeline -----------------------
expect_ok "COMMAND: cd DIR && python3 BOT" --game=wari --runs=5 --seed=1 -q \
    --bot-program="r=cd $ex && python3 random_bot.py" --bots=r,greedy
rm -f "$work/log"
expect_ok "COMMAND: VAR=value python3 BOT" --game=wari --runs=2 --seed=1 -q --threads=1 \
    --bot-program="e=FAULT_LOG=$work/log python3 $fault echo" --bots=e,greedy
grep -q '"type":"hello"' "$work/log" && ok "COMMAND: the variable reached the bot" ||
    bad "COMMAND: the variable reached the bot" "no log"
expect_ok "COMMAND: a pipeline" --game=wari --runs=3 --seed=1 -q --threads=1 \
    --bot-program="e=cat | python3 $fault play" --bots=e,greedy
"$bin" --game=wari --runs=3 --seed=1 -q --threads=1 --bot-program="e=python3 (" --bots=e,greedy \
    >"$work/out" 2>"$work/err" </dev/null
rc=$?
[ "$rc" -eq 6 ] && tail -n 1 "$work/err" | grep -q "^giochi-sim: bot 'e' (seat 1) exited with status 2 at game 0" &&
    ok "COMMAND: a shell syntax error is the bot's exit" ||
    bad "COMMAND: a shell syntax error is the bot's exit" "exit $rc: $(tail -c 300 "$work/err")"

# ---- seeds travel as strings too: exact for readers whose numbers are doubles ------------------
rm -f "$work/log"
FAULT_LOG=$work/log "$bin" --game=wari --runs=3 --seed=18446744073709551557 -q --threads=1 \
    --bot-program="e=python3 $fault echo" --bots=e,greedy >/dev/null 2>"$work/err"
python3 - "$work/log" <<'PY' && ok "seeds: seed_str is the seed in digits" || bad "seeds: seed_str is the seed in digits" "see above"
import json, sys
msgs = [json.loads(l) for l in open(sys.argv[1])]
seeded = [m for m in msgs if m["type"] in ("hello", "start")]
assert len(seeded) == 4, len(seeded)
for m in seeded:
    assert isinstance(m["seed_str"], str) and m["seed_str"] == str(m["seed"]), m
assert any(m["seed"] >= 2**53 for m in seeded)  # one that a double would round
PY

# ---- a program's name is no built-in bot's; --bot-timeout's range ------------------------------
expect_error "a program named like a built-in bot" 2 \
    "^giochi-sim: --bot-program 'greedy': the name of a built-in bot \(of [a-z0-9]+\); choose another$" \
    --game=wari --bot-program=greedy=./mine --bots=greedy
expect_error "a program named like a generic bot" 2 "--bot-program 'alphabeta': the name of a built-in bot" \
    --bot-program=alphabeta=./mine --list
expect_error "--bot-timeout past its range" 2 "--bot-timeout '86401': expected seconds, more than 0 and at most 86400" \
    --game=wari --bot-timeout=86401
"$bin" --help | grep -q 'more than 0, at most 86400' && ok "--help gives --bot-timeout's range" ||
    bad "--help gives --bot-timeout's range" "missing"

# the answer by name is accepted
"$bin" --game=wari --runs=5 --seed=1 -q --bot-program="n=python3 -c \"
import sys, json
for l in sys.stdin:
    m = json.loads(l)
    if m['type'] == 'hello': print('{\\\"type\\\":\\\"ready\\\"}', flush=True)
    if m['type'] == 'decide': print(json.dumps(m['actions'][-1]['name']), flush=True)
\"" --bots=n,greedy >"$work/out" 2>"$work/err" && ok "an answer by name" || bad "an answer by name" "$(cat "$work/err")"

# ---- signals: SIGTERM kills the bots with the run, and leaves no file --------------------------
mkdir -p "$work/sig"
rm -f "$work/sig/"*
mkfifo "$work/sig/pidfifo"
FAULT_PIDFILE=$work/sig/pidfifo "$bin" --game=wari --runs=50 --seed=3 --threads=1 \
    --bot-program="f=python3 $fault sleep" --bots=f,greedy --output="$work/sig/report" \
    >/dev/null 2>"$work/err" </dev/null &
run=$!
botpid=$(cat "$work/sig/pidfifo") # waits for the bot to be running
kill -TERM "$run"
wait "$run" 2>/dev/null
rc=$?
rm -f "$work/sig/pidfifo"
if [ "$rc" -ne 143 ]; then
    bad "SIGTERM ends the run" "exit $rc"
elif kill -0 "$botpid" 2>/dev/null; then
    bad "SIGTERM ends the run" "bot $botpid still there"
elif [ -n "$(ls -A "$work/sig")" ]; then
    bad "SIGTERM ends the run" "left $(ls -A "$work/sig")"
else
    ok "SIGTERM ends the run, the bot and every file"
fi

# ... and with a child of the bot holding its pipes, at SIGTERM and SIGHUP (a background job's
# SIGINT is ignored): the child is ended too, and a caller reading giochi-sim's standard error
# through a pipe gets its end at once (cat's timeout, 124, if a process held it)
for sig in TERM:143 HUP:129; do
    want=${sig#*:} sig=${sig%:*}
    rep=0 why=
    while [ "$rep" -lt "$fault_reps" ] && [ -z "$why" ]; do
        rep=$((rep + 1))
        rm -rf "$work/pids" "$work/sig" && mkdir "$work/pids" "$work/sig"
        mkfifo "$work/sig/binfifo" "$work/sig/pidfifo"
        {
            FAULT_PIDDIR=$work/pids FAULT_PIDFILE=$work/sig/pidfifo "$bin" --game=wari --runs=50 \
                --seed=3 --threads=1 --bot-program="f=python3 $fault sleep+child" --bots=f,greedy \
                --output="$work/sig/report" 2>&1 >/dev/null </dev/null &
            echo $! >"$work/sig/binfifo"
            wait $!
            echo $? >"$work/rc"
        } | timeout 60 cat >"$work/err" &
        pipeline=$!
        runpid=$(cat "$work/sig/binfifo")
        cat "$work/sig/pidfifo" >/dev/null # the bot and its child are running
        kill -$sig "$runpid"
        wait "$pipeline"
        held=$?
        rm -f "$work/sig/binfifo" "$work/sig/pidfifo"
        left=$(pids_left)
        if [ "$held" -ne 0 ] || [ -n "$left" ]; then
            why="run $rep: output held (cat's exit $held), processes left:$left"
        elif [ "$(cat "$work/rc")" -ne "$want" ]; then
            why="run $rep: exit $(cat "$work/rc"), expected $want"
        elif [ -n "$(ls -A "$work/sig")" ]; then
            why="run $rep: left $(ls -A "$work/sig")"
        fi
    done
    [ -z "$why" ] && ok "SIG$sig ends the bot's whole group" || bad "SIG$sig ends the bot's whole group" "$why"
done

# ---- the human seat --------------------------------------------------------------------------
expect_error "human needs a terminal" 2 "bot 'human' needs a person at a terminal" \
    --game=wari --bots=human,greedy
pty=$here/bots/pty_play.py
# human_plays NAME ANSWERS PATTERN... -- ARGS: plays at a pseudo-terminal; every extended regular
# expression PATTERN must be in what the terminal showed, and no progress line nor report.
human_plays() {
    local name=$1 answers=$2 rc why="" p
    shift 2
    : >"$work/pats"
    while [ "$1" != -- ]; do printf '%s\n' "$1" >>"$work/pats"; shift; done
    shift
    python3 "$pty" "$work/tty" "$answers" -- "$bin" "$@" >/dev/null 2>&1
    rc=$?
    tr -d '\r' <"$work/tty" >"$work/tty.txt"
    [ "$rc" -eq 0 ] || why="exit $rc"
    while IFS= read -r p; do
        grep -Eq -- "$p" "$work/tty.txt" || why="$why; no /$p/"
    done <"$work/pats"
    grep -q 'games/s' "$work/tty.txt" && why="$why; a progress line"
    grep -Eq '^(Who wins|[0-9]+ games?, [0-9]+ players)' "$work/tty.txt" && why="$why; the report"
    grep -Eq 'top card -1|siren below zero|hands_played_out|own row|last capture' "$work/tty.txt" &&
        why="$why; an internal field"
    [ -z "$why" ] && ok "human: $name" || bad "human: $name" "${why#; }: $(tail -c 400 "$work/tty.txt")"
}
human_plays "wari's rows facing each other, pits by their numbers, a reason for a refused choice" \
    'x,pit 4,9,first' \
    '^  seat 2 +\[ 4\] \[ 4\]' '^  you \(seat 1\) \[ 4\]' '^ +1 +2 +3 +4 +5 +6 $' \
    "'x' is not a choice now" '^    4\) pit 4 \(4 seeds\)' \
    '^  seat 2 chose: pit [1-6] \(' '^  you \(seat 1\) \[ 5\] \[ 4\] \[ 4\] \[ 0\] \[ 5\] \[ 5\]' \
    '^ +6\) pit 6' '^  9 is not a choice now: type 1, 2, 3, 5 or 6$' \
    '^=== game 1 over: (you won|seat 2 won|you share the win) ===$' \
    '^The game ended: [a-z].*, after [0-9]+ moves\.$' '^Final seeds: you [0-9]+, seat 2 [0-9]+\.$' \
    -- --game=wari --bots=human,greedy --runs=1 --seed=1
human_plays "volpe's cross with coordinates, a move by its square" 'd4,first' \
    '^      A B C D E F G$' '^   5  o \. \. F \. \. o   5$' '^You play the fox, F \(seat 1\)' \
    '^  seat 2 chose: goose [A-G][1-7]-[A-G][1-7]$' '^   4  o [.o] [.o] F ' '^=== game 1 over' \
    '^The game ended: ' \
    -- --game=volpe --bots=human,greedy --runs=1 --seed=1
human_plays "oca's track, points, bank and the decision asked" 'first' \
    '^  track  ' '^  you \(seat 1\) +square +[0-9]+, [0-9]+ points' '^  The bank: ' \
    '^  Will you volunteer to be the banker\?$' '^  seat [23] chose: ' '^=== game 1 over' \
    '^The game ended: ' -- --game=oca --bots=human,greedy,greedy --runs=1 --seed=1
human_plays "PIG 10's table and hand, the others' plays told" 'play 7,first' \
    '^  Your hand: +1 4 10$' '^  The table is empty' "'play 7' is not a choice now" \
    '^  seat 2 chose: play [0-9]' '^  On the table: .*\(value [0-9]+; last card [0-9]+, by (you|seat [23])\)$' \
    '^The game ended: the pile was used up and every hand played out, after 80 plays\.$' \
    -- --game=pig10 --bots=human,greedy,greedy --runs=1 --seed=2
human_plays "the 45's box and totals, a choice by its name" 'shut 4 6,first' \
    '^  Round 1, your turn\. The box: \[1\] \[2\] \[3\] \[4\] \[5\] \[6\] \[7\] \[8\] \[9\]' \
    '^  You rolled 10: ' '^  Round 1, your turn\. The box: \[1\] \[2\] \[3\] \[ \] \[5\] \[ \] ' \
    '^  Totals: you [0-9]+, seat 2 [0-9]+' '^=== game 1 over' '^Final total: .*\(the lowest wins\)\.$' \
    -- --game=45 --bots=human,greedy --runs=1 --seed=1
human_plays "the Cinesi race, Enter to roll, the rest at once, drawn at the end" ',,a' \
    '^your turn: press Enter to roll' '^  roll 1: seat 1 rolls' \
    '^  you \(seat 1\) +\|[#.]+\| [0-9]+ of 27 steps' '^The game ended: a figure reached the centre' \
    -- --game=cinesi --bots=human,random --runs=1 --seed=1
for game in $games; do # every game, a person at both seats of two threads' games
    human_plays "two people play $game on two threads" first '^=== game 1 over' \
        '^=== game 2 over' '^2 games played: seat 1 \(you\) won [0-9]+' \
        -- --game="$game" --bots=human --players=2 --runs=2 --seed=1 --threads=2
done
mkdir -p "$work/hq"
python3 "$pty" "$work/tty" first,q -- "$bin" --game=wari --bots=human,greedy --runs=5 --seed=1 \
    --output="$work/hq/report" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 7 ] && grep -q 'giochi-sim: the human seat 1 quit in game 1 (no report written)' "$work/tty" &&
    [ -z "$(ls -A "$work/hq")" ]; then
    ok "human: q quits with exit 7 and no report"
else
    bad "human: q quits with exit 7 and no report" "exit $rc: $(tail -c 300 "$work/tty")"
fi
python3 "$pty" "$work/tty" first -- "$bin" --game=wari --bots=human,greedy --runs=2 --seed=1 \
    --output="$work/hq/report" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^2 games, 2 players, seed 1' "$work/hq/report"; then
    ok "human: --output still writes the report"
else
    bad "human: --output still writes the report" "exit $rc: $(head -c 300 "$work/hq/report")"
fi

# ---- the manual's example exchanges are those of today's giochi-sim ------------------------------
if python3 "$top/tools/bot_exchange.py" "$bin" >"$work/exchanges" 2>"$work/err"; then
    sed -n '/^\.\\" Made by tools\/bot_exchange.py/,/^\.SH EXIT STATUS/p' "$top/man/giochi-sim-bots.7" |
        sed '$d' >"$work/page_exchanges"
    same "giochi-sim-bots(7) exchanges are up to date (tools/bot_exchange.py)" "$work/exchanges" "$work/page_exchanges"
else
    bad "tools/bot_exchange.py runs" "$(head -c 300 "$work/err")"
fi
