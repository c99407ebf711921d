# cli_solve.sh — command-line tests of volpe's solver (--solve=DIR) and its perfect bot
# (#30), run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh: expect_ok, expect_error, ok, bad, $bin,
# $work).

two='--set geese=["C1","D1"] --set fox_wins_at=1'
db="$work/solve-db"
rm -rf "$db"

# Refusals: another game, the pass rule, options that do not go with it, the bot's database.
expect_error "solve another game" 2 "only volpe is solved" --game=wari --solve="$db"
expect_error "solve pass" 2 "geese_blocked=pass is not solved" --game=volpe \
    --set geese_blocked=pass --solve="$db"
expect_error "solve with bots" 2 "cannot be combined with --bots" --game=volpe \
    --bots=random --solve="$db"
# shellcheck disable=SC2086
expect_error "perfect without --db" 2 "bot perfect: no database named \\(--db=DIR" --game=volpe \
    $two --bots=perfect,random --runs=1
# shellcheck disable=SC2086
expect_error "perfect without its directory" 2 "bot perfect: no database directory" \
    --game=volpe $two --bots=perfect,random --runs=1 --db="$db"

# Two geese, one to take: solved, checked, and the fox to move wins (found by hand: the fox
# walks to C3 and takes the goose that cannot get away in time).
# shellcheck disable=SC2086
expect_ok "solve two geese" --game=volpe $two --solve="$db"
if grep -q '^groups: 28 (28 solved now, 0 found solved and checked)$' "$work/out" &&
    grep -q '^positions: 32736 ' "$work/out" && grep -q ', 0 inconsistent$' "$work/out" &&
    grep -q '^start: the fox (to move) wins' "$work/out"; then
    ok "solve two geese summary"
else
    bad "solve two geese summary" "$(cat "$work/out")"
fi
cp "$work/out" "$work/solve-first"
# A second run checks every file and solves nothing.
# shellcheck disable=SC2086
expect_ok "solve again" --game=volpe $two --solve="$db"
if grep -q '^groups: 28 (0 solved now, 28 found solved and checked)$' "$work/out" &&
    [ "$(grep '^positions' "$work/out")" = "$(grep '^positions' "$work/solve-first")" ]; then
    ok "solve again checks and keeps"
else
    bad "solve again checks and keeps" "$(cat "$work/out")"
fi
# Other rules in the same directory are refused.
expect_error "solve other rules" 2 "solved under other rules" --game=volpe \
    --set 'geese=["C1","D1"]' --set fox_wins_at=1 --set diagonals=none --solve="$db"

# The perfect fox wins every game of a won start; perfect against perfect too.
expect_ok "perfect fox json" --game=volpe --set 'geese=["C1","D1"]' --set fox_wins_at=1 \
    --bots=perfect,alphabeta:depth=3 --db="$db" --runs=50 --seed=1 --format=json --quiet
if tr -d ' \t\n' <"$work/out" | grep -q '"end_fox_captured":{"value":1[,}]'; then
    ok "perfect fox wins them all"
else
    bad "perfect fox wins them all" "$(tr -d ' \t\n' <"$work/out" | grep -o '"end_fox_captured":{[^}]*}')"
fi

# A run stopped by a signal exits 128 + its number and a second run finishes the job to the
# values of a run never stopped.
four='--set geese=["C1","D1","E1","D2"] --set fox_wins_at=1'
rm -rf "$work/solve-stop" "$work/solve-fifo"
mkfifo "$work/solve-fifo"
# shellcheck disable=SC2086
"$bin" --game=volpe $four --solve="$work/solve-stop" --progress \
    >/dev/null 2>"$work/solve-fifo" </dev/null &
pid=$!
exec 4<"$work/solve-fifo"
dd bs=1 count=20 <&4 >/dev/null 2>&1
kill -s TERM "$pid"
cat <&4 >/dev/null
{ wait "$pid"; } 2>/dev/null
rc=$?
exec 4<&-
if [ "$rc" -eq 143 ] || [ "$rc" -eq 0 ]; then
    ok "solve stopped by TERM ($rc)"
else
    bad "solve stopped by TERM" "exit $rc"
fi
# shellcheck disable=SC2086
expect_ok "solve continued" --game=volpe $four --solve="$work/solve-stop"
grep -v '^time\|^groups\|^memory' "$work/out" >"$work/solve-continued"
rm -rf "$work/solve-clean"
# shellcheck disable=SC2086
expect_ok "solve unstopped" --game=volpe $four --solve="$work/solve-clean"
grep -v '^time\|^groups\|^memory' "$work/out" | sed "s|$work/solve-clean|$work/solve-stop|" \
    >"$work/solve-clean-out"
