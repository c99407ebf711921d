# cli_hardening.sh — regression tests of issue 15 (lost files, leaked permissions, loose
# numbers), run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh: expect_ok, expect_error, ok, bad,
# $bin, $work, $top). The ulimit tests run in a subshell so that the limit ends with them.

# no_tmp NAME DIR — no temporary file is left in DIR.
no_tmp() {
    if ls "$2" | grep -q 'tmp-'; then bad "$1" "$(ls "$2" | grep 'tmp-')"; else ok "$1"; fi
}

# ---- 2. a file-size limit is a write error (exit 3, one line), not a signal ---------------
mkdir "$work/fsz"
(
    ulimit -f 8
    "$bin" --game=oca --runs=2000 --seed=1 -q --format=json -o "$work/fsz/r.json" \
        >"$work/fsz.out" 2>"$work/fsz.err"
    echo $? >"$work/fsz.rc"
)
rc=$(cat "$work/fsz.rc")
[ "$rc" -eq 3 ] && [ "$(wc -l <"$work/fsz.err")" -eq 1 ] &&
    grep -q "cannot write '$work/fsz/r.json': File too large" "$work/fsz.err" &&
    ok "file-size limit: exit 3, one line" || bad "file-size limit: exit 3, one line" "exit $rc: $(cat "$work/fsz.err")"
[ ! -e "$work/fsz/r.json" ] && ok "file-size limit: no report" || bad "file-size limit: no report" "written"
no_tmp "file-size limit: no temporary file" "$work/fsz"

# ---- 3. symbolic links: written through, or refused; never replaced -----------------------
mkdir "$work/links"
ln -s made.txt "$work/links/dangling"
expect_ok "dangling link as --output" --game=45 --runs=10 --seed=1 -q -o "$work/links/dangling"
[ -L "$work/links/dangling" ] && grep -q '^45 ' "$work/links/made.txt" &&
    ok "dangling link kept, the file it names created" || bad "dangling link kept, the file it names created" "$(ls -l "$work/links")"
ln -s loop2 "$work/links/loop1"
ln -s loop1 "$work/links/loop2"
expect_error "link loop as --output" 3 "cannot write '$work/links/loop1': Too many levels of symbolic links" \
    --game=45 --runs=10 -q -o "$work/links/loop1"
[ -L "$work/links/loop1" ] && ok "link loop kept" || bad "link loop kept" "replaced"
ln -s nodir/x.txt "$work/links/inmissing"
expect_error "link into a missing directory" 3 "cannot write '$work/links/inmissing' \\(a symbolic link to '.*nodir/x.txt'\\): No such file or directory" \
    --game=45 --runs=10 -q -o "$work/links/inmissing"
[ -L "$work/links/inmissing" ] && ok "link into a missing directory kept" || bad "link into a missing directory kept" "replaced"
ln -s dangling "$work/links/chain"
expect_ok "chain of links ending dangling" --game=45 --runs=10 --seed=2 -q --games-csv="$work/links/chain" -o /dev/null
[ -L "$work/links/chain" ] && [ -L "$work/links/dangling" ] && grep -q '^game_index,' "$work/links/made.txt" &&
    ok "chain of links kept, last target written" || bad "chain of links kept, last target written" "$(ls -l "$work/links")"
expect_error "two links to one file" 2 "--output and --games-csv name the same file" \
    --game=45 --runs=10 -q -o "$work/links/chain" --games-csv="$work/links/made.txt"
no_tmp "links: no temporary file" "$work/links"

# ---- 4. a replaced file keeps its mode -----------------------------------------------------
echo old >"$work/private.txt"
chmod 600 "$work/private.txt"
expect_ok "replace a 600 report" --game=45 --runs=10 --seed=1 -q -o "$work/private.txt"
mode=$(stat -c %a "$work/private.txt")
[ "$mode" = 600 ] && grep -q '^45 ' "$work/private.txt" && ok "replaced report keeps mode 600" ||
    bad "replaced report keeps mode 600" "mode $mode"
