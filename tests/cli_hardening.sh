# cli_hardening.sh — regression tests of issue 15 (lost files, leaked permissions, loose
# numbers), sourced by tests/cli.sh (uses its helpers: expect_ok, expect_error, ok, bad,
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
# a valid name reaches the report, which parses
expect_ok "UTF-8 name in the report" --game=oca --set 'board.1.name="caf\u00e9 \ud83c\udfb2"' --runs=5 --seed=1 -q --format=json
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; r = json.load(sys.stdin); assert r["ruleset"]["board"][1]["name"] == "caf\u00e9 \U0001f3b2"' <"$work/out" &&
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
