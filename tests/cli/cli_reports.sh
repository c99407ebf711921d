# cli_reports.sh — run by tests/cli/run.sh: the headline summary of each game against an expected
# file, aligned and uncut labels, --detail, the CSV/JSON/text forms of an empty figure, the CSV
# stat column, the games CSV seed halves, --plot (SVG, PNG, PDF), --html and their errors.

expected="$here/expected"

# ---- the summary at a fixed seed (everything but the last line, the run's time), every game
# (a game that declares no presentation falls back to its metric table: tests/test_report.c) --
games=$(game_names)
[ -n "$games" ] && ok "--list names the games" || bad "--list names the games" "none read from --list"
for g in $games; do
    "$bin" --game=$g --runs=2000 --seed=11 -q >"$work/sum.txt"
    tail -n 1 "$work/sum.txt" | grep -qE '^2000 games in [0-9.]+ s \([0-9]+ games/s, [0-9]+ threads?\)$' &&
        ok "$g: summary ends with the run's time" || bad "$g: summary ends with the run's time" "$(tail -n 1 "$work/sum.txt")"
    sed '$d' "$work/sum.txt" >"$work/sum-body.txt"
    if cmp -s "$work/sum-body.txt" "$expected/summary-$g.txt"; then
        ok "$g: summary as expected"
    else
        bad "$g: summary as expected" "$(diff "$expected/summary-$g.txt" "$work/sum-body.txt" | head -n 6)"
    fi
done

