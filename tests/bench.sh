#!/bin/sh
# bench.sh BINARY BAREDIR — games per second for each case of tests/bench.list, on one thread
# and on every online core, repeated BENCH_REPS times (default 5) with the median and the
# spread (min-max) printed, because the machine is shared and noisy. A case that names a bare
# reference loop (tests/bench/*.c, built into BAREDIR) runs it alternately with giochi-sim in
# the same repetitions and prints the ratio of giochi-sim's time per game to the loop's, and
# whether both counted the same wins. A benchmark, never a test: it asserts nothing on speed.
set -eu
bin=$1
baredir=${2:-build/bench}
list=$(dirname "$0")/bench.list
reps=${BENCH_REPS:-5}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# stats: reads numbers on stdin, prints "median min max".
stats() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "0 0 0"; exit }
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.0f %.0f %.0f\n", m, v[1], v[NR] }'
}

echo "giochi-sim bench: $reps repetitions per case, median [min-max] games/s; $cores cores"
printf '%-7s %-3s %-34s %9s  %-26s %-26s %7s  %-24s %6s %s\n' game pl bots runs \
    "1 thread" "$cores threads" scaling "bare loop (1 thread)" ratio check
grep -v '^#' "$list" | while read -r game players bots runs bare; do
    [ -n "$game" ] && [ "$game" != protocol ] || continue
    one="" all="" ref="" check=""
    r=0
    while [ "$r" -lt "$reps" ]; do
        r=$((r + 1))
        "$bin" --game="$game" --players="$players" --bots="$bots" --runs="$runs" --seed=1 \
            --threads=1 --format=json --quiet >"$tmp"
        one="$one $(sed -n 's/.*"games_per_second":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$tmp")"
        if [ -n "${bare:-}" ] && [ "$bare" != "-" ] && [ -x "$baredir/$bare" ]; then
            wins=$(sed -n 's/.*"wins_alone":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp" |
                head -n "$players" | tr '\n' ' ' | sed 's/ $//')
            out=$("$baredir/$bare" "$runs" 1 "$players")
            ref="$ref $(echo "$out" | sed -n 's/.*games_per_second \([0-9.]*\).*/\1/p')"
            bwins=$(echo "$out" | sed -n 's/^wins \(.*\) games_per_second.*/\1/p')
            if [ "$wins" = "$bwins" ]; then check="same wins"; else check="WINS DIFFER: $wins / $bwins"; fi
        fi
        if [ "$cores" -gt 1 ]; then
            "$bin" --game="$game" --players="$players" --bots="$bots" --runs="$runs" --seed=1 \
                --threads="$cores" --format=json --quiet >"$tmp"
            all="$all $(sed -n 's/.*"games_per_second":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$tmp")"
        fi
    done
    set -- $(echo "$one" | tr ' ' '\n' | grep . | stats)
    o_med=$1 o_lo=$2 o_hi=$3
    if [ -n "$all" ]; then
        set -- $(echo "$all" | tr ' ' '\n' | grep . | stats)
        a_txt="$1 [$2-$3]"
        scal=$(echo "$1 $o_med" | awk '{ printf "%.2fx", $1 / $2 }')
    else
        a_txt="-" scal="-"
    fi
    if [ -n "$ref" ]; then
        set -- $(echo "$ref" | tr ' ' '\n' | grep . | stats)
        b_txt="$1 [$2-$3]"
        ratio=$(echo "$1 $o_med" | awk '{ printf "%.2f", $1 / $2 }')
    else
        b_txt="-" ratio="-" check=""
    fi
    printf '%-7s %-3s %-34s %9s  %-26s %-26s %7s  %-24s %6s %s\n' "$game" "$players" "$bots" \
        "$runs" "$o_med [$o_lo-$o_hi]" "$a_txt" "$scal" "$b_txt" "$ratio" "$check"
done
echo "ratio: giochi-sim's time per game over the bare loop's (1.00 = as fast as a bare loop)"

# The bot protocol: every seat a program bot, one thread, so giochi-sim and the bot take
# turns on one core; decisions per second of wall time and, with GNU time, per second of CPU
# time of both processes (a figure a busy machine moves less), medians of the repetitions.
echo
echo "bot protocol (giochi-sim-bots(7)): decisions/s through the pipe, one thread, median [min-max]"
printf '%-7s %-3s %8s %10s  %-24s %-24s %s\n' game pl runs decisions "per wall second" \
    "per CPU second" command
