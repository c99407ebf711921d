# cli_mpi_search.sh — issue #25: the searches (--tune, --target/--over, --tournament, --sprt)
# under giochi-sim-mpi give the bytes one process gives (but for the "run" object) at any rank
# count: every evaluation's games are split over the ranks and its sums added up exactly, so
# every rank takes each sequential decision (the next value, the next bracket, stop or go on)
# as one process takes it. And --shard, which cannot split a search (each step needs the
# whole of the last one), is refused with one line, exit 2. Run by tests/cli/run.sh; skipped
# with a line when mpirun is absent (cli_mpi.sh fails then: make check builds the MPI binary).

smpi_bin=${GIOCHI_MPI_BIN:-$(dirname "$bin")/giochi-sim-mpi}
case $smpi_bin in /*) ;; *) smpi_bin=$(pwd)/$smpi_bin ;; esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# ---- --shard refused with every search --------------------------------------------------------
for args in "--target=bankruptcy_any=0.04 --over=entry_fee=30:130" \
    "--tournament=greedy,random" "--tournament=greedy,random --sprt=0,50"; do
    # shellcheck disable=SC2086
    expect_error "search shard ($args)" 2 \
        "^giochi-sim: --(target|tournament) decides each step from the last one: it cannot be split into --shard files \\(use MPI or --threads\\)$" \
        --game=oca $args --shard=1/3 --seed=1 --output="$work/x.part"
    [ -e "$work/x.part" ] && bad "search shard ($args)" "a part was written"
done

# ---- the same bytes at 1, 2 and 4 ranks (3: cli_tune.sh) -------------------------------------
# A coordinate search of two parameters; a seek over a curve with three crossings (each
# bracket bisected on its own); a tournament at tables of three seats; two sequential tests
# (one that stops at its first look, one after several); a tune of 3 deals a step over 4
# ranks (ranks without games).
if [ -x "$smpi_bin" ] && command -v mpirun >/dev/null 2>&1; then
    scases="--game=oca --tune=seat1.sit_out=0:1,seat1.max_bid=0:100 --maximize=win_share@1 --runs=300
--game=oca --target=bankruptcy_any=0.04:0.01 --over=entry_fee=30:130 --runs=20000
--game=pig10 --players=3 --tournament=greedy,count,random --runs=100
--game=wari --tournament=random,greedy --sprt=0,50 --runs=2000
--game=45 --tournament=greedy,optimal-score --sprt=-10,10 --runs=4000
--game=oca --tune=seat1.sit_out=0:1 --maximize=win_share@1 --runs=3"
    sn=$(echo "$scases" | wc -l)
    n=0
    while [ "$n" -lt "$sn" ]; do
        n=$((n + 1))
        args=$(echo "$scases" | sed -n "${n}p")
        # shellcheck disable=SC2086
        "$bin" $args --seed=4 --threads=2 --format=json -q >"$work/s.json" ||
            bad "search $n: one process ($args)" "exit $?"
        json_without_run "$work/s.json" >"$work/s.one"
        grep -q '"mode":' "$work/s.one" || bad "search $n: one process ($args)" "no report"
        for ranks in 1 2 4; do
            # shellcheck disable=SC2086
            mpirun --oversubscribe -q -n $ranks "$smpi_bin" $args --seed=4 --threads=1 \
                --format=json -q >"$work/s.json" 2>"$work/err" </dev/null ||
                bad "search $n: mpi -n $ranks ($args)" "exit $?: $(head -c 300 "$work/err")"
            json_without_run "$work/s.json" >"$work/s.mpi"
            same "search $n under $ranks MPI ranks = one process ($args)" "$work/s.one" "$work/s.mpi"
        done
        if grep -q '"ranks":[[:space:]]*4' "$work/s.json"; then
            ok "search $n: its run names the ranks"
        else
            bad "search $n: its run names the ranks" "no ranks in run"
        fi
    done
    # the text report too (its last line, with the time, is the run's)
    args="--game=oca --target=bankruptcy_any=0.04:0.01 --over=entry_fee=30:130 --runs=20000"
    # shellcheck disable=SC2086
    "$bin" $args --seed=4 -q | sed '$d' >"$work/s.one"
    # shellcheck disable=SC2086
    mpirun --oversubscribe -q -n 2 "$smpi_bin" $args --seed=4 -q </dev/null | sed '$d' >"$work/s.mpi"
    same "search: the text report under 2 MPI ranks = one process" "$work/s.one" "$work/s.mpi"
    # a bad search option under MPI: one line, exit 2; --shard refused there too
    for args in "--target=bankruptcy_any=0.1 --over=nokey=0:100" \
        "--tune=seat1.sit_out=0:1 --maximize=win_share@1 --shard=0/2"; do
        # shellcheck disable=SC2086
        mpirun --oversubscribe -q -n 3 "$smpi_bin" --game=oca $args --seed=1 \
            >"$work/out" 2>"$work/err" </dev/null
        rc=$?
        if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ]; then
            ok "search mpi refused: one line, exit 2 ($args)"
        else
            bad "search mpi refused: one line, exit 2 ($args)" "exit $rc: $(head -c 300 "$work/err")"
        fi
    done
else
    echo "cli: cli_mpi_search.sh: skipped (no mpirun or no $smpi_bin)"
fi