# ---- every text table fits an 80-column terminal: each line of each game's summary, of a sweep
# with two figures, of a seat rotation of four bots, of a sensitivity and of a long title is at
# most 80 characters (counted as characters: the reports have UTF-8 letters and dashes) -------
widest() { LC_ALL=C tr -d '\200-\277' <"$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
fits80() { # NAME ARGS...: the run's text output is at most 80 columns wide, no interval split
    name=$1
    shift
    if "$bin" "$@" -q >"$work/w80.txt" 2>"$work/err"; then
        w=$(widest "$work/w80.txt")
        [ "$w" -le 80 ] && ok "80 columns: $name" ||
            bad "80 columns: $name" "$w columns: $(LC_ALL=C tr -d '\200-\277' <"$work/w80.txt" | awk 'length($0) > 80' | head -n 2)"
        # every '[' closed on its line: an interval "[lo, hi]" never wraps
        split=$(awk '{ o = gsub(/\[/, "["); c = gsub(/\]/, "]"); if (o != c) print }' "$work/w80.txt")
        [ -z "$split" ] && ok "80 columns: $name: intervals whole" ||
            bad "80 columns: $name: intervals whole" "$(echo "$split" | head -n 2)"
    else
        bad "80 columns: $name" "exit $?: $(head -c 200 "$work/err")"
    fi
}
for g in $games; do
    fits80 "$g summary" --game=$g --runs=500 --seed=11
done
fits80 "45 summary with exact values" --game=45 --runs=500 --seed=1 --exact
fits80 "a title of many ruleset changes" --game=oca --runs=20 --seed=1 --set entry_fee=10 \
    --set dote=300 --set capo_fee=2 --set max_chain=3 --set declare_prize=40 --set bid_step=4
fits80 "sweep of two figures" --game=volpe --bots=greedy --sweep diagonals=all,alquerque,none \
    --metric=win_share@1,length --runs=50 --seed=1
fits80 "grid sweep" --game=45 --sweep limit=35,45 --sweep players=2,3 --runs=200 --seed=1
fits80 "seat rotation of four bots" --game=oca --bots=greedy,random,greedy:max_bid=20,cautious \
    --rotate-seats --runs=50 --seed=1
fits80 "sensitivity" --game=oca --sensitivity=dote,auction,entry_fee --metric=bankruptcy_any \
    --runs=100 --seed=1
fits80 "rotation sweep" --game=pig10 --sweep players=3,5 --rotate-seats --metric=seat_advantage@1,win_share@1 --runs=100 --seed=1
# the searches and --depends: a tournament's ratings and cross table (five bots; twelve, whose
# columns go in blocks), its tables of four seats, a sequential test, a goal seek whose
# crossing misses its half-width, a tuning, and oca's tables of --depends
fits80 "tournament of five bots" --game=wari --tournament=alphabeta:depth=2,mcts:playouts=50,greedy,mcts:playouts=20,random \
    --runs=10 --seed=1
twelve=random,greedy,alphabeta:depth=1,alphabeta:depth=2,mcts:playouts=2,mcts:playouts=3,mcts:playouts=4
twelve=$twelve,mcts:playouts=5,rollout:playouts=1,rollout:playouts=2,rollout:playouts=3,mcts:playouts=1
fits80 "tournament of twelve bots" --game=wari --tournament=$twelve --runs=1 --seed=1
# the cross table in two blocks of six columns, each row numbered and named in both
[ "$(grep -cE '^ +1 +2 +3 +4 +5 +6$' "$work/w80.txt")" -eq 1 ] && [ "$(grep -cE '^ +7 +8 +9 +10 +11 +12$' "$work/w80.txt")" -eq 1 ] &&
    [ "$(grep -cE '^ +12  [a-z]' "$work/w80.txt")" -eq 3 ] &&
    ok "tournament of twelve bots: the cross table in two blocks" || bad "tournament of twelve bots: the cross table in two blocks" "$(sed -n '/^score of/,/^draws/p' "$work/w80.txt" | head -n 4)"
fits80 "tournament at tables of four" --game=oca --tournament=greedy,cautious,aggressive,random,greedy:sit_out=0 \
    --runs=50 --seed=1
fits80 "sequential test" --game=wari --tournament=alphabeta:depth=3,random --sprt=0,50 --runs=2000 --seed=1
fits80 "goal seek" --game=oca --bots=greedy:max_bid=20 --target=bankruptcy_any=0.10 --over=entry_fee=0:200 \
    --runs=3000 --seed=1
grep -q 'half-width not reached within --runs' "$work/w80.txt" && ok "goal seek: the crossing's long line was tried" ||
    bad "goal seek: the crossing's long line was tried" "$(sed -n '/crossing/,/^$/p' "$work/w80.txt")"
fits80 "tuning" --game=oca --bots=greedy-2026 --tune=seat1.sit_out=0:1 --maximize=win_share@1 --runs=300 --seed=3
fits80 "oca --depends" --game=oca --depends --runs=300 --seed=1
grep -q '^The headline figures by bot profile' "$work/w80.txt" && grep -q '^What moves winning_bid most' "$work/w80.txt" &&
    ok "oca --depends: its tables were written" || bad "oca --depends: its tables were written" "$(grep -c . "$work/w80.txt") lines"

# ---- the title line names the ruleset changes, dotted as --set takes them -------------------------
"$bin" --game=oca --runs=20 --seed=1 -q --set board.3.amount=7 --set entry_fee=70 | sed -n 2p >"$work/title.txt"
grep -qx '20 games, 4 players, seed 1, ruleset: entry_fee=70, board.3.amount=7' "$work/title.txt" &&
    ok "summary: ruleset changes in the title" || bad "summary: ruleset changes in the title" "$(cat "$work/title.txt")"

# ---- long bot names: never cut, columns aligned --------------------------------------------------
"$bin" --game=oca --runs=200 --seed=2 -q --bots=greedy,aggressive:max_bid=70:keep=2,cautious,random >"$work/mixed.txt"
grep -q ' aggressive:max_bid=70:keep=2 ' "$work/mixed.txt" && ok "summary: bot names whole" ||
    bad "summary: bot names whole" "$(sed -n '4,9p' "$work/mixed.txt")"
# in "Who wins" and "By bot", every row's win share ends in the same column
for sec in 'Who wins' 'By bot'; do
    cols=$(awk -v s="$sec" '$0 == s {on = 1; next} on && NF == 0 {on = 0} on && /\[/ {print index($0, "%")}' "$work/mixed.txt" | sort -u | wc -l)
    [ "$cols" -eq 1 ] && ok "summary: '$sec' aligned" || bad "summary: '$sec' aligned" "$cols different columns"
done
grep -q '^players who went bankrupt' "$work/mixed.txt" && bad "summary: metric rows indented" "not indented" ||
    ok "summary: metric rows indented"

# ---- --detail keeps the full listing --------------------------------------------------------------
expect_ok "--detail" --game=45 --runs=200 --seed=1 --detail -q
grep -q '^shut_rate$' "$work/out" && grep -q '^  seat 2 ' "$work/out" && ok "--detail lists each seat metric seat by seat" ||
    bad "--detail lists each seat metric seat by seat" "$(head -c 300 "$work/out")"
"$bin" --game=oca --runs=100 --seed=1 -q --detail --bots=greedy,aggressive:max_bid=70,cautious,greedy >"$work/detail.txt"
cols=$(sed -n '/^bankrupt$/,/^$/p' "$work/detail.txt" | awk '/%/ {print index($0, "%")}' | sort -u | wc -l)
grep -q '^  aggressive:max_bid=70 ' "$work/detail.txt" && [ "$cols" -eq 1 ] &&
    ok "--detail: bot names whole, seat and bot lines aligned" || bad "--detail: bot names whole, seat and bot lines aligned" "$(sed -n '/^bankrupt$/,/^$/p' "$work/detail.txt")"
expect_error "--detail with json" 2 "--detail lists the text report: it cannot be combined with --format=json" --game=45 --runs=10 --detail --format=json

# ---- no observation: empty in CSV, null in JSON, a dash in text ----------------------------------
# one Oca game (seed 2) with no mutual aid attempt: mutual_aid_success has no trial
"$bin" --game=oca --runs=1 --seed=2 -q --format=csv >"$work/empty.csv"
grep -qx 'oca,mutual_aid_success,,,,,,0,share,,,' "$work/empty.csv" &&
    ok "CSV: an empty share has empty value and interval" || bad "CSV: an empty share has empty value and interval" "$(grep mutual_aid_success "$work/empty.csv")"
"$bin" --game=oca --runs=1 --seed=2 -q --format=json | tr -d ' \t\n' >"$work/empty.json"
grep -q '"mutual_aid_success":{"value":null,"ci95":null,"n":0,"hits":0}' "$work/empty.json" &&
    ok "JSON: an empty share is null" || bad "JSON: an empty share is null" "$(grep -o '"mutual_aid_success":{"value[^}]*}' "$work/empty.json")"
