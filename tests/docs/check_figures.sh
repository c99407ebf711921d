#!/bin/sh
# check_figures.sh BINARY [PAGE...] — every figure quoted in README.md, doc/DEVELOPING.md and
# the man pages comes from a command written beside it. Before a quoted figure's paragraph a
# page carries a pair
#     .\" check: giochi-sim --game=wari --runs=2000 --seed=1        (man pages, roff comments)
#     .\" expect: 17.0% 354
#     <!-- check: giochi-sim --game=45 --exact -->                  (Markdown, HTML comments)
#     <!-- expect: 4.9507% -->
# This re-runs each command (by sh in a scratch directory, with giochi-sim on the PATH being
# BINARY, and tools/best_response.sh as best_response.sh, so a command may chain several runs
# with ; or pipe them; it starts with giochi-sim or best_response.sh)
# and fails unless every expect token appears, as a whole figure (not inside a longer number),
# both in the command's output and in the page's visible text from the marker to the next
# check marker. It also fails on every unmarked figure: a decimal or a percentage (12.5, .5,
# 17%, 17.0%; not a part of a name or an option such as giochi-sim-45.7 or --until=x:0.01, not
# the confidence level 95%, not on a command line) in a Markdown page or in a man page's sections of
# results (EXAMPLES, EXACT ANALYSIS, STRENGTH, RESULTS, HEADLINE FIGURES, BANK VALUE,
# EXPERIMENTS, MOVE PATHS; not SPEED or PERFORMANCE: timings are measurements of a machine)
# that no expect marker of its section (.SH, or a Markdown heading) lists, unless a marker
# `.\" not-a-figure: 0.2` (`<!-- not-a-figure: 0.2 -->`) of the section says it defines rather
# than reports. tests/docs/unmarked.txt (CHECK_FIGURES_ALLOW) lists, as "PAGE FIGURE" lines,
# the unmarked figures still allowed, each line once; a line whose figure got its marker fails
# until it is removed. CHECK_FIGURES_STRICT=1 ignores that list, CHECK_FIGURES_QUIET=1 keeps
# the allowed ones quiet.
# The pages' figures are the cheap ones: a run of minutes belongs in the results document
# (doc/RESULTS.md, checked by tools/results.py), so a `check-slow:` marker in a page fails,
# and every check marker's command is timed (CPU, user and system). CHECK_FIGURES_CPU_LOG=FILE
# appends a line "SECONDS PAGE:LINE" per command run; `check_figures.sh --budget FILE...`
# sums such lines and fails, naming the costliest, when one command passes
# CHECK_FIGURES_MAX_ONE seconds (default 20) or all together CHECK_FIGURES_MAX_TOTAL (240).
# Without a CPU log, the same budget is checked over this run's own commands at the end.
# CHECK_FIGURES_JOBS=N runs N workers side by side, each taking the next marker not yet taken
# (a directory made per marker and per page's unmarked-figure check: mkdir is the lock), and
# adds up their counts. CHECK_VERBOSE=1 names each check passed, with its command's CPU time.
# CHECK_FIGURES_SELF_ONLY=1 runs only the checker's self-test on its fixtures.
# Ends with "docs: N passed, N failed"; PAGEs default to README.md, doc/DEVELOPING.md and
# man/*.[1-9].
set -u
max_one=${CHECK_FIGURES_MAX_ONE:-20}
max_total=${CHECK_FIGURES_MAX_TOTAL:-240}
# budget FILE...: the CPU lines' sum and largest against the limits (prints one line, and the
# costliest three when over)
budget() {
    sort -rn "$@" | awk -v one="$max_one" -v total="$max_total" '
        { sum += $1; n++; if (n <= 3) top = top sprintf(" %s (%.1f s)", $2, $1); if (n == 1) { big = $1; name = $2 } }
        END {
            if (n && big > one) { printf "FAIL figure budget: %s takes %.1f s of CPU, over %s s for one command (move it to doc/RESULTS.md, or quote a cheaper run)\n", name, big, one; exit 1 }
            if (sum > total) { printf "FAIL figure budget: the %d commands take %.1f s of CPU, over %s s; the costliest:%s\n", n, sum, total, top; exit 1 }
            printf "docs: figure budget: %d commands, %.1f s of CPU (limit %s), the costliest %.1f s (limit %s)\n", n, sum, total, big, one
        }'
}
if [ "${1:-}" = --budget ]; then
    shift
    budget "$@"
    exit
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
self_bin=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
warned=0
ok() { passed=$((passed + 1)); [ -z "${CHECK_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2" >&2; }
# claim KEY: true for the one worker that takes KEY (always true without a queue)
queue=${CHECK_FIGURES_QUEUE:-}
order= # the markers' order: -r from the last (CHECK_FIGURES_BACKWARD=1, a worker's)
[ "${CHECK_FIGURES_BACKWARD:-0}" = 0 ] || order=-r
claim() { [ -z "$queue" ] || mkdir "$queue/$(printf '%s' "$1" | tr '/' '_')" 2>/dev/null; }

mkdir "$work/bin"
ln -s "$bin" "$work/bin/giochi-sim"
ln -s "$top/tools/best_response.sh" "$work/bin/best_response.sh" # oca's rounds (cheap ones in giochi-sim-oca(7))
if [ $# -eq 0 ]; then
    set -- "$top/README.md" "$top/doc/DEVELOPING.md" "$top"/man/*.[1-9]
fi

# figures.awk: shared functions (awk -v kind=roff|md). marker(line, "check"|"expect") gives a
# marker's text or ""; visible(line) a line's text as a reader sees it ("" for comments and
# roff requests); whole(text, tok) is 1 when tok occurs in text not preceded by a digit or a
# point and not followed by a digit (nor by a point and a digit).
cat >"$work/figures.awk" <<'AWK'
function marker(s, what,    r) {
    if (kind == "roff") {
        r = "^\\.\\\\\" " what ": "
        if (s !~ r) return ""
        sub(r, "", s)
        return s
    }
    r = "^<!-- " what ": "
    if (s !~ r) return ""
    sub(r, "", s)
    sub(/[ \t]*-->[ \t]*$/, "", s)
    return s
}
function visible(s) {
    if (kind == "roff") {
        if (s ~ /^\.\\"/ || s ~ /^'\\"/) return ""
        if (s ~ /^\.IP /) sub(/^\.IP /, "", s)
        else if (s ~ /^\.(B|I|BR|RB|IR|RI|BI|IB|SM|SB|SH|SS) /) sub(/^\.[A-Z]+ /, "", s)
        else if (s ~ /^\./) return ""
        gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/\\\(em/, "—", s)
        gsub(/\\\(en/, "–", s); gsub(/\\\(mu/, "×", s); gsub(/\\f[BIRP]/, "", s)
        gsub(/\\\(dq/, "\"", s); gsub(/\\e/, "\\", s); gsub(/\\ /, " ", s); gsub(/\\c/, "", s)
        return s
    }
    if (s ~ /^<!--.*-->[ \t]*$/) return ""
    return s
}
function whole(text, tok,    i, before, after, after2, off) {
    off = 0
    while ((i = index(substr(text, off + 1), tok)) > 0) {
        i += off
        before = i > 1 ? substr(text, i - 1, 1) : ""
        after = substr(text, i + length(tok), 1)
        after2 = substr(text, i + length(tok) + 1, 1)
        if (!(tok ~ /^[0-9.]/ && before ~ /[0-9.]/) &&
            !(tok ~ /[0-9]$/ && (after ~ /[0-9]/ || (after == "." && after2 ~ /[0-9]/))))
            return 1
        off = i
    }
    return 0
}
AWK

# split.awk (-v dir=DIR): cuts a page into markers, DIR/m.N.cmd, m.N.tok, m.N.txt (visible
# text up to the next check marker) and m.N.at (its line); a check not followed at once by an
# expect leaves m.N.err, an expect after no check m.0.err.
cat >"$work/split.awk" <<'AWK'
{
    c = marker($0, "check")
    slow = marker($0, "check-slow")
    if (slow != "") {
        c = slow
        print 1 > (dir "/m." (n + 1) ".slow")
    }
    e = marker($0, "expect")
    if (c != "") {
        n++
        print c > (dir "/m." n ".cmd")
        print FNR > (dir "/m." n ".at")
        want = 1
        next
    }
    if (e != "") {
        if (want) print e > (dir "/m." n ".tok")
        else print FNR > (dir "/m.0.err")
        want = 0
        next
    }
    if (want) print FNR > (dir "/m." n ".err")
    want = 0
    if (n) print visible($0) > (dir "/m." n ".txt")
}
AWK

# match.awk TOKENS OUTPUT TEXT: names each token missing from the output or from the text.
cat >"$work/match.awk" <<'AWK'
FILENAME == ARGV[1] { for (i = 1; i <= NF; i++) tok[++nt] = $i; next }
FILENAME == ARGV[2] { out = out $0 "\n"; next }
{ txt = txt $0 "\n" }
END {
    for (i = 1; i <= nt; i++) {
        if (!whole(out, tok[i])) printf " %s (not in the output)", tok[i]
        if (!whole(txt, tok[i])) printf " %s (not in the page text)", tok[i]
    }
}
AWK

# warn.awk: figures no marker vouches for, as LINE:FIGURE: decimals and percentages in the
# Markdown pages and in the man pages' sections of results, outside command lines, that are no
# figure of an expect token (or not-a-figure marker) of the section they sit in: a figure repeated in the
# prose from a checked table is vouched for, and goes stale with it.
cat >"$work/warn.awk" <<'AWK'
function figures(s, into,    fig, pre, pre2) {
    nf_ = 0
    while (match(s, /[0-9]+(\.[0-9]+)?%|[0-9]*\.[0-9]+/)) {
        fig = substr(s, RSTART, RLENGTH)
        pre = RSTART > 1 ? substr(s, RSTART - 1, 1) : ""
        pre2 = RSTART > 2 ? substr(s, RSTART - 2, 1) : ""
        s = substr(s, RSTART + RLENGTH)
        # part of a name or an option (giochi-sim-45.7, --until=x:0.01), or the confidence level
        if (pre ~ /[A-Za-z0-9._=:\/]/ || (pre == "-" && pre2 ~ /[A-Za-z]/) || fig == "95%")
            continue
        into[++nf_] = fig
    }
    return nf_
}
# Two passes over the page: the first gathers, section by section (.SH, or a Markdown heading),
# the figures that the section's expect markers (and not-a-figure markers) vouch for; the second
# names each figure of a results section that none of them lists.
function heading(s) { return kind == "roff" ? s ~ /^\.SH / : !fence && s ~ /^#/ }
FNR == 1 { pass++; sec = 0; fence = 0 }
kind == "md" && /^```/ { fence = !fence }
heading($0) {
    sec++
    ex = kind == "md" || $0 ~ /^\.SH "?(EXAMPLES|EXACT ANALYSIS|STRENGTH|RESULTS|HEADLINE FIGURES|BANK VALUE|EXPERIMENTS|MOVE PATHS)/
}
pass == 1 {
    d = marker($0, "not-a-figure")
    e = marker($0, "expect")
    if (d != "") { # numbers of a definition, not results
        nt = split(d, t, /[ \t]+/)
        for (i = 1; i <= nt; i++) vouched[sec, t[i]] = 1
    } else if (e != "") {
        nt = split(e, t, /[ \t]+/)
        for (i = 1; i <= nt; i++) # every number of the token (x1.4 vouches for 1.4)
            while (match(t[i], /[0-9]+(\.[0-9]+)?%|[0-9]*\.[0-9]+/)) {
                vouched[sec, substr(t[i], RSTART, RLENGTH)] = 1
                t[i] = substr(t[i], RSTART + RLENGTH)
            }
    }
    next
}
{
    if (marker($0, "check") != "" || marker($0, "check-slow") != "" ||
        marker($0, "expect") != "" || marker($0, "not-a-figure") != "")
        next
    if (!ex) next
    s = visible($0)
    if (s ~ /^ *\$ / || s ~ /^ *\.\/giochi-sim / || s ~ /^ *giochi-sim /) next
    m = figures(s, got)
    for (j = 1; j <= m; j++)
        if (!((sec, got[j]) in vouched)) printf "%d:%s\n", FNR, got[j]
}
AWK

# check_page PAGE: the checks above for one page (adds to passed, failed and warned).
check_page() {
    page=$1
    name=${page#"$top"/}
    case $page in *.md) kind=md ;; *) kind=roff ;; esac
    rm -f "$work"/m.*
    awk -v kind="$kind" -v dir="$work" -f "$work/figures.awk" -f "$work/split.awk" "$page"
    [ -e "$work/m.0.err" ] && claim "$name:orphan" &&
        bad "$name:$(head -n 1 "$work/m.0.err")" "an expect marker with no check marker just before it"
    for n in $(ls "$work" | sed -n 's/^m\.\([1-9][0-9]*\)\.cmd$/\1/p' | sort -n $order); do
        cmdf=$work/m.$n.cmd
        m=${cmdf%.cmd}
        at=$(cat "$m.at")
        claim "$name:$at" || continue
        cmd=$(cat "$cmdf")
        if [ -e "$m.err" ] || [ ! -e "$m.tok" ]; then
            bad "$name:$at" "a check marker with no expect marker on the next line"
            continue
        fi
        touch "$m.txt"
        case $cmd in
        giochi-sim\ * | best_response.sh\ *) ;;
        *)
            bad "$name:$at" "the command does not start with giochi-sim: $cmd"
            continue
            ;;
        esac
        if [ -e "$m.slow" ]; then
            bad "$name:$at" "a check-slow marker: a run of minutes belongs in doc/RESULTS.md (tools/results.py), the page quotes a cheaper run"
            continue
        fi
        rm -rf "$work/run"
        mkdir "$work/run"
        times >"$work/times.0" # the shell's own, then its children's user and system time
        (cd "$work/run" && PATH="$work/bin:$PATH" sh -c "$cmd") >"$m.out" 2>"$m.stderr"
        rc=$?
        times >"$work/times.1"
        cpu=$(sh "$top/tools/cpu_between.sh" "$work/times.0" "$work/times.1")
        if [ "$rc" -ne 0 ]; then
            bad "$name:$at" "'$cmd' exits $rc: $(head -c 200 "$m.stderr")"
            continue
        fi
        missing=$(awk -v kind="$kind" -f "$work/figures.awk" -f "$work/match.awk" \
            "$m.tok" "$m.out" "$m.txt")
        echo "$cpu $name:$at" >>"$cpu_log"
        if [ -z "$missing" ]; then
            ok "$name:$at ($cpu s of CPU)"
        else
            bad "$name:$at" "'$cmd':$missing"
        fi
    done
    claim "$name:unmarked" || return 0
    awk -v kind="$kind" -f "$work/figures.awk" -f "$work/warn.awk" "$page" "$page" >"$work/warn"
    # each unmarked figure uses up one line "PAGE FIGURE" of the allowance; one left over fails
    # too (the figure got its marker: the line must go, so that the list only shrinks)
    grep -v '^#' "$allow" 2>/dev/null | awk -v p="$name" '$1 == p { print $2 }' >"$work/allowed"
    while IFS=: read -r line fig; do
        warned=$((warned + 1))
        if [ -z "${CHECK_FIGURES_STRICT:-}" ] && grep -qxF -- "$fig" "$work/allowed"; then
            awk -v f="$fig" '!done && $0 == f { done = 1; next } 1' "$work/allowed" >"$work/allowed.new"
            mv "$work/allowed.new" "$work/allowed"
            [ -n "${CHECK_FIGURES_QUIET:-}" ] ||
                echo "docs: warning: $name:$line: $fig has no check marker (allowed by $(basename "$allow"))" >&2
            continue
        fi
        bad "$name:$line" "$fig has no check marker (a results figure needs one, or a not-a-figure marker if it defines)"
    done <"$work/warn"
    while read -r fig; do
        bad "$name" "$(basename "$allow") allows an unmarked $fig that the page no longer has: remove the line"
    done <"$work/allowed"
}

# The checker itself first, on two pages of its own: it must pass the good one and find the
# four faults of the bad one (a figure missing from the output, one missing from the text, a
# check without expect, a failing command) and its two unvouched figures.
fixtures=$here/fixtures
allow=${CHECK_FIGURES_ALLOW:-$here/unmarked.txt}
if [ -z "${CHECK_FIGURES_NO_SELF_TEST:-}" ]; then
    for f in good bad; do
        CHECK_FIGURES_JOBS= CHECK_FIGURES_QUEUE= CHECK_FIGURES_COUNTS= CHECK_FIGURES_CPU_LOG=/dev/null CHECK_FIGURES_SELF_ONLY= \
            CHECK_FIGURES_ALLOW=/dev/null \
            CHECK_FIGURES_NO_SELF_TEST=1 CHECK_FIGURES_QUIET=1 \
            "$0" "$self_bin" "$fixtures/$f.7" \
            >"$work/self.$f" 2>&1
    done
    if grep -q '^docs: 1 passed, 0 failed$' "$work/self.good" &&
        grep -q '^docs: 0 figure(s) without a check marker$' "$work/self.good"; then
        ok "figure checker passes a good page"
    else
        bad "figure checker passes a good page" "$(cat "$work/self.good")"
    fi
    if grep -q '^docs: 0 passed, 6 failed$' "$work/self.bad" &&
        grep -q '^docs: 2 figure(s) without a check marker$' "$work/self.bad" &&
        grep -q '5.3489% (not in the output)' "$work/self.bad" &&
        grep -q '5.3488% (not in the page text)' "$work/self.bad"; then
        ok "figure checker fails a bad page"
    else
        bad "figure checker fails a bad page" "$(cat "$work/self.bad")"
    fi
    # a slow marker fails in a page (the right one too), the fast marker beside it runs
    CHECK_FIGURES_JOBS= CHECK_FIGURES_QUEUE= CHECK_FIGURES_COUNTS= CHECK_FIGURES_CPU_LOG=/dev/null CHECK_FIGURES_SELF_ONLY= \
        CHECK_FIGURES_ALLOW=/dev/null CHECK_FIGURES_NO_SELF_TEST=1 CHECK_FIGURES_QUIET=1 \
        "$0" "$self_bin" "$fixtures/slow.7" >"$work/self.slow" 2>&1
    if grep -q '^docs: 0 passed, 3 failed$' "$work/self.slow" &&
        [ "$(grep -c 'a check-slow marker: a run of minutes belongs in doc/RESULTS.md' "$work/self.slow")" = 2 ] &&
        grep -q "no-such-option" "$work/self.slow"; then
        ok "figure checker refuses check-slow markers in a page"
    else
        bad "figure checker refuses check-slow markers in a page" "$(cat "$work/self.slow")"
    fi
    # the budget: passes under both limits, fails naming the costliest over either
    printf '3.0 a.7:1\n2.5 b.7:9\n' >"$work/cpu.ok"
    printf '3.0 a.7:1\n21.5 b.7:9\n' >"$work/cpu.one"
    awk 'BEGIN { for (i = 1; i <= 25; i++) printf "10.0 c.7:%d\n", i }' >"$work/cpu.total"
    if "$0" --budget "$work/cpu.ok" >"$work/b.ok" 2>&1 &&
        grep -q '2 commands, 5.5 s of CPU' "$work/b.ok" &&
        ! "$0" --budget "$work/cpu.one" >"$work/b.one" 2>&1 &&
        grep -q 'b.7:9 takes 21.5 s of CPU, over 20 s' "$work/b.one" &&
        ! "$0" --budget "$work/cpu.ok" "$work/cpu.total" >"$work/b.total" 2>&1 &&
        grep -q 'the 27 commands take 255.5 s of CPU, over 240 s; the costliest: c.7:' "$work/b.total"; then
        ok "figure budget passes within its limits and names the costliest over them"
    else
        bad "figure budget passes within its limits and names the costliest over them" \
            "$(cat "$work/b.ok" "$work/b.one" "$work/b.total" 2>&1)"
    fi
fi

if [ -n "${CHECK_FIGURES_SELF_ONLY:-}" ]; then
    echo "docs: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

# the commands' CPU: into the caller's log, or into this run's own, whose budget is checked
# at the end (workers share their caller's)
own_log=
if [ -z "${CHECK_FIGURES_CPU_LOG:-}" ]; then
    own_log=$work/cpu.log
    : >"$own_log"
    export CHECK_FIGURES_CPU_LOG="$own_log"
fi
cpu_log=$CHECK_FIGURES_CPU_LOG

jobs=${CHECK_FIGURES_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0)
    echo "check_figures.sh: CHECK_FIGURES_JOBS must be a positive whole number, not '$jobs'" >&2
    exit 2
    ;;
esac
if [ -z "$queue" ] && [ "$jobs" -gt 1 ]; then
    # the workers share one queue: each runs every page, doing only what it claims first
    mkdir "$work/queue"
    i=0
    while [ "$i" -lt "$jobs" ]; do
        i=$((i + 1))
        # every second worker walks the pages and their markers from the end: the costly
        # runs of the last pages start at once, and the two ends meet in the middle
        # (their lines as they come, their closing counts into a file each)
        CHECK_FIGURES_QUEUE=$work/queue CHECK_FIGURES_JOBS=1 CHECK_FIGURES_NO_SELF_TEST=1 \
            CHECK_FIGURES_BACKWARD=$((i % 2 == 0 ? 1 : 0)) CHECK_FIGURES_COUNTS=$work/worker.$i \
            "$0" "$self_bin" "$@" &
    done
    wait
    i=0
    while [ "$i" -lt "$jobs" ]; do
        i=$((i + 1))
        o=$work/worker.$i
        touch "$o"
        wp=$(sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$o")
        wf=$(sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$o")
        ww=$(sed -n 's/^docs: \([0-9]*\) figure(s) without a check marker$/\1/p' "$o")
        if [ -z "$wp" ] || [ -z "$ww" ]; then
            bad "worker $i of $jobs" "ended without its counts"
            continue
        fi
        passed=$((passed + wp)); failed=$((failed + wf))
        warned=$((warned + ww))
    done
elif [ -n "$order" ]; then
    i=$#
    while [ "$i" -gt 0 ]; do
        eval "check_page \"\${$i}\""
        i=$((i - 1))
    done
else
    for page in "$@"; do
        check_page "$page"
    done
fi
if [ -n "$own_log" ] && [ -s "$own_log" ]; then
    if budget "$own_log"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
fi
[ -z "${CHECK_FIGURES_COUNTS:-}" ] || exec >"$CHECK_FIGURES_COUNTS" # a worker's, for its caller
echo "docs: $warned figure(s) without a check marker"
echo "docs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
