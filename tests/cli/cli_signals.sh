# cli_signals.sh — a run stopped by a signal removes its temporary files and exits with
# 128 + the signal's number; a first Ctrl-C lets a plain run finish the games under way and
# say how many it played (--keep-partial: their report, marked). Run by tests/cli/run.sh (uses
# the helpers of tests/cli/lib.sh).

# signal_number NAME — the number of signal NAME (kill -l lists names by number).
signal_number() {
    i=1
    while [ "$i" -le 64 ]; do
        [ "$(kill -l "$i" 2>/dev/null)" = "$1" ] && { echo "$i"; return; }
        i=$((i + 1))
    done
}

# A background job of a non-interactive shell starts with SIGINT and SIGQUIT ignored (and an
# ignored signal stays ignored, as giochi-sim(1) says): env --default-signal gives the run
# every signal's default disposition back where env can.
if env --default-signal true 2>/dev/null; then
    launch="env --default-signal"
    stop_signals="HUP INT QUIT TERM PIPE ALRM USR1 USR2 XCPU XFSZ VTALRM PROF"
else
    launch=""
    stop_signals="HUP TERM PIPE ALRM USR1 USR2 XCPU XFSZ VTALRM PROF"
fi

# stop_run SIGNAL DIR — starts a long run writing a report, a games CSV and an HTML page into
# DIR, waits (reading its first progress line through a pipe, no sleep) until it is playing,
# then sends SIGNAL; its exit status is left in $rc.
stop_run() {
    rm -rf "$2" "$work/sig.fifo"
    mkdir "$2"
    mkfifo "$work/sig.fifo"
    # shellcheck disable=SC2086
    $launch "$bin" --game=oca --runs=1000000000 --seed=1 --threads=1 --progress --format=json \
        --output="$2/r.json" --games-csv="$2/g.csv" --html="$2/r.html" 2>"$work/sig.fifo" </dev/null &
    pid=$!
    exec 3<"$work/sig.fifo"
    IFS= read -r line <&3
    kill -s "$1" "$pid"
    { wait "$pid"; } 2>/dev/null
    rc=$?
    exec 3<&-
}

if command -v mkfifo >/dev/null 2>&1; then
    for sig in $stop_signals; do
        n=$(signal_number "$sig")
        stop_run "$sig" "$work/sig"
        [ "$rc" -eq $((128 + n)) ] && ok "SIG$sig: exit 128+$n" || bad "SIG$sig: exit 128+$n" "exit $rc"
        left=$(ls -A "$work/sig")
        [ -z "$left" ] && ok "SIG$sig: no file left" || bad "SIG$sig: no file left" "$left"
    done
    # CPU time limit (a scheduler's): the kernel's SIGXCPU ends the run the same way.
    rm -rf "$work/sig" && mkdir "$work/sig"
    (ulimit -St 1 && exec "$bin" --game=oca --runs=1000000000 --seed=1 --threads=1 -q \
        --output="$work/sig/r.json" --games-csv="$work/sig/g.csv") 2>/dev/null
    rc=$?
    n=$(signal_number XCPU)
    [ "$rc" -eq $((128 + n)) ] && ok "CPU limit: exit 128+SIGXCPU" || bad "CPU limit: exit 128+SIGXCPU" "exit $rc"
    left=$(ls -A "$work/sig")
    [ -z "$left" ] && ok "CPU limit: no file left" || bad "CPU limit: no file left" "$left"
    # Where the file system has unnamed temporary files (O_TMPFILE), the running games leave
    # no name at all: not even SIGKILL leaves a temporary file.
    if command -v python3 >/dev/null 2>&1 &&
        python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY))' "$work" 2>/dev/null; then
        stop_run KILL "$work/sig"
        left=$(ls -A "$work/sig")
        [ -z "$left" ] && ok "SIGKILL: no temporary file" || bad "SIGKILL: no temporary file" "$left"
    fi
fi

# ---- Ctrl-C once: the games under way finish, "interrupted after N of M games"; with
# --keep-partial the report of those N games, marked (exit 0), the same figures as a run of N
# games; without it nothing is written (exit 130); a second Ctrl-C stops at once ---------------
# soft_run KEEP ARGS... — starts a long run (one thread, seed 3, --keep-partial unless KEEP is
# "no") with ARGS, its games CSV into a pipe: once the first game's row comes out (no sleep),
# sends SIGINT; the rows in $work/soft.csv, standard error in $work/soft.err, exit in $rc.
soft_run() {
    keep=--keep-partial
    [ "$1" = no ] && keep=
    shift
    rm -f "$work/sig.fifo"
    mkfifo "$work/sig.fifo"
    # shellcheck disable=SC2086
    $launch "$bin" --runs=1000000000 --seed=3 --threads=1 $keep --games-csv="$work/sig.fifo" \
        "$@" 2>"$work/soft.err" </dev/null &
    pid=$!
    exec 3<"$work/sig.fifo"
    IFS= read -r head <&3
    IFS= read -r row <&3
    kill -s INT "$pid"
    { echo "$head"; echo "$row"; cat <&3; } >"$work/soft.csv"
    { wait "$pid"; } 2>/dev/null
    rc=$?
    exec 3<&-
}

