# cli_discover.sh — a command line people can discover (issue 29): --list as text and JSON
# with every ruleset key described, did-you-mean for mistyped names, --config=-, counts such
# as 1e5, the bash completion, --games-csv for experiments, --csv-decimal=, and the examples
# of --help and the README run as written. Run by tests/cli/run.sh (the helpers of tests/cli/lib.sh).

# ---- --list: JSON a program can read, text that fits 80 columns ------------------------------
if command -v jq >/dev/null 2>&1; then
    expect_ok "--list --format=json" --list --format=json
    jq -e . "$work/out" >/dev/null && ok "--list JSON is valid" || bad "--list JSON is valid" "jq refused it"
    # every game of the text listing is in the JSON, each with bots, keys and metrics
    for g in $("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p'); do
        jq -e --arg g "$g" '.games[] | select(.name == $g) | (.bots | length) > 0 and
            (.keys | length) > 0 and all(.keys[]; (.doc | length) > 0 and (.type | length) > 0)' \
            "$work/out" >/dev/null && ok "--list JSON: $g has bots and described keys" ||
            bad "--list JSON: $g has bots and described keys" "$(jq -c --arg g "$g" '.games[] | select(.name == $g) | .keys[] | select(.doc == "")' "$work/out")"
    done
    # the ranges are those the loader checks: oca's entry_fee is 0..10000 (oca_rules.c), the
    # default is configs/oca.json's, and one past the top is refused by --set
    jq -e '.games[] | select(.name == "oca") | .keys[] | select(.key == "entry_fee") |
        .type == "integer" and .min == 0 and .max == 10000' "$work/out" >/dev/null &&
        ok "--list JSON: entry_fee's range" || bad "--list JSON: entry_fee's range" "wrong"
    def=$(jq '.games[] | select(.name == "oca") | .keys[] | select(.key == "entry_fee") | .default' "$work/out")
    file=$(jq '.entry_fee' "$top/configs/oca.json")
    [ "$def" = "$file" ] && ok "--list JSON: entry_fee's default is the file's" || bad "--list JSON: entry_fee's default is the file's" "$def vs $file"
    expect_error "entry_fee one past its top" 2 "'entry_fee': expected an integer in 0..10000" --game=oca --set entry_fee=10001 --runs=1
    jq -e '.games[] | select(.name == "oca") | .bots[] | select(.name == "greedy") | .params[] |
        select(.name == "max_bid") | .type == "integer" and .min == 0 and .max == 1000' "$work/out" >/dev/null &&
        ok "--list JSON: a bot parameter's range" || bad "--list JSON: a bot parameter's range" "wrong"
    expect_ok "--list --game=wari --format=json" --list --game=wari --format=json
    [ "$(jq '.games | length' "$work/out")" = 1 ] && ok "--list --game: one game in JSON" || bad "--list --game: one game in JSON" "$(jq '.games | length' "$work/out")"
fi
for g in $("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p'); do
    "$bin" --list --game="$g" >"$work/list.txt"
    long=$(awk 'length > 80' "$work/list.txt" | wc -l)
    [ "$long" -eq 0 ] && ok "--list --game=$g fits 80 columns" || bad "--list --game=$g fits 80 columns" "$(awk 'length > 80' "$work/list.txt" | head -2)"
done
"$bin" --list --game=oca >"$work/list.txt"
grep -q '^    entry_fee = 50 (integer 0..10000)$' "$work/list.txt" &&
    grep -A1 '^    entry_fee = ' "$work/list.txt" | grep -q 'enter square 1' &&
    ok "--list --game=oca: a key with its range and description" || bad "--list --game=oca: a key with its range and description" "$(grep -A1 entry_fee "$work/list.txt")"
grep -q '^    board\.1: name="Clown (start)"' "$work/list.txt" && grep -q '^    board\.37: name="Goal"' "$work/list.txt" &&
    ok "--list --game=oca: the board one square a line, numbered as the reports number squares" ||
    bad "--list --game=oca: the board one square a line, numbered as the reports number squares" "no board.1 or board.37 line"

# ---- did you mean ---------------------------------------------------------------------------
expect_error "mistyped key" 2 "ruleset key 'entry_fe': unknown key \\(did you mean entry_fee\\?\\)" --game=oca --set entry_fe=5
expect_error "mistyped game" 2 "unknown game 'occa' \\(did you mean oca\\?\\)" --game=occa
expect_error "mistyped bot" 2 "unknown bot 'gredy' for game oca \\(did you mean greedy\\?\\)" --game=oca --bots=gredy
expect_error "mistyped bot parameter" 2 "bot 'greedy' has no parameter 'max_bd' \\(did you mean max_bid\\?\\)" --game=oca --bots=greedy:max_bd=3
expect_error "mistyped metric" 2 "--metric: no figure 'lenght' \\(did you mean length\\?\\)" --game=45 --sweep limit=40,45 --metric=lenght
expect_error "mistyped seat figure" 2 "--until: no figure 'win_shar@1' \\(did you mean win_share@1\\?\\)" --game=45 --until=win_shar@1:0.1
expect_error "mistyped option" 2 "unknown option '--rnus=5' \\(did you mean --runs\\?\\)" --game=45 --rnus=5
expect_error "nothing near: the list" 2 "unknown game 'chess' \\(games: " --game=chess

# ---- --config=- -----------------------------------------------------------------------------
printf '{"limit": 40}' | "$bin" --game=45 --config=- --print-ruleset >"$work/out" 2>"$work/err"
grep -q '"limit":[[:space:]]*40' "$work/out" && ok "--config=- reads standard input" || bad "--config=- reads standard input" "$(cat "$work/err")"
printf '{"limit": 40}' | "$bin" --game=45 --config=- --sweep tiles=8,9 --runs=20 --seed=1 -q >"$work/out" 2>"$work/err"
grep -q 'ruleset changes: limit=40' "$work/out" && ok "--config=- in every setting of a sweep" || bad "--config=- in every setting of a sweep" "$(head -3 "$work/out") $(cat "$work/err")"
printf '{"limit": ' | "$bin" --game=45 --config=- --print-ruleset >"$work/out" 2>"$work/err"
[ $? -eq 2 ] && grep -q '^giochi-sim: standard input: malformed JSON' "$work/err" && ok "--config=- names standard input" || bad "--config=- names standard input" "$(cat "$work/err")"
expect_error "--config=- twice" 2 "--config=- is given twice" --game=45 --config=- --config=-
head -c 17000000 /dev/zero | tr '\0' ' ' | "$bin" --game=45 --config=- --print-ruleset >"$work/out" 2>"$work/err"
[ $? -eq 2 ] && grep -q 'larger than 16 MiB' "$work/err" && ok "--config=- is bounded like a file" || bad "--config=- is bounded like a file" "$(cat "$work/err")"

# ---- counts ---------------------------------------------------------------------------------
for spec in "1e3 1000" "2.5e2 250" "2k 2000" "1.5k 1500" "1000e-3 1"; do
    set -- $spec
    "$bin" --game=cinesi --runs="$1" --seed=1 -q --format=json >"$work/out" 2>"$work/err"
    grep -q "\"runs\":[[:space:]]*$2," "$work/out" && ok "--runs=$1 is $2" || bad "--runs=$1 is $2" "$(cat "$work/err")"
done
expect_error "--runs not whole" 2 "--runs '1.5': not a whole number" --game=45 --runs=1.5
expect_error "--runs below one" 2 "--runs '1e-3': not a whole number" --game=45 --runs=1e-3
expect_error "--runs too large" 2 "--runs '1e13': expected a whole number in 1..1000000000000" --game=45 --runs=1e13
expect_error "--runs with junk" 2 "--runs '1k5': expected a whole number" --game=45 --runs=1k5
expect_error "--threads 1e5" 2 "--threads '1e5': expected a whole number in 1..1024" --game=45 --threads=1e5

# ---- bash completion: generated, and it completes ---------------------------------------------
expect_ok "--completion=bash" --completion=bash
cp "$work/out" "$work/giochi-sim.bash"
expect_error "--completion with a game" 2 "--completion prints a script: it cannot be combined with '--game=45'" --completion=bash --game=45
expect_error "--completion for another shell" 2 "--completion 'fish': expected bash or zsh" --completion=fish
if command -v bash >/dev/null 2>&1; then
    cat >"$work/complete.sh" <<'EOS'
. "$1"
try() {
    COMP_LINE=$1 COMP_POINT=${#1} COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'
    COMPREPLY=()
    _giochi_sim
    echo "${COMPREPLY[*]}"
}
try "giochi-sim --gam"
try "giochi-sim --game=o"
try "giochi-sim --game=oca --bots=random,gr"
try "giochi-sim --game=oca --bots=greedy:max_"
try "giochi-sim --game=oca --set entry"
try "giochi-sim --game=cinesi --sweep=faces.wh"
try "giochi-sim --game=45 --metric=length,win_"
try "giochi-sim --format=j"
EOS
    bash "$work/complete.sh" "$work/giochi-sim.bash" >"$work/completed" 2>"$work/err"
    printf '%s\n' "--game= --games-csv=" "oca" "random,greedy random,greedy-2026" "max_bid=" "entry_fee=" \
        "faces.white=" "length,win_share" "json" >"$work/wanted"
    same "bash completion completes options, games, bots, parameters, keys, figures" "$work/wanted" "$work/completed"
fi

# ---- zsh completion: the same tables; loaded as zsh loads it, it completes --------------------
expect_ok "--completion=zsh" --completion=zsh
cp "$work/out" "$work/giochi-sim.zsh"
head -n 1 "$work/giochi-sim.zsh" | grep -qx '#compdef giochi-sim' && ok "zsh completion: a #compdef file" ||
    bad "zsh completion: a #compdef file" "$(head -n 1 "$work/giochi-sim.zsh")"
# the word lists are the bash script's, to the byte
sed -n '/^_giochi_sim_words() {/,/^}/p' "$work/giochi-sim.bash" >"$work/words.bash"
sed -n '/^_giochi_sim_words() {/,/^}/p' "$work/giochi-sim.zsh" >"$work/words.zsh"
[ -s "$work/words.zsh" ] && same "zsh and bash completions share their word lists" "$work/words.bash" "$work/words.zsh"
if command -v zsh >/dev/null 2>&1; then
    mkdir -p "$work/zfp" && cp "$work/giochi-sim.zsh" "$work/zfp/_giochi-sim"
    cat >"$work/complete.zsh" <<'EOS'
# complete.zsh SCRIPT DIR: sources SCRIPT after compinit, then loads it from $fpath (DIR/zfp)
# as an installed completion; prints what registered it, then the candidates of each line
autoload -Uz compinit && compinit -u -d "$2/zdump1"
source "$1"
print -r -- "sourced: ${_comps[giochi-sim]} ${+functions[_giochi_sim]}"
unset '_comps[giochi-sim]'
unfunction _giochi_sim _giochi_sim_words
fpath=("$2/zfp" $fpath)
compinit -u -d "$2/zdump2"
print -r -- "from fpath: ${_comps[giochi-sim]}"
# compadd, compset and _files work only inside a completion widget: stand-ins that do what the
# function asks of them and keep the candidates that match the word being completed, with the
# suffix compadd would add (a blank, shown as nothing, or -S's)
compadd() {
    local suffix=' '
    while [[ $1 != -- ]]; do [[ $1 == -S ]] && { suffix=$2; shift; }; shift; done
    shift
    local c
    for c in "$@"; do [[ $c == ${PREFIX}* ]] && reply+=("$IPREFIX$c${suffix# }"); done
}
compset() {
    local m=${(M)PREFIX##${~2}}
    [[ -n $m ]] || return 1
    IPREFIX+=$m
    PREFIX=${PREFIX#$m}
}
_files() { reply+=("(files)"); }
try() { # LINE [FUNCTION]: completes the last word of LINE
    words=(${(z)1}) CURRENT=${#words} PREFIX=${words[-1]} IPREFIX= reply=()
    ${2:-_giochi_sim}
    print -r -- "${reply[*]}"
}
try "giochi-sim --gam" _giochi-sim
try "giochi-sim --game=o"
try "giochi-sim --game=wari --bots=a"
try "giochi-sim --game=oca --bots=random,gr"
try "giochi-sim --game=oca --bots=greedy:max_"
try "giochi-sim --game=oca --set entry"
try "giochi-sim --game cinesi --sweep=faces.wh"
try "giochi-sim --game=45 --metric=length,win_"
try "giochi-sim --format=j"
try "giochi-sim --output=x"
EOS
    (cd "$work" && zsh -f "$work/complete.zsh" "$work/giochi-sim.zsh" "$work") >"$work/zcompleted" 2>"$work/err"
    printf '%s\n' "sourced: _giochi_sim 1" "from fpath: _giochi-sim" "--game= --games-csv=" "--game=oca" \
        "--bots=alphabeta" "--bots=random,greedy --bots=random,greedy-2026" "--bots=greedy:max_bid=" \
        "entry_fee=" "--sweep=faces.white=" "--metric=length,win_share" "--format=json" "(files)" >"$work/zwanted"
    if cmp -s "$work/zwanted" "$work/zcompleted" && [ ! -s "$work/err" ]; then
        ok "zsh completion loads (sourced, from \$fpath) and completes options, games, bots, parameters, keys, figures"
    else
        bad "zsh completion loads (sourced, from \$fpath) and completes options, games, bots, parameters, keys, figures" \
            "$(diff "$work/zwanted" "$work/zcompleted" | head -n 6) $(head -c 200 "$work/err")"
    fi
else
    echo "cli: zsh is not installed: the zsh completion is not loaded (apt-get install zsh)" >&2
fi

# make install puts them where bash-completion and zsh look (the binary as it is: -o keeps make
# from building it again, BUILD puts the scripts it writes in this test's folder)
b=$(basename "$bin")
if [ "$(dirname "$bin")" = "$top" ]; then
    if (cd "$top" && make -s install DESTDIR="$work/dest" PREFIX=/usr BIN="$b" BUILD="$work/build" -o "$b" \
        >"$work/make.out" 2>&1); then
        [ -s "$work/dest/usr/share/bash-completion/completions/$b" ] &&
            [ -s "$work/dest/usr/share/zsh/site-functions/_$b" ] && [ -x "$work/dest/usr/bin/$b" ] &&
            ok "make install installs the binary and both completions" ||
            bad "make install installs the binary and both completions" "$(find "$work/dest" -type f | head -n 5)"
    else
        bad "make install" "$(tail -n 3 "$work/make.out")"
    fi
else
    echo "cli: $bin is not in $top: make install not tried" >&2
fi

# ---- --games-csv with experiments -------------------------------------------------------------
expect_ok "sweep with games CSV" --game=45 --sweep limit=40,45 --runs=200 --seed=5 -q --games-csv="$work/sg.csv" --format=json
head -1 "$work/sg.csv" | grep -q '^limit,game_index,seed,winner,' && ok "sweep games CSV: a column per swept key" || bad "sweep games CSV: a column per swept key" "$(head -1 "$work/sg.csv")"
[ "$(wc -l <"$work/sg.csv")" -eq 401 ] && ok "sweep games CSV: a row per game of each setting" || bad "sweep games CSV: a row per game of each setting" "$(wc -l <"$work/sg.csv")"
# the rows are the games the figures count: seat 1's wins per setting, from both
if command -v jq >/dev/null 2>&1; then
    for v in 40 45; do
        rows=$(awk -F, -v v=$v '$1 == v && $4 == 1' "$work/sg.csv" | wc -l)
        hits=$(jq --arg v "limit=$v" '.settings[] | select(.label == $v) | .report.seats[0].win_share.hits' "$work/out")
        [ "$rows" -eq "$hits" ] && ok "sweep games CSV: limit=$v's wins of seat 1" || bad "sweep games CSV: limit=$v's wins of seat 1" "$rows rows, $hits hits"
    done
fi
"$bin" --game=45 --sweep limit=40,45 --rotate-seats --bots=random,greedy --runs=150 --seed=5 -q --games-csv="$work/r1.csv" --threads=1 >/dev/null 2>&1
"$bin" --game=45 --sweep limit=40,45 --rotate-seats --bots=random,greedy --runs=150 --seed=5 -q --games-csv="$work/r2.csv" --threads=2 >/dev/null 2>&1
same "rotation games CSV: same bytes at 1 and 2 threads" "$work/r1.csv" "$work/r2.csv"
head -1 "$work/r1.csv" | grep -q '^limit,rotation,game_index,' && [ "$(wc -l <"$work/r1.csv")" -eq 601 ] &&
    ok "rotation games CSV: the rotation column, a row per deal and rotation" || bad "rotation games CSV: the rotation column, a row per deal and rotation" "$(head -1 "$work/r1.csv"), $(wc -l <"$work/r1.csv") lines"
expect_error "games CSV of settings with other seat counts" 2 "--games-csv: the settings seat 3 and 4 players" --game=pig10 --sweep players=3,4 --runs=5 --games-csv="$work/p.csv"
[ ! -e "$work/p.csv" ] && ok "refused games CSV: no file" || bad "refused games CSV: no file" "written"

# ---- --rotate-seats: deals and games ------------------------------------------------------------
expect_ok "rotated sweep" --game=pig10 --players=3 --sweep hand_size=3,4 --rotate-seats --runs=100 --seed=1 -q
grep -q '^sweep of 2 settings, 100 deals each, one game per deal and rotation' "$work/out" &&
    grep -q '^setting *deals *games ' "$work/out" && grep -q '^hand_size=3 *100 *300 ' "$work/out" &&
    ok "rotated sweep: deals and games played" || bad "rotated sweep: deals and games played" "$(head -7 "$work/out")"

# ---- --csv-decimal=, ----------------------------------------------------------------------------
expect_ok "report CSV, comma decimals" --game=45 --runs=100 --seed=1 --format=csv --csv-decimal=,
"$bin" --game=45 --runs=100 --seed=1 --format=csv >"$work/dot.csv"
# the same table: ';' for ',' and ',' for '.' inside numbers, nothing else
tr ',' ';' <"$work/dot.csv" | sed 's/\([0-9]\)\.\([0-9]\)/\1,\2/g' >"$work/expect.csv"
same "comma-decimal CSV is the CSV with ';' and ','" "$work/expect.csv" "$work/out"
grep -q '^45;win_share;1;optimal-score;0,420;' "$work/out" && ok "comma-decimal CSV: a share" || bad "comma-decimal CSV: a share" "$(sed -n 2p "$work/out")"
expect_ok "games CSV, comma decimals" --game=45 --runs=50 --seed=1 -q --games-csv="$work/gd.csv" --csv-decimal=,
head -1 "$work/gd.csv" | grep -q '^game_index;seed;winner;' && grep -q ';[0-9]*,[0-9]' "$work/gd.csv" &&
    ok "comma-decimal games CSV" || bad "comma-decimal games CSV" "$(head -2 "$work/gd.csv")"
expect_ok "experiment CSV, comma decimals" --game=45 --sweep limit=40,45 --runs=50 --seed=1 -q --format=csv --csv-decimal=,
head -1 "$work/out" | grep -q '^limit;game;metric;' && ok "comma-decimal experiment CSV" || bad "comma-decimal experiment CSV" "$(head -1 "$work/out")"
expect_error "--csv-decimal without a CSV" 2 "--csv-decimal needs a CSV to write" --game=45 --runs=5 --csv-decimal=,
expect_error "--csv-decimal of another mark" 2 "--csv-decimal ';': expected ',' or '.'" --game=45 --runs=5 --format=csv --csv-decimal=';'

# ---- every example of --help and of the README's command blocks runs ---------------------------
"$bin" --help | sed -n 's/^  giochi-sim //p' >"$work/help-examples"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    case $line in *jq*) command -v jq >/dev/null 2>&1 || continue ;; esac
    if (cd "$work" && sh -c "\"$bin\" $line") >/dev/null 2>"$work/err"; then
        ok "--help example $n"
    else
        bad "--help example $n" "$line: $(head -c 200 "$work/err")"
    fi
done <"$work/help-examples"
[ "$n" -ge 4 ] && ok "--help has examples" || bad "--help has examples" "$n found"
# README and doc/DEVELOPING.md: each ./giochi-sim line of a ```sh block, with --runs cut to 20
# games (the options are what is checked; the figures have their own markers). Lines that need
# a file, MPI, a program
# bot, a person, a solver database or a proof search (--solve, --prove: tests/cli/cli_solve.sh)
# are left out.
awk '/^```sh/ {on = 1; next} /^```/ {on = 0} on' "$top/README.md" "$top/doc/DEVELOPING.md" |
    sed -n 's/^\.\/giochi-sim \(.*\)$/\1/p' | sed 's/[[:space:]]*#.*$//; s/ *\\$//' |
    grep -v -e 'replay=' -e '--merge' -e 'shard=' -e 'bot-program' -e 'human' -e '--solve' -e '--prove' -e '\$' >"$work/readme-examples"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    args=$(echo "$line" | sed 's/--runs=[0-9]*/--runs=20/g')
    case $args in *--runs=*|*--list*|*--tune*|*--tournament*) ;; *) args="$args --runs=20" ;; esac
    case $args in *--tune*) args="$args --runs=20" ;; esac
    if (cd "$work" && sh -c "\"$bin\" -q $args" >/dev/null 2>"$work/err") && [ ! -s "$work/err" ]; then
        ok "README example $n"
    else
        bad "README example $n" "$args: $(head -c 200 "$work/err")"
    fi
done <"$work/readme-examples"
[ "$n" -ge 8 ] && ok "README has examples" || bad "README has examples" "$n found"

# ---- the game pages' key tables agree with the loaders ------------------------------------------
# Every top-level key of each game is in its page's RULESET section, and an integer key's row
# gives the default and range --list reports (the tab-separated table of oca(7), or the
# ".BR key (integer, default D, LO..HI)" entries of the other pages). Three keys have a
# further check in the loader that the page states in words, not as a range: cinesi's side
# (odd), volpe's fox_wins_at (at most the number of geese) and repetition (0 or 2..10).
if command -v jq >/dev/null 2>&1; then
    for g in $("$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p'); do
        sed -n '/^\.SH RULESET/,/^\.SH DECISIONS/p' "$top/man/giochi-sim-$g.7" >"$work/section"
        "$bin" --list --game="$g" --format=json |
            jq -r '.games[0].keys[] | select(.key | test("[.\\[]") | not) |
                "\(.key) \(.type) \(.default // "-") \(.min // "-") \(.max // "-")"' >"$work/keys"
        missing=
        while read -r k type def lo hi; do
            grep -q -- "$k" "$work/section" || missing="$missing $k"
            [ "$type" = integer ] || continue
            case $g:$k in cinesi:side | volpe:fox_wins_at | volpe:repetition) continue ;; esac
            grep -qF -e "$(printf '%s\t%s\t%s..%s' "$k" "$def" "$lo" "$hi")" \
                -e "$k \" (integer, default $def, $lo..$hi" "$work/section" ||
                missing="$missing $k=$def($lo..$hi)"
        done <"$work/keys"
        [ -z "$missing" ] && ok "giochi-sim-$g(7) lists every key as the loader checks it" ||
            bad "giochi-sim-$g(7) lists every key as the loader checks it" "$missing"
    done
fi