if [ "$(id -u)" = 0 ]; then # only root can give a file away: then the owner is kept too
    chown 65534:65534 "$work/private.txt"
    expect_ok "replace a report owned by another user" --game=45 --runs=10 --seed=1 -q -o "$work/private.txt"
    owner=$(stat -c %u:%g "$work/private.txt")
    [ "$owner" = 65534:65534 ] && ok "replaced report keeps its owner" || bad "replaced report keeps its owner" "owner $owner"
fi
chmod 640 "$work/private.txt"
ln -s private.txt "$work/private-link"
expect_ok "replace a 640 report through a link" --game=45 --runs=10 --seed=1 -q -o "$work/private-link"
mode=$(stat -c %a "$work/private.txt")
[ "$mode" = 640 ] && ok "replaced report keeps mode 640 through a link" || bad "replaced report keeps mode 640 through a link" "mode $mode"

# ---- 6. numbers: exactly JSON's syntax, the key named ---------------------------------------
for v in 01 1. 0x10 +5 .5; do
    expect_error "--set limit=$v is refused" 2 "ruleset key 'limit': expected an integer" --game=45 --set limit=$v
done
printf '{"limit": 01}' >"$work/n01.json"
expect_error "config number 01" 2 "n01.json: ruleset key 'limit': '01' is not a JSON number" --game=45 --config="$work/n01.json"
printf '{"board": [{"amount": 1.}]}' >"$work/n1.json"
expect_error "config number 1." 2 "n1.json: ruleset key 'board\\[0\\].amount': '1.' is not a JSON number" --game=oca --config="$work/n1.json"
for v in 0x10 0x1p4 " 16" 016 16.0.0 inf; do
    expect_error "bot parameter '$v' is refused" 2 "bot 'rollout' parameter 'playouts': expected a whole number in 1\\.\\.100000" \
        --game=45 --bots="rollout:playouts=$v" --runs=1
done
expect_ok "bot parameter 1e1 is a JSON number" --game=45 --bots=rollout:playouts=1e1 --runs=1 -q
expect_error "array index with a leading zero" 2 "--set 'board.03.name': no element 03" --game=oca --set board.03.name=x

# ---- 7. strings: valid UTF-8, no \u0000 --------------------------------------------------------
printf '{"board": [{"name": "start\377"}]}' >"$work/utf8.json"
expect_error "invalid UTF-8 in a ruleset string" 2 "utf8.json: ruleset key 'board\\[0\\].name': a string is not valid UTF-8" \
    --game=oca --config="$work/utf8.json"
printf '{"board": [{"name": "\\u0000abc"}]}' >"$work/nul.json"
expect_error "\\u0000 in a ruleset string" 2 "nul.json: ruleset key 'board\\[0\\].name': a string holds .u0000" \
    --game=oca --config="$work/nul.json"
expect_error "\\u0000 in a --set string" 2 "--set 'board.1.name': a string holds .u0000" --game=oca --set 'board.1.name="\u0000abc"'
expect_error "lone surrogate in a --set string" 2 "--set 'board.1.name': a string holds a lone surrogate" --game=oca --set 'board.1.name="\udc00"'
expect_error "invalid UTF-8 in a plain --set string" 2 "--set 'board.1.name': the value is not valid UTF-8" \
    --game=oca --set "board.1.name=$(printf 'x\377')"
# a valid name reaches the report, which parses (board.1 is the first square, [0] in JSON)
expect_ok "UTF-8 name in the report" --game=oca --set 'board.1.name="caf\u00e9 \ud83c\udfb2"' --runs=5 --seed=1 -q --format=json
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; r = json.load(sys.stdin); assert r["ruleset"]["board"][0]["name"] == "caf\u00e9 \U0001f3b2"' <"$work/out" &&
        ok "UTF-8 name round trip" || bad "UTF-8 name round trip" "$(grep -m1 caf "$work/out")"
fi

# ---- 8. a huge ruleset is refused early, in little memory ----------------------------------------
awk 'BEGIN { printf "{\"x\": ["; for (i = 0; i < 400000; i++) printf "%s0", i ? "," : ""; print "]}" }' >"$work/big.json"
(
    # 200 MB: the old loader took about 80 bytes a value (not under ASan, which maps terabytes)
    [ -n "${GIOCHI_SANITIZE:-}" ] || ulimit -v 200000
    "$bin" --game=45 --config="$work/big.json" >/dev/null 2>"$work/big.err"
    echo $? >"$work/big.rc"
)
[ "$(cat "$work/big.rc")" -eq 2 ] && grep -q "big.json: ruleset key 'x\\[99998\\]': more than 100000 values (the limit for a ruleset)" "$work/big.err" &&
    ok "huge ruleset refused by its size" || bad "huge ruleset refused by its size" "exit $(cat "$work/big.rc"): $(cat "$work/big.err")"