if command -v mkfifo >/dev/null 2>&1 && [ -n "$launch" ]; then
    rm -rf "$work/soft" && mkdir "$work/soft"
    soft_run keep --game=oca --format=json --output="$work/soft/r.json" --html="$work/soft/r.html"
    n=$(sed -n 's/^giochi-sim: interrupted after \([0-9]*\) of 1000000000 games: the report is of those games.*/\1/p' "$work/soft.err")
    [ "$rc" -eq 0 ] && [ -n "$n" ] && ok "--keep-partial: Ctrl-C once, exit 0, 'interrupted after N of M games'" ||
        bad "--keep-partial: Ctrl-C once, exit 0, 'interrupted after N of M games'" "exit $rc: $(cat "$work/soft.err")"
    if [ -n "$n" ] && [ -s "$work/soft/r.json" ]; then
        [ "$(wc -l <"$work/soft.csv")" -eq $((n + 1)) ] && ok "--keep-partial: the games CSV holds the N games" ||
            bad "--keep-partial: the games CSV holds the N games" "$(wc -l <"$work/soft.csv") lines for $n games"
        "$bin" --game=oca --runs="$n" --seed=3 -q --format=json >"$work/soft/n.json"
        python3 - "$work/soft/r.json" "$work/soft/n.json" "$n" <<'PY' && ok "--keep-partial: marked, the figures of a run of N games" || bad "--keep-partial: marked, the figures of a run of N games" "see above"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
cut = a.pop("interrupted")
assert cut == {"runs_asked": 1000000000, "games": int(sys.argv[3]), "signal": "SIGINT"}, cut
a.pop("run"); b.pop("run")
assert a == b, "the kept report differs from a run of its games"
PY
        grep -q '<p class="cut"><strong>Interrupted:</strong> the report of the first '"$n"' of the 1000000000 games asked' "$work/soft/r.html" &&
            ok "--keep-partial: the page says so" || bad "--keep-partial: the page says so" "no banner"
    fi
    soft_run keep --game=45 --output="$work/soft/r.txt"
    sed -n 2p "$work/soft/r.txt" | grep -qE '^[0-9]+ games \(INTERRUPTED: the first [0-9]+ of 1000000000 games asked\), 2 players' &&
        [ "$rc" -eq 0 ] && ok "--keep-partial: the text says so" || bad "--keep-partial: the text says so" "exit $rc: $(sed -n 2p "$work/soft/r.txt")"
    soft_run keep --game=45 --format=csv --output="$work/soft/r.csv"
    sed -n 2p "$work/soft/r.csv" | grep -qE '^45,interrupted,,,[0-9]+,,,1000000000,count,,,$' &&
        [ "$rc" -eq 0 ] && ok "--keep-partial: the CSV says so" || bad "--keep-partial: the CSV says so" "exit $rc: $(sed -n 2p "$work/soft/r.csv")"
    rm -rf "$work/soft" && mkdir "$work/soft"
    soft_run no --game=oca --format=json --output="$work/soft/r.json"
    [ "$rc" -eq 130 ] && [ -z "$(ls -A "$work/soft")" ] &&
        grep -q '^giochi-sim: interrupted after [0-9]* of 1000000000 games (nothing written; --keep-partial' "$work/soft.err" &&
        ok "Ctrl-C once without --keep-partial: said, nothing written, exit 130" ||
        bad "Ctrl-C once without --keep-partial: said, nothing written, exit 130" "exit $rc: $(ls -A "$work/soft") $(cat "$work/soft.err")"
    # slow games (a chunk of them lasts seconds): the second Ctrl-C does not wait for them
    rm -rf "$work/soft" "$work/sig.fifo" && mkdir "$work/soft" && mkfifo "$work/sig.fifo"
    $launch "$bin" --game=wari --bots=alphabeta:depth=6,alphabeta:depth=6 --runs=1000000000 --seed=3 \
        --threads=1 --progress --keep-partial --format=json --output="$work/soft/r.json" \
        2>"$work/sig.fifo" </dev/null &
    pid=$!
    exec 3<"$work/sig.fifo"
    IFS= read -r line <&3
    kill -s INT "$pid"
    while IFS= read -r line <&3; do
        case $line in *"finishing the games under way"*) break ;; esac
    done
    kill -s INT "$pid"
    cat <&3 >/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    exec 3<&-
    [ "$rc" -eq 130 ] && [ -z "$(ls -A "$work/soft")" ] && ok "Ctrl-C twice: stops at once, exit 130, nothing written" ||
        bad "Ctrl-C twice: stops at once, exit 130, nothing written" "exit $rc: $(ls -A "$work/soft")"
fi
expect_error "--keep-partial with a sweep" 2 "--keep-partial keeps the report of a plain run" --game=45 --sweep limit=40,45 --runs=10 --keep-partial