same "solve continued equals unstopped" "$work/solve-continued" "$work/solve-clean-out"
for f in "$work"/solve-clean/*.vdb; do
    cmp -s "$f" "$work/solve-stop/$(basename "$f")" || { bad "solve files equal" "$f"; break; }
done
rm -rf "$db" "$work/solve-stop" "$work/solve-clean" "$work/solve-fifo"

# ---- the proof search (--prove) ------------------------------------------------------------
expect_error "prove another game" 2 "only volpe is proved" --game=wari --prove
expect_error "prove who" 2 "'nobody' is not geese, fox or both" --game=volpe --prove=nobody
expect_error "prove nodes zero" 2 "prove-nodes" --game=volpe --prove --prove-nodes=0
expect_error "prove nodes alone" 2 "need --prove" --game=volpe --prove-nodes=10
expect_error "prove guess alone" 2 "need --prove" --game=volpe --prove-guess=room
expect_error "prove guess bad" 2 "'hunch' is not moves or room" --game=volpe --prove \
    --prove-guess=hunch
expect_error "prove with runs" 2 "cannot be combined with --bots" --game=volpe --prove --runs=5
expect_error "prove pass" 2 "geese_blocked=pass is not proved" --game=volpe \
    --set geese_blocked=pass --prove
expect_error "prove missing db" 2 "no database directory" --game=volpe --prove \
    --db="$work/no-such-db"

# The start's value by proof search equals the solver's, on a won game (two geese, one to
# take) and a drawn one (two geese on A3 and G3, one to take: both questions disproved, the
# fox's after a million nodes of repetitions; the three geese of C1 D1 E1 take five times
# more for the same path, and the unit tests compare them with the solver).
# shellcheck disable=SC2086
expect_ok "prove two geese" --game=volpe $two --prove
if grep -q '^fox win? proved: ' "$work/out" && grep -q '^geese win? disproved: ' "$work/out" &&
    grep -q '^start: the fox (to move) wins$' "$work/out" &&
    [ "$(grep -c 'certificate: .* checked' "$work/out")" -eq 2 ]; then
    ok "prove two geese: the fox wins, as solved"
else
    bad "prove two geese: the fox wins, as solved" "$(cat "$work/out")"
fi
sides='--set geese=["A3","G3"] --set fox_wins_at=1'
rm -rf "$work/solve-sides"
# shellcheck disable=SC2086
expect_ok "solve two geese on the sides" --game=volpe $sides --solve="$work/solve-sides"
solved=$(grep '^start:' "$work/out")
# shellcheck disable=SC2086
expect_ok "prove two geese on the sides" --game=volpe $sides --prove --prove-mb=64
cp "$work/out" "$work/prove-first"
if [ "$solved" = "start: a draw (play goes on for ever)" ] &&
    grep -q '^start: a draw (neither side can force a win)$' "$work/out"; then
    ok "prove two geese on the sides: a draw, as solved"
else
    bad "prove two geese on the sides: a draw, as solved" "solver: $solved; prove: $(cat "$work/out")"
fi
# The same options, the same bytes; the database as leaves, the same value.
# shellcheck disable=SC2086
expect_ok "prove again" --game=volpe $sides --prove --prove-mb=64
same "prove is deterministic" "$work/prove-first" "$work/out"
# shellcheck disable=SC2086
expect_ok "prove with db" --game=volpe $sides --prove=fox --prove-mb=64 --db="$work/solve-sides"
if grep -q '^fox win? disproved: ' "$work/out" &&
    grep -q '^leaves: .*the [1-9][0-9]* groups solved in' "$work/out"; then
    ok "prove with db: the start's own group read"
else
    bad "prove with db: the start's own group read" "$(cat "$work/out")"
fi
# The room guess orders the work differently, never the answer: the same draw, another count.
# shellcheck disable=SC2086
expect_ok "prove room guess" --game=volpe $sides --prove --prove-mb=64 --prove-guess=room
if grep -q '^start: a draw (neither side can force a win)$' "$work/out" &&
    ! cmp -s "$work/prove-first" "$work/out"; then
    ok "prove room guess: the same value by another search"
else
    bad "prove room guess: the same value by another search" "$(cat "$work/out")"
fi
# A database of another game only (three geese, the fox winning with 2 left) serves nothing:
# refused, not read as "0 groups".
three='--set geese=["C1","D1","E1"] --set fox_wins_at=1'
rm -rf "$work/solve-three"
# shellcheck disable=SC2086
expect_ok "solve three geese" --game=volpe $three --solve="$work/solve-three"
# shellcheck disable=SC2086
expect_error "prove with another game's db" 2 "holds no group of this game: .*solved under other rules" \
    --game=volpe $two --prove --prove-mb=8 --db="$work/solve-three"
# Out of nodes: nothing claimed.
# shellcheck disable=SC2086
expect_ok "prove out of nodes" --game=volpe $three --prove --prove-nodes=50 --prove-mb=8
if grep -q '^geese win? unknown: ' "$work/out" && grep -q '^start: not settled$' "$work/out"; then
    ok "prove out of nodes claims nothing"
else
    bad "prove out of nodes claims nothing" "$(cat "$work/out")"
fi
rm -rf "$work/solve-three" "$work/solve-sides"
