# cli_mpi_experiment.sh — experiments split over processes: giochi-sim-mpi under mpirun and
# --shard/--merge, each against the single process (identical bytes but for the "run" object).
# Run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh). giochi-sim-mpi as in cli_mpi.sh: `make check`
# builds it, so these tests never pass by being skipped.

xmpi_bin=${GIOCHI_MPI_BIN:-$(dirname "$bin")/giochi-sim-mpi}
case $xmpi_bin in /*) ;; *) xmpi_bin=$(pwd)/$xmpi_bin ;; esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The experiments: a paired sweep; --until where the settings stop at different blocks, the
# baseline first (it is then played for the pairing but no longer counted); --until up to the
# cap (blocks past 10 000 games, which grow); --until on seat_spread (a figure of every seat's
# sums); seat rotation; sensitivity; a grid over a bot parameter.
xcases="pig10 --sweep=players=3,5 --runs=3000
pig10 --sweep=players=2,6 --baseline=6 --until=win_share@1:0.02 --runs=40000
pig10 --sweep=players=2,3 --until=win_share@1:0.001 --runs=12345
pig10 --sweep=players=3,5 --until=seat_spread:0.015 --runs=40000
volpe --rotate-seats --runs=700
45 --sensitivity=limit,tiles --metric=length --runs=900
oca --sweep=entry_fee=30,50 --sweep=seat1.max_bid=0,100 --runs=300"

# xsingle N ARGS...: the single-process report of case N, without "run", in $work/x.N.one
xsingle() {
    n=$1
    shift
    "$bin" "$@" --seed=21 --threads=2 --format=json -q >"$work/x.json" ||
        bad "experiment $n: single run" "exit $?"
    json_without_run "$work/x.json" >"$work/x.$n.one"
    grep -q '"seed":' "$work/x.$n.one" || bad "experiment $n: single run" "no report"
}

xn=$(echo "$xcases" | wc -l)
n=0
while [ "$n" -lt "$xn" ]; do
    n=$((n + 1))
    line=$(echo "$xcases" | sed -n "${n}p")
    # shellcheck disable=SC2086
    xsingle "$n" --game="${line%% *}" ${line#* }
done

# ---- shards merged = one process ---------------------------------------------------------------
n=0
while [ "$n" -lt "$xn" ]; do
    n=$((n + 1))
    line=$(echo "$xcases" | sed -n "${n}p")
    game=${line%% *} rest=${line#* }
    for k in 1 4 7; do
        i=0 parts=""
        while [ "$i" -lt "$k" ]; do
            # shellcheck disable=SC2086
            "$bin" --game="$game" $rest --seed=21 --threads=1 --shard="$i/$k" -q \
                --output="$work/xp.$i" || bad "experiment $n: shard $i/$k" "exit $?"
            parts="$work/xp.$i $parts"
            i=$((i + 1))
        done
        # shellcheck disable=SC2086
        "$bin" --merge $parts --format=json -q >"$work/x.json" 2>"$work/err" ||
            bad "experiment $n: merge of $k" "$(head -c 300 "$work/err")"
        json_without_run "$work/x.json" >"$work/x.merged"
        same "experiment $n ($game $rest): $k shards merged = one run" "$work/x.$n.one" "$work/x.merged"
    done
    rm -f "$work"/xp.*
done

# more shards than games: the empty shards add nothing
"$bin" --game=45 --sweep=players=2,3 --runs=5 --seed=4 --format=json -q >"$work/x.json"
json_without_run "$work/x.json" >"$work/x.one"
i=0 parts=""
while [ "$i" -lt 7 ]; do
    "$bin" --game=45 --sweep=players=2,3 --runs=5 --seed=4 --shard="$i/7" -q --output="$work/xp.$i"
    parts="$parts $work/xp.$i"
    i=$((i + 1))
done
# shellcheck disable=SC2086
"$bin" --merge $parts --format=json -q >"$work/x.json"
json_without_run "$work/x.json" >"$work/x.merged"
same "experiment: 7 shards of 5 games merged = one run" "$work/x.one" "$work/x.merged"
if grep -q '"shards":[[:space:]]*7' "$work/x.json"; then ok "merged experiment names its shards"; else bad "merged experiment names its shards" "no shards in run"; fi
# the text and CSV reports of a merge are the experiment's too
"$bin" --game=45 --sweep=players=2,3 --runs=5 --seed=4 --format=csv -q >"$work/x.csv"
# shellcheck disable=SC2086
"$bin" --merge $parts --format=csv -q >"$work/x.merged.csv"
same "experiment: merged CSV = one run" "$work/x.csv" "$work/x.merged.csv"

# refused merges and shards
expect_error "experiment merge: missing shard" 2 "shard 3/7 of the run of '$work/xp.0' is missing" --merge "$work/xp.0" "$work/xp.1" "$work/xp.2" "$work/xp.4" "$work/xp.5" "$work/xp.6"
"$bin" --game=45 --players=2 --runs=5 --seed=4 --shard=3/7 -q --output="$work/plain.3"
expect_error "experiment merge: a plain run's shard" 2 "are shards of different runs" --merge "$work/xp.0" "$work/xp.1" "$work/xp.2" "$work/plain.3" "$work/xp.4" "$work/xp.5" "$work/xp.6"
"$bin" --game=45 --sweep=players=2,4 --runs=5 --seed=4 --shard=3/7 -q --output="$work/other.3"
expect_error "experiment merge: another sweep's shard" 2 "are shards of different runs" --merge "$work/xp.0" "$work/xp.1" "$work/xp.2" "$work/other.3" "$work/xp.4" "$work/xp.5" "$work/xp.6"
expect_error "experiment merge: options come from the shards" 2 "--merge takes the run's options from its partial results: --sweep" --merge "$work/xp.0" --sweep=players=2,3
expect_error "experiment merge: --until comes from the shards" 2 "--merge takes the run's options from its partial results: --until" --merge "$work/xp.0" --until=length:1
rm -f "$work"/xp.* "$work/plain.3" "$work/other.3"

# ---- MPI: every block spread over the ranks ------------------------------------------------------
if [ ! -x "$xmpi_bin" ] || ! command -v mpirun >/dev/null 2>&1; then
    bad "giochi-sim-mpi and mpirun" "missing ($xmpi_bin): make check builds it (OpenMPI: libopenmpi-dev openmpi-bin)"
else
    n=0
    while [ "$n" -lt "$xn" ]; do
        n=$((n + 1))
        line=$(echo "$xcases" | sed -n "${n}p")
        game=${line%% *} rest=${line#* }
        # shellcheck disable=SC2086
        mpirun --oversubscribe -q -n 3 "$xmpi_bin" --game="$game" $rest --seed=21 --threads=1 \
            --format=json -q >"$work/x.json" 2>"$work/err" </dev/null ||
            bad "experiment $n: mpi -n 3" "exit $?: $(head -c 300 "$work/err")"
        json_without_run "$work/x.json" >"$work/x.mpi"
        same "experiment $n ($game $rest): mpi -n 3 = one process" "$work/x.$n.one" "$work/x.mpi"
    done
    if grep -q '"ranks":[[:space:]]*3' "$work/x.json"; then ok "mpi experiment names the ranks"; else bad "mpi experiment names the ranks" "no ranks in run"; fi
    # more ranks than games
    mpirun --oversubscribe -q -n 4 "$xmpi_bin" --game=45 --sweep=players=2,3 --runs=5 --seed=4 \
        --format=csv -q >"$work/x.mpi.csv" </dev/null
    same "experiment: mpi -n 4 with 5 games" "$work/x.csv" "$work/x.mpi.csv"
    # a bad option: one line from rank 0, exit 2
    mpirun --oversubscribe -q -n 3 "$xmpi_bin" --game=45 --sweep=nokey=1,2 --runs=5 \
        >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ]; then
        ok "mpi experiment bad key: one line, exit 2"
    else
        bad "mpi experiment bad key: one line, exit 2" "exit $rc: $(head -c 300 "$work/err")"
    fi
fi
