# cli_mpi.sh — runs split over processes: `--shard=I/N` and `--merge`, and giochi-sim-mpi
# under mpirun, each against the single run (identical bytes but for the "run" object).
# Run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh). giochi-sim-mpi is $GIOCHI_MPI_BIN, else the
# binary beside giochi-sim; `make check` builds it, so these tests never pass by being skipped.

mpi_bin=${GIOCHI_MPI_BIN:-$(dirname "$bin")/giochi-sim-mpi}
case $mpi_bin in /*) ;; *) mpi_bin=$(pwd)/$mpi_bin ;; esac
# mpirun refuses root unless told; CI runs as root. -q: only our own messages on stderr.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi() { mpirun --oversubscribe -q -n "$@"; }
games=$("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p')

# ---- shards and merge -------------------------------------------------------------------------
# The last split has more shards than games (empty shards merge too): 1500 shards of 1000
# games, or under the sanitizers (make sanitize), where each process costs some twenty times
# more, 150 shards of 100 games, the same path at a tenth of the processes.
shard_runs=1000 shard_most=1500
[ -z "${GIOCHI_SANITIZE:-}" ] || { shard_runs=100 shard_most=150; }
for game in $games; do
    "$bin" --game="$game" --runs=$shard_runs --seed=3 --format=json -q >"$work/single.json"
    json_without_run "$work/single.json" >"$work/single.norun"
    for n in 1 3 7 $shard_most; do
        i=0 parts=""
        while [ "$i" -lt "$n" ]; do
            "$bin" --game="$game" --runs=$shard_runs --seed=3 --shard="$i/$n" -q \
                --output="$work/p.$i" || bad "$game shard $i/$n" "exit $?"
            parts="$work/p.$i $parts" # reversed: the order of the arguments does not matter
            i=$((i + 1))
        done
        # shellcheck disable=SC2086
        "$bin" --merge $parts --format=json -q >"$work/merged.json" 2>"$work/err"
        json_without_run "$work/merged.json" >"$work/merged.norun"
        same "$game: $n shards merged = one run" "$work/single.norun" "$work/merged.norun"
        rm -f "$work"/p.*
    done
done

# Shards with a sweep-free run of one game: text and CSV reports too, and the games CSV of
# the shards, concatenated in order, is the run's.
i=0
while [ "$i" -lt 4 ]; do
    "$bin" --game=pig10 --runs=901 --seed=8 --shard="$i/4" -q --output="$work/s.$i" \
        --games-csv="$work/g.$i"
    i=$((i + 1))
done
"$bin" --game=pig10 --runs=901 --seed=8 -q --format=csv --output="$work/one.csv" \
    --games-csv="$work/g.one"
cat "$work/g.0" "$work/g.1" "$work/g.2" "$work/g.3" >"$work/g.all"
same "shards: games CSVs concatenate to the run's" "$work/g.one" "$work/g.all"
"$bin" --merge "$work/s.0" "$work/s.1" "$work/s.2" "$work/s.3" --format=csv -q \
    --output="$work/merged.csv"
same "shards: merged CSV report = the run's" "$work/one.csv" "$work/merged.csv"
expect_ok "merge text report" --merge "$work/s.0" "$work/s.1" "$work/s.2" "$work/s.3"
if grep -q "^901 games" "$work/out"; then ok "merge text names the games"; else bad "merge text names the games" "$(head -3 "$work/out")"; fi

# Refused merges: each names its problem in one line, exit 2.
expect_error "merge: missing shard" 2 "shard 2/4 of the run of '$work/s.0' is missing" --merge "$work/s.0" "$work/s.1" "$work/s.3"
expect_error "merge: repeated shard" 2 "shard 1/4 is given twice" --merge "$work/s.0" "$work/s.1" "$work/s.1" "$work/s.2" "$work/s.3"
"$bin" --game=pig10 --runs=901 --seed=9 --shard=2/4 -q --output="$work/other.2"
expect_error "merge: shards of different runs" 2 "are shards of different runs" --merge "$work/s.0" "$work/s.1" "$work/other.2" "$work/s.3"
head -c 200 "$work/s.2" >"$work/cut.2"
expect_error "merge: truncated" 2 "'.*cut.2' is truncated" --merge "$work/s.0" "$work/s.1" "$work/cut.2" "$work/s.3"
cp "$work/s.2" "$work/flip.2"
printf 'X' | dd of="$work/flip.2" bs=1 seek=2000 conv=notrunc 2>/dev/null
expect_error "merge: corrupted" 2 "'.*flip.2' is corrupted \\(checksum mismatch\\)" --merge "$work/s.0" "$work/s.1" "$work/flip.2" "$work/s.3"
expect_error "merge: not a partial" 2 "is not a giochi-sim partial result" --merge "$work/one.csv"
expect_error "merge: no parts" 2 "--merge needs the partial results" --merge
expect_error "merge: run options" 2 "--merge takes the run's options from its partial results: --seed" --merge "$work/s.0" --seed=1
expect_error "argument without merge" 2 "unexpected argument 'x.part'" --game=45 x.part
expect_error "shard needs a seed" 2 "--shard needs --seed" --game=45 --shard=0/2 --output="$work/x"
expect_error "shard needs an output" 2 "--shard writes a partial result: give it a file" --game=45 --seed=1 --shard=0/2
expect_error "shard index in range" 2 "--shard '2/2'|--shard '2'" --game=45 --seed=1 --shard=2/2 --output="$work/x"
expect_error "shard syntax" 2 "--shard '3': expected I/N" --game=45 --seed=1 --shard=3 --output="$work/x"
[ ! -e "$work/x" ] && ok "refused shards write nothing" || bad "refused shards write nothing" "$work/x exists"

# ---- MPI ----------------------------------------------------------------------------------------
if [ ! -x "$mpi_bin" ] || ! command -v mpirun >/dev/null 2>&1; then
    bad "giochi-sim-mpi and mpirun" "missing ($mpi_bin): make check builds it (OpenMPI: libopenmpi-dev openmpi-bin)"
else
    for game in $games; do
        "$bin" --game="$game" --runs=600 --seed=11 --format=json -q --games-csv="$work/g1.csv" >"$work/one.json"
        mpi 3 "$mpi_bin" --game="$game" --runs=600 --seed=11 --format=json -q \
            --games-csv="$work/g3.csv" >"$work/three.json" 2>"$work/err" ||
            bad "mpi $game" "exit $?: $(head -c 300 "$work/err")"
        json_without_run "$work/one.json" >"$work/one.norun"
        json_without_run "$work/three.json" >"$work/three.norun"
        same "mpi -n 3 $game report = one process" "$work/one.norun" "$work/three.norun"
        same "mpi -n 3 $game games CSV = one process" "$work/g1.csv" "$work/g3.csv"
    done
    if grep -q '"ranks":[[:space:]]*3' "$work/three.json"; then ok "mpi report names the ranks"; else bad "mpi report names the ranks" "no ranks in run"; fi
    # more ranks than games: idle ranks add nothing
    "$bin" --game=45 --runs=2 --seed=5 --format=csv -q >"$work/one.csv"
    mpi 4 "$mpi_bin" --game=45 --runs=2 --seed=5 --format=csv -q >"$work/four.csv"
    same "mpi -n 4 with 2 games" "$work/one.csv" "$work/four.csv"
    # errors: one line from rank 0, the documented code, nothing written
    mpi 3 "$mpi_bin" --game=45 --runs=0 >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "runs '0'" "$work/err"; then
        ok "mpi bad option: one line, exit 2"
    else
        bad "mpi bad option: one line, exit 2" "exit $rc: $(head -c 300 "$work/err")"
    fi
    mpi 3 "$mpi_bin" --game=45 --runs=50 --output="$work/nodir/r.json" >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" -eq 3 ] && grep -q "cannot write\|does not exist" "$work/err" && [ ! -e "$work/nodir" ]; then
        ok "mpi unwritable output: exit 3"
    else
        bad "mpi unwritable output: exit 3" "exit $rc: $(head -c 300 "$work/err")"
    fi
    mpi 2 "$mpi_bin" --game=45 --runs=30 --seed=2 --trace=4 >"$work/trace.mpi" 2>"$work/err"
    "$bin" --game=45 --runs=30 --seed=2 --trace=4 >"$work/trace.one"
    same "mpi trace: rank 0 alone prints it" "$work/trace.one" "$work/trace.mpi"
    # What is not a report is printed once, by rank 0, as one process prints it (#27).
    for args in --help --version --usage --list "--list --game=oca" "--game=pig10 --print-ruleset" \
        "--game=wari --perft=4 -q" "--game=volpe --perft=3 --format=json -q"; do
        # shellcheck disable=SC2086
        "$bin" $args >"$work/once.one" 2>"$work/once.err1"
        # shellcheck disable=SC2086
        mpi 3 "$mpi_bin" $args >"$work/once.mpi" 2>"$work/once.err3"
        rc=$?
        [ "$rc" -eq 0 ] && cmp -s "$work/once.one" "$work/once.mpi" && ok "mpi $args: printed once" ||
            bad "mpi $args: printed once" "exit $rc, $(wc -l <"$work/once.mpi") lines against $(wc -l <"$work/once.one")"
    done
    "$bin" --game=wari --perft=4 >/dev/null 2>"$work/once.err1"
    mpi 3 "$mpi_bin" --game=wari --perft=4 >/dev/null 2>"$work/once.err3"
    [ "$(wc -l <"$work/once.err3")" -eq 1 ] && ok "mpi perft: one nodes/s line" ||
        bad "mpi perft: one nodes/s line" "$(cat "$work/once.err3")"
    mpi 3 "$mpi_bin" --list --output="$work/list.mpi" && "$bin" --list >"$work/list.one" &&
        same "mpi --list --output: the listing once" "$work/list.one" "$work/list.mpi"
    # Standard output checked as one process checks it: a full disk is exit 3 with one line.
    if [ -w /dev/full ]; then
        for args in "--game=45 --runs=50 --seed=1 --format=json -q" "--game=45 --runs=50 --seed=1 --sweep limit=40,45 -q" \
            --list --help "--game=45 --print-ruleset" "--game=wari --perft=3 -q"; do
            # shellcheck disable=SC2086
            mpi 2 "$mpi_bin" $args >/dev/full 2>"$work/err"
            rc=$?
            if [ "$rc" -eq 3 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
                grep -q "cannot write 'standard output': No space left on device" "$work/err"; then
                ok "mpi $args on a full disk: exit 3"
            else
                bad "mpi $args on a full disk: exit 3" "exit $rc: $(head -c 300 "$work/err")"
            fi
        done
    fi
fi

# More shards or ranks than games: the games CSV still has exactly one header (#27 item 6).
for split in 2/3 1/4 3/7; do
    runs=${split%/*} n=${split#*/}
    "$bin" --game=45 --runs="$runs" --seed=4 -q --output=/dev/null --games-csv="$work/few.one"
    i=0
    : >"$work/few.all"
    while [ "$i" -lt "$n" ]; do
        "$bin" --game=45 --runs="$runs" --seed=4 -q --shard="$i/$n" --output="$work/few.part" \
            --games-csv="$work/few.$i" && cat "$work/few.$i" >>"$work/few.all"
        i=$((i + 1))
    done
    [ "$(grep -c '^game_index,' "$work/few.all")" -eq 1 ] && ok "$runs games in $n shards: one CSV header" ||
        bad "$runs games in $n shards: one CSV header" "$(grep -c '^game_index,' "$work/few.all") headers"
    same "$runs games in $n shards: games CSVs concatenate to the run's" "$work/few.one" "$work/few.all"
    if [ -x "$mpi_bin" ] && command -v mpirun >/dev/null 2>&1; then
        mpi "$n" "$mpi_bin" --game=45 --runs="$runs" --seed=4 -q --output=/dev/null \
            --games-csv="$work/few.mpi" 2>"$work/err" || bad "mpi -n $n, $runs games" "exit $?: $(head -c 300 "$work/err")"
        same "mpi -n $n, $runs games: the run's games CSV (one header)" "$work/few.one" "$work/few.mpi"
    fi
