#!/bin/sh
# reports.sh — the one list of the commands that make the sample reports of reports/: the main
# job's run (`make run`) as JSON, CSV and a page, and the pages of a sweep, a sensitivity's
# tornado, a goal seek and a tournament (the pages' charts need gnuplot).
#   reports.sh BINARY [DIR [NAME...]]   from DIR (default .), runs BINARY as named there and
#                                       writes DIR/reports/NAME: every report, or those NAMEs
#   reports.sh --list                   the reports' names, one a line
#   reports.sh --args                   the main job's arguments (the Makefile's RUN_ARGS)
# `make reports` runs it as `tools/reports.sh ./giochi-sim`; tests/cli/cli_samples.sh runs it
# in a scratch directory (./giochi-sim a link to the binary under test) and compares what it
# makes with the committed files. Each report records its command line, so BINARY and the
# output names (reports/NAME) are the same wherever it runs, and its date, which is fixed here
# (SOURCE_DATE_EPOCH): the reports are the same bytes wherever and whenever they are made, but
# for the run's wall time, speed and thread count.
set -eu

# 2026-12-02 00:00 UTC: the date every sample report carries (not when it was last remade)
stamp=1796169600

run_args='--game=oca --population=oca-mixed --runs=100000 --seed=1'
sweep_args='--game=oca --bots=greedy:max_bid=20 --sweep entry_fee=30:70:10 --metric=bankruptcy_any,banker_net --runs=50000 --seed=1'
tornado_args='--game=oca --sensitivity --metric=bankruptcy_any --runs=5000 --seed=1'
seek_args='--game=oca --bots=greedy:max_bid=20 --target=bankruptcy_any=0.10 --over=entry_fee=0:200 --runs=100000 --seed=1'
tournament_args='--game=wari --tournament=random,greedy,alphabeta:depth=4 --runs=300 --seed=1'
names='sample.json sample.csv sample.html sweep.html tornado.html seek.html tournament.html'

args_of() { # NAME: the arguments of that report but for its format and file
    case $1 in
    sample.*) echo "$run_args" ;;
    sweep.html) echo "$sweep_args" ;;
    tornado.html) echo "$tornado_args" ;;
    seek.html) echo "$seek_args" ;;
    tournament.html) echo "$tournament_args" ;;
    *) echo "reports.sh: no sample report '$1' (reports.sh --list)" >&2; return 1 ;;
    esac
}

case ${1:-} in
--list) printf '%s\n' $names; exit 0 ;;
--args) echo "$run_args"; exit 0 ;;
'' | -*) echo "usage: reports.sh BINARY [DIR [NAME...]] | --list | --args" >&2; exit 2 ;;
esac
bin=$1
dir=${2:-.}
[ $# -gt 2 ] && shift 2 && names=$*
cd "$dir"
mkdir -p reports
export SOURCE_DATE_EPOCH=$stamp
for name in $names; do
    args=$(args_of "$name")
    echo "$bin $args --quiet --format=${name##*.} --output=reports/$name"
    # shellcheck disable=SC2086 # the arguments are words without spaces
    "$bin" $args --quiet --format="${name##*.}" --output="reports/$name"
done