gnutime=$(command -v /usr/bin/time || true)
grep '^protocol ' "$list" | while read -r _ game players runs cmd; do
    [ -x "$baredir/${cmd%% *}" ] && cmd="$baredir/$cmd"
    rates="" cpus="" n=0
    r=0
    while [ "$r" -lt "$reps" ]; do
        r=$((r + 1))
        set -- "$bin" --bot-program="bot=$cmd" --game="$game" --players="$players" --bots=bot \
            --runs="$runs" --seed=1 --threads=1 --format=json --quiet
        if [ -n "$gnutime" ]; then
            "$gnutime" -f '%U %S' -o "$tmp.cpu" "$@" >"$tmp"
        else
            "$@" >"$tmp"
        fi
        n=$(tr -d ' \t\n' <"$tmp" | grep -o '"decisions":[0-9]*' | head -n 1 | cut -d: -f2)
        w=$(sed -n 's/.*"wall_seconds":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$tmp")
        rates="$rates $(echo "$n $w" | awk '{ printf "%.0f", $1 / $2 }')"
        [ -n "$gnutime" ] && cpus="$cpus $(echo "$n $(cat "$tmp.cpu")" | awk '{ printf "%.0f", $1 / ($2 + $3) }')"
    done
    set -- $(echo "$rates" | tr ' ' '\n' | grep . | stats)
    wall="$1 [$2-$3]" cpu=-
    if [ -n "$cpus" ]; then
        set -- $(echo "$cpus" | tr ' ' '\n' | grep . | stats)
        cpu="$1 [$2-$3]"
    fi
    printf '%-7s %-3s %8s %10s  %-24s %-24s %s\n' "$game" "$players" "$runs" "$n" "$wall" "$cpu" "$cmd"
done
rm -f "$tmp.cpu"
    set -- $(echo "$rates" | tr ' ' '\n' | grep . | stats)
    printf '%-7s %-3s %8s %10s  %-28s %s\n' "$game" "$players" "$runs" "$n" "$1 [$2-$3]" "$cmd"
done

# BENCH_INSTR=1: the same ratio in instructions per game (valgrind's cachegrind), a count that
# does not move with the machine's load: giochi-sim and the bare loop on a twentieth of each
# case's games, less the instructions of a run of one game (start-up, report) or none.
if [ "${BENCH_INSTR:-0}" = 1 ] && command -v valgrind >/dev/null 2>&1; then
    ir() {
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 \
            >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,
    }
    echo
    echo "instructions per game (cachegrind, one thread, a twentieth of the games)"
    printf '%-7s %-3s %-34s %9s %14s %14s %6s\n' game pl bots games giochi-sim "bare loop" ratio
    grep -v '^#' "$list" | while read -r game players bots runs bare; do
        [ -n "$game" ] && [ -n "${bare:-}" ] && [ "$bare" != "-" ] && [ -x "$baredir/$bare" ] ||
            continue
        n=$((runs / 20))
        set -- --game="$game" --players="$players" --bots="$bots" --seed=1 --threads=1 \
            --format=json --quiet
        s1=$(ir "$bin" "$@" --runs="$n") s0=$(ir "$bin" "$@" --runs=1)
        b1=$(ir "$baredir/$bare" "$n" 1 "$players") b0=$(ir "$baredir/$bare" 0 1 "$players")
        echo "$s1 $s0 $b1 $b0 $n" | awk -v g="$game" -v p="$players" -v b="$bots" '{
            s = ($1 - $2) / ($5 - 1); r = ($3 - $4) / $5
            printf "%-7s %-3s %-34s %9d %14.0f %14.0f %6.2f\n", g, p, b, $5, s, r, s / r }'
    done
fi

# MPI ranks against threads (when giochi-sim-mpi is built: make mpi): one thread per rank,
# 1, 2 and 4 ranks (4 oversubscribes a 2-core machine: for the record), oca with 4 greedy.
mpi_bin=$(dirname "$bin")/giochi-sim-mpi
if [ -x "$mpi_bin" ] && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    echo
    echo "MPI: oca 4 greedy, 200000 games, one thread per rank, median of $reps"
    printf '%-6s %-26s %10s %16s\n' ranks "games/s [min-max]" speedup "reduce s (median)"
    base=""
    for ranks in 1 2 4; do
        rates="" reds=""
        r=0
        while [ "$r" -lt "$reps" ]; do
            r=$((r + 1))
            mpirun --oversubscribe -q -n "$ranks" "$mpi_bin" --game=oca --runs=200000 --seed=1 \
                --threads=1 --format=json --quiet >"$tmp"
            rates="$rates $(sed -n 's/.*"games_per_second":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$tmp")"
            reds="$reds $(sed -n 's/.*"reduce_seconds":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$tmp")"
        done
        set -- $(echo "$rates" | tr ' ' '\n' | grep . | stats)
        med=$1 lo=$2 hi=$3
        [ -n "$base" ] || base=$med
        red=$(echo "$reds" | tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { printf "%.4f", v[int((NR + 1) / 2)] }')
        printf '%-6s %-26s %9.2fx %16s\n' "$ranks" "$med [$lo-$hi]" \
            "$(echo "$med $base" | awk '{ print $1 / $2 }')" "$red"
    done
fi

# The generic search bots (alphabeta nodes/s, mcts iterations/s), one thread, CPU time.
if [ -x "${SEARCH_BENCH:-}" ]; then
    "$SEARCH_BENCH"
fi
# Wari: a bare standalone playout loop beside random playouts through the full runner, perft
# and alphabeta (one thread, CPU time).
if [ -x "${WARI_BARE:-}" ] && [ -x "${WARI_BENCH:-}" ]; then
    echo "wari, bare loop: $("$WARI_BARE" 300000)"
    "$WARI_BENCH" 300000 | sed 's/^/wari, /'
fi
