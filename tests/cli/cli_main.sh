# cli_main.sh — the tool's own command-line tests: --help, --version and --list against the
# manual, bad input (one line, exit 2, nothing written), output files complete or absent,
# byte-for-byte reproducibility across thread counts, --trace against the batch, and every
# example of the manual pages run as written. Run by tests/cli/run.sh (its kit: lib.sh).
# ---- help, version, list -----------------------------------------------------------------
expect_ok help --help
for opt in game runs seed players bots threads format output config set games-csv trace \
    exact print-ruleset list quiet; do
    if grep -q -- "--$opt" "$work/out"; then ok "help names --$opt"; else bad "help names --$opt" "missing"; fi
    if grep -q -- "-$(echo "$opt" | sed 's/-/\\\\-/g')" "$top/man/giochi-sim.1"; then
        ok "man page documents --$opt"
    else
        bad "man page documents --$opt" "missing from man/giochi-sim.1"
    fi
done
# every long option --help shows is documented in the man page
for opt in $(grep -oE -- '--[a-z][a-z-]+' "$work/out" | sort -u); do
    o=${opt#--}
    case $o in help | usage | version) continue ;; esac
    if grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$top/man/giochi-sim.1"; then
        ok "man page has $opt"
    else
        bad "man page has $opt" "undocumented"
    fi
done
# --help's groups are giochi-sim(1)'s subsections of OPTIONS, in the same order
sed -n 's/^ \([A-Z][^:]*\)[ (:].*/\1/p' "$work/out" | sed 's/ (.*//' >"$work/help-groups"
sed -n '/^\.SH OPTIONS/,/^\.SH /s/^\.SS "*\([^"]*\)"*$/\1/p' "$top/man/giochi-sim.1" >"$work/man-groups"
[ "$(wc -l <"$work/help-groups")" -ge 6 ] && same "--help groups are the man page's" "$work/help-groups" "$work/man-groups" ||
    bad "--help groups are the man page's" "$(cat "$work/help-groups")"
tr '\n' ' ' <"$work/out" | grep -q 'Exit status: 0 .* 5 out of memory, 6 a bot outside.* 7 the human seat quit, 128+N' &&
    ok "--help lists every exit status" || bad "--help lists every exit status" "6, 7 or 128+N missing"
grep -q "^Report bugs to .*README.md, Reporting bugs" "$work/out" && grep -q '^## Reporting bugs' "$top/README.md" &&
    ok "--help says where to report bugs, and README has the section" || bad "--help says where to report bugs" "no README section"
