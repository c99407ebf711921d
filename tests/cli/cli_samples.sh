# cli_samples.sh — run by tests/cli/run.sh: the sample reports committed in reports/ are what
# `make reports` makes now. tools/reports.sh (the one list of their commands, which the
# Makefile's target runs) remakes them in a scratch directory, through a link ./giochi-sim to the
# binary under test, so that each records the same command line and the same fixed date; each is
# then compared byte for byte with the committed file but for what varies from run to run: the
# run's wall time, speed and thread count. A rule or a report changed without `make reports`
# fails here, naming the file and its first differing line.
# Without gnuplot the pages (whose charts it draws) are not remade, with a message. It costs
# about 8 s of CPU (2 cores, -O2), 27 s under the sanitizers (make sanitize), which remake all.

# samples_norun FILE — the report without the values that vary from run to run (the JSON's
# "wall_seconds", "games_per_second" and "threads", in sample.json and in a page's giochi-run)
samples_norun() {
    sed -E 's/("(wall_seconds|games_per_second|threads)":[[:space:]]*)[-+.0-9eE]+/\1#/g' "$1"
}

# samples_differ COMMITTED FRESH — prints where the two differ but for the run's timings (its
# first differing line, from both) and succeeds; fails, printing nothing, if they do not differ.
samples_differ() {
    samples_norun "$1" >"$work/samples.a"
    samples_norun "$2" >"$work/samples.b"
    cmp -s "$work/samples.a" "$work/samples.b" && return 1
    l=$(cmp "$work/samples.a" "$work/samples.b" 2>/dev/null | sed -n 's/.*, line \([0-9]*\)$/\1/p')
    if [ -z "$l" ]; then # one is the other's beginning: cmp reports EOF on the shorter
        la=$(wc -l <"$work/samples.a")
        lb=$(wc -l <"$work/samples.b")
        echo "the committed file has $la lines, the fresh one $lb (one ends early)"
    else
        echo "first at line $l: committed '$(sed -n "${l}p" "$work/samples.a" | cut -c1-160)'," \
            "now '$(sed -n "${l}p" "$work/samples.b" | cut -c1-160)'"
    fi
}

samples=$top/reports
sdir=$(mktemp -d "$work/samples.XXXXXX")
ln -s "$bin" "$sdir/giochi-sim"
snames=$("$top/tools/reports.sh" --list)
if ! command -v gnuplot >/dev/null 2>&1; then
    snames=$(printf '%s\n' $snames | grep -v '\.html$')
    echo "cli: cli_samples.sh: no gnuplot: reports/'s pages (with charts) are not remade or compared" >&2
fi
# shellcheck disable=SC2086 # names without spaces
if "$top/tools/reports.sh" ./giochi-sim "$sdir" $snames >"$work/out" 2>"$work/err"; then
    ok "samples: tools/reports.sh remakes reports/ ($(printf '%s ' $snames))"
else
    bad "samples: tools/reports.sh remakes reports/" "exit $?: $(tail -n 2 "$work/err")"
fi
for n in $snames; do
    if [ ! -s "$sdir/reports/$n" ]; then
        bad "samples: reports/$n is current" "tools/reports.sh did not make it"
    elif [ ! -f "$samples/$n" ]; then
        bad "samples: reports/$n is current" "reports/$n is not committed: run \`make reports\` and commit reports/"
    elif why=$(samples_differ "$samples/$n" "$sdir/reports/$n"); then
        bad "samples: reports/$n is current" "it differs from what \`make reports\` makes now, $why; run \`make reports\` and commit reports/"
    else
        ok "samples: reports/$n is current"
    fi
done

# the comparison itself: a fresh report with other timings and another thread count is the
# same; one with a figure changed on one line differs, and says which line
for n in $snames; do
    case $n in *.json) ;; *) continue ;; esac
    f=$sdir/reports/$n
    sed -E 's/("wall_seconds":[[:space:]]*)[0-9.]+/\1123.5e-3/; s/("threads":[[:space:]]*)[0-9]+/\117/' "$f" >"$work/samples.t"
    if cmp -s "$f" "$work/samples.t"; then
        bad "samples: the comparison ignores the run's timings" "no timing or threads in $n"
    elif why=$(samples_differ "$f" "$work/samples.t"); then
        bad "samples: the comparison ignores the run's timings" "$why"
    else
        ok "samples: the comparison ignores the run's timings"
    fi
    l=$(grep -n '"value":' "$f" | sed -n '3s/:.*//p')
    sed "${l}s/\"value\":/\"value\": 1 +/" "$f" >"$work/samples.t"
    why=$(samples_differ "$f" "$work/samples.t") || why="no difference found"
    case $why in
    "first at line $l: "*) ok "samples: the comparison finds a changed figure and its line" ;;
    *) bad "samples: the comparison finds a changed figure and its line" "line $l: $why" ;;
    esac
done
rm -rf "$sdir"