# ---- 9. too deep a ruleset names the limit ----------------------------------------------------
awk 'BEGIN { for (i = 0; i < 1100; i++) printf "["; for (i = 0; i < 1100; i++) printf "]"; print "" }' >"$work/deep.json"
expect_error "deep ruleset names the limit" 2 "deep.json: arrays and objects nested deeper than 64 levels \\(the limit\\) at line 1, column 65" \
    --game=45 --config="$work/deep.json"

# ---- 1. memory does not grow with --runs; out of memory is exit 5 with nothing left ------------
# 10^12 games under a 1 GB address-space limit (the old runner reserved 15 GB up front and
# aborted with exit 134): the run starts and writes games-CSV rows, then is stopped.
mkdir "$work/mem"
(
    [ -n "${GIOCHI_SANITIZE:-}" ] || ulimit -v 1000000
    exec "$bin" --game=45 --runs=1000000000000 --seed=1 -q --threads=2 \
        --games-csv="$work/mem/g.csv" -o "$work/mem/r.json" 2>"$work/mem.err"
) &
pid=$!
# wait (without sleeping) until rows reach the games CSV, or the run has died. The file is
# unnamed until the run ends (O_TMPFILE where the system has it, else a g.csv.tmp-* name), so
# it is found as the run's open file in that folder, through /proc/PID/fd.
rows=
tries=0
while kill -0 $pid 2>/dev/null && [ $tries -lt 2000 ]; do
    # the run's files in that folder (the report's too, empty until the end)
    for f in $(ls -l /proc/$pid/fd 2>/dev/null | sed -n "s#.* \([0-9][0-9]*\) -> $work/mem/.*#/proc/$pid/fd/\1#p") \
        $(ls "$work"/mem/g.csv.tmp-* 2>/dev/null); do
        rows=$(sed -n '2,3p' "$f" 2>/dev/null | grep -c '^[0-9][0-9]*,')
        [ "$rows" = 2 ] && break 2
    done
    tries=$((tries + 1))
done
if kill -0 $pid 2>/dev/null && [ "$rows" = 2 ]; then
    ok "10^12 games start within 1 GB (rows written)"
    kill -TERM $pid
elif kill -0 $pid 2>/dev/null; then
    bad "10^12 games start within 1 GB (rows written)" "no games CSV rows after $tries looks"
    kill -TERM $pid
else
    bad "10^12 games start within 1 GB (rows written)" "the run ended: $(cat "$work/mem.err")"
fi
{ wait $pid; } 2>/dev/null
no_tmp "10^12 games stopped: no temporary file" "$work/mem"
# more threads than the address space allows: exit 5, one line, no file of either output
if [ -z "${GIOCHI_SANITIZE:-}" ]; then
    (
        ulimit -v 400000
        "$bin" --game=45 --runs=100000 --threads=1024 --seed=1 -q --games-csv="$work/mem/g.csv" \
            -o "$work/mem/r.json" >"$work/mem.out" 2>"$work/mem.err"
        echo $? >"$work/mem.rc"
    )
    rc=$(cat "$work/mem.rc")
    [ "$rc" -eq 5 ] && [ "$(wc -l <"$work/mem.err")" -eq 1 ] && grep -q '^giochi-sim: out of memory (' "$work/mem.err" &&
        ok "out of memory: exit 5, one line" || bad "out of memory: exit 5, one line" "exit $rc: $(head -c 300 "$work/mem.err")"
    [ ! -e "$work/mem/r.json" ] && [ ! -e "$work/mem/g.csv" ] && ok "out of memory: no output" ||
        bad "out of memory: no output" "$(ls "$work/mem")"
    no_tmp "out of memory: no temporary file" "$work/mem"
fi

