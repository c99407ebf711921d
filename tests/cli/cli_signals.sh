# cli_signals.sh — a run stopped by a signal removes its temporary files and exits with
# 128 + the signal's number (#27). Run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh).

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
