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