"$bin" --game=oca --runs=1 --seed=2 -q | grep -qE '^  mutual aid attempts that hit +— +n = 0$' &&
    ok "text: an empty share is a dash" || bad "text: an empty share is a dash" "no dash row"

# ---- the stat column: every row kind named, metric names never carry a statistic ---------------
"$bin" --game=45 --runs=300 --seed=1 -q --bots=optimal-shut --exact --format=csv >"$work/stat.csv"
awk -F, 'NR > 1 && $9 !~ /^(share|mean|p05|p25|p50|p75|p95|exact|p_value|count)$/ {bad = 1} END {exit bad}' "$work/stat.csv" &&
    ok "CSV: stat is a known row kind" || bad "CSV: stat is a known row kind" "$(cut -d, -f9 "$work/stat.csv" | sort -u | tr '\n' ' ')"
awk -F, 'NR > 1 && $2 ~ /\.(p[0-9][0-9]|exact|p_value)$/ {bad = 1} END {exit bad}' "$work/stat.csv" &&
    ok "CSV: metric names carry no statistic" || bad "CSV: metric names carry no statistic" "$(grep -E '\.(p[0-9]|exact)' "$work/stat.csv" | head -n 2)"
grep -qE '^45,shut_rate,1,optimal-shut,[0-9.e-]+,,,,exact,,,$' "$work/stat.csv" &&
    grep -qE '^45,length,,,[0-9.]+,,,300,p50,,,$' "$work/stat.csv" &&
    grep -qE '^45,seat_fairness,,,[0-9.e-]+,,,,p_value,,,$' "$work/stat.csv" &&
    ok "CSV: exact, quantile and p-value rows" || bad "CSV: exact, quantile and p-value rows" "$(grep -E 'exact|p50|p_value' "$work/stat.csv" | head -n 3)"