# ---- 5. a single-valued option given twice is an error; --config files merge in order ---------
expect_error "--runs twice" 2 "option --runs is given twice \\(it takes one value\\)" --game=45 --runs=abc --runs=5
expect_error "--bots twice" 2 "option --bots is given twice" --game=45 --bots=nonsense --bots=greedy
expect_error "-n and --runs" 2 "option --runs is given twice" --game=45 -n 5 --runs=5
expect_error "--output twice" 2 "option --output is given twice" --game=45 --runs=5 -o "$work/x1" -o "$work/x2"
expect_ok "a flag twice" --game=45 --runs=5 -q -q
printf '{"limit": 30}' >"$work/ca.json"
printf '{"tiles": 8}' >"$work/cb.json"
printf '{"limit": 35}' >"$work/cc.json"
expect_ok "--config twice" --game=45 --config="$work/ca.json" --config="$work/cb.json" --config="$work/cc.json" --print-ruleset
grep -q '"limit":[[:space:]]*35' "$work/out" && grep -q '"tiles":[[:space:]]*8' "$work/out" &&
    ok "--config files merge in order" || bad "--config files merge in order" "$(head -c 200 "$work/out")"
expect_error "--list checks the other options" 2 "--runs 'abc'" --list --runs=abc
expect_error "--list --game checks --bots" 2 "unknown bot 'nonsense' for game 45" --list --game=45 --bots=nonsense
expect_error "--list without a game refuses --bots" 2 "--list: --bots needs --game" --list --bots=greedy
expect_error "--list with --games-csv" 2 "--list cannot be combined with --games-csv" --list --games-csv="$work/g.csv"
expect_error "--list as html" 2 "--list prints text or json: it cannot be combined with --format=html" --list --format=html
expect_error "--print-ruleset checks the other options" 2 "--threads '0'" --game=45 --print-ruleset --threads=0
expect_error "--print-ruleset checks the seats" 2 "--players '9'" --game=45 --print-ruleset --players=9
expect_error "--print-ruleset with --trace" 2 "--print-ruleset cannot be combined with --trace" --game=45 --print-ruleset --trace=1
expect_ok "--list to --output" --list --output="$work/list.txt"
[ ! -s "$work/out" ] && grep -q '^45 — ' "$work/list.txt" && ok "--list writes --output" || bad "--list writes --output" "stdout or file wrong"
expect_ok "--print-ruleset to --output" --game=45 --print-ruleset --set limit=31 -o "$work/rules-out.json"
[ ! -s "$work/out" ] && grep -q '"limit":[[:space:]]*31' "$work/rules-out.json" && ok "--print-ruleset writes --output" ||
    bad "--print-ruleset writes --output" "stdout or file wrong"
expect_error "--print-ruleset to a missing directory" 3 "cannot write '$work/none/r.json'" --game=45 --print-ruleset -o "$work/none/r.json"

# ---- 10. --progress for logs; --list names the slow bots ---------------------------------------
expect_ok "--progress to a log" --game=45 --runs=50 --seed=1 --progress --threads=1
grep -q '^giochi-sim: progress: 45: 50 games on 1 threads$' "$work/err" &&
    grep -q '^giochi-sim: progress: 45: 50/50 games in [0-9.]* s$' "$work/err" &&
    ok "--progress lines in the log" || bad "--progress lines in the log" "$(cat "$work/err")"
grep -q '^45 ' "$work/out" && ok "--progress keeps the report on stdout" || bad "--progress keeps the report on stdout" "no report"
expect_error "--quiet and --progress" 2 "--quiet and --progress contradict each other" --game=45 --runs=5 -q --progress
"$bin" --game=45 --runs=50 --seed=1 >/dev/null 2>"$work/err"
[ ! -s "$work/err" ] && ok "no progress in a log without --progress" || bad "no progress in a log without --progress" "$(cat "$work/err")"
"$bin" --list --game=oca >"$work/list.txt"
grep -q '^    rollout .*\[slow here' "$work/list.txt" && ok "--list marks rollout slow in oca" || bad "--list marks rollout slow in oca" "$(grep rollout "$work/list.txt")"
"$bin" --list --game=45 >"$work/list.txt"
grep -q 'slow here' "$work/list.txt" && bad "--list marks nothing slow in 45" "$(grep slow "$work/list.txt")" || ok "--list marks nothing slow in 45"