done

# A part whose identity's runs disagrees with what it holds (a forged or mixed-up part, its
# checksum made right again): refused, exit 2, naming the file and runs (#27 item 8).
if command -v python3 >/dev/null 2>&1; then
    # forge FROM TO OLD NEW [RUNS] — copies part FROM to TO with OLD replaced by NEW in its
    # identity (the JSON line after the magic), the first batch's runs (the second integer of
    # the payload, after its length) set to RUNS if given, and the FNV-1a checksum of the
    # file recomputed (partial.c's layout).
    forge() {
        python3 - "$@" <<'PY'
import sys
src, dst, old, new = sys.argv[1:5]
b = open(src, "rb").read()[:-8]
nl = b.index(b"\n", b.index(b"{"))
head = b[:nl].replace(old.encode(), new.encode(), 1)
b = head + b[nl:]
if len(sys.argv) > 5:
    at = len(head) + 1 + 8 + 8
    b = b[:at] + int(sys.argv[5]).to_bytes(8, "little") + b[at + 8:]
h = 0xcbf29ce484222325
for c in b:
    h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(dst, "wb").write(b + h.to_bytes(8, "little"))
PY
    }
    for i in 0 1; do
        "$bin" --game=45 --runs=1000 --seed=6 --shard=$i/2 -q --output="$work/runs.$i"
        forge "$work/runs.$i" "$work/forged.$i" '"runs":1000' '"runs":2000'
    done
    expect_ok "merge: untouched parts" --merge "$work/runs.0" "$work/runs.1"
    forge "$work/runs.0" "$work/same.0" '"runs":1000' '"runs":1000'
    expect_ok "merge: forge() alone keeps a part valid" --merge "$work/same.0" "$work/runs.1"
    expect_error "merge: identity runs disagrees with the batches" 2 \
        "'.*forged.0': its identity says runs 2000, but it holds a batch of 1000 games" \
        --merge "$work/forged.0" "$work/forged.1"
    # the batch made to agree with the identity, but not the games the shard holds: 500 games
    # are not the 499 of shard 0/2 of 999
    forge "$work/runs.0" "$work/mixed.0" '"runs":1000' '"runs":999' 999
    forge "$work/runs.1" "$work/mixed.1" '"runs":1000' '"runs":999' 999
    expect_error "merge: a shard's games disagree with its share of runs" 2 \
        "'.*mixed.0': shard 0/2 of runs 999 plays 499 games, but it holds 500" \
        --merge "$work/mixed.0" "$work/mixed.1"
fi