# ---- the CSV as a spreadsheet imports it: python's csv module reads every row, each numeric cell
# is a number without splitting a string, a bin in its own columns; figures rounded to their
# interval, --csv-precision=full the same rows in full (tests/cli/csv_import.py) ----------------
"$bin" --game=oca --runs=400 --seed=3 -q --format=csv >"$work/imp.csv"
"$bin" --game=oca --runs=400 --seed=3 -q --format=csv --csv-precision=full >"$work/imp-full.csv"
python3 "$here/csv_import.py" --full="$work/imp-full.csv" "$work/imp.csv" 2>"$work/err" &&
    ok "CSV imports: bins in columns, figures rounded to their interval" ||
    bad "CSV imports: bins in columns, figures rounded to their interval" "$(cat "$work/err")"
grep -qx 'oca,distribution.bankrupt_players,,,[0-9]*,,,400,count,0,0,0' "$work/imp.csv" &&
    grep -qx 'oca,distribution.bankrupt_players,,,0\.[0-9]*,0\.[0-9]*,[01]\.[0-9]*,400,share,0,0,0' "$work/imp.csv" &&
    grep -qx 'oca,table.auction_net_by_bid,,,.*,mean,100,,100+' "$work/imp.csv" &&
    ok "CSV: a bin's count and share rows, a table's open bin" ||
    bad "CSV: a bin's count and share rows, a table's open bin" "$(grep -E 'bankrupt_players|100\+' "$work/imp.csv")"
"$bin" --game=45 --sweep limit=40,45 --runs=100 --seed=1 -q --format=csv --csv-decimal=, >"$work/imp-sw.csv"
"$bin" --game=45 --sweep limit=40,45 --runs=100 --seed=1 -q --format=csv --csv-decimal=, \
    --csv-precision=full >"$work/imp-swf.csv"
python3 "$here/csv_import.py" --sep=';' --keys=1 --full="$work/imp-swf.csv" "$work/imp-sw.csv" 2>"$work/err" &&
    ok "CSV imports: a sweep with decimal commas" || bad "CSV imports: a sweep with decimal commas" "$(cat "$work/err")"
expect_error "--csv-precision of another kind" 2 "--csv-precision 'exact': expected 'interval' or 'full'" --game=45 --runs=5 --format=csv --csv-precision=exact
expect_error "--csv-precision without a CSV report" 2 "--csv-precision needs a CSV report to write: --format=csv" --game=45 --runs=5 --csv-precision=full

# ---- games CSV: seed_hi * 2^32 + seed_lo is the seed ----------------------------------------------
"$bin" --game=45 --runs=20 --seed=1 -q --games-csv="$work/seeds.csv" --output=/dev/null
head -n 1 "$work/seeds.csv" | grep -q ',seed_hi,seed_lo$' && ok "games CSV: seed halves in the header" ||
    bad "games CSV: seed halves in the header" "$(head -n 1 "$work/seeds.csv")"
halves_ok=1
while IFS=, read -r index seed rest; do
    hi=$(echo "$rest" | awk -F, '{print $(NF - 1)}')
    lo=$(echo "$rest" | awk -F, '{print $NF}')
    [ "$hi" -lt 4294967296 ] && [ "$lo" -lt 4294967296 ] || halves_ok=0
    [ "$(printf '%u' $((hi * 4294967296 + lo)))" = "$seed" ] || halves_ok=0
done <<ROWS
$(sed 1d "$work/seeds.csv")
ROWS
[ $halves_ok -eq 1 ] && ok "games CSV: seed = seed_hi * 2^32 + seed_lo, halves below 2^32" ||
    bad "games CSV: seed = seed_hi * 2^32 + seed_lo, halves below 2^32" "$(sed -n 2p "$work/seeds.csv")"