# ---- 11. --check verifies each game's invariants during a run, the user's ruleset too ---------
for g in 45 oca pig10; do
    expect_ok "$g --check" --game="$g" --runs=500 --seed=4 --check --format=csv -q
    cp "$work/out" "$work/checked.csv"
    expect_ok "$g without --check" --game="$g" --runs=500 --seed=4 --format=csv -q
    same "$g: --check changes no figure" "$work/out" "$work/checked.csv"
done
expect_ok "--check with --trace" --game=oca --runs=10 --seed=1 --trace=3 --check
expect_error "--check with --perft" 2 "--perft counts move paths: it cannot be combined" --game=45 --perft=2 --check

# ---- issue 27, 8: a bot out of memory is exit 5 (not a bot that failed to set up) ------------
# Under a 40 MB address-space limit a plain run of one wari game fits, while alphabeta's
# transposition table of 2^24 entries and mcts's tree of 10^6 nodes (32 MB, and its path) do not.
if [ -z "${GIOCHI_SANITIZE:-}" ]; then
    for b in alphabeta:tt=24 mcts:playouts=1e6; do
        for bots in greedy "$b"; do
            (
                ulimit -v 40000
                "$bin" --game=wari --bots="$bots" --runs=1 --threads=1 --seed=1 -q -o "$work/mem/bot.json" \
                    >/dev/null 2>"$work/mem.err"
                echo $? >"$work/mem.rc"
            )
            rc=$(cat "$work/mem.rc")
            if [ "$bots" = greedy ]; then
                [ "$rc" -eq 0 ] && ok "40 MB suffice for a plain wari game" || bad "40 MB suffice for a plain wari game" "exit $rc: $(cat "$work/mem.err")"
            else
                [ "$rc" -eq 5 ] && [ "$(wc -l <"$work/mem.err")" -eq 1 ] &&
                    grep -q "^giochi-sim: out of memory (bot '${b%%:*}' " "$work/mem.err" &&
                    ok "$b out of memory: exit 5, one line" || bad "$b out of memory: exit 5, one line" "exit $rc: $(head -c 300 "$work/mem.err")"
            fi
        done
    done
    rm -f "$work/mem/bot.json"
    no_tmp "bot out of memory: no temporary file" "$work/mem"
fi

# ---- issue 27, 1-3 and 8: --merge treats a part as hostile: exit 2, one line naming the file ----
# a file of zeros is refused at its first line (the old reader read /dev/zero without bound:
# under the limit of 100 MB it could not even start the check); /dev/zero itself, a device, is
# refused before it is opened (issue 41)
head -c 1000000 /dev/zero >"$work/zeros"
(
    [ -n "${GIOCHI_SANITIZE:-}" ] || ulimit -v 100000
    "$bin" --merge "$work/zeros" >"$work/zero.out" 2>"$work/zero.err"
    echo $? >"$work/zero.rc"
)
[ "$(cat "$work/zero.rc")" -eq 2 ] && [ "$(wc -l <"$work/zero.err")" -eq 1 ] &&
    grep -q "^giochi-sim: '$work/zeros' is not a giochi-sim partial result" "$work/zero.err" &&
    ok "--merge of zeros refused at once" || bad "--merge of zeros refused at once" "exit $(cat "$work/zero.rc"): $(head -c 300 "$work/zero.err")"
expect_error "--merge /dev/zero refused at once" 2 "^giochi-sim: '/dev/zero' is a character device, not a partial result" \
    --merge /dev/zero
# Forged parts with a valid checksum (FNV-1a over all before it, recomputed here): one whose
# identity (both parts') says 901 runs for the 900 their batch holds, one whose game count is not its length's.
if command -v python3 >/dev/null 2>&1; then
    mkdir "$work/forge"
    for i in 0 1; do
        "$bin" --game=45 --runs=900 --seed=4 --shard=$i/2 -q -o "$work/forge/p.$i" || bad "forge: shard $i" "exit $?"
    done
    cat >"$work/forge/forge.py" <<'PY'
import struct, sys
src, dst, what = sys.argv[1:4]
b = open(src, "rb").read()
head = b.index(b"\n", b.index(b"\n") + 1) + 1          # magic line, identity line
magic_id, rest = b[:head], b[head:-8]
if what == "runs":
    magic_id = magic_id.replace(b'"runs":900', b'"runs":901')