expect_ok version --version
grep -q '^giochi-sim [0-9]' "$work/out" && ok "version text" || bad "version text" "$(cat "$work/out")"
expect_ok list --list
for g in $("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p'); do
    expect_ok "list --game=$g" --list --game="$g"
    expect_ok "print-ruleset $g" --game="$g" --print-ruleset
    # the printed default ruleset loads back as a config file and prints the same
    cp "$work/out" "$work/rules.json"
    expect_ok "ruleset round trip $g" --game="$g" --config="$work/rules.json" --print-ruleset
    same "ruleset round trip is identical $g" "$work/out" "$work/rules.json"
done
# --list names each game's rule text by its path in the source tree, and the game's manual
# page cites the same file
"$bin" --list --format=json | sed -n 's/^\t\t\t"name":\t"\([^"]*\)",$/\1/p; s/^\t\t\t"rules":\t"\([^"]*\)",$/\1/p' |
    paste - - >"$work/rules-list"
[ "$(wc -l <"$work/rules-list")" -ge 6 ] && ok "--list names a rule text per game" ||
    bad "--list names a rule text per game" "$(cat "$work/rules-list")"
while read -r g text; do
    [ -f "$top/$text" ] && case $text in doc/rules/*.txt) true ;; *) false ;; esac &&
        ok "$g's rule text $text is in doc/rules/" || bad "$g's rule text is in doc/rules/" "'$text'"
    grep -qF -- "$(echo "$text" | sed 's/-/\\-/g')" "$top/man/giochi-sim-$g.7" &&
        ok "giochi-sim-$g(7) cites $text" || bad "giochi-sim-$g(7) cites $text" "missing"
done <"$work/rules-list"

# ---- bad input: one line, exit 2, nothing written ------------------------------------------
expect_error "no game" 2 'no game given.*games:' --runs=10
expect_error "unknown game" 2 "unknown game 'chess' \\(games: " --game=chess
expect_error "unknown bot" 2 "unknown bot 'zz' for game 45 \\(bots: random" --game=45 --bots=zz
expect_error "unknown bot parameter" 2 "bot 'random' takes no parameters" --game=45 --bots=random:x=1
expect_error "too many bots" 2 "lists 3 bots for 2 players" --game=45 --players=2 --bots=random,random,random
expect_error "negative runs" 2 "--runs '-5': expected a whole number" --game=45 --runs=-5
expect_error "zero runs" 2 "--runs '0'" --game=45 --runs=0
expect_error "perft of a chance game" 2 "--perft: 45 has chance or hidden information" --game=45 --perft=2
expect_error "perft with bots" 2 "--perft counts move paths: it cannot be combined" --game=45 --perft=2 --bots=random
expect_error "perft depth" 2 "--perft '0': expected a whole number in 1..64" --game=45 --perft=0
expect_error "huge runs" 2 "--runs '99999999999999999999999'" --game=45 --runs=99999999999999999999999
expect_error "text runs" 2 "--runs 'many'" --game=45 --runs=many
expect_error "players out of range" 2 "--players '9': expected a whole number in 1\.\.8" \
    --game=45 --players=9
expect_error "players of a two-seat game" 2 "--players '3': expected exactly 2\$" \
    --game=volpe --players=3
expect_error "bots of a two-seat game" 2 "volpe is for exactly 2 players, not 3" \
    --game=volpe --bots=random,random,random
expect_error "zero threads" 2 "--threads '0'" --game=45 --threads=0
expect_error "bad seed" 2 "--seed 'abc'" --game=45 --seed=abc
expect_error "bad format" 2 "--format 'xml'" --game=45 --format=xml
expect_error "unknown ruleset key" 2 "ruleset key 'no_such_key': unknown key" --game=45 --set no_such_key=1
expect_error "set without value" 2 "expected KEY=VALUE" --game=45 --set limit
expect_error "empty bot in list" 2 "empty bot name" --game=45 --bots=random,,random
expect_error "empty bot parameter" 2 "bot 'greedy': empty parameter" --game=oca --bots=greedy::trade=1
expect_error "trailing colon after a bot" 2 "bot 'greedy': empty parameter" --game=oca --bots=greedy:
expect_error "bot parameter given twice" 2 "bot 'greedy': parameter 'trade' is given twice" --game=oca --bots=greedy:trade=1:trade=0
expect_error "bot name empty before parameters" 2 "empty bot name" --game=oca --bots=:trade=1
expect_error "set inside a number" 2 "'tiles' is not an object or array" --game=45 --set tiles.x=1
expect_error "set with a trailing dot" 2 "--set 'limit.': empty key between dots" --game=45 --set limit.=30
printf '{"limit": 30, "limit": 40}' >"$work/twice.json"
expect_error "key given twice in a ruleset file" 2 "twice.json: key 'limit' is given twice in one object" --game=45 --config="$work/twice.json"
expect_error "option without value" 2 "option .--runs. needs a value" --game=45 --runs
expect_error "missing config" 2 "cannot read '$work/none.json'" --game=45 --config="$work/none.json"
printf '{"limit": 45,,}' >"$work/malformed.json"
expect_error "malformed config" 2 "malformed.json: malformed JSON at line 1, column [0-9]+$" --game=45 --config="$work/malformed.json"
printf '[1,2]' >"$work/array.json"
expect_error "config not an object" 2 "must be a JSON object" --game=45 --config="$work/array.json"
expect_error "trace out of range" 2 "--trace '10'" --game=45 --runs=10 --trace=10
expect_error "trace with json" 2 "--trace prints text: it cannot be combined with --format=json" --game=45 --runs=10 --trace=1 --format=json
expect_error "trace with exact" 2 "--trace cannot be combined with --exact" --game=45 --runs=10 --trace=1 --exact
expect_error "bad option" 2 "unknown option .--frobnicate." --game=45 --frobnicate
# a newline quoted from the input does not break the error into two lines
nl='
'
expect_error "newline in --set key" 2 "ruleset key 'a.x0ab': unknown key" --game=45 --set "a${nl}b=1"
printf '{"a\\nb": 1}' >"$work/newline.json"
expect_error "newline in a ruleset file key" 2 "ruleset key 'a.x0ab': unknown key" --game=45 --config="$work/newline.json"
expect_error "newline in a bot name" 2 "unknown bot 'x.x0ay' for game 45" --game=45 --bots="x${nl}y"
expect_error "stray argument" 2 "unexpected argument" --game=45 extra

# ---- output files: complete or absent ------------------------------------------------------
expect_error "unwritable output" 3 "cannot write '$work/no/dir/r.json'" --game=45 --runs=10 --output="$work/no/dir/r.json"
[ ! -e "$work/no" ] && ok "unwritable output left nothing" || bad "unwritable output left nothing" "created"
expect_error "unwritable games csv" 3 "cannot write" --game=45 --runs=10 --output="$work/r.txt" --games-csv="$work/no/g.csv"
[ ! -e "$work/r.txt" ] && ok "no report when games csv fails" || bad "no report when games csv fails" "report written"
if [ -w /dev/full ]; then
    "$bin" --game=45 --runs=10 --seed=1 --quiet >/dev/full 2>"$work/err"
    rc=$?
    [ $rc -eq 3 ] && ok "full disk gives exit 3" || bad "full disk gives exit 3" "exit $rc"
    for args in --list --help --version "--game=45 --print-ruleset"; do
        # shellcheck disable=SC2086
        "$bin" $args >/dev/full 2>"$work/err"
        rc=$?
        [ $rc -eq 3 ] && ok "full disk on $args gives exit 3" || bad "full disk on $args gives exit 3" "exit $rc"
    done
    expect_error "games csv on a full disk" 3 "cannot write '/dev/full': No space left on device" --game=45 --runs=3000 --games-csv=/dev/full
fi
ls "$work" | grep -q 'tmp-' && bad "no temporary files left" "$(ls "$work")" || ok "no temporary files left"
# a directory, or an empty name, fails at once: nothing on stdout, no report written
mkdir "$work/adir"
expect_error "output is a directory" 3 "cannot write '$work/adir': Is a directory" --game=45 --runs=10 --output="$work/adir"
expect_error "games csv is a directory" 3 "cannot write '$work/adir': Is a directory" --game=45 --runs=10 --games-csv="$work/adir"
expect_error "empty output name" 2 "--output: empty file name" --game=45 --runs=10 --output=
expect_error "empty games csv name" 2 "--games-csv: empty file name" --game=45 --runs=10 --games-csv=
expect_error "report and games csv in one file" 2 "--output and --games-csv name the same file" --game=45 --runs=10 --output="$work/same.csv" --games-csv="$work/adir/../same.csv"
[ ! -e "$work/same.csv" ] && ok "no file when both outputs collide" || bad "no file when both outputs collide" "written"
# a symbolic link stays a link: the file it names receives the report
echo old >"$work/real.txt"
ln -s real.txt "$work/link.txt"
expect_ok "output through a symbolic link" --game=45 --runs=10 --seed=1 --output="$work/link.txt"
[ -L "$work/link.txt" ] && grep -q '^45 ' "$work/real.txt" && ok "link kept, target written" ||
    bad "link kept, target written" "$(ls -l "$work/link.txt")"
# a pipe (or a device such as /dev/null) is written in place, never replaced by a file
if mkfifo "$work/fifo" 2>/dev/null; then
    cat "$work/fifo" >"$work/from-fifo" &
    reader=$!
    expect_ok "output to a named pipe" --game=45 --runs=10 --seed=1 --output="$work/fifo"
    [ -p "$work/fifo" ] && ok "named pipe kept" || { bad "named pipe kept" "replaced"; kill $reader; }
    wait $reader
    grep -q '^45 ' "$work/from-fifo" && ok "report went through the pipe" || bad "report went through the pipe" "empty"
fi
if [ -c /dev/null ]; then
    expect_ok "output to /dev/null" --game=45 --runs=10 --output=/dev/null --games-csv=/dev/null
    [ -c /dev/null ] && ok "/dev/null still a device" || bad "/dev/null still a device" "replaced by a file"
fi
# an interrupted run leaves no temporary file: tests/cli/cli_signals.sh (every signal that
# would end the run)

# ---- reproducibility ---------------------------------------------------------------------
for g in $("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p'); do
    runs=3000
    "$bin" --game="$g" --runs=$runs --seed=7 --threads=1 --format=json -q -o "$work/t1.json" --games-csv="$work/g1.csv"
    "$bin" --game="$g" --runs=$runs --seed=7 --threads=2 --format=json -q -o "$work/t2.json" --games-csv="$work/g2.csv"
    json_without_run "$work/t1.json" >"$work/t1.norun"
    json_without_run "$work/t2.json" >"$work/t2.norun"
    same "$g: JSON identical for 1 and 2 threads" "$work/t1.norun" "$work/t2.norun"
    same "$g: games CSV identical for 1 and 2 threads" "$work/g1.csv" "$work/g2.csv"
    grep -q '"run":' "$work/t1.json" && ok "$g: JSON has a run object" || bad "$g: JSON has a run object" "missing"
    "$bin" --game="$g" --runs=$runs --seed=7 --threads=1 --format=csv -q >"$work/c1.csv"
    "$bin" --game="$g" --runs=$runs --seed=7 --threads=2 --format=csv -q >"$work/c2.csv"
    same "$g: CSV report identical for 1 and 2 threads" "$work/c1.csv" "$work/c2.csv"
    # the header and every row as a spreadsheet imports them: the same cells, numbers as numbers
    python3 "$here/csv_import.py" "$work/c1.csv" 2>"$work/err" && ok "$g: CSV imports, a row of every column" ||
        bad "$g: CSV imports, a row of every column" "$(cat "$work/err")"
    # --trace replays game 1234 exactly as the batch played it
    "$bin" --game="$g" --runs=$runs --seed=7 --trace=1234 -q >"$work/trace.txt"
    row=$(sed -n 's/^csv: \(1234,.*\)/\1/p' "$work/trace.txt")
    if [ -n "$row" ] && grep -qxF "$row" "$work/g1.csv"; then
        ok "$g: --trace matches the batch"
    else
        bad "$g: --trace matches the batch" "row '$row' not in the games CSV"
    fi
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/t1.json" &&
            ok "$g: JSON parses" || bad "$g: JSON parses" "invalid JSON"
    fi
done
# an absent seed is chosen, printed, and repeats the run when given back
"$bin" --game=45 --runs=500 --format=csv -q >"$work/a.csv"
"$bin" --game=45 --runs=500 --format=json -q >"$work/a.json"
seed=$(sed -n 's/^\t"seed":[[:space:]]*"\([0-9]*\)".*/\1/p' "$work/a.json")
[ -n "$seed" ] && ok "chosen seed is printed" || bad "chosen seed is printed" "no seed"
"$bin" --game=45 --runs=500 --format=json -q --seed="$seed" >"$work/b.json"
json_without_run "$work/a.json" >"$work/a.norun"
json_without_run "$work/b.json" >"$work/b.norun"
same "printed seed repeats the run" "$work/a.norun" "$work/b.norun"
# GSL_RNG_* variables change nothing
GSL_RNG_TYPE=taus GSL_RNG_SEED=99 "$bin" --game=45 --runs=500 --format=json -q --seed="$seed" >"$work/c.json"
json_without_run "$work/c.json" >"$work/c.norun"
same "GSL_RNG_* environment changes nothing" "$work/a.norun" "$work/c.norun"
# per-bot rows pool the seats a bot plays: trials add up over its seats
"$bin" --game=45 --runs=300 --seed=1 --players=3 --bots=greedy,random,greedy --format=csv -q >"$work/pool.csv"
s1=$(awk -F, '$2 == "shut_rate" && $3 == 1 {print $8}' "$work/pool.csv")
s3=$(awk -F, '$2 == "shut_rate" && $3 == 3 {print $8}' "$work/pool.csv")
pooled=$(awk -F, '$2 == "shut_rate" && $3 == "" && $4 == "greedy" {print $8}' "$work/pool.csv")
[ -n "$pooled" ] && [ "$pooled" -eq $((s1 + s3)) ] && ok "per-bot metrics pool the bot's seats" ||
    bad "per-bot metrics pool the bot's seats" "seat n $s1 + $s3, pooled n '$pooled'"
# --set changes the effective ruleset shown in the report
"$bin" --game=45 --runs=100 --seed=1 --format=json -q --set limit=30 >"$work/s.json"
grep -q '"limit":[[:space:]]*30' "$work/s.json" && ok "report carries the effective ruleset" ||
    bad "report carries the effective ruleset" "limit 30 not in report"

# one game: a mean of one observation has no interval (null), a metric never observed no value
if command -v python3 >/dev/null 2>&1; then
    "$bin" --game=45 --runs=1 --seed=1 --format=json -q >"$work/one.json"
    python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
assert m["length"]["n"] == 1 and m["length"]["ci95"] is None and m["length"]["sd"] is None, m["length"]
r = m["rolloff_rounds"]
assert r["n"] == 0 and r["value"] is None and r["ci95"] is None and r["min"] is None, r
' "$work/one.json" && ok "one game: no interval claimed" || bad "one game: no interval claimed" "see above"
fi
"$bin" --game=45 --runs=1 --seed=1 --format=csv -q | grep -qE '^45,length,,,[0-9]+,,,1,mean,,,$' &&
    ok "one game: CSV interval cells empty" || bad "one game: CSV interval cells empty" "interval written"

# bots that differ in any parameter are told apart: values in full, names never truncated
"$bin" --game=oca --runs=3 --seed=1 -q --format=csv --players=2 \
    --bots=greedy:trade=0.1234567,greedy:trade=0.1234568 >"$work/bots.csv"
[ "$(grep -c '^oca,win_share,,greedy:trade=0.123456[78],' "$work/bots.csv")" -eq 2 ] &&
    ok "bots differing in the 7th digit are two bots" || bad "bots differing in the 7th digit are two bots" "$(grep ',win_share,,' "$work/bots.csv")"
long=volunteer=0:max_bid=999:declare=0:attack=0:defend=0:jolly_min=999:sit_out=1:trade=0.25:reserve=999:buy_max=999:exchange=0:takeover=0:per_square=49
"$bin" --game=oca --runs=3 --seed=1 -q --format=csv --players=2 \
    --bots=aggressive:$long:keep=1,aggressive:$long:keep=2 >"$work/bots.csv"
[ "$(grep -c "^oca,win_share,,aggressive:$long:keep=[12]," "$work/bots.csv")" -eq 2 ] &&
    ok "bots with long parameter lists are two bots" || bad "bots with long parameter lists are two bots" "$(grep ',win_share,,' "$work/bots.csv" | cut -c1-200)"

# ---- every manual page renders without a warning (when groff is installed) -------------------
if command -v groff >/dev/null 2>&1; then
    for page in "$top"/man/*.[1-9]; do
        w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
        [ -z "$w" ] && ok "$(basename "$page") renders cleanly" || bad "$(basename "$page") renders cleanly" "$w"
    done
fi

# ---- every manual page's EXAMPLES run as written -------------------------------------------
for page in "$top"/man/*.[1-9]; do
    name=$(basename "$page")
    sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$page" | sed -n 's/^\$ //p' |
        sed 's/\\-/-/g; s/\\\\/\\/g' >"$work/examples"
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        case $line in *jq*) command -v jq >/dev/null 2>&1 || continue ;; esac
        if (cd "$work" && PATH="$(dirname "$bin"):$PATH" sh -c "$(echo "$line" | sed "s#giochi-sim #$(basename "$bin") #g")") >/dev/null 2>"$work/err"; then
            ok "$name example $n"
        else
            bad "$name example $n" "$line: $(head -c 200 "$work/err")"
        fi
    done <"$work/examples"
    [ "$n" -gt 0 ] && ok "$name has examples" || bad "$name has examples" "none found"
done


# ---- the Makefile: every declared target has a rule, and the ones its header documents too --
for t in $(sed -n 's/^\.PHONY: *//p' "$top/Makefile") \
    $(sed -n 's/^#   make \([a-z-]*\).*/\1/p; s/^#   make [a-z-]* \/ \([a-z-]*\).*/\1/p' "$top/Makefile"); do
    grep -q "^$t:" "$top/Makefile" && ok "make $t has a rule" || bad "make $t has a rule" "declared or documented, no rule"
done
for t in unit cli check; do
    grep -q "make $t\b" "$top/doc/DEVELOPING.md" && ok "doc/DEVELOPING.md documents make $t" ||
        bad "doc/DEVELOPING.md documents make $t" "missing"
done