# ---- --plot and --html ---------------------------------------------------------------------------
expect_error "--plot: unknown format" 2 "--plot '.*/x.jpg': the file name must end in .svg, .png or .pdf" --game=45 --runs=10 --plot="$work/x.jpg"
expect_error "--plot: empty name" 2 "--plot: empty file name" --game=45 --runs=10 --plot=
expect_error "--html to stdout" 2 "--html needs a file name" --game=45 --runs=10 --html=-
expect_error "--plot and --output collide" 2 "--plot names the same file" --game=45 --runs=10 --plot="$work/r.svg" --output="$work/r.svg"
expect_error "--plot with --trace" 2 "--trace prints one game: it cannot be combined with --plot or --html" --game=45 --runs=10 --trace=1 --plot="$work/t.svg"
expect_error "--plot with --list" 2 "--list cannot be combined with --plot" --list --game=45 --plot="$work/l.svg"
nognu=$(mktemp -d) # a PATH without gnuplot
env PATH="$nognu" "$bin" --game=45 --runs=10 --plot="$work/n.svg" >"$work/out" 2>"$work/err"
[ $? -eq 2 ] && [ "$(cat "$work/err")" = "giochi-sim: --plot needs gnuplot, which is not on the PATH (Debian: apt-get install gnuplot-nox)" ] &&
    [ ! -s "$work/out" ] && [ ! -e "$work/n.svg" ] && ok "--plot without gnuplot: one-line error, exit 2, nothing written" ||
    bad "--plot without gnuplot: one-line error, exit 2, nothing written" "$(cat "$work/err")"
env PATH="$nognu" "$bin" --game=45 --runs=10 --seed=1 -q --html="$work/nognu.html" >/dev/null 2>&1 &&
    ok "--html without gnuplot" || bad "--html without gnuplot" "failed"
grep -q '<p>No charts: plots need gnuplot' "$work/nognu.html" && ok "--html without gnuplot says so" ||
    bad "--html without gnuplot says so" "$(grep -c svg "$work/nognu.html") svg"