else:                                                  # the batch's game count: word 2 + 4
    p = bytearray(rest)
    at = 8 + 8 * (2 + 4)
    p[at:at + 8] = struct.pack("<Q", struct.unpack("<Q", p[at:at + 8])[0] + 1)
    rest = bytes(p)
h = 0xcbf29ce484222325
for c in magic_id + rest:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open(dst, "wb").write(magic_id + rest + struct.pack("<Q", h))
PY
    python3 "$work/forge/forge.py" "$work/forge/p.0" "$work/forge/runs.0" runs
    python3 "$work/forge/forge.py" "$work/forge/p.1" "$work/forge/runs.1" runs
    python3 "$work/forge/forge.py" "$work/forge/p.1" "$work/forge/games.1" games
    expect_ok "forge: the genuine parts merge" --merge "$work/forge/p.0" "$work/forge/p.1"
    expect_error "forge: identity runs not the contents'" 2 \
        "^giochi-sim: '$work/forge/runs.0'.*identity says runs 901, but it holds a batch of 900 games" \
        --merge "$work/forge/runs.1" "$work/forge/runs.0"
    expect_error "forge: games not the length's" 2 \
        "^giochi-sim: '$work/forge/games.1': partial result does not make sense: game length: 450 observations of 451 games$" \
        --merge "$work/forge/p.0" "$work/forge/games.1"
    # counts tied to the games: an end count lowered (every game ends one way), a seat's
    # choices beyond what 450 games of at most 45 rounds allow (two a tile a round)
    python3 "$here/forge_part.py" "$work/forge/p.1" "$work/forge/end.1" --shape=12,12 "r0.end.0:u64:add:-1"
    python3 "$here/forge_part.py" "$work/forge/p.1" "$work/forge/choices.1" --shape=12,12 "r0.choices.0:u64:set:2**40"
    expect_error "forge: an end count lowered" 2 \
        "^giochi-sim: '$work/forge/end.1': partial result does not make sense: end counts: 449 ends of 450 games$" \
        --merge "$work/forge/p.0" "$work/forge/end.1"
    expect_error "forge: choices beyond the game's limits" 2 \
        "^giochi-sim: '$work/forge/choices.1': partial result does not make sense: choices of seat 1: more choices than 450 games of [0-9]* rounds in all allow$" \
        --merge "$work/forge/p.0" "$work/forge/choices.1"
fi

# ---- issue 27: authenticity: GIOCHI_PART_KEY signs parts (HMAC-SHA-256) and --merge checks them --
# (exported for one check at a time and unset after: the later tests run without a key)
mkdir "$work/keyed"
printf 'a key of thirty-two bytes, fixed' >"$work/keyed/key"
printf 'another key of thirty-two bytes!' >"$work/keyed/other"
for i in 0 1; do
    GIOCHI_PART_KEY="$work/keyed/key" "$bin" --game=45 --runs=300 --seed=6 --shard=$i/2 -q \
        -o "$work/keyed/p.$i" || bad "keyed shard $i" "exit $?"
done
"$bin" --game=45 --runs=300 --seed=6 --shard=1/2 -q -o "$work/keyed/plain.1"
unset GIOCHI_PART_KEY
export GIOCHI_PART_KEY="$work/keyed/key"
expect_ok "keyed: parts signed with the key merge" --merge "$work/keyed/p.0" "$work/keyed/p.1"
unset GIOCHI_PART_KEY
export GIOCHI_PART_KEY="$work/keyed/other"
expect_error "keyed: another key is refused" 2 \
    "^giochi-sim: '$work/keyed/p.0' fails its MAC check: written with another key, or altered since \\(GIOCHI_PART_KEY\\)$" \
    --merge "$work/keyed/p.0" "$work/keyed/p.1"
unset GIOCHI_PART_KEY
export GIOCHI_PART_KEY="$work/keyed/key"
expect_error "keyed: an unsigned part is refused" 2 \
    "^giochi-sim: '$work/keyed/plain.1' carries no MAC, and GIOCHI_PART_KEY asks for one" \
    --merge "$work/keyed/p.0" "$work/keyed/plain.1"