rmdir "$nognu"
if command -v gnuplot >/dev/null 2>&1; then
    expect_ok "--plot svg" --game=oca --runs=300 --seed=1 -q --plot="$work/p1.svg" --threads=1 --output=/dev/null
    expect_ok "--plot svg, 2 threads" --game=oca --runs=300 --seed=1 -q --plot="$work/p2.svg" --threads=2 --output=/dev/null
    # the caption's command line names --threads: everything else is the same bytes
    grep -v '<text>command: ' "$work/p1.svg" >"$work/p1.nocmd"
    grep -v '<text>command: ' "$work/p2.svg" >"$work/p2.nocmd"
    same "--plot: same SVG whatever --threads" "$work/p1.nocmd" "$work/p2.nocmd"
    grep -q '<text>command: giochi-sim[-a-z]* --game=oca --runs=300 --seed=1 -q --plot=.*/p1.svg --threads=1 --output=/dev/null</text>' "$work/p1.svg" &&
        grep -q '<text>giochi-sim 0.1.0, 1970-01-01 00:00 UTC · seed 1 · 300 games · default ruleset</text>' "$work/p1.svg" &&
        grep -q '<text>bots: seat 1 greedy, seat 2 greedy, seat 3 greedy, seat 4 greedy</text>' "$work/p1.svg" &&
        ok "--plot: the caption says how the chart was made" || bad "--plot: the caption says how the chart was made" "$(grep -c '<text>' "$work/p1.svg") texts"
    # 9 series of the summary's charts, one per distribution with observations (7), the
    # auction winner's net by winning bid and the win share by role (bars and intervals: 2 each)
    [ "$(grep -c 'id="gnuplot_plot_' "$work/p1.svg")" -eq 20 ] && tail -n 2 "$work/p1.svg" | grep -q '</svg>' &&
        ok "--plot svg: 20 series, complete" || bad "--plot svg: 20 series, complete" "$(grep -c 'id="gnuplot_plot_' "$work/p1.svg") series"
    # the title, broken into lines at its commas
    grep -q "<text>Gioco dell'Oca .* 300 games, 4 players, seed 1</text>" "$work/p1.svg" && grep -q '<text>default ruleset</text>' "$work/p1.svg" &&
        ok "--plot: the title names game, games and ruleset" || bad "--plot: the title names game, games and ruleset" "no title"
    expect_ok "--plot png" --game=45 --runs=300 --seed=1 -q --plot="$work/p.PNG" --set limit=40
    [ "$(head -c 8 "$work/p.PNG" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok "--plot png: a PNG file" ||
        bad "--plot png: a PNG file" "$(head -c 8 "$work/p.PNG" | od -c | head -n 1)"
    expect_ok "--plot pdf" --game=pig10 --runs=300 --seed=1 -q --plot="$work/p.pdf"
    head -c 5 "$work/p.pdf" | grep -q '^%PDF-' && tail -c 7 "$work/p.pdf" | grep -q '%%EOF' && ok "--plot pdf: a PDF file" ||
        bad "--plot pdf: a PDF file" "$(head -c 8 "$work/p.pdf")"
    # (file names relative to $work: a long command line would wrap onto a further caption line
    # and move every chart below it, which the comparison after it must not see)
    if (cd "$work" && "$bin" --game=oca --runs=300 --seed=1 -q --html=p.html --output=p.txt); then
        ok "--html"
    else
        bad "--html" "exit $?"
    fi
    "$bin" --game=oca --runs=300 --seed=1 -q --format=html >"$work/p2.html"
    # the same page but for the lines marked data-run (the command line, the run's JSON)
    # (a caption's command line, wrapped: its first line and the lines that go on with an option;
    # the binary's own name, giochi-sim-san under the sanitizers, moves where it wraps)
    grep -v 'data-run\|<text>command: \|<text>-' "$work/p.html" >"$work/p.norun"
    grep -v 'data-run\|<text>command: \|<text>-' "$work/p2.html" >"$work/p2.norun"
    same "--html = --format=html" "$work/p.norun" "$work/p2.norun"
    grep -q '<code class="cmd" data-run>giochi-sim[-a-z]* --game=oca --runs=300 --seed=1 -q --format=html</code>' "$work/p2.html" &&
        grep -q '^<span data-run>1970-01-01 00:00 UTC</span>$' "$work/p2.html" &&
        grep -q '^<dt>players and bots</dt><dd>4 players: seat 1 <code>greedy</code>, seat 2' "$work/p2.html" &&
        grep -q '^<dt>games played</dt><dd>300 games</dd>$' "$work/p2.html" &&
        ok "--html: how it was made (command, date, bots, games)" || bad "--html: how it was made (command, date, bots, games)" "see $work/p2.html"
    # "depends on" as nested lists: each figure an item, what it rests on a list inside it,
    # the mechanics never used and the squares that ruined most a list inside that
    sed -n '/^<summary>What the headline figures depend on<\/summary>$/,/^<\/ul>$/p' "$work/p2.html" >"$work/outline.html"
    grep -q '^<ul class="outline">$' "$work/outline.html" && [ "$(grep -c '^<ul>$' "$work/outline.html")" -eq 4 ] &&
        grep -q "^<li>a postcard played against an opponent's good square (art. 10): 0 per game</li>$" "$work/outline.html" &&
        grep -q "^<li>the bots' play: greedy at every seat</li>$" "$work/outline.html" &&
        grep -q '^<li>the banker paying on square [0-9]* [A-Z][a-z]* ([0-9]* ruins\{0,1\})</li>$' "$work/outline.html" &&
        [ "$(grep -c '<li>' "$work/outline.html")" -eq "$(grep -c '</li>' "$work/outline.html")" ] &&
        ok "--html: what the figures depend on, as nested lists" || bad "--html: what the figures depend on, as nested lists" "$(head -c 300 "$work/outline.html")"
    # the page alone holds the JSON report: its blocks are what --format=json writes
    awk '/^<script type="application\/json" id="giochi-report">/ { on = 1; sub(/^<script[^>]*>/, "") }
         on { if (sub(/<\/script>$/, "")) on = 0; print }' "$work/p2.html" | sed 's#<\\/#</#g' >"$work/embedded.json"
    "$bin" --game=oca --runs=300 --seed=1 -q --format=json >"$work/p.json"
    if command -v jq >/dev/null 2>&1; then
        jq -S 'del(.run)' "$work/p.json" >"$work/p.sorted" 2>/dev/null
        jq -S . "$work/embedded.json" >"$work/embedded.sorted" 2>/dev/null
        same "--html: the embedded JSON is the report" "$work/p.sorted" "$work/embedded.sorted"
        sed -n 's/^<script type="application\/json" id="giochi-run" data-run>\(.*\)<\/script>$/\1/p' "$work/p2.html" |
            jq -r '.command_line[1:] | join(" ")' >"$work/cmd.txt" 2>/dev/null
        [ "$(cat "$work/cmd.txt")" = "--game=oca --runs=300 --seed=1 -q --format=html" ] &&
            ok "--html: the embedded run holds the command line" || bad "--html: the embedded run holds the command line" "$(cat "$work/cmd.txt")"
    fi
    head -n 1 "$work/p.html" | grep -qx '<!DOCTYPE html>' && tail -n 1 "$work/p.html" | grep -qx '</html>' &&
        [ "$(grep -c '<svg' "$work/p.html")" -eq 1 ] && ! grep -q ' src=' "$work/p.html" &&
        ok "--html: one page, charts inline, nothing fetched" || bad "--html: one page, charts inline, nothing fetched" "see $work/p.html"
    # experiments: a sweep's bands (length + 3 headline figures of the 45, one band and one
    # line each), the tornado (two bars, two intervals), a rotation's bars (bots, seats)
    expect_ok "--plot of a sweep" --game=45 --sweep limit=30,40,50 --runs=200 --seed=1 -q --plot="$work/sw.svg"
    # win_share@1 and length: per figure, the values (band and line) and the paired
    # differences (a line with intervals, and zero)
    [ "$(grep -c 'id="gnuplot_plot_' "$work/sw.svg")" -eq 8 ] && grep -q '(paired difference from the baseline' "$work/sw.svg" &&
        ok "--plot of a sweep: values and paired differences" ||
        bad "--plot of a sweep: values and paired differences" "$(grep -c 'id="gnuplot_plot_' "$work/sw.svg") series"
    # a swept key of words is drawn at 0, 1, 2 with the words as tics (points, not an empty plot)
    expect_ok "--plot of a sweep of words" --game=wari --bots=greedy --sweep grand_slam=allowed_no_capture,forbidden,captures_all --runs=60 --seed=1 -q --plot="$work/gs.svg"
    grep -q '>forbidden<' "$work/gs.svg" && [ "$(grep -c 'id="gnuplot_plot_' "$work/gs.svg")" -eq 8 ] &&
        [ "$(grep -c '<path' "$work/gs.svg")" -gt 40 ] &&
        ok "--plot of a sweep of words: word tics and series" || bad "--plot of a sweep of words: word tics and series" "see $work/gs.svg"
    expect_ok "--format=html of a sensitivity" --game=oca --sensitivity=dote,entry_fee --metric=bankruptcy_any --runs=200 --seed=1 -q --format=html
    [ "$(grep -c 'id="gnuplot_plot_' "$work/out")" -eq 4 ] && grep -q '^<!DOCTYPE html>$' "$work/out" &&
        ok "--format=html of a sensitivity: the tornado inline" || bad "--format=html of a sensitivity: the tornado inline" "$(grep -c gnuplot_plot_ "$work/out")"
    # their tables: a sweep's settings with the paired differences, a sensitivity's keys
    grep -q '<tr><td>dote</td><td class="r">200</td><td class="r">20</td><td class="r">180</td><td class="r"><span class="v">[-+][0-9]*\.[0-9][0-9]</span> <span class="ci">\[' "$work/out" &&
        grep -q '<tr><td>entry_fee</td>' "$work/out" &&
        ok "--format=html of a sensitivity: one row per key" || bad "--format=html of a sensitivity: one row per key" "no key rows"
    expect_ok "--format=html of a sweep" --game=45 --sweep limit=30,40,50 --runs=200 --seed=1 -q --format=html
    [ "$(grep -c '^<tr[^>]*><td>limit=[345]0</td>' "$work/out")" -eq 3 ] &&
        grep -q '^<tr class="base"><td>limit=30</td><td class="r">200</td><td class="r"><span class="v">[0-9.]*%</span> <span class="ci">\[[0-9.]*, [0-9.]*\]</span></td><td class="r">(baseline)</td>' "$work/out" &&
        grep -q '<th colspan="2" class="fig">game length (rounds)</th>' "$work/out" &&
        grep -q '<th colspan="2" class="fig">win share, seat 1</th>' "$work/out" &&
        ok "--format=html of a sweep: one row per setting, its own value, the baseline marked" || bad "--format=html of a sweep: one row per setting, its own value, the baseline marked" "see $work/out"
    # --metric chooses what the page and the charts show: each setting's value and its
    # paired difference in points, with the label of the figure
    expect_ok "--html of a sweep with --metric" --game=45 --sweep limit=30,40 --metric=ended.shut_box --runs=200 --seed=1 -q --html="$work/m.html" --output=/dev/null
    grep -q '^<tr><td>limit=40</td><td class="r">200</td><td class="r"><span class="v">[0-9.]*%</span> <span class="ci">\[[0-9.]*, [0-9.]*\]</span></td><td class="r"><span class="v">[-+][0-9.]*</span> <span class="ci">\[[-+][0-9.]*, [-+][0-9.]*\]</span>' "$work/m.html" &&
        [ "$(grep -c '<th colspan="2"' "$work/m.html")" -eq 1 ] && ! grep -q 'win share, seat 1' "$work/m.html" &&
        [ "$(grep -c 'id="gnuplot_plot_' "$work/m.html")" -eq 4 ] &&
        ok "--html of a sweep with --metric: that figure only, in table and charts" || bad "--html of a sweep with --metric: that figure only, in table and charts" "see $work/m.html"
    expect_ok "--html of a rotation" --game=pig10 --rotate-seats --bots=greedy,count --players=2 --runs=200 --seed=1 -q --html="$work/rot.html"
    [ "$(grep -c 'id="gnuplot_plot_' "$work/rot.html")" -eq 4 ] && grep -q '<h2>By bot</h2>' "$work/rot.html" &&
        ok "--html of a rotation: bots table and bars" || bad "--html of a rotation: bots table and bars" "see $work/rot.html"
    expect_error "--detail with a sweep" 2 "--detail lists one run's figures" --game=45 --sweep limit=30,40 --runs=10 --detail
else
    bad "plots" "gnuplot is not installed (tools/deps.sh plot installs it): plots not tested"
fi

# ---- the date of a report: SOURCE_DATE_EPOCH when set, else now (in the text header's third line,
# the JSON's run.date) --------------------------------------------------------------------------
env SOURCE_DATE_EPOCH=86400 "$bin" --game=45 --runs=10 --seed=1 -q | sed -n 3p >"$work/made.txt"
[ "$(cat "$work/made.txt")" = "giochi-sim 0.1.0, 1970-01-02 00:00 UTC" ] && ok "text header: version and SOURCE_DATE_EPOCH's date" ||
    bad "text header: version and SOURCE_DATE_EPOCH's date" "$(cat "$work/made.txt")"
# the searches' headers too: the game, what the search is, then the same line
for args in "--game=wari --tournament=greedy,random --runs=10" "--game=wari --tournament=greedy,random --sprt=0,50 --runs=100" \
    "--game=oca --target=bankruptcy_any=0.10 --over=entry_fee=0:200 --runs=100" \
    "--game=oca --tune=seat1.sit_out=0:1 --maximize=win_share@1 --runs=50"; do
    # shellcheck disable=SC2086
    env SOURCE_DATE_EPOCH=86400 "$bin" $args --seed=1 -q | sed -n 3p >"$work/made.txt"
    [ "$(cat "$work/made.txt")" = "giochi-sim 0.1.0, 1970-01-02 00:00 UTC" ] && ok "search header: version and date ($args)" ||
        bad "search header: version and date ($args)" "$(cat "$work/made.txt")"
done
today=$(date -u +%Y-%m-%d)
env -u SOURCE_DATE_EPOCH "$bin" --game=45 --runs=10 --seed=1 -q --format=json >"$work/dated.json"
# (a run just past midnight may carry the day before: either date is today's)
grep -q "\"date\":[[:space:]]*\"\($today\|$(date -u +%Y-%m-%d)\) [0-9][0-9]:[0-9][0-9] UTC\"" "$work/dated.json" &&
    ok "JSON run.date: today without SOURCE_DATE_EPOCH" || bad "JSON run.date: today without SOURCE_DATE_EPOCH" "no date of $today"