unset GIOCHI_PART_KEY
expect_ok "keyed: without the key, signed and unsigned parts merge" --merge "$work/keyed/p.0" "$work/keyed/plain.1"
unset GIOCHI_PART_KEY
export GIOCHI_PART_KEY="$work/keyed/none"
expect_error "keyed: a missing key file stops a shard before it plays" 2 \
    "^giochi-sim: GIOCHI_PART_KEY: cannot read the key file '$work/keyed/none': No such file or directory$" \
    --game=45 --runs=300 --seed=6 --shard=0/2 -q -o "$work/keyed/x"
unset GIOCHI_PART_KEY

# ---- issue 41, 3: --merge reads regular files only, and every refusal names its file -----------
mkdir "$work/m41"
for i in 0 1; do
    "$bin" --game=45 --runs=100 --seed=2 --shard=$i/2 -q -o "$work/m41/p.$i" || bad "m41: shard $i" "exit $?"
done
# a FIFO nobody writes to is refused at once (the old reader blocked in its open for ever:
# timeout's 124 here)
mkfifo "$work/m41/fifo"
timeout 20 "$bin" --merge "$work/m41/fifo" "$work/m41/p.1" >"$work/out" 2>"$work/err" </dev/null
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
    grep -q "^giochi-sim: '$work/m41/fifo' is a FIFO, not a partial result: --merge reads the regular files --shard writes$" "$work/err" &&
    ok "--merge of a FIFO refused at once" || bad "--merge of a FIFO refused at once" "exit $rc: $(head -c 300 "$work/err")"
expect_error "--merge of a directory" 2 "^giochi-sim: '$work/m41' is a directory, not a partial result" \
    --merge "$work/m41/p.0" "$work/m41"
expect_error "--merge of /dev/null" 2 "^giochi-sim: '/dev/null' is a character device, not a partial result" \
    --merge /dev/null "$work/m41/p.1"
ln -s fifo "$work/m41/fifo-link"
timeout 20 "$bin" --merge "$work/m41/fifo-link" >"$work/out" 2>"$work/err" </dev/null
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^giochi-sim: '$work/m41/fifo-link' is a FIFO" "$work/err" &&
    ok "--merge of a link to a FIFO" || bad "--merge of a link to a FIFO" "exit $rc: $(head -c 300 "$work/err")"
expect_error "--merge of a missing file" 2 "^giochi-sim: cannot read '$work/m41/none': No such file or directory$" \
    --merge "$work/m41/none"
expect_error "--merge: a missing shard names the run's file" 2 \
    "^giochi-sim: shard 1/2 of the run of '$work/m41/p.0' is missing$" --merge "$work/m41/p.0"
# Parts whose identity (the same in both, checksum recomputed) names what cannot be set up: the
# refusal names the file whose identity it read.
cat >"$work/m41/forge_id.py" <<'PY'
import json, struct, sys
src, dst, edit = sys.argv[1:4]
b = open(src, "rb").read()
first = b.index(b"\n") + 1
head = b.index(b"\n", first) + 1                     # the magic line, the identity line
ident = json.loads(b[first:head - 1])
key, _, value = edit.partition("=")
if value == "-":
    del ident["ruleset"][key]
else:
    ident[key] = json.loads(value)
text = b[:first] + json.dumps(ident, separators=(",", ":")).encode() + b"\n" + b[head:-8]
h = 0xcbf29ce484222325
for c in text:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open(dst, "wb").write(text + struct.pack("<Q", h))
PY
for edit in "limit=-" 'bots=["nosuch","greedy"]' 'game="chess"' 'seed="x"'; do
    for i in 0 1; do
        python3 "$work/m41/forge_id.py" "$work/m41/p.$i" "$work/m41/f.$i" "$edit"
    done
    case $edit in
    limit=-) want="ruleset key 'limit': missing" ;;
    bots=*) want="unknown bot 'nosuch' for game 45" ;;
    game=*) want="unknown game 'chess'" ;;
    seed=*) want="--seed 'x': expected a whole number" ;;
    esac
    expect_error "--merge: a forged identity ($edit) names the file" 2 \
        "^giochi-sim: '$work/m41/f.1': $want" --merge "$work/m41/f.1" "$work/m41/f.0"
done
